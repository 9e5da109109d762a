"""The one representation of edits, targets, samples and chunks used by every metric."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Sequence

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
