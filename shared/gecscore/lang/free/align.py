"""ERRANT's Damerau-Levenshtein token alignment with a parse-free substitution cost (``free-1``).

The programme is ERRANT 3.0.2's (``errant.alignment.Alignment.align``, non-``lev`` mode), only
the substitution cost differs, since there is no lemma or POS:

* a **match** (identical token text) copies the diagonal cost; insertion and deletion add 1;
* a **substitution** adds 0 when the two tokens differ only in case, else
  ``(LEMMA_COST + class_cost) + char_cost`` (that order of float additions), where

  - ``LEMMA_COST = 0.499``: ERRANT's cost for different lemmas, always paid (without a
    lemmatiser two different word forms are taken to be different lemmas);
  - ``class_cost`` stands for ERRANT's POS cost over three parse-free token classes
    (:func:`token_class`): 0 for two punctuation tokens or two numbers, 0.25 for two words
    (ERRANT's "both open-class" cost: the middle value, as the POS are unknown), 0.5 for
    tokens of different classes (ERRANT's cost for different POS);
  - ``char_cost = (len_a + len_b - 2 * LCS) / (len_a + len_b)`` over code points of the exact
    texts: ERRANT's ``Indel.normalized_distance``;

  so a substitution costs at most 1.999 like ERRANT's, below a deletion plus an insertion;
* a **transposition** at a mismatched cell: walking up the diagonal (``k = 1, 2, ...``) while
  the cost changes between consecutive diagonal cells, the first ``k`` whose lowercased windows
  ``src[i-k..i]`` and ``tgt[j-k..j]`` are equal multisets costs ``cost[i-k][j-k] + k`` (op
  ``T<k+1>``);
* **tie-break**: the first cheapest of (transposition, substitution, insertion, deletion), as
  ERRANT (``costs.index(min(costs))``); the back-trace from the bottom-right cell follows the
  stored op of each cell.

:func:`align` runs the compiled kernel (:func:`_fill`, numba; plain Python without numba);
:func:`align_plain` is an independent pure-Python version of the same programme (lists of
floats, ``sorted`` windows) that the property tests check the kernel against, float for float.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import NamedTuple, Sequence

import numpy as np

from gecscore.lang.en.alignment import code_points, same_multiset
from gecscore.lang.en.alignment import lcs_length as code_point_lcs
from gecscore.compiled import njit
from gecscore.errors import GecInputError
from gecscore.strings import lcs_length

LEMMA_COST = 0.499
WORD, PUNCT, NUMBER = 0, 1, 2
DEFAULT_MAX_CELLS = 10_000_000  # (len(src)+1) * (len(tgt)+1); 13 bytes a cell
OP_M, OP_S, OP_I, OP_D, OP_T = 1, 2, 3, 4, 5

Step = tuple  # (op, src_start, src_end, tgt_start, tgt_end), op in M, S, I, D, T<k>


@lru_cache(maxsize=65536)
def token_class(token: str) -> int:
    """PUNCT when every character is punctuation or a symbol (Unicode ``P*``/``S*``), NUMBER
    when every character is a number (``N*``) or a ``.``/``,`` between them, else WORD."""
    if token and all(unicodedata.category(ch)[0] in "PS" for ch in token):
        return PUNCT
    if token and any(unicodedata.category(ch)[0] == "N" for ch in token) and \
            all(unicodedata.category(ch)[0] == "N" or ch in ".," for ch in token):
        return NUMBER
    return WORD


def class_cost(a: int, b: int) -> float:
    """The POS-cost stand-in of two token classes (see the module docstring)."""
    if a != b:
        return 0.5
    return 0.25 if a == WORD else 0.0


def sub_cost_plain(a: str, b: str) -> float:
    """The substitution cost of two tokens (plain Python, the reference)."""
    if a.lower() == b.lower():
        return 0.0
    total = len(a) + len(b)
    char_cost = 0.0 if total == 0 else float(total - 2 * lcs_length(a, b)) / float(total)
    return (LEMMA_COST + class_cost(token_class(a), token_class(b))) + char_cost


def align_plain(src: Sequence[str], tgt: Sequence[str]) -> list[Step]:
    """The alignment in plain Python (the reference the compiled kernel is tested against)."""
    n, m = len(src), len(tgt)
    cost = [[0.0] * (m + 1) for _ in range(n + 1)]
    ops = [["O"] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        cost[i][0] = cost[i - 1][0] + 1
        ops[i][0] = "D"
    for j in range(1, m + 1):
        cost[0][j] = cost[0][j - 1] + 1
        ops[0][j] = "I"
    s_low = [t.lower() for t in src]
    t_low = [t.lower() for t in tgt]
    for i in range(n):
        for j in range(m):
            if src[i] == tgt[j]:
                cost[i + 1][j + 1] = cost[i][j]
                ops[i + 1][j + 1] = "M"
                continue
            deletion = cost[i][j + 1] + 1
            insertion = cost[i + 1][j] + 1
            substitution = cost[i][j] + sub_cost_plain(src[i], tgt[j])
            transposition = float("inf")
            k = 1
            while i - k >= 0 and j - k >= 0 and cost[i - k + 1][j - k + 1] != cost[i - k][j - k]:
                if sorted(s_low[i - k:i + 1]) == sorted(t_low[j - k:j + 1]):
                    transposition = cost[i - k][j - k] + k
                    break
                k += 1
            options = [transposition, substitution, insertion, deletion]
            best = options.index(min(options))
            cost[i + 1][j + 1] = options[best]
            ops[i + 1][j + 1] = ("T" + str(k + 1), "S", "I", "D")[best]
    steps: list[Step] = []
    i, j = n, m
    while i + j:
        op = ops[i][j]
        if op in ("M", "S"):
            steps.append((op, i - 1, i, j - 1, j))
            i, j = i - 1, j - 1
        elif op == "D":
            steps.append((op, i - 1, i, j, j))
            i -= 1
        elif op == "I":
            steps.append((op, i, i, j - 1, j))
            j -= 1
        else:
            size = int(op[1:])
            steps.append((op, i - size, i, j - size, j))
            i, j = i - size, j - size
    return steps[::-1]


# ----------------------------------------------------------------------------------------------
# Compiled


class Features(NamedTuple):
    """Per-token arrays of one side of a pair (ids shared by both sides)."""

    exact: np.ndarray   # int64 id of the token text
    lower: np.ndarray   # int64 id of the lowercased text
    cls: np.ndarray     # int64 token class
    cp: np.ndarray      # int32 code points of all tokens, concatenated
    start: np.ndarray   # int64 offset of each token in cp
    length: np.ndarray  # int64 code points of each token


def _features(tokens: Sequence[str], exact_ids: dict, lower_ids: dict) -> Features:
    exact = np.array([exact_ids.setdefault(t, len(exact_ids)) for t in tokens], dtype=np.int64)
    lower = np.array([lower_ids.setdefault(t.lower(), len(lower_ids)) for t in tokens], dtype=np.int64)
    cls = np.array([token_class(t) for t in tokens], dtype=np.int64)
    length = np.array([len(t) for t in tokens], dtype=np.int64)
    start = np.zeros(len(tokens), dtype=np.int64)
    if len(tokens) > 1:
        start[1:] = np.cumsum(length)[:-1]
    text = "".join(tokens)
    return Features(exact, lower, cls, code_points(text), start, length)


@njit(cache=True)
def _fill(s_exact, s_lower, s_cls, s_cp, s_start, s_len,
          t_exact, t_lower, t_cls, t_cp, t_start, t_len, lemma_cost):  # pragma: no cover
    """The cost table (float64), op codes (int8) and transposition sizes (int32)."""
    n = s_exact.shape[0]
    m = t_exact.shape[0]
    cost = np.zeros((n + 1, m + 1), dtype=np.float64)
    ops = np.zeros((n + 1, m + 1), dtype=np.int8)
    tsize = np.zeros((n + 1, m + 1), dtype=np.int32)
    for i in range(1, n + 1):
        cost[i, 0] = cost[i - 1, 0] + 1.0
        ops[i, 0] = OP_D
    for j in range(1, m + 1):
        cost[0, j] = cost[0, j - 1] + 1.0
        ops[0, j] = OP_I
    longest = 1
    for j in range(m):
        if t_len[j] > longest:
            longest = t_len[j]
    buf = np.zeros(longest + 1, dtype=np.int64)
    for i in range(n):
        for j in range(m):
            if s_exact[i] == t_exact[j]:
                cost[i + 1, j + 1] = cost[i, j]
                ops[i + 1, j + 1] = OP_M
                continue
            deletion = cost[i, j + 1] + 1.0
            insertion = cost[i + 1, j] + 1.0
            if s_lower[i] == t_lower[j]:
                sub = 0.0
            else:
                a, b = s_cls[i], t_cls[j]
                if a != b:
                    ccost = 0.5
                elif a == WORD:
                    ccost = 0.25
                else:
                    ccost = 0.0
                total = s_len[i] + t_len[j]
                if total == 0:
                    char_cost = 0.0
                else:
                    lcs = code_point_lcs(s_cp, s_start[i], s_len[i], t_cp, t_start[j], t_len[j], buf)
                    char_cost = np.float64(total - 2 * lcs) / np.float64(total)
                sub = (lemma_cost + ccost) + char_cost
            substitution = cost[i, j] + sub
            transposition = np.inf
            k = 1
            while i - k >= 0 and j - k >= 0 and cost[i - k + 1, j - k + 1] != cost[i - k, j - k]:
                if same_multiset(s_lower, i - k, t_lower, j - k, k + 1):
                    transposition = cost[i - k, j - k] + np.float64(k)
                    break
                k += 1
            best = transposition
            code = OP_T
            if substitution < best:
                best = substitution
                code = OP_S
            if insertion < best:
                best = insertion
                code = OP_I
            if deletion < best:
                best = deletion
                code = OP_D
            cost[i + 1, j + 1] = best
            ops[i + 1, j + 1] = code
            if code == OP_T:
                tsize[i + 1, j + 1] = k + 1
    return cost, ops, tsize


def _backtrace(ops: np.ndarray, tsize: np.ndarray) -> list[Step]:
    steps: list[Step] = []
    i, j = ops.shape[0] - 1, ops.shape[1] - 1
    names = {OP_M: "M", OP_S: "S"}
    while i + j:
        op = int(ops[i, j])
        if op in names:
            steps.append((names[op], i - 1, i, j - 1, j))
            i, j = i - 1, j - 1
        elif op == OP_D:
            steps.append(("D", i - 1, i, j, j))
            i -= 1
        elif op == OP_I:
            steps.append(("I", i, i, j - 1, j))
            j -= 1
        else:
            size = int(tsize[i, j])
            steps.append(("T" + str(size), i - size, i, j - size, j))
            i, j = i - size, j - size
    return steps[::-1]


def align(src: Sequence[str], tgt: Sequence[str], *, max_cells: int | None = DEFAULT_MAX_CELLS) -> list[Step]:
    """The cheapest alignment of two token sequences (compiled kernel; see the module docstring).

    ``max_cells`` bounds ``(len(src)+1) * (len(tgt)+1)`` (13 bytes a cell); None: no limit."""
    cells = (len(src) + 1) * (len(tgt) + 1)
    if max_cells is not None and cells > max_cells:
        raise GecInputError(f"sentence pair too long for the free profile's alignment: {len(src)} x "
                            f"{len(tgt)} tokens need {cells:,} cells (limit {max_cells:,}); split the line")
    exact_ids: dict[str, int] = {}
    lower_ids: dict[str, int] = {}
    fs = _features(src, exact_ids, lower_ids)
    ft = _features(tgt, exact_ids, lower_ids)
    _, ops, tsize = _fill(fs.exact, fs.lower, fs.cls, fs.cp, fs.start, fs.length,
                          ft.exact, ft.lower, ft.cls, ft.cp, ft.start, ft.length, LEMMA_COST)
    return _backtrace(ops, tsize)
