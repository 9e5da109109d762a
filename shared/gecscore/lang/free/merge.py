"""Merging aligned steps into edits without a parse (``free-1`` rules).

:func:`merge` with ``strategy="rules"`` (the default) follows the shape of ERRANT 3.0.2's
English rule merger (``errant/en/merger.py``), keeping every rule that needs no parse and
dropping the rest:

1. the steps are cut into runs: matches end a run; a transposition is always an edit of its own;
   every other run of adjacent D/I/S steps is processed as follows (:func:`_process`);
2. a run of one step is one edit; a run of only deletions, or only insertions, is one edit;
3. sub-spans containing a substitution are tried from the longest to the shortest (ties: from
   the left), and the first rule that applies decides:

   a. **case change** (the last source and target tokens equal when lowercased): merged with
      the first token when at the start of the run and the other side has one token starting
      with a capital (``Cat`` -> ``The cat``); merged with the previous step when the
      second-to-last token of either side is punctuation (``, we`` -> ``. We``);
   b. **whitespace, hyphens and apostrophes**: the sub-span is one edit when both sides are
      the same string once lowercased, joined, and stripped of ``'``, ``’``, ``ʼ``, ``-``
      (``a cat`` -> ``acat``, ``будь - який`` -> ``будь-який``);
   c. on sub-spans of two steps only: two adjacent substitutions are split; a substitution at
      either end whose tokens are more than 75% similar (``1 - char_cost``) is split off;

4. when no rule split the run: it is one edit if it holds a *word* token (letters or numbers:
   ERRANT's "content word" test, which reads open-class POS, without the POS), else its steps
   stay separate (punctuation next to punctuation).

Dropped, because they need a parse: ERRANT's possessive rule (``POS`` tag), its same-POS /
verb-phrase merge and its final-determiner split. So a free-profile edit can be longer than
ERRANT's where ERRANT split a determiner off, and shorter where ERRANT merged a verb phrase.

``strategy="all-split"`` makes every non-match step an edit (ERRANT's ``--merge all-split``);
``"all-merge"`` merges every run of adjacent non-match steps (``all-merge``; transpositions
still alone, as in ERRANT).
"""
from __future__ import annotations

import re
import unicodedata
from itertools import groupby
from typing import Sequence

from gecscore.lang.free.align import NUMBER, WORD, Step, token_class
from gecscore.strings import lcs_length

STRATEGIES = ("rules", "all-split", "all-merge")
_JOINERS = re.compile("['\u2019\u02bc\\-]")


def is_punct(token: str) -> bool:
    """Every character is punctuation (Unicode ``P*``)."""
    return bool(token) and all(unicodedata.category(ch)[0] == "P" for ch in token)


def _similarity(a: str, b: str) -> float:
    total = len(a) + len(b)
    return 1.0 if total == 0 else 1.0 - (total - 2 * lcs_length(a, b)) / total


def _merged(steps: Sequence[Step]) -> list[Step]:
    if not steps:
        return []
    return [("X", steps[0][1], steps[-1][2], steps[0][3], steps[-1][4])]


def _process(run: list[Step], src: Sequence[str], tgt: Sequence[str]) -> list[Step]:
    if len(run) <= 1:
        return run
    ops = [step[0] for step in run]
    if set(ops) in ({"D"}, {"I"}):
        return _merged(run)
    spans = [(start, end) for width in range(len(run) - 1, 0, -1) for start in range(len(run) - width)
             for end in (start + width,)]
    content = False
    for start, end in spans:
        if "S" not in ops[start:end + 1]:
            continue
        o = src[run[start][1]:run[end][2]]
        c = tgt[run[start][3]:run[end][4]]
        if o[-1].lower() == c[-1].lower():
            if start == 0 and ((len(o) == 1 and c[0][:1].isupper()) or (len(c) == 1 and o[0][:1].isupper())):
                return _merged(run[start:end + 1]) + _process(run[end + 1:], src, tgt)
            if (len(o) > 1 and is_punct(o[-2])) or (len(c) > 1 and is_punct(c[-2])):
                return (_process(run[:end - 1], src, tgt) + _merged(run[end - 1:end + 1])
                        + _process(run[end + 1:], src, tgt))
        if _JOINERS.sub("", "".join(o).lower()) == _JOINERS.sub("", "".join(c).lower()):
            return _process(run[:start], src, tgt) + _merged(run[start:end + 1]) + _process(run[end + 1:], src, tgt)
        if end - start < 2:
            if len(o) == len(c) == 2:
                return _process(run[:start + 1], src, tgt) + _process(run[start + 1:], src, tgt)
            if (ops[start] == "S" and _similarity(o[0], c[0]) > 0.75) or \
                    (ops[end] == "S" and _similarity(o[-1], c[-1]) > 0.75):
                return _process(run[:start + 1], src, tgt) + _process(run[start + 1:], src, tgt)
        if any(token_class(t) in (WORD, NUMBER) and not is_punct(t) for t in (*o, *c)):
            content = True
    return _merged(run) if content else run


def merge(steps: Sequence[Step], src: Sequence[str], tgt: Sequence[str], strategy: str = "rules") -> list[Step]:
    """The edits (``(op, src_start, src_end, tgt_start, tgt_end)``; ``X`` for a merged span) of
    an alignment, by ``strategy`` (see the module docstring)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown merge strategy {strategy!r}; expected one of: {', '.join(STRATEGIES)}")
    edits: list[Step] = []
    for kind, group in groupby(steps, key=lambda step: step[0][0] if step[0][0] in "MT" else "other"):
        group = list(group)
        if kind == "M":
            continue
        if kind == "T" or strategy == "all-split":
            edits.extend(group)
        elif strategy == "all-merge":
            edits.extend(_merged(group))
        else:
            edits.extend(_process(group, src, tgt))
    return edits
