"""CLEME's chunk partition: hand-checked cases and properties over random edits."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gecscore.chunks.partition import partition_chunks
from gecscore.types import Edit, Target

from cleme_examples import edit, sample_1, sample_2


def texts(chunks):
    return [" ".join(c.target) for c in chunks]


def test_paper_table3_sentence():
    sample = sample_1()
    part = partition_chunks(sample.source, sample.hypothesis, sample.references)
    # intervals [0,1] [3,4] [11,13] (the touching edits 11-12 and 12-13 merge)
    assert part.spans == ((0, 1), (1, 3), (3, 4), (4, 11), (11, 13), (13, 16))
    assert texts(part.hypothesis) == ["Do", "one who", "suffer", "from this disease keep it a secret",
                                      "to inform", "their relatives ?"]
    assert texts(part.references[0]) == ["Does", "one who", "suffers", "from this disease keep it a secret",
                                         "or inform", "their relatives ?"]
    assert [c.changed for c in part.hypothesis] == [False, False, True, False, True, False]
    # merged edits concatenate their types
    assert part.hypothesis[4].types == ("R:X", "R:X")


def test_insertion_makes_a_dummy_chunk_for_every_target():
    sample = sample_2()
    part = partition_chunks(sample.source, sample.hypothesis, sample.references)
    assert part.spans == ((0, 1), (1, 2), (2, 3), (3, 3), (3, 5), (5, 6))
    assert texts(part.hypothesis) == ["She", "went", "to", "the", "school yesterday", "!"]
    assert texts(part.references[0]) == ["She", "went", "to", "", "school yesterday", "."]
    dummy_ref = part.references[0][3]
    assert (dummy_ref.source, dummy_ref.target, dummy_ref.changed) == ((), (), False)


def test_insertion_touching_an_edit_merges_with_it():
    source = ("a", "b", "c")
    hyp = Target.from_edits(source, [edit(1, 1, "x")])          # a x b c
    ref = Target.from_edits(source, [edit(1, 2, "y")])          # a y c
    part = partition_chunks(source, hyp, [ref])
    assert part.spans == ((0, 1), (1, 2), (2, 3))
    assert texts(part.hypothesis) == ["a", "x b", "c"]
    assert texts(part.references[0]) == ["a", "y", "c"]


def test_unchanged_everything_is_one_chunk():
    source = ("a", "b")
    part = partition_chunks(source, Target.unchanged(source), [Target.unchanged(source)])
    assert part.spans == ((0, 2),)


# --- properties ------------------------------------------------------------------------------

WORDS = st.sampled_from(["a", "b", "c", "the", "x"])


@st.composite
def edits_for(draw, n: int):
    """Non-overlapping edits over a source of n tokens (insertions, deletions, substitutions)."""
    edits, pos = [], 0
    while pos <= n and draw(st.booleans()):
        start = draw(st.integers(pos, n))
        end = draw(st.integers(start, min(n, start + 3)))
        correction = draw(st.lists(WORDS, max_size=3))
        if start == end and not correction:
            correction = ["ins"]
        edits.append(Edit(start, end, tuple(correction), "T"))
        pos = end + 1 if start == end else end  # no two insertions at one point
        if start == end and pos > n:
            break
    return edits


@st.composite
def samples(draw):
    n = draw(st.integers(1, 12))
    source = tuple(draw(st.lists(WORDS, min_size=n, max_size=n)))
    targets = [Target.from_edits(source, draw(edits_for(n))) for _ in range(draw(st.integers(2, 4)))]
    return source, targets[0], targets[1:]


@settings(max_examples=300, deadline=None)
@given(samples())
def test_partition_properties(case):
    source, hyp, refs = case
    part = partition_chunks(source, hyp, refs)
    spans = part.spans
    # spans tile the source in order (dummy chunks are empty spans)
    assert spans[0][0] == 0 and spans[-1][1] == len(source)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    for target, chunks in zip([hyp, *refs], [part.hypothesis, *part.references]):
        # every target has the same number of chunks
        assert len(chunks) == len(spans)
        # joining chunk targets gives back the target sentence, chunk sources the source
        assert tuple(t for c in chunks for t in c.target) == target.tokens
        assert tuple(t for c in chunks for t in c.source) == source
        # a chunk is changed iff one of the target's edits lies inside it
        for chunk in chunks:
            inside = any(chunk.start <= e.start and e.end <= chunk.end and
                         (e.start < chunk.end or chunk.start == chunk.end or e.start == e.end)
                         for e in target.edits)
            if chunk.changed:
                assert inside
            else:
                assert chunk.target == chunk.source
