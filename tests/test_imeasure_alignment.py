"""The 3-way sum-of-pairs alignment: exactness against a plain dynamic programme, properties."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gecscore.imeasure import alignment as tw
from gecscore.imeasure.scorer import count_columns

tokens = st.lists(st.sampled_from("abcd"), max_size=7)


def naive_alignment(S, H, R):
    """Textbook O(n^3) programme with the spec's back-trace preference (no shortcuts)."""
    D = {(0, 0, 0): 0}
    for i in range(len(S) + 1):
        for j in range(len(H) + 1):
            for k in range(len(R) + 1):
                if i == j == k == 0:
                    continue
                D[i, j, k] = min(D[i - di, j - dj, k - dk] + tw.column_cost(
                    (S[i - 1] if di else None, H[j - 1] if dj else None, R[k - 1] if dk else None))
                    for di, dj, dk in tw.MOVES if i >= di and j >= dj and k >= dk)
    columns, i, j, k = [], len(S), len(H), len(R)
    while i or j or k:
        for di, dj, dk in tw.MOVES:
            if i < di or j < dj or k < dk:
                continue
            col = (S[i - 1] if di else None, H[j - 1] if dj else None, R[k - 1] if dk else None)
            if D[i, j, k] == D[i - di, j - dj, k - dk] + tw.column_cost(col):
                columns.append(col)
                i, j, k = i - di, j - dj, k - dk
                break
    return columns[::-1], D[len(S), len(H), len(R)]


def strip(columns, n):
    return [c[n] for c in columns if c[n] is not None]


@settings(max_examples=300, deadline=None)
@given(tokens, tokens, tokens, st.lists(st.sampled_from("abcd"), max_size=3))
def test_full_programme_equals_textbook_programme(S, H, R, suffix):
    S, H, R = S + suffix, H + suffix, R + suffix
    expected, cost = naive_alignment(S, H, R)
    assert tw.align_full(S, H, R, trim=False) == expected
    assert tw.align_full(S, H, R) == expected  # the common-suffix cut is exact
    assert tw.optimal_cost(S, H, R) == cost


@settings(max_examples=300, deadline=None)
@given(tokens, tokens, tokens)
def test_alignment_properties(S, H, R):
    columns = tw.align(S, H, R)
    # removing gaps gives back each sequence; no all-gap column
    assert strip(columns, 0) == S and strip(columns, 1) == H and strip(columns, 2) == R
    assert all(c != (None, None, None) for c in columns)
    cost = tw.alignment_cost(columns)
    assert cost == sum(tw.column_cost(c) for c in columns)
    # the shortcuts keep the optimum; and no random alignment is cheaper
    assert cost == tw.optimal_cost(S, H, R) or (S == H or S == R)
    rng = random.Random(len(S) * 100 + len(H) * 10 + len(R))
    for _ in range(20):
        assert tw.alignment_cost(random_alignment(S, H, R, rng)) >= tw.optimal_cost(S, H, R)


def random_alignment(S, H, R, rng):
    i = j = k = 0
    columns = []
    while i < len(S) or j < len(H) or k < len(R):
        di, dj, dk = rng.choice([m for m in tw.MOVES
                                 if i + m[0] <= len(S) and j + m[1] <= len(H) and k + m[2] <= len(R)])
        columns.append((S[i] if di else None, H[j] if dj else None, R[k] if dk else None))
        i, j, k = i + di, j + dj, k + dk
    return columns


@settings(max_examples=300, deadline=None)
@given(tokens, tokens, tokens, st.integers(0, 2))
def test_compiled_counts_equal_column_counts(S, H, R, mode):
    H = S if mode == 1 else H
    R = S if mode == 2 else R
    enc = tw.Encoder()
    det, cor = count_columns(tw.align(S, H, R))
    expected = [det.tp, det.tn, det.fp, det.fn, cor.tp, cor.tn, cor.fp, cor.fn, cor.fpn]
    assert list(tw.was_counts(enc(S), enc(H), enc(R))) == expected


def test_shortcuts_and_preferences():
    s = "a b c".split()
    assert tw.align(s, s, s) == [("a", "a", "a"), ("b", "b", "b"), ("c", "c", "c")]
    # SRC == HYP: pairwise programme, diagonal preferred to up/left (substitution cost 3 < 2 gaps)
    assert tw.align(s, s, "a x c".split()) == [("a", "a", "a"), ("b", "b", "x"), ("c", "c", "c")]
    # deletion in the reference: the source token faces a gap
    assert tw.align(s, s, "a c".split()) == [("a", "a", "a"), ("b", "b", None), ("c", "c", "c")]
    # the paper's desired alignment keeps gaps together (Table 4): A B / - C / A -
    assert tw.align(["A"], ["A", "B"], ["A", "C"]) == [("A", "A", "A"), (None, "B", "C")]


def test_empty_and_one_token():
    assert tw.align([], [], []) == []
    assert tw.align(["a"], [], []) == [("a", None, None)]
    assert tw.align([], ["a"], []) == [(None, "a", None)]
    assert tw.align(["a"], ["b"], ["c"]) == [("a", "b", "c")]


def test_hundred_tokens_align_to_their_three_sequences():
    from gecscore.compiled import HAVE_NUMBA

    rng = random.Random(0)
    a = [rng.choice("abcdefghij") for _ in range(100)]
    b, c = a[:], a[:]
    b[5] = "z"
    del b[40]
    c[7] = "y"
    c.insert(60, "q")
    columns = tw.align(a, b, c)
    for k, tokens in enumerate((a, b, c)):
        assert [column[k] for column in columns if column[k] is not None] == tokens
    assert sum(1 for x, y, z in columns if x == y == z) >= 95
    assert HAVE_NUMBA  # the kernels run compiled here (timings: benchmarks/bench_imeasure.py)


@settings(max_examples=200, deadline=None)
@given(tokens, tokens, st.lists(tokens, min_size=1, max_size=6), st.booleans())
def test_batched_counts_equal_single_counts(S, H, refs, hyp_is_source):
    """Many references at once (planes shared by common prefixes, shortcuts per reference)
    give the counts of one reference at a time."""
    H = list(S) if hyp_is_source else H
    refs = refs + [list(S), refs[0] + ["d"]]
    encode = tw.Encoder()
    src, hyp = encode(S), encode(H)
    encoded = [encode(r) for r in refs]
    batched = tw.batch_was_counts(src, hyp, encoded)
    for ref, row in zip(encoded, batched):
        assert row.tolist() == tw.was_counts(src, hyp, ref).tolist()


@settings(max_examples=300, deadline=None)
@given(tokens, tokens, st.lists(tokens, min_size=1, max_size=6), st.lists(st.sampled_from("abcd"), max_size=4),
       st.lists(st.integers(0, 4), min_size=6, max_size=6))
def test_batched_counts_with_common_suffixes_equal_single_counts(S, H, refs, suffix, cuts):
    """A suffix shared by source, hypothesis and some references is cut per reference (each
    its own length of it); the planes past a cut are still computed for a later reference
    sharing the prefix: the counts are those of one reference at a time, and of the textbook
    alignment's columns."""
    S, H = S + suffix, H + suffix
    refs = [ref + suffix[:len(suffix) - min(cut, len(suffix))] for ref, cut in zip(refs, cuts)]
    refs += [refs[0] + suffix]
    encode = tw.Encoder()
    src, hyp = encode(S), encode(H)
    encoded = [encode(r) for r in refs]
    batched = tw.ReferenceBatch.build(src, encoded).counts(hyp)
    for ref, tokens_of_ref, row in zip(encoded, refs, batched):
        assert row.tolist() == tw.was_counts(src, hyp, ref).tolist()
        if S != H and S != tokens_of_ref:
            det, cor = count_columns(naive_alignment(S, H, tokens_of_ref)[0])
            assert row.tolist() == [det.tp, det.tn, det.fp, det.fn, cor.tp, cor.tn, cor.fp, cor.fn, cor.fpn]


def _laid_out(S, H, refs):
    encode = tw.Encoder()
    src, hyp = encode(S), encode(H)
    batch = tw.ReferenceBatch.build(src, [encode(r) for r in refs])
    return src, hyp, batch


@settings(max_examples=300, deadline=None)
@given(tokens, tokens, st.lists(tokens, min_size=1, max_size=6), st.integers(0, 6))
def test_the_banded_kernel_gives_the_full_programmes_counts_at_any_slack(S, H, refs, slack):
    """The band (Carrillo-Lipman) changes no count: at any slack, each reference either gets
    the full programme's counts or is left to a second run with the slack returned, which
    then passes every reference. Slack 0 forces the second run wherever the sum-of-pairs
    optimum costs more than its three pairwise optima."""
    src, hyp, batch = _laid_out(S, H, refs)
    if not len(batch.order):
        return
    args = (src, hyp, batch.flat, batch.starts, batch.lengths, batch.shared)
    full, wider_full = tw._batch_was_counts(*args, 1 << 20)
    assert wider_full == -1
    banded, wider = tw._batch_was_counts(*args, slack)
    if wider >= 0:
        assert wider > slack
        banded, again = tw._batch_was_counts(*args, wider)
        assert again == -1
    assert banded.tolist() == full.tolist()


def test_a_too_narrow_band_is_widened_and_then_exact():
    """A hypothesis and reference that disagree on the same words: the sum-of-pairs optimum
    costs more than the pairwise optima, so slack 0 is too narrow; the slack returned is
    enough, and ``counts`` (which starts at BAND_SLACK) gives the single-reference counts."""
    S, H, R = list("abcdabcd"), list("xbydabzd"), list("ybxdazcd")
    src, hyp, batch = _laid_out(S, H, [R])
    args = (src, hyp, batch.flat, batch.starts, batch.lengths, batch.shared)
    _, wider = tw._batch_was_counts(*args, 0)
    assert wider > 0
    counts, again = tw._batch_was_counts(*args, wider)
    assert again == -1
    assert counts[0].tolist() == tw.was_counts(src, hyp, batch.refs[0]).tolist()
    assert batch.counts(hyp)[0].tolist() == counts[0].tolist()
