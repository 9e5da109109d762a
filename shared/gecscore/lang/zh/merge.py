"""ChERRANT's merge of one alignment into span edits (``modules/merger.py``, char mode, no ``-m``).

Input: one alignment, a sequence of steps ``(op, src_start, src_end, tgt_start, tgt_end)``.

1. **Group** consecutive steps: runs of M, runs of T (any size), and runs of everything else
   (S, I, D). T steps stay one edit each. Any other run becomes: itself if it has one step;
   one edit spanning the run when all its ops are M (op M), all D (op D) or all I (op I); its
   steps unchanged when its ops are exactly {D, I}; otherwise one S edit spanning the run
   (char mode merges S runs).
2. **Patterns** over that list (left to right; M edits are dropped unless consumed; the
   middle M of a pattern is a whole run of matches):

   * ``S M S`` with spans ``w1 -> w2``, ``w3 -> w4``: when the shortest of the four strings has
     one character, merged when ``w1 == w4`` and ``w2 == w3``; otherwise merged when the
     Levenshtein distances ``d(w1, w4)`` and ``d(w2, w3)`` are both at most 1;
   * ``D M I`` or ``I M D`` (the middle may also be a T): with ``a``, ``b`` the deleted and the
     inserted strings, longest first, merged when neither is a *substring* of the merger's
     punctuation string, ``len(a) - len(b) <= 1``, and: ``a == b`` when ``len(b) == 1``, else
     ``d(a, b) <= 1`` or (same length and ``b`` is a rotation of ``a``).

   A merged triple is one edit ``T<n>`` over the three spans (``n``: its source length).
3. **Trim** (word-level tokenisation artefacts, kept for fidelity): an edit whose source and
   target strings are equal is dropped; an S edit whose target string starts (ends) with a
   prefix (suffix) of whole source tokens that also ends (starts) on a target token boundary
   has that common part cut off, becoming I, D or a shorter S.
"""
from __future__ import annotations

from itertools import groupby
from typing import Sequence

from gecscore.lang.zh.align import Step

# The merger's own punctuation string: ASCII first, then Chinese (differs from the aligner's).
MERGE_PUNCT = ("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
               "！？｡＂＃＄％＆＇（）＊＋，－／：；＜＝＞＠［＼］＾＿｀｛｜｝～｟｠｢｣､、〃》「」『』【】〔〕〖〗〘〙〚〛〜〝〞〟"
               "–—‘'‛“”„‟…‧.")


def levenshtein(a: str, b: str) -> int:
    """Plain edit distance (insert, delete, substitute; all cost 1), as python-Levenshtein's."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for x, ca in enumerate(a, start=1):
        current = [x]
        for y, cb in enumerate(b, start=1):
            current.append(min(previous[y] + 1, current[y - 1] + 1, previous[y - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _span(steps: Sequence[Step], tag: str) -> Step:
    return (tag, steps[0][1], steps[-1][2], steps[0][3], steps[-1][4])


def _process_run(run: list[Step]) -> list[Step]:
    if len(run) <= 1:
        return run
    ops = {step[0] for step in run}
    if ops == {"D"} or ops == {"I"}:
        return [_span(run, ops.pop())]
    if ops == {"D", "I"}:
        return run
    if ops == {"M"}:
        return [_span(run, "M")]
    return [_span(run, "S")]


def _grouped(alignment: Sequence[Step]) -> list[Step]:
    edits: list[Step] = []
    for key, group in groupby(alignment, lambda step: step[0][0] if step[0][0] in "MT" else ""):
        group = list(group)
        edits.extend(group if key == "T" else _process_run(group))
    return edits


def _patterns(edits: list[Step], src: Sequence[str], tgt: Sequence[str]) -> list[Step]:
    out: list[Step] = []
    i = 0
    while i < len(edits):
        first = edits[i][0][0]
        if i < len(edits) - 2:
            second, third = edits[i + 1][0], edits[i + 2][0][0]
            merged = False
            if first == "S" and second[0] == "M" and third == "S":
                w1 = "".join(src[edits[i][1]:edits[i][2]])
                w2 = "".join(tgt[edits[i][3]:edits[i][4]])
                w3 = "".join(src[edits[i + 2][1]:edits[i + 2][2]])
                w4 = "".join(tgt[edits[i + 2][3]:edits[i + 2][4]])
                if min(len(w1), len(w2), len(w3), len(w4)) == 1:
                    merged = w1 == w4 and w2 == w3
                else:
                    merged = levenshtein(w1, w4) <= 1 and levenshtein(w2, w3) <= 1
            elif ((first == "D" and (second[0] == "M" or second.startswith("T")) and third == "I")
                  or (first == "I" and (second[0] == "M" or second.startswith("T")) and third == "D")):
                deleted, inserted = (edits[i], edits[i + 2]) if first == "D" else (edits[i + 2], edits[i])
                a = "".join(src[deleted[1]:deleted[2]])
                b = "".join(tgt[inserted[3]:inserted[4]])
                if len(a) < len(b):
                    a, b = b, a
                if a not in MERGE_PUNCT and b not in MERGE_PUNCT and len(a) - len(b) <= 1:
                    if len(b) == 1:
                        merged = a == b
                    else:
                        merged = levenshtein(a, b) <= 1 or (len(a) == len(b) and b in a + a)
            elif first == "M":
                i += 1
                continue
            if merged:
                out.append(_span(edits[i:i + 3], f"T{edits[i + 2][2] - edits[i][1]}"))
                i += 3
            else:
                out.append(edits[i])
                i += 1
        else:
            if first != "M":
                out.append(edits[i])
            i += 1
    return out


def _trim(edit: Step, src: Sequence[str], tgt: Sequence[str]) -> Step:
    """Cut a common head and tail of whole tokens off an S edit (ChERRANT's second filter)."""
    _, s0, s1, t0, t1 = edit
    target = "".join(tgt[t0:t1])
    changed = False
    common = ""
    head_src = s0
    for i in range(s0, s1):
        if not target.startswith(common + src[i]):
            break
        common += src[i]
        head_src = i + 1
    new_s0, new_t0 = s0, t0
    if common:
        text = ""
        for i in range(t0, t1):
            text += tgt[i]
            if text == common:
                new_s0, new_t0 = head_src, i + 1
                changed = True
                break
            if len(text) > len(common):
                break
    common = ""
    new_s1, new_t1 = s1, t1
    tail_src = s1
    for i in reversed(range(new_s0, s1)):
        if not target.endswith(src[i] + common):
            break
        common = src[i] + common
        tail_src = i
    if common:
        text = ""
        for i in reversed(range(new_t0, t1)):
            text = tgt[i] + text
            if text == common:
                new_s1, new_t1 = tail_src, i
                changed = True
                break
            if len(text) > len(common):
                break
    if not changed:
        return edit
    if new_s0 == new_s1:
        return ("I", new_s0, new_s1, new_t0, new_t1)
    if new_t0 == new_t1:
        return ("D", new_s0, new_s1, new_t0, new_t1)
    return ("S", new_s0, new_s1, new_t0, new_t1)


def merge(alignment: Sequence[Step], src: Sequence[str], tgt: Sequence[str]) -> tuple[Step, ...]:
    """The span edits of one alignment (steps 1-3 of the module docstring)."""
    edits = _patterns(_grouped(alignment), src, tgt)
    out: list[Step] = []
    for edit in edits:
        if "".join(src[edit[1]:edit[2]]) == "".join(tgt[edit[3]:edit[4]]):
            continue
        out.append(_trim(edit, src, tgt) if edit[0] == "S" else edit)
    return tuple(out)
