"""ERRANT's token alignment, re-implemented exactly and compiled with numba.

ERRANT 3.0.2 (``errant.alignment.Alignment``) aligns two spaCy Docs with a "linguistically
enhanced" Damerau-Levenshtein programme written in pure Python; it takes about 90% of ERRANT's
time. :class:`CompiledAlignment` computes the same alignment (``align_seq``, bit for bit, ties
included) from per-token arrays built once per Doc, so that ERRANT's own merger and classifier
run unchanged on it; :func:`annotate` is ``annotator.annotate`` with this alignment.

What is reproduced exactly (see ``errant/alignment.py``):

* costs are float64 and are built with the same operations in the same order: a match copies
  the diagonal cost; a substitution adds ``(lemma_cost + pos_cost) + char_cost`` (0 when only
  the case differs) where ``char_cost = Indel.normalized_distance(o.text, c.text)``
  = ``(len_o + len_c - 2 * LCS) / (len_o + len_c)`` over code points; insertion and deletion
  add 1; a transposition of ``k + 1`` tokens adds ``k`` to the cost ``k`` steps up the diagonal;
* transpositions: walking up the diagonal while the cost changes, the first ``k`` whose
  lowercased token windows are equal as multisets (ERRANT compares sorted lists);
* the op of a cell is the first cheapest of (transposition, substitution, insertion, deletion);
* the back-trace from the bottom-right cell follows the stored ops (``"T<k+1>"`` jumps).

Speed: the char cost (an LCS over code points) is only computed when the substitution can
still win: ``char_cost >= 0`` and float rounding is monotonic, so ``sub_cost >= cost + (lemma_cost
+ pos_cost)``; when that bound already exceeds the insertion or deletion cost, the substitution
cannot be the first cheapest. On long pairs, LCS lengths are memoised per pair of distinct texts.
Transposition candidates are screened with sums of mixed lowercase ids before ERRANT's exact
sorted-window comparison.

Memory: one byte a cell (op code; a "cost differs from its diagonal predecessor" bit, which is
all the transposition walk needs; the size of transpositions up to 15 tokens -- longer ones are
found again by the same walk at back-trace time) plus a ring of the last ``ring_rows`` float64
cost rows. A transposition reaching above the ring recomputes that cell's cost by summing the
steps along its back-trace path in the original order (same floats). The table is limited to
``max_cells`` cells (:data:`DEFAULT_MAX_CELLS`); larger pairs raise
:class:`~gecscore.errors.GecInputError`. Without numba the same kernels run as plain Python
(correct, slow); :func:`annotate` then uses ERRANT's own alignment.
"""
from __future__ import annotations

import weakref
from typing import NamedTuple

import numpy as np

from gecscore.errors import GecInputError

from gecscore.compiled import HAVE_NUMBA, njit as _njit

try:
    from errant.alignment import Alignment as _ErrantAlignment
except ImportError:  # pragma: no cover - errant is a dependency of the extract extra
    _ErrantAlignment = object

DEFAULT_MAX_CELLS = 50_000_000  # (len(orig)+1) * (len(cor)+1); one byte a cell, ~50 MB
DEFAULT_RING_ROWS = 64          # cost rows kept (float64); older ones are recomputed on demand
LCS_CACHE_MIN_CELLS = 4_096     # pairs this large memoise LCS lengths per pair of distinct texts
LCS_CACHE_MAX = 16_000_000      # ... in an int16 table of (distinct orig) x (distinct cor) texts

# Op codes (low three bits of a cell), as ERRANT's strings.
OP_O, OP_M, OP_S, OP_I, OP_D, OP_T = 0, 1, 2, 3, 4, 5
OP_NAMES = ("O", "M", "S", "I", "D", "T")
_DIFF = 8          # bit 3: cost[i][j] != cost[i-1][j-1]
_TSHIFT = 4        # bits 4-7: transposition size k+1 when <= 15, else 0 (searched again)
_TMAX_INLINE = 15
_HASH_MASK = (1 << 40) - 1  # mixed lowercase ids, summed as a multiset filter


# ----------------------------------------------------------------------------------------------
# Per-Doc features


class DocFeatures(NamedTuple):
    """Per-token arrays of one parsed Doc (spaCy's uint64 ids viewed as int64)."""

    orth: np.ndarray    # exact text id (matches)
    lower: np.ndarray   # lowercase text id (case-only substitutions, transpositions)
    lemma: np.ndarray
    pos: np.ndarray
    open_: np.ndarray   # uint8: pos in ERRANT's open classes {ADJ, ADV, NOUN, VERB}
    hmix: np.ndarray    # 40-bit mix of ``lower``: window sums filter transposition candidates
    cp: np.ndarray      # int32 code points of the text the tokens are cut from
    start: np.ndarray   # int64 offset of each token's text in ``cp``
    length: np.ndarray  # int64 length of each token's text (code points)


_OPEN_POS = np.array(sorted(getattr(_ErrantAlignment, "_open_pos", ())) or [-1], dtype=np.int64)
_FEATURES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


@_njit(cache=True)
def _split_ids(ids, open_pos):  # pragma: no cover - compiled
    """Columns of ``to_array([ORTH, LOWER, LEMMA, POS, IDX, LENGTH])`` (uint64) as int64 arrays,
    the open-class flags and the mixed lowercase ids (splitmix64 finaliser, cut to 40 bits)."""
    n = ids.shape[0]
    orth = np.empty(n, dtype=np.int64)
    lower = np.empty(n, dtype=np.int64)
    lemma = np.empty(n, dtype=np.int64)
    pos = np.empty(n, dtype=np.int64)
    open_ = np.zeros(n, dtype=np.uint8)
    hmix = np.empty(n, dtype=np.int64)
    start = np.empty(n, dtype=np.int64)
    length = np.empty(n, dtype=np.int64)
    for t in range(n):
        orth[t] = np.int64(ids[t, 0])
        lower[t] = np.int64(ids[t, 1])
        lemma[t] = np.int64(ids[t, 2])
        pos[t] = np.int64(ids[t, 3])
        for p in open_pos:
            if pos[t] == p:
                open_[t] = 1
        start[t] = np.int64(ids[t, 4])
        length[t] = np.int64(ids[t, 5])
        z = ids[t, 1]
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
        hmix[t] = np.int64(z & np.uint64(_HASH_MASK))
    return orth, lower, lemma, pos, open_, hmix, start, length


def code_points(text: str) -> np.ndarray:
    """The Unicode code points of ``text`` (int32), what the character LCS compares."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.int32)


def compute_doc_features(doc) -> DocFeatures:
    """Build the arrays of ``doc`` (a spaCy Doc; a Span or token list works through the slow path)."""
    from spacy.attrs import IDX, LEMMA, LENGTH, LOWER, ORTH, POS

    if hasattr(doc, "to_array") and hasattr(doc, "user_data"):  # a Doc: offsets into doc.text
        ids = doc.to_array([ORTH, LOWER, LEMMA, POS, IDX, LENGTH]).reshape(-1, 6).astype(np.uint64)
        text = doc.text
    else:
        tokens = list(doc)
        texts = [t.text for t in tokens]
        starts = np.cumsum([0] + [len(t) for t in texts])
        ids = np.array([[t.orth, t.lower, t.lemma, t.pos, starts[k], len(texts[k])]
                        for k, t in enumerate(tokens)], dtype=np.uint64).reshape(-1, 6)
        text = "".join(texts)
    if hasattr(_split_ids, "py_func"):
        orth, lower, lemma, pos, open_, hmix, start, length = _split_ids(ids, _OPEN_POS)
    else:  # plain Python (no numba, or NUMBA_DISABLE_JIT): the id mixing wraps on purpose
        with np.errstate(over="ignore"):
            orth, lower, lemma, pos, open_, hmix, start, length = _split_ids(ids, _OPEN_POS)
    return DocFeatures(orth, lower, lemma, pos, open_, hmix, code_points(text), start, length)


def doc_features(doc) -> DocFeatures:
    """:func:`compute_doc_features`, cached per Doc object (weakly: freed with the Doc)."""
    try:
        return _FEATURES[doc]
    except (KeyError, TypeError):
        pass
    feats = compute_doc_features(doc)
    try:
        _FEATURES[doc] = feats
    except TypeError:  # not weak-referenceable: no cache
        pass
    return feats


# ----------------------------------------------------------------------------------------------
# Compiled kernels


@_njit(cache=True)
def lcs_length(a_cp, a0, la, b_cp, b0, lb, buf):  # pragma: no cover - compiled
    """Length of the longest common subsequence of two code-point runs (buf: >= lb+1 ints);
    ERRANT's character cost, shared by every alignment that uses it."""
    for q in range(lb + 1):
        buf[q] = 0
    for p in range(la):
        ca = a_cp[a0 + p]
        prev = 0
        for q in range(lb):
            tmp = buf[q + 1]
            if ca == b_cp[b0 + q]:
                buf[q + 1] = prev + 1
            elif buf[q] > tmp:
                buf[q + 1] = buf[q]
            prev = tmp
    return buf[lb]


@_njit(cache=True)
def _sub_cost(i, j, o_lower, o_lemma, o_pos, o_open, o_cp, o_start, o_len,
              c_lower, c_lemma, c_pos, c_open, c_cp, c_start, c_len, buf):  # pragma: no cover
    """errant.alignment.Alignment.get_sub_cost, same float operations in the same order."""
    if o_lower[i] == c_lower[j]:
        return 0.0
    lemma_cost = 0.0 if o_lemma[i] == c_lemma[j] else 0.499
    if o_pos[i] == c_pos[j]:
        pos_cost = 0.0
    elif o_open[i] != 0 and c_open[j] != 0:
        pos_cost = 0.25
    else:
        pos_cost = 0.5
    la = o_len[i]
    lb = c_len[j]
    maximum = la + lb
    if maximum == 0:
        char_cost = 0.0
    else:
        lcs = lcs_length(o_cp, o_start[i], la, c_cp, c_start[j], lb, buf)
        char_cost = np.float64(maximum - 2 * lcs) / np.float64(maximum)
    return lemma_cost + pos_cost + char_cost


@_njit(cache=True)
def same_multiset(o_lower, i0, c_lower, j0, size):  # pragma: no cover - compiled
    """sorted(o_lower[i0:i0+size]) == sorted(c_lower[j0:j0+size]): ERRANT's transposition test
    (also the language-free aligner's, :mod:`gecscore.lang.free.align`)."""
    a = np.sort(o_lower[i0:i0 + size])
    b = np.sort(c_lower[j0:j0 + size])
    for t in range(size):
        if a[t] != b[t]:
            return False
    return True


@_njit(cache=True)
def _walk_transposition(ops, i, j, o_lower, o_hmix, c_lower, c_hmix):  # pragma: no cover
    """ERRANT's transposition search for loop indices (i, j), i.e. cell (i+1, j+1): the first k
    such that the windows [i-k, i] and [j-k, j] hold the same lowercased tokens, walking up the
    diagonal while cost[i-k+1][j-k+1] != cost[i-k][j-k] (bit _DIFF); 0 when there is none.
    Window sums of mixed ids reject most candidates before the exact (sorting) check."""
    k = 1
    ho = o_hmix[i]
    hc = c_hmix[j]
    while i - k >= 0 and j - k >= 0 and (ops[i - k + 1, j - k + 1] & _DIFF) != 0:
        ho += o_hmix[i - k]
        hc += c_hmix[j - k]
        if ho == hc and same_multiset(o_lower, i - k, c_lower, j - k, k + 1):
            return k
        k += 1
    return 0


@_njit(cache=True)
def _tsize(ops, i, j, o_lower, o_hmix, c_lower, c_hmix):  # pragma: no cover - compiled
    """Size (k+1) of the transposition op at cell (i, j): from the cell's bits, or (sizes above
    _TMAX_INLINE) searched again, which finds the same k since the table is unchanged."""
    s = ops[i, j] >> _TSHIFT
    if s != 0:
        return np.int64(s)
    return _walk_transposition(ops, i - 1, j - 1, o_lower, o_hmix, c_lower, c_hmix) + 1


@_njit(cache=True)
def _cost_by_path(x, y, ops, lev, o_lower, o_lemma, o_pos, o_open, o_hmix, o_cp, o_start, o_len,
                  c_lower, c_lemma, c_pos, c_open, c_hmix, c_cp, c_start, c_len, buf):  # pragma: no cover
    """cost[x][y], recomputed by summing the steps of its back-trace path from (0, 0).

    Every cell's cost is its predecessor's cost plus its op's step, so the forward sum along
    the path repeats the original float additions exactly.
    """
    n_steps = x + y
    cells_i = np.empty(n_steps, dtype=np.int64)
    cells_j = np.empty(n_steps, dtype=np.int64)
    cnt = 0
    i, j = x, y
    while i + j != 0:
        cells_i[cnt] = i
        cells_j[cnt] = j
        cnt += 1
        op = ops[i, j] & 7
        if op == OP_M or op == OP_S:
            i -= 1
            j -= 1
        elif op == OP_D:
            i -= 1
        elif op == OP_I:
            j -= 1
        else:
            k = _tsize(ops, i, j, o_lower, o_hmix, c_lower, c_hmix)
            i -= k
            j -= k
    cost = 0.0
    for t in range(cnt - 1, -1, -1):
        i = cells_i[t]
        j = cells_j[t]
        op = ops[i, j] & 7
        if op == OP_M:
            pass
        elif op == OP_S:
            if lev:
                cost = cost + 1.0
            else:
                cost = cost + _sub_cost(i - 1, j - 1, o_lower, o_lemma, o_pos, o_open, o_cp, o_start,
                                        o_len, c_lower, c_lemma, c_pos, c_open, c_cp, c_start,
                                        c_len, buf)
        elif op == OP_D or op == OP_I:
            cost = cost + 1.0
        else:
            k = _tsize(ops, i, j, o_lower, o_hmix, c_lower, c_hmix) - 1
            cost = cost + np.float64(k)
    return cost


@_njit(cache=True)
def _align_kernel(o_orth, o_lower, o_lemma, o_pos, o_open, o_hmix, o_type, o_cp, o_start, o_len,
                  c_orth, c_lower, c_lemma, c_pos, c_open, c_hmix, c_type, c_cp, c_start, c_len,
                  lcs_cache, lev, ring_rows):  # pragma: no cover - compiled
    """Fill the op table (one byte a cell) as errant.alignment.Alignment.align does.

    Returns (ops, ring): ``ring[r % ring_rows]`` holds cost row r for the last ``ring_rows``
    rows (all of them when ring_rows > len(orig)).
    ``lcs_cache`` (int16, -1 = unknown; shape (distinct orig texts, distinct cor texts), or
    (0, 0) for none) memoises the LCS lengths of the char cost.
    """
    n = o_orth.shape[0]
    m = c_orth.shape[0]
    m1 = m + 1
    R = ring_rows
    use_cache = lcs_cache.shape[0] > 0
    ops = np.zeros((n + 1, m1), dtype=np.uint8)
    ring = np.zeros((R, m1), dtype=np.float64)
    maxlen = 1
    for q in range(m):
        if c_len[q] > maxlen:
            maxlen = c_len[q]
    buf = np.zeros(maxlen + 1, dtype=np.int64)
    inf = np.inf

    # Edges: cost_matrix[0][j] = cost_matrix[0][j-1] + 1 ("I"), cost_matrix[i][0] likewise ("D")
    row0 = ring[0]
    for j in range(1, m1):
        row0[j] = row0[j - 1] + 1.0
        ops[0, j] = OP_I
    ops[0, 0] = OP_O

    for i in range(n):
        prow = ring[i % R]
        crow = ring[(i + 1) % R]
        crow[0] = prow[0] + 1.0
        ops[i + 1, 0] = OP_D
        oi_orth = o_orth[i]
        oi_lower = o_lower[i]
        oi_lemma = o_lemma[i]
        oi_pos = o_pos[i]
        oi_open = o_open[i]
        oi_type = o_type[i] if use_cache else 0
        oi_len = o_len[i]
        oi_start = o_start[i]
        for j in range(m):
            if oi_orth == c_orth[j]:
                v = prow[j]
                code = OP_M
            else:
                del_cost = prow[j + 1] + 1.0
                ins_cost = crow[j] + 1.0
                trans_cost = inf
                tk = 0
                if lev:
                    sub_cost = prow[j] + 1.0
                else:
                    # get_sub_cost, inlined (same operations as _sub_cost). The char cost is
                    # skipped when the substitution cannot win: char_cost >= 0 and float rounding
                    # is monotonic, so sub_cost >= prow[j] + (lemma_cost + pos_cost).
                    if oi_lower == c_lower[j]:
                        sub_cost = prow[j] + 0.0
                    else:
                        lemma_cost = 0.0 if oi_lemma == c_lemma[j] else 0.499
                        if oi_pos == c_pos[j]:
                            pos_cost = 0.0
                        elif oi_open != 0 and c_open[j] != 0:
                            pos_cost = 0.25
                        else:
                            pos_cost = 0.5
                        lp = lemma_cost + pos_cost
                        if prow[j] + lp > min(ins_cost, del_cost):
                            sub_cost = inf  # loses to insertion or deletion whatever char_cost is
                        else:
                            lb = c_len[j]
                            maximum = oi_len + lb
                            if maximum == 0:
                                char_cost = 0.0
                            else:
                                if use_cache:
                                    lcs = np.int64(lcs_cache[oi_type, c_type[j]])
                                    if lcs < 0:
                                        lcs = lcs_length(o_cp, oi_start, oi_len, c_cp, c_start[j], lb, buf)
                                        if lcs <= 32767:
                                            lcs_cache[oi_type, c_type[j]] = lcs
                                else:
                                    lcs = lcs_length(o_cp, oi_start, oi_len, c_cp, c_start[j], lb, buf)
                                char_cost = np.float64(maximum - 2 * lcs) / np.float64(maximum)
                            sub_cost = prow[j] + (lp + char_cost)
                    # _walk_transposition, inlined by hand: a call per cell costs more than the walk,
                    # and numba's inline="always" was 3-4x slower on a 3,000-token line
                    k = 1
                    ho = o_hmix[i]
                    hc = c_hmix[j]
                    while i - k >= 0 and j - k >= 0 and (ops[i - k + 1, j - k + 1] & _DIFF) != 0:
                        ho += o_hmix[i - k]
                        hc += c_hmix[j - k]
                        if ho == hc and same_multiset(o_lower, i - k, c_lower, j - k, k + 1):
                            tk = k
                            break
                        k += 1
                    if tk > 0:
                        r = i - tk
                        if r + R > i + 1:  # row still in the ring
                            base = ring[r % R, j - tk]
                        else:
                            base = _cost_by_path(r, j - tk, ops, lev, o_lower, o_lemma, o_pos,
                                                 o_open, o_hmix, o_cp, o_start, o_len, c_lower,
                                                 c_lemma, c_pos, c_open, c_hmix, c_cp, c_start,
                                                 c_len, buf)
                        trans_cost = base + np.float64(tk)
                # First cheapest of [trans, sub, ins, del]
                v = trans_cost
                code = OP_T
                if sub_cost < v:
                    v = sub_cost
                    code = OP_S
                if ins_cost < v:
                    v = ins_cost
                    code = OP_I
                if del_cost < v:
                    v = del_cost
                    code = OP_D
                if code == OP_T and tk + 1 <= _TMAX_INLINE:
                    code = code | ((tk + 1) << _TSHIFT)  # longer: bits 0, _tsize searches again
            crow[j + 1] = v
            if v != prow[j]:
                code = code | _DIFF
            ops[i + 1, j + 1] = code
    return ops, ring


@_njit(cache=True)
def _backtrace(ops, o_lower, o_hmix, c_lower, c_hmix):  # pragma: no cover - compiled
    """errant.alignment.Alignment.get_cheapest_align_seq: rows (op, size, o_start, c_start)."""
    i = ops.shape[0] - 1
    j = ops.shape[1] - 1
    out = np.empty((i + j, 4), dtype=np.int64)
    cnt = 0
    while i + j != 0:
        op = ops[i, j] & 7
        if op == OP_M or op == OP_S:
            di, dj, size = 1, 1, 1
        elif op == OP_D:
            di, dj, size = 1, 0, 1
        elif op == OP_I:
            di, dj, size = 0, 1, 1
        else:
            size = _tsize(ops, i, j, o_lower, o_hmix, c_lower, c_hmix)
            di, dj, op = size, size, OP_T
        i -= di
        j -= dj
        out[cnt, 0] = op
        out[cnt, 1] = size
        out[cnt, 2] = i
        out[cnt, 3] = j
        cnt += 1
    return out[:cnt][::-1].copy()


# ----------------------------------------------------------------------------------------------
# Python API


def _check_size(n: int, m: int, max_cells: int | None) -> None:
    cells = (n + 1) * (m + 1)
    if max_cells is not None and cells > max_cells:
        raise GecInputError(
            f"sentence pair too long for the ERRANT alignment: {n} source tokens x {m} target "
            f"tokens need {cells:,} cells (limit max_cells={max_cells:,}, about one byte a cell). "
            f"Split the line, or pass a larger max_cells (e.g. max_cells={cells:_}) to "
            f"CompiledAlignment/annotate; max_cells=None removes the limit.")


_NO_CACHE = np.zeros((0, 0), dtype=np.int16)
_NO_TYPES = np.zeros(0, dtype=np.int64)


def _run_kernel(fo: DocFeatures, fc: DocFeatures, lev: bool, ring_rows: int, lcs_cache: bool = True):
    cache, o_type, c_type = _NO_CACHE, _NO_TYPES, _NO_TYPES
    if lcs_cache and not lev and (len(fo.orth) + 1) * (len(fc.orth) + 1) >= LCS_CACHE_MIN_CELLS:
        o_uniq, o_type = np.unique(fo.orth, return_inverse=True)
        c_uniq, c_type = np.unique(fc.orth, return_inverse=True)
        if 0 < len(o_uniq) * len(c_uniq) <= LCS_CACHE_MAX:
            cache = np.full((len(o_uniq), len(c_uniq)), -1, dtype=np.int16)
            o_type = o_type.reshape(-1).astype(np.int64)
            c_type = c_type.reshape(-1).astype(np.int64)
        else:
            o_type = c_type = _NO_TYPES
    return _align_kernel(fo.orth, fo.lower, fo.lemma, fo.pos, fo.open_, fo.hmix, o_type, fo.cp,
                         fo.start, fo.length, fc.orth, fc.lower, fc.lemma, fc.pos, fc.open_, fc.hmix,
                         c_type, fc.cp, fc.start, fc.length, cache, bool(lev), int(ring_rows))


def _seq_from_rows(rows: np.ndarray) -> list[tuple]:
    seq = []
    for op, size, i, j in rows.tolist():
        if op == OP_T:
            seq.append(("T" + str(size), i, i + size, j, j + size))
        elif op == OP_D:
            seq.append(("D", i, i + 1, j, j))
        elif op == OP_I:
            seq.append(("I", i, i, j, j + 1))
        else:
            seq.append((OP_NAMES[op], i, i + 1, j, j + 1))
    return seq


class CompiledAlignment(_ErrantAlignment):
    """Drop-in for ``errant.alignment.Alignment(orig, cor, lev)``: same ``orig``, ``cor`` and
    ``align_seq`` (and the inherited ``get_all_*_edits`` methods); ERRANT's merger and
    classifier read nothing else.

    ``cost_matrix`` and ``op_matrix`` (nested lists, as ERRANT's) are recomputed on first access
    with a full cost table: meant for debugging short sentences.

    ``max_cells`` bounds ``(len(orig)+1) * (len(cor)+1)`` (None: no limit); ``features`` may pass
    precomputed ``(DocFeatures of orig, DocFeatures of cor)``; ``ring_rows`` (>= 2) is how many
    cost rows are kept (a tuning/testing knob: the result does not depend on it).
    """

    def __init__(self, orig, cor, lev: bool = False, *, max_cells: int | None = DEFAULT_MAX_CELLS,
                 features: tuple[DocFeatures, DocFeatures] | None = None,
                 ring_rows: int = DEFAULT_RING_ROWS):
        self.orig = orig
        self.cor = cor
        self.lev = lev
        fo, fc = features if features is not None else (doc_features(orig), doc_features(cor))
        n, m = len(fo.orth), len(fc.orth)
        _check_size(n, m, max_cells)
        if ring_rows < 2:
            raise ValueError("ring_rows must be >= 2")
        self._features = (fo, fc)
        self._matrices = None
        ops, _ring = _run_kernel(fo, fc, lev, min(int(ring_rows), n + 1) if n else 2)
        self.align_seq = _seq_from_rows(_backtrace(ops, fo.lower, fo.hmix, fc.lower, fc.hmix))

    def _full_matrices(self):
        if self._matrices is None:
            fo, fc = self._features
            n, m = len(fo.orth), len(fc.orth)
            ops, ring = _run_kernel(fo, fc, self.lev, n + 1)
            m1 = m + 1
            op_matrix = []
            for i in range(n + 1):
                row = []
                for j in range(m1):
                    op = int(ops[i, j]) & 7
                    row.append("T" + str(int(_tsize(ops, i, j, fo.lower, fo.hmix, fc.lower, fc.hmix)))
                               if op == OP_T else OP_NAMES[op])
                op_matrix.append(row)
            self._matrices = (ring[: n + 1].tolist(), op_matrix)
        return self._matrices

    @property
    def cost_matrix(self) -> list[list[float]]:
        return self._full_matrices()[0]

    @property
    def op_matrix(self) -> list[list[str]]:
        return self._full_matrices()[1]


def align(orig, cor, lev: bool = False, *, max_cells: int | None = DEFAULT_MAX_CELLS) -> CompiledAlignment:
    """``annotator.align(orig, cor, lev)`` with the compiled alignment."""
    return CompiledAlignment(orig, cor, lev, max_cells=max_cells)


def annotate(annotator, orig, cor, lev: bool = False, merging: str = "rules", *,
             max_cells: int | None = DEFAULT_MAX_CELLS) -> list:
    """``annotator.annotate(orig, cor, lev, merging)`` (an ERRANT Annotator) with the compiled
    alignment: the same typed ``errant.edit.Edit`` list. Without numba, ERRANT's own alignment
    is used (after the same ``max_cells`` check)."""
    if HAVE_NUMBA:
        alignment = CompiledAlignment(orig, cor, lev, max_cells=max_cells)
    else:  # pragma: no cover
        _check_size(len(orig), len(cor), max_cells)
        alignment = annotator.align(orig, cor, lev)
    edits = annotator.merge(alignment, merging)
    for edit in edits:
        annotator.classify(edit)
    return edits
