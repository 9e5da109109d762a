"""Exact 3-way sum-of-pairs alignment of (source, hypothesis, reference), as in the I-measure.

Costs per pair of a column: match 0, mismatch 3, token against gap 2, gap against gap 0; a
column costs the sum of its three pair costs. The dynamic programme fills an
O(n1*n2*n3) table of back-pointers (one byte a cell) and keeps only two planes of costs;
the kernel is compiled with numba when it is installed (pure Python otherwise: correct but
slow on long sentences). The back-pointer of a cell is the first move, in the preference
order of the reference implementation, that reaches the minimum:
(1) (s,h,r); (2) (s,h,-), (s,-,r), (-,h,r); (3) (s,-,-), (-,h,-), (-,-,r).
Shortcuts: three equal sequences align to the identity; when the source equals the
hypothesis or the reference, the pairwise programme is used (diagonal, then up, then left).
"""
from __future__ import annotations

from dataclasses import dataclass

from typing import Sequence

import numpy as np

from gecscore.errors import GecInputError

MATCH, MISMATCH, GAP = 0, 3, 2
MAX_CELLS = 400_000_000  # one byte per cell: 400 MB for the back-pointer table
MAX_BATCH_CELLS = MAX_CELLS // 5  # the batched kernel keeps four bytes of cost and one of back-pointer a cell
BAND_SLACK = 2   # the batched kernel's first band (see _batch_was_counts): on CoNLL-2014's 13 systems 8 of 6,033 calls need a second run (0: 356 of them, 4: 4, and 1.5x the time)

Column = tuple[str | None, str | None, str | None]

from gecscore.compiled import njit as _njit


# Moves: how far each of (source, hypothesis, reference) advances.
MOVES = ((1, 1, 1), (1, 1, 0), (1, 0, 1), (0, 1, 1), (1, 0, 0), (0, 1, 0), (0, 0, 1))


@_njit(cache=True)
def _pair_costs(a, b):  # pragma: no cover - compiled
    """Match/mismatch cost of source token i-1 against hypothesis token j-1 at [i, j]."""
    n1, n2 = a.shape[0], b.shape[0]
    cij = np.zeros((n1 + 1, n2 + 1), dtype=np.int32)
    for i in range(1, n1 + 1):
        for j in range(1, n2 + 1):
            cij[i, j] = MATCH if a[i - 1] == b[j - 1] else MISMATCH
    return cij


@_njit(cache=True)
def _fill_plane0(cij, cur, bk):  # pragma: no cover - compiled
    """Plane k = 0 (no reference token): moves (s,h,-), (s,-,-), (-,h,-)."""
    g2 = 2 * GAP
    cur[0, 0] = 0
    bk[0, 0] = 7
    for i in range(cij.shape[0]):
        for j in range(cij.shape[1]):
            if i == 0 and j == 0:
                continue
            best = 1 << 30
            move = 7
            if i > 0 and j > 0:
                best = cur[i - 1, j - 1] + cij[i, j] + g2
                move = 1
            if i > 0:
                v = cur[i - 1, j] + g2
                if v < best:
                    best = v
                    move = 4
            if j > 0:
                v = cur[i, j - 1] + g2
                if v < best:
                    best = v
                    move = 5
            cur[i, j] = best
            bk[i, j] = move


@_njit(cache=True)
def _fill_plane_edges(a, b, ck, prev, cur, bk, cbk):  # pragma: no cover - compiled
    """Row i = 0 and column j = 0 of plane k >= 1 (reference token ``ck``), and ``cbk[j]``,
    the cost of hypothesis token j-1 against ``ck``."""
    n1, n2 = a.shape[0], b.shape[0]
    g2 = 2 * GAP
    for j in range(1, n2 + 1):
        cbk[j] = MATCH if b[j - 1] == ck else MISMATCH
    # i == 0: moves (-,h,r), (-,h,-), (-,-,r)
    cur[0, 0] = prev[0, 0] + g2
    bk[0, 0] = 6
    for j in range(1, n2 + 1):
        best = prev[0, j - 1] + cbk[j] + g2
        move = 3
        v = cur[0, j - 1] + g2
        if v < best:
            best = v
            move = 5
        v = prev[0, j] + g2
        if v < best:
            best = v
            move = 6
        cur[0, j] = best
        bk[0, j] = move
    # j == 0: moves (s,-,r), (s,-,-), (-,-,r)
    for i in range(1, n1 + 1):
        best = prev[i - 1, 0] + (MATCH if a[i - 1] == ck else MISMATCH) + g2
        move = 2
        v = cur[i - 1, 0] + g2
        if v < best:
            best = v
            move = 4
        v = prev[i, 0] + g2
        if v < best:
            best = v
            move = 6
        cur[i, 0] = best
        bk[i, 0] = move


@_njit(cache=True)
def _fill_plane(a, b, cij, ck, prev, cur, bk, cbk, best04, move04, lo, hi):  # pragma: no cover - compiled
    """Plane k >= 1 (reference token ``ck``) of the 3-way programme, reference outermost:
    costs ``cur`` and back-pointers ``bk`` from the costs ``prev`` of plane k - 1. The
    back-pointer is the first move, in the order of MOVES, that reaches the minimum.

    Row i >= 1 is filled over the columns ``lo[i]`` .. ``hi[i]`` only (all of them for the
    whole programme; a band, :func:`_band_rows`, for the banded one); the cells outside are
    left as they are (:data:`FAR` in a banded table).

    A row i >= 1 is filled in three passes, so that the first one has no dependency from one
    cell to the next and compiles to vector instructions: (1) the first minimum of moves
    0-4 (all from row i - 1 or plane k - 1) into ``best04``/``move04``; (2) the row's costs,
    the running minimum with move 5 (from the cell on the left) and move 6; (3) each cell's
    move: 5 where the left cell is strictly cheaper than moves 0-4, 6 where plane k - 1 is
    strictly cheaper than both, else the move of (1): the same first minimum in MOVES order
    as one pass over the seven moves. ``cbk``, ``best04``, ``move04``: scratch rows of n2 + 1."""
    n1, n2 = a.shape[0], b.shape[0]
    g2 = 2 * GAP
    _fill_plane_edges(a, b, ck, prev, cur, bk, cbk)
    for i in range(1, n1 + 1):
        # the row's cells j = start + 1 .. start + width, indexed from ``start`` (views), so
        # that every index is known to be >= 0 and the loops compile as the full row's do
        start = max(lo[i], 1) - 1
        width = hi[i] - start
        cik = MATCH if a[i - 1] == ck else MISMATCH
        up_prev, up_cur, here_prev, c_row = prev[i - 1, start:], cur[i - 1, start:], prev[i, start:], cij[i, start:]
        row, back_row, c_jk, b04, m04 = cur[i, start:], bk[i, start:], cbk[start:], best04[start:], move04[start:]
        for j in range(1, width + 1):
            c_ij = c_row[j]
            cjk = c_jk[j]
            best = up_prev[j - 1] + c_ij + cik + cjk
            move = 0
            v = up_cur[j - 1] + c_ij + g2
            move = 1 if v < best else move
            best = v if v < best else best
            v = up_prev[j] + cik + g2
            move = 2 if v < best else move
            best = v if v < best else best
            v = here_prev[j - 1] + cjk + g2
            move = 3 if v < best else move
            best = v if v < best else best
            v = up_cur[j] + g2
            move = 4 if v < best else move
            best = v if v < best else best
            b04[j] = best
            m04[j] = move
        last = row[0]
        for j in range(1, width + 1):
            last = min(min(b04[j], here_prev[j] + g2), last + g2)
            row[j] = last
        for j in range(1, width + 1):
            left = row[j - 1] + g2
            best = b04[j]
            move = m04[j]
            move = 5 if left < best else move
            move = 6 if here_prev[j] + g2 < min(best, left) else move
            back_row[j] = move


@_njit(cache=True)
def _scratch_rows(n2):  # pragma: no cover - compiled
    return (np.empty(n2 + 1, dtype=np.int32), np.empty(n2 + 1, dtype=np.int32),
            np.empty(n2 + 1, dtype=np.int32))


@_njit(cache=True)
def _fill3(a, b, c):  # pragma: no cover - compiled
    """Back-pointers ``back[k, i, j]`` of the whole programme and its optimal cost, keeping
    two planes of costs."""
    n1, n2, n3 = a.shape[0], b.shape[0], c.shape[0]
    back = np.empty((n3 + 1, n1 + 1, n2 + 1), dtype=np.uint8)
    prev = np.empty((n1 + 1, n2 + 1), dtype=np.int32)
    cur = np.empty((n1 + 1, n2 + 1), dtype=np.int32)
    cij = _pair_costs(a, b)
    cbk, best04, move04 = _scratch_rows(n2)
    lo, hi = np.zeros(n1 + 1, dtype=np.int64), np.full(n1 + 1, n2, dtype=np.int64)
    _fill_plane0(cij, prev, back[0])
    for k in range(1, n3 + 1):
        _fill_plane(a, b, cij, c[k - 1], prev, cur, back[k], cbk, best04, move04, lo, hi)
        tmp = prev
        prev = cur
        cur = tmp
    return back, prev[n1, n2]


@_njit(cache=True)
def _trace3(back, n1, n2, n3):  # pragma: no cover - compiled
    moves = np.empty(n1 + n2 + n3, dtype=np.uint8)
    n = 0
    i, j, k = n1, n2, n3
    while i > 0 or j > 0 or k > 0:
        m = back[k, i, j]
        moves[n] = m
        n += 1
        if m == 0 or m == 1 or m == 2 or m == 4:
            i -= 1
        if m == 0 or m == 1 or m == 3 or m == 5:
            j -= 1
        if m == 0 or m == 2 or m == 3 or m == 6:
            k -= 1
    return moves[:n][::-1].copy()


@_njit(cache=True)
def _pair_table(a, b):  # pragma: no cover - compiled
    """Costs of the pairwise programme: ``d[i, j]``, the cheapest alignment of ``a[:i]`` and
    ``b[:j]`` (mismatch 3, gap 2)."""
    n1, n2 = a.shape[0], b.shape[0]
    d = np.zeros((n1 + 1, n2 + 1), dtype=np.int64)
    for i in range(1, n1 + 1):
        d[i, 0] = i * GAP
    for j in range(1, n2 + 1):
        d[0, j] = j * GAP
    for i in range(1, n1 + 1):
        for j in range(1, n2 + 1):
            diag = d[i - 1, j - 1] + (MATCH if a[i - 1] == b[j - 1] else MISMATCH)
            up = d[i - 1, j] + GAP
            left = d[i, j - 1] + GAP
            d[i, j] = min(diag, up, left)
    return d


@_njit(cache=True)
def _pairwise(a, b):  # pragma: no cover - compiled
    """Back-pointers of the pairwise programme: 0 diagonal, 1 up (a, -), 2 left (-, b)."""
    n1, n2 = a.shape[0], b.shape[0]
    d = _pair_table(a, b)
    moves = np.empty(n1 + n2, dtype=np.uint8)
    n = 0
    i, j = n1, n2
    while i > 0 or j > 0:
        if i > 0 and j > 0 and d[i, j] == d[i - 1, j - 1] + (MATCH if a[i - 1] == b[j - 1] else MISMATCH):
            moves[n] = 0
            i -= 1
            j -= 1
        elif i > 0 and d[i, j] == d[i - 1, j] + GAP:
            moves[n] = 1
            i -= 1
        else:
            moves[n] = 2
            j -= 1
        n += 1
    return moves[:n][::-1].copy(), d[n1, n2]


def _encode(*sequences: Sequence[str]) -> list[np.ndarray]:
    vocabulary: dict[str, int] = {}
    return [np.array([vocabulary.setdefault(t, len(vocabulary)) for t in seq], dtype=np.int32)
            for seq in sequences]


def align_pair(a: Sequence[str], b: Sequence[str]) -> list[tuple[str | None, str | None]]:
    """Optimal pairwise alignment (gap 2, mismatch 3); ties: diagonal, then up, then left."""
    ea, eb = _encode(a, b)
    moves, _ = _pairwise(ea, eb)
    columns: list[tuple[str | None, str | None]] = []
    i = j = 0
    for move in moves:
        if move == 0:
            columns.append((a[i], b[j]))
            i += 1
            j += 1
        elif move == 1:
            columns.append((a[i], None))
            i += 1
        else:
            columns.append((None, b[j]))
            j += 1
    return columns


def align_full(src: Sequence[str], hyp: Sequence[str], ref: Sequence[str], *,
               trim: bool = True) -> list[Column]:
    """The optimal 3-way alignment by the full dynamic programme (without the pairwise
    shortcuts); ``trim`` cuts a suffix common to all three first (exact)."""
    cells = (len(src) + 1) * (len(hyp) + 1) * (len(ref) + 1)
    if cells > MAX_CELLS:
        raise GecInputError(
            f"sentence too long for the O(n^3) alignment: {len(src)} x {len(hyp)} x {len(ref)} "
            f"tokens need {cells:,} cells (limit {MAX_CELLS:,})")
    # A common last token is always aligned as a match column, and the back-trace takes
    # that column first, so a common suffix can be cut off exactly (a common prefix cannot:
    # the back-trace may leave it through a tie).
    suffix = 0
    while (trim and suffix < min(len(src), len(hyp), len(ref))
           and src[-1 - suffix] == hyp[-1 - suffix] == ref[-1 - suffix]):
        suffix += 1
    n1, n2, n3 = len(src) - suffix, len(hyp) - suffix, len(ref) - suffix
    a, b, c = _encode(src[:n1], hyp[:n2], ref[:n3])
    back, _ = _fill3(a, b, c)
    moves = _trace3(back, n1, n2, n3)
    columns: list[Column] = []
    i = j = k = 0
    for move in moves:
        di, dj, dk = MOVES[move]
        columns.append((src[i] if di else None, hyp[j] if dj else None, ref[k] if dk else None))
        i, j, k = i + di, j + dj, k + dk
    columns.extend((t, t, t) for t in src[n1:])
    return columns


def align(src: Sequence[str], hyp: Sequence[str], ref: Sequence[str]) -> list[Column]:
    """The I-measure alignment of source, hypothesis and reference, with its shortcuts."""
    src, hyp, ref = tuple(src), tuple(hyp), tuple(ref)
    if src == hyp == ref:
        return [(t, t, t) for t in src]
    if src == hyp:
        return [(s, s, r) for s, r in align_pair(src, ref)]
    if src == ref:
        return [(s, h, s) for s, h in align_pair(src, hyp)]
    return align_full(src, hyp, ref)


def column_cost(column: Column) -> int:
    """Sum-of-pairs cost of one column."""
    total = 0
    for x, y in ((column[0], column[1]), (column[0], column[2]), (column[1], column[2])):
        if x is None and y is None:
            continue
        if x is None or y is None:
            total += GAP
        else:
            total += MATCH if x == y else MISMATCH
    return total


def alignment_cost(columns: Sequence[Column]) -> int:
    return sum(column_cost(column) for column in columns)


def optimal_cost(src: Sequence[str], hyp: Sequence[str], ref: Sequence[str]) -> int:
    """The minimum sum-of-pairs cost (from the full programme)."""
    a, b, c = _encode(src, hyp, ref)
    return int(_fill3(a, b, c)[1])


# ---------------------------------------------------------------- counts without columns

@_njit(cache=True)
def _count_column(s, h, r, out):  # pragma: no cover - compiled
    """Add one column's WAS labels to ``out`` = [dTP dTN dFP dFN cTP cTN cFP cFN cFPN];
    -1 is a gap."""
    if s == h:
        if h == r:
            out[1] += 1
            out[5] += 1
        else:
            out[3] += 1
            out[7] += 1
    elif s == r:
        out[2] += 1
        out[6] += 1
    elif h == r:
        out[0] += 1
        out[4] += 1
    else:
        out[0] += 1
        out[6] += 1
        out[7] += 1
        out[8] += 1


@_njit(cache=True)
def _count_moves(a, b, c, moves, out):  # pragma: no cover - compiled
    """Add the WAS counts of the columns that ``moves`` (from :func:`_trace3`) build."""
    i = 0
    j = 0
    k = 0
    for m in moves:
        di = m == 0 or m == 1 or m == 2 or m == 4
        dj = m == 0 or m == 1 or m == 3 or m == 5
        dk = m == 0 or m == 2 or m == 3 or m == 6
        _count_column(a[i] if di else -1, b[j] if dj else -1, c[k] if dk else -1, out)
        i += di
        j += dj
        k += dk


@_njit(cache=True)
def _was_counts(a, b, c):  # pragma: no cover - compiled
    out = np.zeros(9, dtype=np.int64)
    n1, n2, n3 = a.shape[0], b.shape[0], c.shape[0]
    same_ab = n1 == n2 and (a == b).all()
    same_ac = n1 == n3 and (a == c).all()
    if same_ab and same_ac:
        out[1] = n1
        out[5] = n1
        return out
    if same_ab or same_ac:
        other = c if same_ab else b
        moves, _ = _pairwise(a, other)
        i = 0
        j = 0
        for m in moves:
            x = a[i] if m != 2 else -1
            y = other[j] if m != 1 else -1
            if m != 2:
                i += 1
            if m != 1:
                j += 1
            if same_ab:
                _count_column(x, x, y, out)
            else:
                _count_column(x, y, x, out)
        return out
    suffix = 0
    while suffix < min(n1, min(n2, n3)) and a[n1 - 1 - suffix] == b[n2 - 1 - suffix] and a[n1 - 1 - suffix] == c[n3 - 1 - suffix]:
        suffix += 1
    back, _ = _fill3(a[:n1 - suffix], b[:n2 - suffix], c[:n3 - suffix])
    _count_moves(a, b, c, _trace3(back, n1 - suffix, n2 - suffix, n3 - suffix), out)
    out[1] += suffix
    out[5] += suffix
    return out


@_njit(cache=True)
def _baseline(a, c):  # pragma: no cover - compiled
    """(TN, FN) of the source as hypothesis against a reference."""
    moves, _ = _pairwise(a, c)
    tn = 0
    fn = 0
    i = 0
    j = 0
    for m in moves:
        if m == 0:
            if a[i] == c[j]:
                tn += 1
            else:
                fn += 1
            i += 1
            j += 1
        elif m == 1:
            fn += 1
            i += 1
        else:
            fn += 1
            j += 1
    return tn, fn


class Encoder:
    """Token -> integer ids for the sequences of one sentence (the kernels compare ints)."""

    def __init__(self):
        self.ids: dict[str, int] = {}

    def __call__(self, tokens: Sequence[str]) -> np.ndarray:
        ids = self.ids
        return np.array([ids.setdefault(t, len(ids)) for t in tokens], dtype=np.int64)


def was_counts(src: np.ndarray, hyp: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """WAS counts of :func:`align` (same shortcuts and ties) on encoded sequences:
    [dTP, dTN, dFP, dFN, cTP, cTN, cFP, cFN, cFPN]."""
    cells = (len(src) + 1) * (len(hyp) + 1) * (len(ref) + 1)
    if cells > MAX_CELLS:
        raise GecInputError(
            f"sentence too long for the O(n^3) alignment: {len(src)} x {len(hyp)} x {len(ref)} "
            f"tokens need {cells:,} cells (limit {MAX_CELLS:,})")
    return _was_counts(src, hyp, ref)


def baseline_tn_fn(src: np.ndarray, ref: np.ndarray) -> tuple[int, int]:
    tn, fn = _baseline(src, ref)
    return int(tn), int(fn)


# ---------------------------------------------------------------- many references at once

# The band of the batched programme (Carrillo and Lipman's bound, 1988). A sum-of-pairs
# alignment costs the sum of the three pairwise alignments it induces, each at least its pair's
# optimum; so a cell (i, j, k) on an optimal path of a reference has, through its (i, j),
# ``pre(i, j) + suf(i, j) + d_sr + d_hr <= OPT``. Only the cells with ``pre + suf <= d_sh +
# slack`` (_band_rows: the same for every plane and reference, so planes stay shared) are
# computed, the others cost FAR. Every cell of every optimal path is then computed exactly when
# ``OPT' - d_sr - d_hr <= d_sh + slack`` (OPT' the banded programme's cost, >= OPT), which each
# reference checks before its back-trace: a cell on an optimal path has its exact cost, every
# move reaching its minimum comes from a cell on an optimal path and the others from costs at
# least as high as the exact ones, so the back-pointers read, and the alignment, are the full
# programme's. A reference failing the check is not traced; its OPT' bounds OPT, so the slack
# returned (the largest OPT' - d_sr - d_hr - d_sh) passes every check of a second run.
FAR = 1 << 28   # the cost of a cell outside the band: above any alignment's (9 a column)


@_njit(cache=True)
def _band_rows(a, b, slack):  # pragma: no cover - compiled
    """The band of the source-hypothesis plane: for each row i, the first and last column j
    where ``pre(i, j) + suf(i, j) <= d + slack``, ``pre``/``suf`` the pairwise costs of the
    prefixes / suffixes of ``a`` and ``b`` meeting at (i, j), ``d`` their optimal pairwise
    cost (every row has a cell on an optimal pairwise alignment); and ``d``."""
    n1, n2 = a.shape[0], b.shape[0]
    pre = _pair_table(a, b)
    suf = _pair_table(a[::-1].copy(), b[::-1].copy())
    bound = pre[n1, n2] + slack
    lo = np.full(n1 + 1, n2 + 1, dtype=np.int64)
    hi = np.full(n1 + 1, -1, dtype=np.int64)
    for i in range(n1 + 1):
        for j in range(n2 + 1):
            if pre[i, j] + suf[n1 - i, n2 - j] <= bound:
                if j < lo[i]:
                    lo[i] = j
                hi[i] = j
    return lo, hi, pre[n1, n2]


@_njit(cache=True)
def _pair_row(x, ck, k, prev, cur):  # pragma: no cover - compiled
    """Row k of the pairwise programme of a reference (its k-th token ``ck``) against ``x``,
    from row k - 1."""
    cur[0] = k * GAP
    for i in range(1, x.shape[0] + 1):
        cur[i] = min(prev[i - 1] + (MATCH if x[i - 1] == ck else MISMATCH),
                     min(prev[i] + GAP, cur[i - 1] + GAP))


@_njit(cache=True)
def _batch_was_counts(a, b, refs, starts, lengths, shared, slack):  # pragma: no cover - compiled
    """WAS counts of (a, b, ref) for each reference (no shortcuts), and -1, or where the band
    (see :data:`FAR`) was too narrow for some reference, the slack wide enough for all.

    The planes of the first ``shared[r]`` reference tokens are kept from the previous
    reference. A suffix common to a, b and a reference is cut off as :func:`_was_counts` does
    (match columns taken first by the back-trace; the shorter prefixes' costs are the same
    cells'): the back-trace starts at (n1 - s, n2 - s, n3 - s), and the planes past n3 - s are
    computed when a later reference sharing that prefix needs them (``valid``: the planes
    computed for the prefix now in place)."""
    n1, n2 = a.shape[0], b.shape[0]
    n_refs = lengths.shape[0]
    n_max = 0
    for r in range(n_refs):
        if lengths[r] > n_max:
            n_max = lengths[r]
    common = 0   # the suffix a and b share
    while common < min(n1, n2) and a[n1 - 1 - common] == b[n2 - 1 - common]:
        common += 1
    lo, hi, d_sh = _band_rows(a, b, slack)
    D = np.empty((n_max + 1, n1 + 1, n2 + 1), dtype=np.int32)
    filled = 0   # planes 1..filled hold FAR outside the band (a plane is filled when first computed:
    # the pages of planes no reference reaches stay untouched, as with the full programme)
    back = np.empty((n_max + 1, n1 + 1, n2 + 1), dtype=np.uint8)
    to_src = np.empty((n_max + 1, n1 + 1), dtype=np.int64)   # pairwise rows: reference x source
    to_hyp = np.empty((n_max + 1, n2 + 1), dtype=np.int64)   # reference x hypothesis
    for i in range(n1 + 1):
        to_src[0, i] = i * GAP
    for j in range(n2 + 1):
        to_hyp[0, j] = j * GAP
    cbk, best04, move04 = _scratch_rows(n2)
    cij = _pair_costs(a, b)
    _fill_plane0(cij, D[0], back[0])
    out = np.zeros((n_refs, 9), dtype=np.int64)
    wider = -1
    valid = 0
    for r in range(n_refs):
        c = refs[starts[r]:starts[r] + lengths[r]]
        n3 = lengths[r]
        suffix = 0
        while suffix < min(common, n3) and c[n3 - 1 - suffix] == a[n1 - 1 - suffix]:
            suffix += 1
        valid = min(valid, shared[r])
        for k in range(valid + 1, n3 - suffix + 1):
            if k > filled:
                D[k] = FAR
                filled = k
            _fill_plane(a, b, cij, c[k - 1], D[k - 1], D[k], back[k], cbk, best04, move04, lo, hi)
            _pair_row(a, c[k - 1], k, to_src[k - 1], to_src[k])
            _pair_row(b, c[k - 1], k, to_hyp[k - 1], to_hyp[k])
        valid = max(valid, n3 - suffix)
        e1, e2, e3 = n1 - suffix, n2 - suffix, n3 - suffix
        need = D[e3, e1, e2] - to_src[e3, e1] - to_hyp[e3, e2] - d_sh
        if need > slack:
            wider = max(wider, need)
            continue
        _count_moves(a, b, c, _trace3(back, e1, e2, e3), out[r])
        out[r, 1] += suffix
        out[r, 5] += suffix
    return out, wider


@dataclass(frozen=True)
class ReferenceBatch:
    """Many encoded references of one source, laid out once for :func:`_batch_was_counts`:
    sorted, so that neighbours share the planes of their common prefix (similar references
    cost little more than one), flattened, with the references equal to the source apart
    (they take the single-reference shortcut). Built on the reference side, reused for every
    hypothesis."""

    src: np.ndarray
    refs: tuple[np.ndarray, ...]
    same_as_source: tuple[int, ...]
    order: np.ndarray
    flat: np.ndarray
    starts: np.ndarray
    lengths: np.ndarray
    shared: np.ndarray
    longest: int

    @classmethod
    def build(cls, src: np.ndarray, refs: Sequence[np.ndarray]) -> "ReferenceBatch":
        src_list = src.tolist()
        lists = [ref.tolist() for ref in refs]
        full = [r for r, ref in enumerate(lists) if ref != src_list]
        order = sorted(full, key=lambda r: lists[r])
        shared = np.zeros(len(order), dtype=np.int64)
        for n, r in enumerate(order[1:], start=1):
            previous, current = lists[order[n - 1]], lists[r]
            shared[n] = next((k for k, (x, y) in enumerate(zip(previous, current)) if x != y),
                             min(len(previous), len(current)))
        lengths = np.array([len(lists[r]) for r in order], dtype=np.int64)
        starts = np.zeros(len(order), dtype=np.int64)
        starts[1:] = np.cumsum(lengths)[:-1]
        longest = int(lengths.max()) if len(order) else 0
        flat = (np.concatenate([refs[r] for r in order]).astype(np.int64) if longest
                else np.zeros(0, dtype=np.int64))
        differs = set(full)   # built once: inside the generator it was rebuilt per reference (quadratic)
        same = tuple(r for r in range(len(refs)) if r not in differs)
        return cls(src, tuple(refs), same, np.array(order, dtype=np.int64), flat, starts, lengths, shared, longest)

    def counts(self, hyp: np.ndarray) -> np.ndarray:
        """WAS counts of the hypothesis against every reference (rows in the given order)."""
        src, refs = self.src, self.refs
        out = np.zeros((len(refs), 9), dtype=np.int64)
        if src.tolist() == hyp.tolist():
            for r, ref in enumerate(refs):
                out[r] = _was_counts(src, hyp, ref)
            return out
        for r in self.same_as_source:
            out[r] = _was_counts(src, hyp, refs[r])
        if not len(self.order):
            return out
        cells = (self.longest + 1) * (len(src) + 1) * (len(hyp) + 1)
        if cells > MAX_BATCH_CELLS:
            raise GecInputError(
                f"sentence too long for the O(n^3) alignment: {len(src)} x {len(hyp)} x {self.longest} "
                f"tokens need {cells:,} cells (limit {MAX_BATCH_CELLS:,})")
        counts, wider = _batch_was_counts(src, hyp, self.flat, self.starts, self.lengths, self.shared, BAND_SLACK)
        if wider >= 0:
            counts, wider = _batch_was_counts(src, hyp, self.flat, self.starts, self.lengths, self.shared, wider)
            assert wider < 0
        out[self.order] = counts
        return out


def batch_was_counts(src: np.ndarray, hyp: np.ndarray, refs: Sequence[np.ndarray]) -> np.ndarray:
    """WAS counts of :func:`align` for one source and hypothesis against many encoded
    references (rows [dTP, dTN, dFP, dFN, cTP, cTN, cFP, cFN, cFPN], in the given order).

    The shortcuts (source equal to the hypothesis or the reference) are applied per
    reference; the others share the planes of their common prefix (see :class:`ReferenceBatch`,
    which a caller scoring many hypotheses against the same references builds once)."""
    return ReferenceBatch.build(src, refs).counts(hyp)
