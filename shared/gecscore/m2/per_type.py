"""Per-error-type scores of the M2 family (M2, SentM2, PT-M2, ERRANT, PT-ERRANT).

Granularities, as ``errant_compare -cat``: ``operation`` (1: ``M``/``R``/``U``), ``main`` (2:
``NOUN``, ``VERB:TENSE``...) and ``full`` (3: ``R:NOUN``). ``UNK`` stays ``UNK``. Types that are
not ERRANT's (an M2 file's own, e.g. NUCLE's ``Vt``, ``ArtOrDet``) have no operation or main
part and are kept as they are at every granularity, so an official CoNLL-2014 gold is reported
by its NUCLE types.

Two counting rules, each the one its base's users know:

- **ERRANT base** (``base="errant"``): ERRANT's own per-type counts
  (:mod:`gecscore.m2.errant_compare`, its reference choice and tie-breaks): a true positive is
  counted once per *reference* type of the matched edit, a false positive per *hypothesis*
  type, a false negative per reference type. So the table equals ``errant_compare -cat N`` (and
  ``gecscore errant -cat N``) on the same edits. Counts are unweighted (PT-ERRANT's weights are
  not split by type); the totals can differ from the M2-choice counts of the headline score in
  the sentences where ERRANT's reference choice (rounded running F) differs from M2's.
- **MaxMatch base** (``base="m2"``): the headline score's own counts, split by type: per
  sentence the chosen annotator (M2's choice), each correct system edit counted under the type
  of the gold edit it matches, each missed gold edit under its type, and each wrong system
  edit (FP) under the type of the gold edit whose span it overlaps (:func:`addressed_gold`: a
  wrong correction of an annotated error) or ``unannotated`` when it overlaps none (MaxMatch
  edits have no type of their own). With a scorer (PT-M2) the
  counts are the edit weights. Summed over types, TP and FN equal the headline totals; FP too.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from gecscore.errors import GecInputError
from gecscore.m2.errant_compare import CompareOptions, compare, f_score, gold_edits, target_edits
from gecscore.options import PER_TYPE_GRANULARITIES as GRANULARITIES
from gecscore.types import Edit, Gold, Target

UNKNOWN = "UNK"
UNANNOTATED = "unannotated"


def type_at(error_type: str, granularity: str) -> str:
    """``error_type`` at ``granularity``; non-ERRANT types (no ``X:`` prefix) unchanged."""
    if granularity not in GRANULARITIES:
        raise GecInputError(f"unknown per-type granularity {granularity!r}; expected one of: "
                            f"{', '.join(GRANULARITIES)}")
    if granularity == "full" or error_type == UNKNOWN or error_type[1:2] != ":" or error_type[0] not in "MRU":
        return error_type
    return error_type[0] if granularity == "operation" else error_type[2:]


def merge(categories: dict[str, Sequence[float]], granularity: str) -> dict[str, list[float]]:
    """Per-type [TP, FP, FN] merged at ``granularity``."""
    table: dict[str, list[float]] = {}
    for name, counts in categories.items():
        merged = table.setdefault(type_at(name, granularity), [0, 0, 0])
        for i in range(3):
            merged[i] += counts[i]
    return table


def table_dict(categories: dict[str, Sequence[float]], granularity: str, beta: float, rule: str) -> dict:
    """The JSON form: ``{"granularity", "rule", "types": {type: {tp, fp, fn, p, r, f}}}``, types
    sorted by name; P/R/F as ERRANT computes them (4 decimals)."""
    types = {}
    for name, (tp, fp, fn) in sorted(merge(categories, granularity).items()):
        p, r, f = f_score(tp, fp, fn, beta)
        types[name] = {"tp": tp, "fp": fp, "fn": fn, "p": p, "r": r, "f": f}
    return {"granularity": granularity, "rule": rule, "types": types}


def errant_categories(gold: Sequence[Gold], hypotheses: Sequence[Target], beta: float) -> dict[str, list[int]]:
    """ERRANT's per-type [TP, FP, FN] (full types) of ERRANT hypothesis edits against the gold."""
    hyp = [target_edits(sentence.source, target, 0) for sentence, target in zip(gold, hypotheses)]
    ref = [gold_edits(sentence) for sentence in gold]
    return compare(hyp, ref, CompareOptions(beta=beta)).categories


def addressed_gold(edit: Edit, gold: Sequence[Edit]) -> Edit | None:
    """The gold edit a wrong system edit addresses: the first whose span it overlaps; an
    insertion at ``k`` (or a gold insertion) counts as overlapping a span it touches, preferring
    the gold edit that starts at ``k`` ("an" inserted before "apple" addresses "apple ->
    apples", not the edit ending there)."""
    def overlaps(g: Edit) -> bool:
        if edit.start == edit.end or g.start == g.end:
            return g.start <= edit.end and edit.start <= g.end
        return edit.start < g.end and g.start < edit.end

    found = [g for g in gold if overlaps(g)]
    if edit.start == edit.end:
        found.sort(key=lambda g: g.start != edit.start)   # stable: those starting at k first
    return found[0] if found else None


def maxmatch_categories(result) -> dict[str, list[float]]:
    """Per-type [TP, FP, FN] of a :class:`gecscore.m2.pt_m2.PtM2Result` (MaxMatch base), from
    each sentence's chosen candidate (module docstring); weights when the result has them."""
    from gecscore.m2.pt_m2 import edit_key

    categories: dict[str, list[float]] = {}

    def add(name: str, column: int, amount: float) -> None:
        categories.setdefault(name or UNKNOWN, [0, 0, 0])[column] += amount

    for choice, per_sentence in zip(result.sentences, result.candidates):
        chosen = per_sentence[choice.choice]
        weights = chosen.weights

        def weight(edit: Edit) -> float:
            return weights[edit_key(edit)] if weights else 1

        gold_by_key: dict = {}
        for edit in chosen.edits.gold:
            gold_by_key.setdefault(edit_key(edit), edit)
        for edit in chosen.edits.correct:
            add(gold_by_key.get(edit_key(edit), edit).type, 0, weight(edit))
        # multisets: an edit listed twice (system or gold) counts twice, as in the totals
        unmatched_system = Counter(edit_key(e) for e in chosen.edits.correct)
        for edit in chosen.edits.system:
            if unmatched_system[edit_key(edit)] > 0:
                unmatched_system[edit_key(edit)] -= 1
                continue
            addressed = addressed_gold(edit, chosen.edits.gold)
            add(addressed.type if addressed is not None else UNANNOTATED, 1, weight(edit))
        unmatched_gold = Counter(edit_key(e) for e in chosen.edits.correct)
        for edit in chosen.edits.gold:
            if unmatched_gold[edit_key(edit)] > 0:
                unmatched_gold[edit_key(edit)] -= 1
                continue
            add(edit.type, 2, weight(edit))
    return categories
