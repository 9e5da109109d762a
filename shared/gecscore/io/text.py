"""Parallel plain text: one tokenised sentence per line (UTF-8; a byte-order mark and CRLF line
ends are accepted)."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from gecscore.errors import GecInputError
from gecscore.io.user_files import read_text


def read_lines(path: str | Path, *, allow_empty: bool = True) -> list[str]:
    """Read a text file as lines (without line ends or a leading byte-order mark).

    ``-`` reads standard input. ``allow_empty=False`` rejects empty or blank lines (sources
    must have a token). The file is read by :func:`gecscore.io.user_files.read_text`: a missing
    file, anything that is not a regular file (a folder, a FIFO, a device, a socket, a link loop:
    refused before it is opened) and a file that is not UTF-8 text raise a
    :class:`GecInputError` naming the file (and line).
    """
    name = str(path)
    text = read_text(path, stdin=True)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [line.rstrip("\r") for line in lines]
    if not allow_empty:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                raise GecInputError("empty line (a source sentence needs at least one token)",
                                    f"{name}:{number}")
    return lines


def check_line_count(path: str | Path, lines: Sequence[str], expected: int, against: str) -> Sequence[str]:
    """``lines`` if there are ``expected`` of them; else an error naming the file, with a hint
    when the difference is a trailing blank line."""
    if len(lines) == expected:
        return lines
    hint = ""
    if len(lines) == expected + 1 and not lines[-1].strip():
        hint = " (the last line is blank: remove the extra empty line at the end of the file)"
    elif len(lines) + 1 == expected:
        hint = " (one line short: is the last sentence missing, or was an empty output line dropped?)"
    raise GecInputError(f"{len(lines)} lines but {against} has {expected}{hint}", str(path))
