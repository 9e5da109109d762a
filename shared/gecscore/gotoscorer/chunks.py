"""GoToScorer's chunks of a sentence, and whether a system's chunks correct a reference chunk.

**Chunks** of one edit sequence over ``n`` source tokens (edits sorted, non-overlapping): left
to right, an edit starting at the current token is one chunk (``edited``), every other token
is a chunk of its own (its correction: the token itself); an insertion at the end (start =
n) is the last chunk. Then an empty insertion slot ``(i, i, "")`` goes before every chunk that
is not an insertion and does not follow an insertion, and after the last chunk unless that is
an insertion: so every gap between tokens holds exactly one insertion chunk (an edit or a
slot). Unedited chunks carry the type ``DUMMY``.

**Annotation** of a reference chunk ``c`` against a system's chunks, scanned in order:

- a system chunk with the same span: correct iff the same correction; tried iff that chunk is
  an edit; stop;
- else, when ``c`` is an insertion (start = end): correct (kept unless a same-span chunk follows);
- else, a system chunk overlapping ``c`` (``c.start <= h.start < c.end`` or
  ``h.start <= c.start < h.end``) that is an edit makes ``c`` tried.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from gecscore.types import Edit

DUMMY = "DUMMY:DUMMY"
IGNORED_TYPES = ("noop", "UNK")


@dataclass(frozen=True, slots=True)
class Chunk:
    start: int
    end: int
    correction: str
    type: str = DUMMY
    edited: bool = False

    @property
    def is_insertion(self) -> bool:
        return self.start == self.end


def kept_edits(edits: Sequence[Edit]) -> list[Edit]:
    """The edits GoToScorer scores: ``noop`` and ERRANT's ``UNK`` edits dropped, in span order."""
    return sorted((e for e in edits if e.type not in IGNORED_TYPES), key=lambda e: (e.start, e.end))


def chunks_of(edits: Sequence[Edit], source: Sequence[str]) -> list[Chunk]:
    """The chunk sequence of ``edits`` over ``source`` (module docstring)."""
    edits = kept_edits(edits)
    made: list[Chunk] = []
    position, next_edit = 0, 0
    while position < len(source):
        if next_edit < len(edits) and edits[next_edit].start == position:
            e = edits[next_edit]
            made.append(Chunk(e.start, e.end, " ".join(e.correction), e.type, True))
            next_edit += 1
            position = max(e.end, position + (0 if e.start == e.end else 1))
        else:
            made.append(Chunk(position, position + 1, source[position]))
            position += 1
    if edits and edits[-1].start == len(source):
        e = edits[-1]
        made.append(Chunk(e.start, e.end, " ".join(e.correction), e.type, True))
    out: list[Chunk] = []
    after_insertion = False
    for chunk in made:
        if chunk.is_insertion:
            out.append(chunk)
            after_insertion = True
            continue
        if not after_insertion:
            out.append(Chunk(chunk.start, chunk.start, ""))
        out.append(chunk)
        after_insertion = False
    if not after_insertion:
        end = made[-1].end if made else 0
        out.append(Chunk(end, end, ""))
    return out


def annotate(reference: Chunk, system: Sequence[Chunk]) -> tuple[bool, bool]:
    """(correct, tried) of one reference chunk against a system's chunks (module docstring)."""
    correct, tried = False, False
    for h in system:
        if (h.start, h.end) == (reference.start, reference.end):
            return h.correction == reference.correction, h.edited
        if reference.is_insertion:
            correct = True
        elif reference.start <= h.start < reference.end or h.start <= reference.start < h.end:
            tried |= h.edited
    return correct, tried
