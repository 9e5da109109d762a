"""The reference code's segmentation of MaxMatch (``segmentation="reference"``, the default).

The edit sequence that m2scorer 3.2 (and the PT-M2 reference code, which embeds it) returns,
reproduced from its behaviour. Same lattice and match-maximising costs as
:mod:`gecscore.m2.maxmatch`; what differs is which of several equally good sequences comes out,
which PT-M2's per-edit weights can tell apart (M2 counts are the same on all 13 CoNLL-2014
systems). One real difference: its transitive arcs come from fewest-step paths only (step 2),
so where only a longer path stays within ``max_unchanged_words`` it has no arc and may propose
more edits than the minimal search (e.g. "a a a b" -> "a b a b a": 2 edits instead of 1).
The behaviour, step by step:

1. The lattice of each cost matrix is walked breadth-first from (n, m); the two edge lists are
   concatenated and sorted, so an edge on both lattices is listed twice.
2. Transitive arcs by a Floyd-Warshall pass (k, then i, then j over the sorted nodes): an arc
   v_i -> v_j is added (appended to the edge list; its edit merged from the two halves, the
   unchanged count summed) when d(v_i, v_k) + d(v_k, v_j) < d(v_i, v_j) and the merged edit
   has at most ``max_unchanged_words`` unchanged tokens; d counts lattice steps.
3. Unchanged ("noop") arcs longer than one step are removed while the edge list is iterated,
   so the edge after each removed one escapes removal.
4. Weights: an arc matching a gold edit (same span, same original, correction among the
   alternatives) weighs -|E|; any other arc d + 0.001, the 0.001 added once per listing of the
   edge (twice for an edge on both lattices). Insertion arcs (empty source span) are matched
   by a two-pointer walk over the arcs of that span, sorted, and the gold edits of the span:
   after a match from the left (right), the arcs up to the matched arc's end (from its start)
   are skipped and get 0.001 each, unchanged ones included.
5. Bellman-Ford over the edge list in its order, costs as floating-point sums, a node's
   predecessor replaced only on a strictly smaller cost: on a tie the arc listed first
   wins, i.e. the lattice edge (sorted, so from the earliest node) before a transitive arc,
   and among transitive arcs the earliest added. Rounding of the float sums decides some
   near-ties. The passes stop when one changes nothing (the same fixed point).
6. An insertion at the very start of the sentence (lattice row 0, hypothesis token j) has the
   source span (j-1, j-1) in the reference code; kept as is, since it decides gold matches.

Every step runs compiled (:mod:`gecscore.m2.reference_kernels`) on the very arcs, listings,
float sums and tie-breaks above; the closure of step 2 is a forward sweep linear in the arcs
(the reference's is cubic in the nodes), so the edge graph of a whole-sentence rewrite with
little in common with its source, millions of arcs, takes a fraction of a second.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from gecscore.m2 import reference_kernels as kernels
from gecscore.m2.config import MAX_UNCHANGED_WORDS
from gecscore.m2.maxmatch import optimal_moves
from gecscore.types import Edit, Tokens

Node = tuple[int, int]

# The edge list of one sentence (arcs, an arc on both lattices twice) grows with the lattice's
# density: a long hypothesis with nothing in common with its source makes about
# ((n + 1) (m + 1))^2 / 4 arcs (90 x 90 unrelated tokens: 17.5 million). The bound keeps one
# sentence's memory (about 75 bytes per arc: some 1.5 GB, 8 s here at the bound); the largest
# graph of the evaluation data met so far has 1.45 million (an LLM-S attack line of 227 x 15
# tokens; scripts/reference_graph_sizes.py reports every data set). Past it the sentence is
# refused with a clear error naming it (docs/oracles.md).
MAX_REFERENCE_ARCS = 20_000_000


class ReferenceGraphTooLarge(Exception):
    """The reference edit graph of one sentence passed ``MAX_REFERENCE_ARCS`` arcs."""


@dataclass(frozen=True, eq=False)
class ReferenceGraph:
    """The reference code's edit graph with transitive arcs, built once per sentence (see
    :mod:`gecscore.m2.reference_kernels` for the arrays)."""

    source: Tokens
    hypothesis: Tokens
    codes: dict[str, int]              # token -> code (source and hypothesis)
    source_codes: np.ndarray
    hypothesis_codes: np.ndarray
    rows: np.ndarray                   # node -> source position
    cols: np.ndarray                   # node -> hypothesis position
    keys: np.ndarray                   # one row per arc: SRC, DST, DIST, UNCHANGED, KIND, START, END
    listings: np.ndarray               # the edge list: arc keys in the reference's order
    weights: np.ndarray                # step 4 without gold edits, per key
    listed: np.ndarray                 # listings per key
    sources: np.ndarray                # per listing, its arc's source node
    targets: np.ndarray                # per listing, its arc's target node

    @property
    def nodes(self) -> list[Node]:
        return list(zip(self.rows.tolist(), self.cols.tolist()))

    @property
    def edges(self) -> list[tuple[Node, Node]]:
        """The edge list as (source node, target node) pairs, in order (duplicates included)."""
        nodes = self.nodes
        return [(nodes[s], nodes[t]) for s, t in self.keys[self.listings][:, [kernels.SRC, kernels.DST]].tolist()]


def _codes(source: Tokens, hypothesis: Tokens) -> tuple[dict[str, int], np.ndarray, np.ndarray]:
    codes: dict[str, int] = {}
    return (codes, np.array([codes.setdefault(t, len(codes)) for t in source], dtype=np.int64),
            np.array([codes.setdefault(t, len(codes)) for t in hypothesis], dtype=np.int64))


def reference_graph(source: Sequence[str], hypothesis: Sequence[str],
                    max_unchanged_words: int = MAX_UNCHANGED_WORDS, max_arcs: int | None = None) -> ReferenceGraph:
    """Steps 1-3 of the reference behaviour (see the module docstring). Raises
    :class:`ReferenceGraphTooLarge` past ``max_arcs`` listed arcs (default ``MAX_REFERENCE_ARCS``)."""
    limit = MAX_REFERENCE_ARCS if max_arcs is None else max_arcs
    source, hypothesis = tuple(source), tuple(hypothesis)
    codes, source_codes, hypothesis_codes = _codes(source, hypothesis)
    moves1, moves2 = optimal_moves(source, hypothesis, (1, 2))
    status, rows, cols, keys, listings = kernels.graph_kernel(source_codes, hypothesis_codes, moves1, moves2,
                                                              max_unchanged_words, limit)
    if status == kernels.TOO_LARGE:
        raise ReferenceGraphTooLarge(limit)
    weights, listed = kernels.base_weights(keys, listings)
    return ReferenceGraph(source, hypothesis, codes, source_codes, hypothesis_codes, rows, cols, keys, listings,
                          weights, listed, keys[listings, kernels.SRC], keys[listings, kernels.DST])


def _gold_arrays(graph: ReferenceGraph, gold: Sequence[Edit]) -> tuple[np.ndarray, ...]:
    """One annotator's gold edits as the kernels read them: spans, each edit's range of
    alternatives, each alternative's range of token codes, the codes (-1: a token the sentence
    does not have)."""
    spans = np.array([(e.start, e.end) for e in gold], dtype=np.int64).reshape(len(gold), 2)
    alternatives = np.empty((len(gold), 2), dtype=np.int64)
    bounds: list[tuple[int, int]] = []
    codes: list[int] = []
    for index, edit in enumerate(gold):
        alternatives[index, 0] = len(bounds)
        for alternative in edit.alternatives or (edit.correction,):
            text = " ".join(alternative)           # compared as the reference compares strings
            tokens = text.split(" ") if text else []
            bounds.append((len(codes), len(codes) + len(tokens)))
            codes.extend(graph.codes.get(t, -1) for t in tokens)
        alternatives[index, 1] = len(bounds)
    return (spans, alternatives, np.array(bounds, dtype=np.int64).reshape(len(bounds), 2),
            np.array(codes, dtype=np.int64))


def reference_edit_sequence(graph: ReferenceGraph, source: Tokens, gold: Sequence[Edit] = ()
                            ) -> tuple[Edit, ...]:
    """Steps 4-5: the reference code's system edits (left to right) for one annotator
    (``source`` is the graph's own, kept in the signature for its callers).

    Gold corrections are compared with the hypothesis as token sequences, which equals the
    reference's comparison of joined strings for tokens that are non-empty and hold no space
    (whitespace-split text, as every reader and the CLI give)."""
    weights = graph.weights
    if gold:
        golds = _gold_arrays(graph, gold)
        chosen = kernels.gold_span_keys(graph.keys, graph.listed, golds[0],
                                        max(len(graph.source), len(graph.hypothesis)) + 2)
        if len(chosen):
            arcs = graph.keys[chosen]        # sorted(by_span[span]): by span, then by (source, target)
            chosen = chosen[np.lexsort((arcs[:, kernels.DST], arcs[:, kernels.SRC], arcs[:, kernels.END],
                                        arcs[:, kernels.START]))]
            weights = kernels.gold_weights(chosen, graph.keys, graph.listed, graph.rows, graph.cols,
                                           graph.source_codes, graph.hypothesis_codes, graph.weights,
                                           len(graph.listings), golds)
    path = kernels.bellman_ford(graph.sources, graph.targets, graph.listings, weights[graph.listings],
                                len(graph.rows))
    out = []
    for key in path[::-1].tolist():
        src, dst, _, _, kind, start, end = graph.keys[key].tolist()
        if kind != kernels.NOOP:
            v, w = int(graph.cols[src]), int(graph.cols[dst])
            out.append(Edit(start, end, tuple(" ".join(graph.hypothesis[v:w]).split()), tgt_start=v, tgt_end=w))
    return tuple(out)
