"""ChERRANT's character-level alignment, re-implemented exactly with a compiled kernel.

ChERRANT (``modules/alignment.py``, class ``Alignment``, char mode) fills an ERRANT-style
Damerau-Levenshtein table in pure Python and numpy. What is reproduced, bit for bit:

* **costs** are float64: a match copies the diagonal cost; insertion and deletion add 1; a
  substitution adds ``(semantic / 6.0 + char_cost) + pos_cost`` (that order of additions) where

  - ``semantic`` is 4 when either token has no Cilin code, 0 when the codes agree on their
    first, second and third-fourth characters, else ``2 * (3 - d)`` with ``d`` the number of
    those three parts that agree;
  - ``char_cost`` is 0.5 unless both tokens are all CJK (U+4E00..U+9FFF); for two CJK
    characters it is 0 when they share a pinyin reading or either is in the other's confusion
    set, else 0.5 (ChERRANT's ``(len(a) - count) / (len(a) * 2)``; the general multi-character
    formula is kept for CJK tokens longer than one character, which char mode never makes);
  - ``pos_cost`` is 0 when both tokens occur in ChERRANT's punctuation string (a *substring*
    test), 0.25 when neither does, else 0.499;

* **transpositions**: from a mismatched cell, walk up the diagonal (``k = 1, 2, ...``) while
  the cost changes between consecutive diagonal cells; the first ``k`` where the windows
  ``src[i-k..i]`` and ``tgt[j-k..j]`` are equal multisets gives cost ``cost[i-k][j-k] + k`` and
  op ``T<k+1>``. We compare multisets with a running count difference (ChERRANT sorts lists;
  equal multisets either way);
* **ties**: every op whose cost equals the minimum of (T, S, I, D), in that order, is kept;
  a match keeps only M; the first column is D, the first row I;
* **alignments**: ChERRANT enumerates every cheapest path by depth-first search from the
  bottom-right cell, trying a cell's ops in stored order, when ``|len(src) - len(tgt)| <= 10``;
  otherwise it follows the first op only (one path). :func:`paths` yields them in that order.

The table is filled by :func:`_fill` (numba); per-pair substitution costs are computed with
numpy over the distinct tokens of the pair (:func:`substitution_table`), with the same float
operations as ChERRANT's per-cell Python.
"""
from __future__ import annotations

from typing import Iterator, NamedTuple, Sequence

import numpy as np

from gecscore.compiled import njit
from gecscore.lang.zh import resources

# ChERRANT's punctuation string for alignment costs (modules/alignment.py): Chinese then ASCII.
ALIGN_PUNCT = ("！？｡＂＃＄％＆＇（）＊＋，－／：；＜＝＞＠［＼］＾＿｀｛｜｝～｟｠｢｣､、〃》「」『』【】〔〕〖〗〘〙〚〛〜〝〞〟〰〾〿"
               "–—‘'‛“”„‟…‧﹏" + "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

# Op bits of a cell, tried in this order by the depth-first search.
T_BIT, S_BIT, I_BIT, D_BIT, M_BIT = 1, 2, 4, 8, 16
FIRST_ONLY_LENGTH_GAP = 10  # |len(src) - len(tgt)| above this: one path (ChERRANT's "first")

Step = tuple  # (op, src_start, src_end, tgt_start, tgt_end), op in M, S, I, D, T<k>


class Table(NamedTuple):
    """The filled table: float64 costs, op bits per cell, transposition size per cell."""

    cost: np.ndarray
    ops: np.ndarray
    tsize: np.ndarray


def is_cjk(token: str) -> bool:
    return all("\u4e00" <= ch <= "\u9fff" for ch in token)


_EMPTY: frozenset[str] = frozenset()
_PARTS: dict[str, int] = {}
_FEATURES: dict[str, tuple[int, int, int, bool, bool]] = {}


def _features(token: str) -> tuple[int, int, int, bool, bool]:
    """A token's Cilin class as three part ids (-1: no code), CJK flag, punctuation flag."""
    found = _FEATURES.get(token)
    if found is None:
        code = resources.cilin().get(token)
        if code is None:
            high = mid = low = -1
        else:
            high, mid, low = (_PARTS.setdefault(part, len(_PARTS)) for part in (code[0], code[1], code[2:4]))
        found = _FEATURES[token] = (high, mid, low, is_cjk(token), token in ALIGN_PUNCT)
    return found


def _semantic(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """ChERRANT's semantic cost (before dividing by 6) of every pair of rows of ``a`` and ``b``
    (columns: Cilin high, mid, low part ids, -1 when unknown): 4 when either is unknown, else
    ``2 * (3 - d)``, ``d`` the number of equal parts (0 for an identical class, as ChERRANT)."""
    unknown = (a[:, 0] < 0)[:, None] | (b[:, 0] < 0)[None, :]
    same = sum((a[:, k][:, None] == b[:, k][None, :]).astype(np.int64) for k in range(3))
    return np.where(unknown, 4, 2 * (3 - same))


def _spell_cost(a: str, b: str) -> float:
    """ChERRANT's ``_get_char_cost`` for two all-CJK tokens (any length)."""
    if len(a) > len(b):
        a, b = b, a
    if a == b:
        return 0
    # The pinyin test is of the *tokens'* readings, whatever the characters compared.
    shared = bool(resources.readings(a) & resources.readings(b))
    confusion = resources.confusion()
    count = 0
    for x in a:
        for y in b:
            if x == y or shared or x in confusion.get(y, ()) or y in confusion.get(x, ()):
                count += 1
                break
    return (len(a) - count) / (len(a) * 2)


def substitution_table(src_types: Sequence[str], tgt_types: Sequence[str]) -> np.ndarray:
    """float64 ``[u, v]``: ChERRANT's substitution cost of source type ``u`` by target type ``v``
    (the value for equal types is unused: a match never substitutes)."""
    confusion = resources.confusion()
    feats_u = [_features(t) for t in src_types]
    feats_v = [_features(t) for t in tgt_types]
    semantic = _semantic(np.array([f[:3] for f in feats_u], dtype=np.int64),
                         np.array([f[:3] for f in feats_v], dtype=np.int64))
    punct_u = np.array([f[4] for f in feats_u])
    punct_v = np.array([f[4] for f in feats_v])
    cjk_u = [f[3] for f in feats_u]
    cjk_v = [f[3] for f in feats_v]
    char = np.full((len(src_types), len(tgt_types)), 0.5)
    # Pairs of CJK characters: 0 when similar (shared reading or confusion set), else 0.5.
    by_reading: dict[str, list[int]] = {}
    tgt_index = {}
    for v, token in enumerate(tgt_types):
        if cjk_v[v] and len(token) == 1:
            tgt_index[token] = v
            for reading in resources.readings(token):
                by_reading.setdefault(reading, []).append(v)
    src_index = {t: u for u, t in enumerate(src_types) if cjk_u[u] and len(t) == 1}
    for u, token in enumerate(src_types):
        if not cjk_u[u]:
            continue
        if len(token) != 1:
            for v, other in enumerate(tgt_types):
                if cjk_v[v]:
                    char[u, v] = _spell_cost(token, other)
            continue
        for reading in resources.readings(token):
            for v in by_reading.get(reading, ()):
                char[u, v] = 0.0
        for other in confusion.get(token, _EMPTY).intersection(tgt_index):
            char[u, tgt_index[other]] = 0.0
        if token in tgt_index:
            char[u, tgt_index[token]] = 0.0
    for v, token in enumerate(tgt_types):
        if not cjk_v[v]:
            continue
        if len(token) != 1:
            for u, other in enumerate(src_types):
                if cjk_u[u]:
                    char[u, v] = _spell_cost(other, token)
            continue
        for other in confusion.get(token, _EMPTY).intersection(src_index):
            char[src_index[other], v] = 0.0
    pos = np.where(punct_u[:, None] & punct_v[None, :], 0.0,
                   np.where(~punct_u[:, None] & ~punct_v[None, :], 0.25, 0.499))
    return (semantic / 6.0 + char) + pos


@njit(cache=True)
def _fill(s_id, t_id, s_type, t_type, sub, n_ids):  # pragma: no cover - compiled
    n, m = s_id.shape[0], t_id.shape[0]
    cost = np.zeros((n + 1, m + 1))
    ops = np.zeros((n + 1, m + 1), dtype=np.uint8)
    tsize = np.zeros((n + 1, m + 1), dtype=np.int32)
    for i in range(1, n + 1):
        cost[i, 0] = cost[i - 1, 0] + 1
        ops[i, 0] = 8
    for j in range(1, m + 1):
        cost[0, j] = cost[0, j - 1] + 1
        ops[0, j] = 4
    diff = np.zeros(n_ids, dtype=np.int64)
    for i in range(n):
        for j in range(m):
            if s_id[i] == t_id[j]:
                cost[i + 1, j + 1] = cost[i, j]
                ops[i + 1, j + 1] = 16
                continue
            del_cost = cost[i, j + 1] + 1
            ins_cost = cost[i + 1, j] + 1
            sub_cost = cost[i, j] + sub[s_type[i], t_type[j]]
            trans_cost = np.inf
            # multiset difference of the windows src[i-k..i] and tgt[j-k..j]
            nonzero = 0
            diff[s_id[i]] += 1
            if diff[s_id[i]] == 1:
                nonzero += 1
            diff[t_id[j]] -= 1
            if diff[t_id[j]] == 0:
                nonzero -= 1
            elif diff[t_id[j]] == -1:
                nonzero += 1
            k = 1
            while i - k >= 0 and j - k >= 0 and cost[i - k + 1, j - k + 1] != cost[i - k, j - k]:
                a = s_id[i - k]
                diff[a] += 1
                if diff[a] == 0:
                    nonzero -= 1
                elif diff[a] == 1:
                    nonzero += 1
                b = t_id[j - k]
                diff[b] -= 1
                if diff[b] == 0:
                    nonzero -= 1
                elif diff[b] == -1:
                    nonzero += 1
                if nonzero == 0:
                    trans_cost = cost[i - k, j - k] + k
                    break
                k += 1
            last = min(k, i, j)
            for q in range(last + 1):
                diff[s_id[i - q]] = 0
                diff[t_id[j - q]] = 0
            best = trans_cost
            if sub_cost < best:
                best = sub_cost
            if ins_cost < best:
                best = ins_cost
            if del_cost < best:
                best = del_cost
            bits = 0
            if trans_cost == best:
                bits |= 1
                tsize[i + 1, j + 1] = k + 1
            if sub_cost == best:
                bits |= 2
            if ins_cost == best:
                bits |= 4
            if del_cost == best:
                bits |= 8
            cost[i + 1, j + 1] = best
            ops[i + 1, j + 1] = bits
    return cost, ops, tsize


def _ids(src: Sequence[str], tgt: Sequence[str]):
    joint: dict[str, int] = {}
    s_id = np.array([joint.setdefault(t, len(joint)) for t in src], dtype=np.int64)
    t_id = np.array([joint.setdefault(t, len(joint)) for t in tgt], dtype=np.int64)
    src_types = list(dict.fromkeys(src))
    tgt_types = list(dict.fromkeys(tgt))
    s_pos = {t: u for u, t in enumerate(src_types)}
    t_pos = {t: v for v, t in enumerate(tgt_types)}
    s_type = np.array([s_pos[t] for t in src], dtype=np.int64)
    t_type = np.array([t_pos[t] for t in tgt], dtype=np.int64)
    return s_id, t_id, s_type, t_type, src_types, tgt_types, len(joint)


def fill(src: Sequence[str], tgt: Sequence[str]) -> Table:
    """ChERRANT's cost and op tables of two token sequences."""
    s_id, t_id, s_type, t_type, src_types, tgt_types, n_ids = _ids(src, tgt)
    if src_types and tgt_types:
        sub = substitution_table(src_types, tgt_types)
    else:
        sub = np.zeros((max(1, len(src_types)), max(1, len(tgt_types))))
    return Table(*_fill(s_id, t_id, s_type, t_type, sub, max(1, n_ids)))


def _cell_ops(table: Table, i: int, j: int) -> list[Step]:
    """The steps out of cell (i, j) in ChERRANT's stored order (T, S, I, D; or M)."""
    bits = int(table.ops[i, j])
    steps: list[Step] = []
    if bits & M_BIT:
        steps.append(("M", i - 1, i, j - 1, j))
    if bits & T_BIT:
        k = int(table.tsize[i, j])
        steps.append((f"T{k}", i - k, i, j - k, j))
    if bits & S_BIT:
        steps.append(("S", i - 1, i, j - 1, j))
    if bits & I_BIT:
        steps.append(("I", i, i, j - 1, j))
    if bits & D_BIT:
        steps.append(("D", i - 1, i, j, j))
    return steps


@njit(cache=True)
def _walk(ops, tsize, first_only):  # pragma: no cover - compiled
    """The first-op path from the bottom-right cell, backwards, as rows (code, i0, i1, j0, j1)
    with code 0 M, 1 S, 2 I, 3 D, 4 T; ``ok`` is False when a cell on it has another op (and
    all ops count), i.e. when there may be more than one path."""
    i, j = ops.shape[0] - 1, ops.shape[1] - 1
    out = np.empty((i + j, 5), dtype=np.int64)
    count = 0
    while i + j > 0:
        bits = ops[i, j]
        if not first_only and bits != 16 and bits != 1 and bits != 2 and bits != 4 and bits != 8:
            return out[:0], False
        if bits & 16:
            code, i0, j0 = 0, i - 1, j - 1
        elif bits & 1:
            code, i0, j0 = 4, i - tsize[i, j], j - tsize[i, j]
        elif bits & 2:
            code, i0, j0 = 1, i - 1, j - 1
        elif bits & 4:
            code, i0, j0 = 2, i, j - 1
        else:
            code, i0, j0 = 3, i - 1, j
        out[count, 0], out[count, 1], out[count, 2], out[count, 3], out[count, 4] = code, i0, i, j0, j
        count += 1
        i, j = i0, j0
    return out[:count], True


_CODES = ("M", "S", "I", "D")


def paths(table: Table) -> Iterator[tuple[Step, ...]]:
    """Every cheapest alignment in ChERRANT's order (forward steps), or only the first when the
    lengths differ by more than ten. Lazy: the caller may stop early. A table whose first path
    never branches (most) is traced by the compiled :func:`_walk`."""
    n, m = table.ops.shape[0] - 1, table.ops.shape[1] - 1
    first_only = abs(n - m) > FIRST_ONLY_LENGTH_GAP
    if n + m > 0:
        rows, single = _walk(table.ops, table.tsize, first_only)
        if single:
            yield tuple((_CODES[c] if c < 4 else f"T{i1 - i0}", i0, i1, j0, j1)
                        for c, i0, i1, j0, j1 in rows[::-1].tolist())
            return
    reversed_path: list[Step] = []
    # Iterative DFS: a stack of (cell, pending steps); the path holds the steps taken.
    stack: list[tuple[int, list[Step]]] = []

    def push(i: int, j: int) -> None:
        steps = _cell_ops(table, i, j)
        if first_only:
            steps = steps[:1]
        stack.append((len(reversed_path), list(reversed(steps))))

    if n + m == 0:
        yield ()
        return
    push(n, m)
    while stack:
        depth, pending = stack[-1]
        if not pending:
            stack.pop()
            continue
        step = pending.pop()
        del reversed_path[depth:]
        reversed_path.append(step)
        i, j = step[1], step[3]
        if i + j == 0:
            yield tuple(reversed(reversed_path))
        else:
            push(i, j)


def count_paths(table: Table) -> int:
    """How many alignments :func:`paths` yields (exact, by dynamic programming)."""
    n, m = table.ops.shape[0] - 1, table.ops.shape[1] - 1
    first_only = abs(n - m) > FIRST_ONLY_LENGTH_GAP
    memo: dict[tuple[int, int], int] = {(0, 0): 1}
    order = sorted(((i, j) for i in range(n + 1) for j in range(m + 1)), key=sum)
    for i, j in order:
        if i + j == 0:
            continue
        steps = _cell_ops(table, i, j)
        if first_only:
            steps = steps[:1]
        memo[(i, j)] = sum(memo.get((s[1], s[3]), 0) for s in steps)
    return memo[(n, m)]
