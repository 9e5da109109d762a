"""The one representation of edits, gold, targets, samples and chunks used by every metric."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Mapping, NamedTuple, Sequence

Tokens = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Edit:
    """A change from the source span ``[start, end)`` to the target span ``[tgt_start, tgt_end)``.

    ``correction`` holds the target tokens (empty for a deletion; ``start == end`` for an
    insertion). ``alternatives`` lists further acceptable corrections (M2 ``a||b``), the first
    one being ``correction`` itself. ``annotator`` is the M2 annotator id where known.
    """

    start: int
    end: int
    correction: Tokens
    type: str = ""
    tgt_start: int = -1
    tgt_end: int = -1
    alternatives: tuple[Tokens, ...] = ()
    annotator: int | None = None

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.end)

    @property
    def is_insertion(self) -> bool:
        return self.start == self.end

    def placed(self, tgt_start: int) -> "Edit":
        """This edit with its target span set, starting at ``tgt_start``."""
        return Edit(self.start, self.end, self.correction, self.type, tgt_start,
                    tgt_start + len(self.correction), self.alternatives, self.annotator)


@dataclass(frozen=True, slots=True)
class Target:
    """A corrected sentence (hypothesis or reference) with its edits against the source."""

    tokens: Tokens
    edits: tuple[Edit, ...]
    annotator: int | None = None

    @property
    def is_unchanged(self) -> bool:
        return not self.edits

    @classmethod
    def from_edits(cls, source: Sequence[str], edits: Sequence[Edit],
                   annotator: int | None = None) -> "Target":
        """Apply ``edits`` to ``source`` and return the target with placed edits.

        Edits are applied left to right in (start, end) order; an edit overlapping an
        earlier one of the same target is dropped (M2 files occasionally hold such pairs,
        and no sentence can realise both).
        """
        tokens: list[str] = []
        placed: list[Edit] = []
        pos = 0
        for edit in sorted(edits, key=lambda e: (e.start, e.end)):
            if edit.start < pos:
                continue
            tokens.extend(source[pos:edit.start])
            placed.append(edit.placed(len(tokens)))
            tokens.extend(edit.correction)
            pos = edit.end
        tokens.extend(source[pos:])
        return cls(tuple(tokens), tuple(placed), annotator)

    @classmethod
    def unchanged(cls, source: Sequence[str], annotator: int | None = None) -> "Target":
        return cls(tuple(source), (), annotator)


@dataclass(frozen=True, slots=True)
class GoldAlternative:
    """One annotator's correction of an error: one or more edits."""

    annotator: int
    edits: tuple[Edit, ...]


@dataclass(frozen=True, slots=True)
class GoldError:
    """An error of the I-measure gold: its mutually exclusive alternatives (one per annotator);
    ``required`` if every annotator corrected it."""

    id: str
    required: bool
    type: str
    alternatives: tuple[GoldAlternative, ...]


@dataclass(frozen=True)
class Gold:
    """One gold sentence, the representation every metric reads: the tokenised source and,
    per annotator id (ascending), that annotator's edits.

    The M2 reader, the I-measure XML reader and ERRANT on plain-text references (annotator k =
    reference k) all produce it. An annotator that saw no error maps to an empty edit tuple; a
    block without any annotation has no annotators (scorers treat it as one that made no edit).
    ``errors`` is the I-measure's grouping of the edits into errors when a file states it (XML);
    ``None`` means it is derived (:func:`gecscore.imeasure.gold.error_groups`). ``numann`` is the
    number of annotators a file declares (XML), else the number of annotators present.
    ``line``/``id``/``script`` say where the sentence came from.
    """

    source: Tokens
    annotations: Mapping[int, tuple[Edit, ...]]
    line: int = 0
    id: str = ""
    script: str = "1"
    errors: tuple[GoldError, ...] | None = None
    declared_annotators: int | None = field(default=None)

    def __hash__(self) -> int:  # the annotations mapping is never mutated after construction
        return hash((self.source, tuple(self.annotations.items()), self.errors, self.id))

    @classmethod
    def from_errors(cls, source: Sequence[str], errors: Sequence[GoldError], numann: int, *,
                    id: str = "", script: str = "1", line: int = 0) -> "Gold":
        """A gold stated as I-measure errors (the XML form): annotator k's edits are those of its
        alternatives, in error order. The file names only annotators that have an alternative;
        ``numann`` counts all, so annotators without edits get the smallest ids not used (ids
        0 and 7 stay 0 and 7: a gap in the ids adds no empty annotator)."""
        annotations: dict[int, list[Edit]] = {}
        for error in errors:
            for alt in error.alternatives:
                annotations.setdefault(alt.annotator, []).extend(alt.edits)
        for annotator in _unused_ids(annotations, numann - len(annotations)):
            annotations[annotator] = []
        return cls(tuple(source), {k: tuple(annotations[k]) for k in sorted(annotations)}, line, id,
                   script, tuple(errors), numann)

    @property
    def numann(self) -> int:
        """Annotators of this sentence: as declared by the file, else those present."""
        if self.declared_annotators is not None:
            return self.declared_annotators
        return len(self.annotations)

    @cached_property
    def _targets(self) -> tuple["Target", ...]:
        if not self.annotations:
            return (Target.unchanged(self.source, 0),)
        return tuple(Target.from_edits(self.source, edits, annotator)
                     for annotator, edits in self.annotations.items())

    def targets(self) -> tuple["Target", ...]:
        """One target per annotator (its edits applied); the unchanged source if there is no
        annotator. Built once and reused (a gold is shared by every system scored against it)."""
        return self._targets


def _unused_ids(used: Mapping[int, Any], count: int) -> list[int]:
    """The ``count`` smallest non-negative integers not in ``used``."""
    found: list[int] = []
    candidate = 0
    while len(found) < count:
        if candidate not in used:
            found.append(candidate)
        candidate += 1
    return found


@dataclass(frozen=True, slots=True)
class Sample:
    """One evaluation item: a tokenised source, one hypothesis and K >= 1 references."""

    source: Tokens
    hypothesis: Target
    references: tuple[Target, ...]
    index: int = 0

    def kept_references(self) -> tuple[Target, ...]:
        """References with at least one token; reference 0 alone if all are empty.

        The hypothesis is never dropped, even when empty.
        """
        kept = tuple(ref for ref in self.references if ref.tokens)
        return kept if kept else self.references[:1]


class Chunk(NamedTuple):
    """A span of the source and what one target makes of it.

    A chunk is *changed* (corrected, or dummy with an insertion) iff it has types.
    (A named tuple: partitions create hundreds of thousands of chunks per leaderboard.)
    """

    start: int
    end: int
    source: Tokens
    target: Tokens
    types: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(self.types)

    @property
    def length(self) -> int:
        """max(len(source), len(target)): the chunk length used by length weighting."""
        return max(len(self.source), len(self.target))


@dataclass(frozen=True, slots=True)
class ChunkPartition:
    """All targets of a sample cut into the same number of chunks over the source."""

    spans: tuple[tuple[int, int], ...]
    hypothesis: tuple[Chunk, ...]
    references: tuple[tuple[Chunk, ...], ...]

    def __len__(self) -> int:
        return len(self.spans)

    def hypothesis_lengths(self) -> tuple[int, ...]:
        """``Chunk.length`` of each hypothesis chunk (what length weighting reads)."""
        return tuple(chunk.length for chunk in self.hypothesis)


GOLD_ORIGINS = ("m2", "xml", "errant", "none")
#: the formats of a gold that a metric prepares from (``Metric.gold_format``): ``m2``, sentences
#: with each annotator's edits (an M2 file's, or extracted from references), or ``xml``, the
#: I-measure's XML gold of the same sentences
GOLD_FORMATS = ("m2", "xml")


@dataclass(frozen=True)
class GoldCorpus:
    """The gold of a corpus and where its edits come from (a fact of every signature).

    ``origin``: ``m2`` (an M2 file's edits), ``xml`` (an I-measure XML gold), ``errant`` (ERRANT
    on plain-text references) or ``none`` (sources only: reference-free metrics).
    """

    sentences: tuple[Gold, ...]
    origin: str
    path: str = ""
    # the signature facts of the profile that extracted the edits (e.g. ERRANT's and spaCy's versions)
    extracted_by: tuple[tuple[str, str], ...] = ()

    def __len__(self) -> int:
        return len(self.sentences)

    @property
    def sources(self) -> list[str]:
        return [" ".join(sentence.source) for sentence in self.sentences]

    def facts(self) -> tuple[tuple[str, str], ...]:
        """What a signature records of this gold: references per sentence and the edits' origin."""
        return (("refs", self.references_label()), ("gold", self.origin), *self.extracted_by)

    def references_label(self) -> str:
        """The number of references (annotators) per sentence, or ``var`` when it varies."""
        counts = {max(1, len(sentence.annotations)) for sentence in self.sentences}
        return str(counts.pop()) if len(counts) == 1 else ("var" if counts else "0")
