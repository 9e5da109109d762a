"""The compiled reference segmentation (gecscore.m2.reference) against the library's former
Python implementation (tests/reference_graph_python.py, which materialised every transitive arc in
dicts): the same edit graph, listing by listing (arcs, order, duplicates, each arc's distance,
kind, unchanged count and span label), and the same edit sequence for every annotator.

Synthetic rewrites run everywhere; the real-data check takes the outputs that share least with
their source (the four published attacks and SEEDA's REF-F) against CoNLL-2014's gold: by default
every 13th line whose graph has at most 10,000 listed arcs (the former path takes minutes on
the largest), every line with GECSCORE_ORACLES=all (skipped without GEC_DATA).
"""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import reference_graph_python as former
from budget import examples
from datapaths import CONLL14, GEC_DATA
from gecscore.m2 import reference
from gecscore.m2.reference_kernels import DEL, DIST, INS, KIND, NOOP, START, SUB, UNCHANGED, END
from gecscore.types import Edit
from rewrites import rewrite

WORDS = ("the", "a", "of", "to", "is", "in", ",", ".")
KINDS = {NOOP: "noop", INS: "ins", DEL: "del", SUB: "sub"}


def assert_same_graph(source, hypothesis, limit=2):
    old = former.reference_graph(source, hypothesis, limit)
    new = reference.reference_graph(source, hypothesis, limit)
    assert new.edges == old.edges
    assert new.nodes == old.nodes
    nodes = new.nodes
    for key, (src, dst, dist, unchanged, kind, start, end) in enumerate(new.keys.tolist()):
        if not new.listed[key]:
            continue                      # removed (a longer unchanged arc): not in either edge list
        edge = (nodes[src], nodes[dst])
        kind_name, o_start, o_end, _, _, o_unchanged = old.edits[edge]
        assert (dist, KINDS[kind], start, end, unchanged) == (old.dist[edge], kind_name, o_start, o_end, o_unchanged)
    return old, new


def assert_same_sequences(source, hypothesis, annotations, limit=2):
    old, new = assert_same_graph(source, hypothesis, limit)
    for gold in annotations:
        assert (reference.reference_edit_sequence(new, tuple(source), gold)
                == former.reference_edit_sequence(old, tuple(source), gold)), (source, hypothesis, gold)


@st.composite
def gold_edits(draw, source):
    edits = []
    for _ in range(draw(st.integers(0, 4))):
        start = draw(st.integers(0, len(source)))
        end = draw(st.integers(start, min(len(source), start + 3)))
        alternatives = tuple(tuple(draw(st.lists(st.sampled_from(WORDS), max_size=3)))
                             for _ in range(draw(st.integers(1, 2))))
        edits.append(Edit(start, end, alternatives[0], alternatives=alternatives))
    return sorted(dict.fromkeys(edits), key=lambda e: (e.start, e.end))


@st.composite
def rewrite_case(draw):
    source = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=10))
    hypothesis = draw(st.one_of(rewrite(source, WORDS),
                                st.lists(st.sampled_from(WORDS), max_size=12)))   # unrelated lines too
    return source, hypothesis, [draw(gold_edits(source)) for _ in range(draw(st.integers(1, 3)))]


@settings(max_examples=examples(400, 2000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rewrite_case(), st.integers(0, 3))
def test_the_compiled_graph_and_edits_equal_the_former_python_path(case, limit):
    source, hypothesis, annotations = case
    if source != hypothesis:
        assert_same_sequences(source, hypothesis, annotations, limit)


def test_hand_cases_equal_the_former_python_path():
    # leading insertions ((j-1, j-1) labels), a gold insertion matched from the right, an
    # unrelated rewrite (every cell of the (1, 1, 2) lattice), repeated tokens
    cases = [("b", "a a b", [[Edit(1, 1, ("a",))], [Edit(0, 0, ("a", "a"))]]),
             ("a b c", "a x x b c", [[Edit(1, 1, ("x",)), Edit(1, 1, ("x",))]]),
             ("w0 w1 w2 w3 w4 w5", "c0 c1 c2 c3 c4 c5 c6", [[Edit(0, 1, ("c0",))], []]),
             ("the the the cat", "the cat the cat the", [[Edit(1, 2, ())]])]
    for source, hypothesis, golds in cases:
        assert_same_sequences(source.split(), hypothesis.split(), golds)


def test_an_unrelated_line_makes_the_predicted_number_of_arcs():
    # with nothing in common, every cell is on an optimal (1, 1, 2) path and every pair of
    # cells (v <= w componentwise) gets an arc: sum over cells (i, j) of (i + 1)(j + 1)
    n, m = 6, 7
    graph = reference.reference_graph([f"w{i}" for i in range(n)], [f"c{j}" for j in range(m)])
    pairs = sum((i + 1) * (j + 1) for i in range(n + 1) for j in range(m + 1)) - (n + 1) * (m + 1)
    assert len(graph.keys) == pairs
    assert (graph.keys[:, UNCHANGED] == 0).all() and (graph.keys[:, KIND] != NOOP).all()
    with pytest.raises(reference.ReferenceGraphTooLarge):
        reference.reference_graph([f"w{i}" for i in range(n)], [f"c{j}" for j in range(m)], max_arcs=pairs - 1)
    # the fewest-step distance of each arc: Chebyshev on the (1, 1, 1) lattice
    nodes = graph.nodes
    for src, dst, dist in graph.keys[:, :DIST + 1].tolist():
        (a, b), (c, d) = nodes[src], nodes[dst]
        assert dist == max(c - a, d - b)
    assert set(graph.keys[:, START].tolist()) <= set(range(m)) and set(graph.keys[:, END].tolist()) <= set(range(m))


ATTACKS = ("some", "scribendi", "impara", "llmsent")
OUTPUTS = {**{f"attack {name}": GEC_DATA / "attacks" / f"conll14-{name}.txt" for name in ATTACKS},
           "SEEDA REF-F": GEC_DATA / "seeda" / "outputs" / "all" / "REF-F.txt"}
EVERY, MAX_ARCS = (1, None) if os.environ.get("GECSCORE_ORACLES") == "all" else (13, 10_000)


@pytest.mark.realdata
@pytest.mark.skipif(not (CONLL14 / "official-2014.combined.m2").exists(),
                    reason=f"CoNLL-2014 gold not found under {CONLL14} (set GEC_DATA)")
@pytest.mark.parametrize("name", sorted(OUTPUTS))
def test_the_compiled_path_equals_the_former_one_on_rewritten_outputs(name):
    from gecscore.io.m2 import read_m2
    from gecscore.io.text import read_lines

    path = OUTPUTS[name]
    if not path.exists():
        pytest.skip(f"{path} not found (set GEC_DATA)")
    gold = read_m2(CONLL14 / "official-2014.combined.m2")
    hypotheses = read_lines(path)
    assert len(hypotheses) == len(gold) == 1312
    compared = 0
    for index in range(0, len(gold), EVERY):
        sentence, hypothesis = gold[index], tuple(hypotheses[index].split())
        if hypothesis == sentence.source or (
                MAX_ARCS and len(reference.reference_graph(sentence.source, hypothesis).listings) > MAX_ARCS):
            continue
        assert_same_sequences(sentence.source, hypothesis, list((sentence.annotations or {0: ()}).values()))
        compared += 1
    assert compared >= len(gold) // EVERY // 4
