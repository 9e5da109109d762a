"""A plain-Python transcription of ChERRANT's char-level alignment, for the property tests.

Written from ChERRANT's description (``modules/alignment.py``): one cell at a time, the
substitution cost computed per cell from the token strings, transposition windows compared as
sorted lists, ops stored as lists of strings, all cheapest paths by recursive depth-first
search. No numpy, no numba, no pair-level tables: an independent check of
:mod:`gecscore.lang.zh.align`.
"""
from __future__ import annotations

from gecscore.lang.zh import resources
from gecscore.lang.zh.align import ALIGN_PUNCT


def _class(token):
    code = resources.cilin().get(token)
    return None if code is None else (code[0], code[1], code[2:4])


def _all_cjk(token):
    return all("\u4e00" <= c <= "\u9fff" for c in token)


def sub_cost(a: str, b: str) -> float:
    ca, cb = _class(a), _class(b)
    if ca is None or cb is None:
        semantic = 4
    elif ca == cb:
        semantic = 0
    else:
        semantic = 2 * (3 - sum(x == y for x, y in zip(ca, cb)))
    a_punct, b_punct = a in ALIGN_PUNCT, b in ALIGN_PUNCT
    pos = 0.0 if a_punct and b_punct else (0.25 if not a_punct and not b_punct else 0.499)
    if not (_all_cjk(a) and _all_cjk(b)):
        char = 0.5
    else:
        x, y = (b, a) if len(a) > len(b) else (a, b)
        if x == y:
            char = 0
        else:
            confusion = resources.confusion()
            shared = set(resources.readings(x)) & set(resources.readings(y))
            count = 0
            for p in x:
                for q in y:
                    if p == q or shared or (q in confusion and p in confusion[q]) or (
                            p in confusion and q in confusion[p]):
                        count += 1
                        break
            char = (len(x) - count) / (len(x) * 2)
    return semantic / 6.0 + char + pos


def table(src: list[str], tgt: list[str]):
    n, m = len(src), len(tgt)
    cost = [[0.0] * (m + 1) for _ in range(n + 1)]
    ops: list[list[object]] = [["O"] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        cost[i][0] = cost[i - 1][0] + 1
        ops[i][0] = ["D"]
    for j in range(1, m + 1):
        cost[0][j] = cost[0][j - 1] + 1
        ops[0][j] = ["I"]
    for i in range(n):
        for j in range(m):
            if src[i] == tgt[j]:
                cost[i + 1][j + 1] = cost[i][j]
                ops[i + 1][j + 1] = ["M"]
                continue
            candidates = []
            trans = float("inf")
            k = 1
            while i - k >= 0 and j - k >= 0 and cost[i - k + 1][j - k + 1] != cost[i - k][j - k]:
                if sorted(src[i - k:i + 1]) == sorted(tgt[j - k:j + 1]):
                    trans = cost[i - k][j - k] + k
                    break
                k += 1
            candidates = [(trans, f"T{k + 1}"), (cost[i][j] + sub_cost(src[i], tgt[j]), "S"),
                          (cost[i + 1][j] + 1, "I"), (cost[i][j + 1] + 1, "D")]
            best = min(c for c, _ in candidates)
            cost[i + 1][j + 1] = best
            ops[i + 1][j + 1] = [op for c, op in candidates if c == best]
    return cost, ops


def paths(src: list[str], tgt: list[str]) -> list[tuple]:
    _, ops = table(src, tgt)
    first_only = abs(len(src) - len(tgt)) > 10
    found: list[tuple] = []

    def walk(i, j, tail):
        if i + j == 0:
            found.append(tuple(reversed(tail)))
            return
        cell = ops[i][j]
        for op in (cell[:1] if first_only else cell):
            if op in ("M", "S"):
                walk(i - 1, j - 1, tail + [(op, i - 1, i, j - 1, j)])
            elif op == "D":
                walk(i - 1, j, tail + [(op, i - 1, i, j, j)])
            elif op == "I":
                walk(i, j - 1, tail + [(op, i, i, j - 1, j)])
            else:
                k = int(op[1:])
                walk(i - k, j - k, tail + [(op, i - k, i, j - k, j)])

    walk(len(src), len(tgt), [])
    return found
