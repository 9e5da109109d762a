"""The M2 format: ``S`` source lines followed by ``A start end|||type|||correction|||...|||annotator``.

Handles several annotators per sentence, ``noop`` lines (``A -1 -1``: the annotator saw no
error), ``-NONE-`` or an empty correction (deletion), ``||``-separated alternative
corrections and any edit type. A malformed line raises :class:`M2FormatError` naming the
file and line.
"""
from __future__ import annotations

import warnings
from pathlib import Path
from typing import Iterable, Iterator

from gecscore.errors import M2FormatError
from gecscore.types import Edit, Gold, Target, Tokens

NOOP_TYPE = "noop"
DELETION = "-NONE-"


def _parse_correction(text: str) -> tuple[Tokens, ...]:
    alternatives = []
    for alt in text.split("||"):
        alt = alt.strip()
        alternatives.append(() if alt in ("", DELETION) else tuple(alt.split()))
    return tuple(alternatives)


def _parse_edit(line: str, n_tokens: int, where: str, strict: bool = True) -> Edit | None:
    fields = line[2:].split("|||")
    if len(fields) < 3:
        raise M2FormatError("an A line needs 'start end|||type|||correction|||...|||annotator'", where)
    span = fields[0].split()
    if len(span) != 2:
        raise M2FormatError(f"expected 'start end' before the first '|||', got {fields[0]!r}", where)
    try:
        start, end = int(span[0]), int(span[1])
    except ValueError:
        raise M2FormatError(f"edit offsets must be integers, got {fields[0]!r}", where) from None
    annotator_field = fields[5] if len(fields) > 5 else "0"
    try:
        annotator = int(annotator_field.strip() or 0)
    except ValueError:
        raise M2FormatError(f"annotator id must be an integer, got {annotator_field!r}", where) from None
    edit_type = fields[1]
    if start == -1 and end == -1 or edit_type.lower() == NOOP_TYPE:
        return Edit(-1, -1, (), NOOP_TYPE, annotator=annotator)
    if not 0 <= start <= end <= n_tokens:
        if strict or not 0 <= start <= end:
            raise M2FormatError(
                f"edit span [{start}, {end}) is outside the {n_tokens}-token source sentence", where)
        # Lenient: an edit past the end applies at the end, as Python slicing in the
        # reference tools does (SN-8GEC has a few such insertions).
        warnings.warn(f"{where}: edit span [{start}, {end}) is past the end of the {n_tokens}-token "
                      f"source; applied at the end", stacklevel=4)
        start, end = min(start, n_tokens), min(end, n_tokens)
    alternatives = _parse_correction(fields[2])
    return Edit(start, end, alternatives[0], edit_type, alternatives=alternatives,
                annotator=annotator)


def parse_m2(lines: Iterable[str], path: str = "<m2>", strict: bool = True) -> Iterator[Gold]:
    """Yield the sentences of an M2 text given as lines.

    ``strict=False`` accepts edit spans past the end of the sentence (applied at the end,
    with a warning naming the line) instead of rejecting them.
    """
    source: Tokens | None = None
    start_line = 0
    annotations: dict[int, list[Edit]] = {}
    number_of_sentences = 0

    def finish() -> Gold:
        nonlocal number_of_sentences
        number_of_sentences += 1
        ordered = {ann: tuple(e for e in annotations[ann] if e.type != NOOP_TYPE)
                   for ann in sorted(annotations)}
        return Gold(source, ordered, start_line, str(number_of_sentences))

    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        where = f"{path}:{number}"
        if not line.strip():
            if source is not None:
                yield finish()
                source, annotations = None, {}
            continue
        if line.startswith("S"):
            if line != "S" and not line.startswith("S "):
                raise M2FormatError(f"unknown line type {line[:10]!r}", where)
            if source is not None:
                yield finish()
                annotations = {}
            source = tuple(line[2:].split())
            start_line = number
            if not source:
                raise M2FormatError("empty source sentence", where)
        elif line.startswith("A ") or line == "A":
            if source is None:
                raise M2FormatError("A line before any S line", where)
            edit = _parse_edit(line, len(source), where, strict)
            annotations.setdefault(edit.annotator, []).append(edit)
        else:
            raise M2FormatError(f"expected a line starting with 'S ' or 'A ', got {line[:20]!r}", where)
    if source is not None:
        yield finish()


def read_m2(path: str | Path, strict: bool = True) -> list[Gold]:
    """Read an M2 file (UTF-8, a byte-order mark and CRLF accepted; ``-`` is standard input).
    See :func:`parse_m2` for ``strict``. A missing file, a folder or bytes that are not UTF-8
    raise a :class:`GecInputError` naming the file (and line)."""
    from gecscore.io.text import read_lines

    return list(parse_m2(read_lines(path), str(path), strict))


def format_m2(source: Tokens, targets: Iterable[Target], *, deletion: str = "") -> str:
    """Write one M2 block: a noop line for an annotator without edits. A deletion's correction
    is written as ``deletion`` (ERRANT writes an empty string, ChERRANT ``-NONE-``)."""
    lines = ["S " + " ".join(source)]
    for index, target in enumerate(targets):
        annotator = target.annotator if target.annotator is not None else index
        if not target.edits:
            lines.append(f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{annotator}")
        for edit in target.edits:
            correction = "||".join(" ".join(alt) or deletion for alt in (edit.alternatives or (edit.correction,)))
            lines.append(f"A {edit.start} {edit.end}|||{edit.type}|||{correction}|||REQUIRED|||-NONE-|||{annotator}")
    return "\n".join(lines) + "\n"
