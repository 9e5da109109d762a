"""Parallel plain text: one tokenised sentence per line."""
from __future__ import annotations

from pathlib import Path

from gecscore.errors import GecInputError


def read_lines(path: str | Path, *, allow_empty: bool = True) -> list[str]:
    """Read a text file as lines (UTF-8, without line ends).

    ``allow_empty=False`` rejects empty or blank lines (sources must have a token).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GecInputError("no such file", str(path)) from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [line.rstrip("\r") for line in lines]
    if not allow_empty:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                raise GecInputError("empty line (a source sentence needs at least one token)",
                                    f"{path}:{number}")
    return lines
