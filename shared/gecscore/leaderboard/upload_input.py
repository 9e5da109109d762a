"""One system output handed in by a user (an uploaded file or pasted lines), read and checked
before any scoring, each problem one line a person can act on.

The file is read as the command line reads a system output (:func:`gecscore.io.text.read_lines`:
UTF-8, a byte-order mark and CRLF line ends accepted, a final newline ending the last line, not
adding one) and checked against the benchmark's gold by the command line's one hypothesis
reader (:func:`gecscore.io.hypotheses.parse_hypotheses`: the same line count, plain or parallel
lines), so what the leaderboard Space scores is exactly what ``gecscore leaderboard`` would
score of the same file. Before that, what the command line never meets in a file a user chose
on purpose, refused here with its cause:

- nothing given, an empty file (no byte, or only blank lines);
- a file above ``max_bytes`` (refused from its size, before it is read);
- anything but a regular file, binary content (a NUL byte) and bytes that are not UTF-8 (with
  the line), as the command line's reader refuses them (:mod:`gecscore.io.user_files`);
- a wrong number of lines: the count found and the count expected, and the likely cause (the
  command line's hints for one line more or less; another benchmark's size; lines that are not
  one sentence each);
- a line longer than ``max_line_tokens`` tokens or ``max_line_chars`` characters (a Space holds
  one worker for everyone; the I-measure refuses lines past ~730 tokens anyway).

Text that looks untokenised is not refused (the command line scores it too): :attr:`Output.warnings`
carries the command line's own warning, and the caller offers tokenisation (:func:`tokenised`).
"""
from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from gecscore.errors import GecInputError
from gecscore.io.hypotheses import ExpectedLines

@dataclass(frozen=True)
class OutputLimits:
    """The most one handed-in output may hold: bytes of the file, and tokens and characters of
    any one line."""

    max_bytes: int = 5_000_000
    max_line_tokens: int = 400
    max_line_chars: int = 4000

    def describe(self) -> str:
        return (f"Plain UTF-8 text, one sentence per line; at most {self.max_bytes / 1e6:g} MB and "
                f"{self.max_line_tokens} tokens per line.")


@dataclass(frozen=True)
class Output:
    """The checked lines of one output, how they came (``file`` or ``pasted``) and the warnings
    the command line would print about them (untokenised text)."""

    lines: tuple[str, ...]
    origin: str
    warnings: tuple[str, ...] = ()
    untokenised: bool = False


def read_output(path: str | Path | None, pasted: str | None, expected: ExpectedLines, *,
                limits: OutputLimits = OutputLimits(), other_sizes: Mapping[str, int] | None = None) -> Output:
    """The lines of an uploaded file (``path``), else of the ``pasted`` text, checked against
    ``expected`` (the benchmark's sources; ``other_sizes``: ``{benchmark label: sentences}`` of
    the other benchmarks, named when the count matches one). Raises :class:`GecInputError`."""
    if path is not None:
        lines, origin, where = _file_lines(Path(path), limits), "file", f"the uploaded file ({Path(path).name})"
    elif pasted is not None and pasted.strip():
        lines, origin, where = pasted_lines(pasted), "pasted", "the pasted text"
    else:
        raise GecInputError("no output: upload the system's output file, or paste its lines")
    if not any(line.strip() for line in lines):
        raise GecInputError(f"{where} is empty (no sentence in it)")
    _check_count(lines, expected, where, other_sizes or {})
    _check_lengths(lines, limits, where)
    from gecscore.io.hypotheses import parse_hypotheses

    predictions = parse_hypotheses(lines, where, expected).predictions
    warned = untokenised_warnings(predictions)
    return Output(tuple(predictions), origin, warned, bool(warned))


def pasted_lines(text: str) -> list[str]:
    """Pasted text as the lines of a file holding it: a CR before each line end dropped, a
    final line end ending the last line (a text box adds blank lines at its end: dropped)."""
    lines = [line.rstrip("\r") for line in text.lstrip("\ufeff").split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _file_lines(path: Path, limits: OutputLimits) -> list[str]:
    """The lines of an uploaded file as the command line reads a system output: through the one
    checked reader of user files (:func:`gecscore.io.text.read_lines` over
    :mod:`gecscore.io.user_files`: a path that is not a regular file is refused unopened; bytes
    that are not UTF-8, or a NUL byte, are refused at their line). Errors name the file by its
    name and line, never by the server's path of the upload."""
    from gecscore.io.text import read_lines
    from gecscore.io.user_files import check_file

    check_file(path, path.name)
    size = path.stat().st_size
    if size > limits.max_bytes:
        raise GecInputError(f"the file has {size:,} bytes; uploads are limited to {limits.max_bytes:,} "
                            f"(a system output of CoNLL-2014's 1,312 sentences is about 160 kB): is it the right "
                            f"file?", path.name)
    if size == 0:
        raise GecInputError("the uploaded file is empty (0 bytes)", path.name)
    try:
        return read_lines(path)
    except GecInputError as error:
        where = error.where or ""
        message = str(error)[len(where) + 2:] if where else str(error)
        line = where.rsplit(":", 1)[1] if where.startswith(f"{path}:") else None
        if "not UTF-8" in message or "NUL byte" in message:
            message += (": upload the system output as plain UTF-8 text, one sentence per line (a spreadsheet or a "
                        "word processor may have saved it otherwise)")
        raise GecInputError(message, f"{path.name}, line {line}" if line else path.name) from None


def _check_count(lines: Sequence[str], expected: ExpectedLines, where: str, other_sizes: Mapping[str, int]) -> None:
    """Refuse another count than the gold's with the command line's message (found, expected,
    its hint for one line more or less) and, where it has no hint, the likely cause. A parallel
    file (tabs) is left to the hypothesis reader, which matches its lines to the gold's."""
    from gecscore.io.text import check_line_count

    if any("\t" in line for line in lines):
        return
    try:
        check_line_count("", lines, len(expected), expected.described)   # "": the message alone
    except GecInputError as error:
        message = str(error)
        if not message.endswith(")"):   # the command line's hints end in a parenthesis
            message += f"; likely cause: {likely_cause(len(lines), len(expected), other_sizes)}"
        raise GecInputError(message, where) from None


def likely_cause(found: int, wanted: int, other_sizes: Mapping[str, int]) -> str:
    """Why an output has ``found`` lines where the benchmark has ``wanted`` sentences, beyond
    the command line's hints for one line more or less."""
    other = next((name for name, size in other_sizes.items() if size == found), None)
    if other is not None:
        return f"{found:,} is the size of {other}: choose that benchmark, or upload this one's output"
    if found > wanted:
        return "more lines than sentences: was a sentence split over several lines, or are two outputs in one file?"
    return ("fewer lines than sentences: were sentences joined on one line, or empty output lines dropped? Every "
            "source sentence needs its line, an unchanged or empty one included")


def _check_lengths(lines: Sequence[str], limits: OutputLimits, where: str) -> None:
    for number, line in enumerate(lines, start=1):
        if len(line) > limits.max_line_chars:
            raise GecInputError(f"a line of {len(line):,} characters; at most {limits.max_line_chars:,} per sentence "
                                "here (score longer ones with the gecscore command line)", f"{where}, line {number}")
        tokens = len(line.split())
        if tokens > limits.max_line_tokens:
            raise GecInputError(f"a line of {tokens:,} tokens; at most {limits.max_line_tokens:,} per sentence here "
                                "(score longer ones with the gecscore command line)", f"{where}, line {number}")


def untokenised_warnings(lines: Sequence[str]) -> tuple[str, ...]:
    """The warning the command line prints for these predictions when they look untokenised
    (:func:`gecscore.inputs.warn_if_untokenised`, its very text), else none."""
    from gecscore.inputs import warn_if_untokenised

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warn_if_untokenised(list(lines), "predictions", False)
    return tuple(str(w.message) for w in caught)


def tokenised(lines: Sequence[str], lang: str = "en") -> tuple[str, ...]:
    """The lines tokenised as ``tokenize=True`` tokenises predictions (spaCy for English; the
    language profile's tokeniser otherwise): what the command line scores of text it is told to
    tokenise."""
    from gecscore.lang.profiles import profile_for

    return tuple(profile_for(lang).predictions(list(lines), True))


def write_output(lines: Sequence[str], path: Path) -> Path:
    """The lines as a system output file (UTF-8, one line each, a final newline), which the
    command line reads back as the same lines."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write("".join(f"{line}\n" for line in lines))
    os.chmod(path, 0o600)
    return path
