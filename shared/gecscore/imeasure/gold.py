"""The I-measure's view of a gold: its edits grouped into errors with alternatives.

The XML gold states the groups; for an M2 gold or plain-text references they are derived as
the reference M2 -> XML converter does, so converted files are byte-identical to its output.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Iterable, Sequence

from gecscore.types import Edit, Gold, GoldAlternative, GoldError


_MASK64 = (1 << 64) - 1


def _py2_str_hash(text: str) -> int:
    """Python 2's (64-bit, unrandomised) hash of a byte string."""
    data = text.encode("utf-8")
    if not data:
        return 0
    x = (data[0] << 7) & _MASK64
    for byte in data:
        x = ((1000003 * x) & _MASK64) ^ byte
    x = (x ^ len(data)) & _MASK64
    if x >= 1 << 63:
        x -= 1 << 64
    return -2 if x == -1 else x


def py2_set_order(items: Iterable[str]) -> list[str]:
    """The distinct ``items`` in the iteration order of a Python 2 ``set`` built from them.

    The reference converter writes an error's type as ``'/'.join(set(types))``; this
    reproduces that order (open addressing with perturbation, as in CPython 2.7's
    setobject.c) so that converted files are byte-identical.
    """
    mask, used, table = 7, 0, [None] * 8

    def insert(slots: list, slot_mask: int, key: str, key_hash: int) -> bool:
        i, perturb = key_hash & slot_mask, key_hash & _MASK64
        while slots[i & slot_mask] is not None:
            if slots[i & slot_mask][0] == key:
                return False
            i = (i << 2) + i + perturb + 1
            perturb >>= 5
        slots[i & slot_mask] = (key, key_hash)
        return True

    for item in items:
        if insert(table, mask, item, _py2_str_hash(item)):
            used += 1
            if used * 3 >= (mask + 1) * 2:
                size, wanted = 8, used * 4 if used <= 50000 else used * 2
                while size <= wanted:
                    size <<= 1
                old, table, mask = table, [None] * size, size - 1
                for entry in old:
                    if entry is not None:
                        insert(table, mask, entry[0], entry[1])
    return [entry[0] for entry in table if entry is not None]


def _overlaps(a: Edit, b: Edit) -> bool:
    """The converter's overlap: same span; an insertion strictly inside the other span;
    otherwise ordinary interval overlap."""
    if (a.start, a.end) == (b.start, b.end):
        return True
    if a.start == a.end:
        return b.start < a.start < b.end
    if b.start == b.end:
        return a.start < b.start < a.end
    return a.start < b.end and b.start < a.end


def cluster_edits(edits: Sequence[Edit]) -> list[list[Edit]]:
    """Group edits into errors: longest span first (stable), each into the first cluster it
    overlaps; clusters ordered by their first edit's (start, end)."""
    clusters: list[list[Edit]] = []
    for edit in sorted(edits, key=lambda e: e.end - e.start, reverse=True):
        for cluster in clusters:
            if any(_overlaps(edit, member) for member in cluster):
                cluster.append(edit)
                break
        else:
            clusters.append([edit])
    clusters.sort(key=lambda cluster: (cluster[0].start, cluster[0].end))
    return clusters


@lru_cache(maxsize=16384)
def derived_error_groups(gold: Gold) -> tuple[GoldError, ...]:
    """The reference converter's grouping of a gold's edits into errors (first correction of
    each edit): clusters of overlapping edits (:func:`cluster_edits`), each with one alternative
    per annotator; ``required`` when every annotator of the sentence has an edit in it; the
    type is the '/'-joined types in Python 2 set order (byte-identical XML)."""
    edits = [Edit(e.start, e.end, e.correction, e.type, annotator=ann)
             for ann, ann_edits in gold.annotations.items() for e in ann_edits]
    annotators = set(gold.annotations)
    errors = []
    for number, cluster in enumerate(cluster_edits(edits), start=1):
        by_annotator: dict[int, list[Edit]] = {}
        for edit in cluster:
            by_annotator.setdefault(edit.annotator, []).append(edit)
        alternatives = tuple(GoldAlternative(ann, tuple(by_annotator[ann])) for ann in sorted(by_annotator))
        types = "/".join(py2_set_order(edit.type for alt in alternatives for edit in alt.edits))
        errors.append(GoldError(str(number), set(by_annotator) >= annotators, types, alternatives))
    return tuple(errors)


def error_groups(gold: Gold) -> tuple[GoldError, ...]:
    """The I-measure errors of a gold sentence: as its file states them (XML), else derived."""
    return gold.errors if gold.errors is not None else derived_error_groups(gold)


def with_error_groups(gold: Gold, sentence_id: str | None = None, script: str | None = None) -> Gold:
    """``gold`` with its error groups stated (what the XML writer needs), optionally renamed."""
    return replace(gold, errors=error_groups(gold), id=gold.id if sentence_id is None else sentence_id,
                   script=gold.script if script is None else script, declared_annotators=gold.numann)


def m2_to_ixml(sentences: Sequence[Gold]) -> list[Gold]:
    """A whole M2 file as the converter writes it: sentence ids 1..N in one script."""
    return [with_error_groups(sentence, str(number), "1") for number, sentence in enumerate(sentences, start=1)]
