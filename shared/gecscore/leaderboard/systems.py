"""The systems of a leaderboard: one per output file of a folder (text and/or hypothesis M2),
named by the file's stem. Only regular files are systems: anything else matching the pattern
(a FIFO, a socket, a device, a folder, a link loop) is skipped, named in one warning, and a file
that cannot be read or is not text is refused, before any work starts."""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from gecscore.errors import GecInputError
from gecscore.io.user_files import folder_files, read_text


@dataclass(frozen=True)
class SystemSource:
    """Where a system's output lives: its text file and/or an M2 file of its edits."""

    name: str
    text_path: Path | None = None
    hyp_m2_path: Path | None = None


def system_name(path: Path) -> str:
    """``AMU.txt`` and ``AMU.errant.m2`` are both system ``AMU``; ``GPT-3.5.txt`` (SEEDA) is
    ``GPT-3.5``: only the extension and, for M2, one alphabetic tag before it are dropped."""
    name = path.name
    if name.endswith(".m2"):
        stem, _, tag = name[:-3].rpartition(".")
        return stem if stem and tag.isalpha() else name[:-3]
    return name[:-4] if name.endswith(".txt") else name


def discover_systems(systems_dir: str | Path | None = None, hyp_m2_dir: str | Path | None = None,
                     only: Sequence[str] | None = None) -> list[SystemSource]:
    """Systems from ``systems_dir/*.txt`` and/or ``hyp_m2_dir/*.m2`` (sorted by name).

    With both folders, the hypothesis edits come from the M2 files and every system needs one.
    """
    if systems_dir is None and hyp_m2_dir is None:
        raise GecInputError("give a systems folder (*.txt) or a hypothesis M2 folder (*.m2)")
    texts = _by_name(systems_dir, "*.txt")
    m2s = _by_name(hyp_m2_dir, "*.m2")
    names = sorted(texts or m2s)
    if texts and hyp_m2_dir is not None:
        missing = [n for n in names if n not in m2s]
        if missing:
            raise GecInputError(f"no hypothesis M2 file for system(s) {', '.join(missing)}", str(hyp_m2_dir))
    if only:
        unknown = [n for n in only if n not in names]
        if unknown:
            raise GecInputError(f"unknown system(s) {', '.join(unknown)}; found: {', '.join(names)}")
        names = [n for n in names if n in set(only)]
    return [SystemSource(n, texts.get(n), m2s.get(n)) for n in names]


def _by_name(folder: str | Path | None, pattern: str) -> dict[str, Path]:
    """The files of ``folder`` matching ``pattern`` by system name. An entry that is not a
    regular file (a FIFO, a socket, a device, a folder, a link loop or a broken link) is never
    opened: it is skipped with one warning naming each. A system file this process cannot read,
    or that is not UTF-8 text, is refused naming it (and the line), before any scoring: the
    cells read the files later, in workers, some after minutes (:mod:`gecscore.io.user_files`;
    the outputs of a board are small, reading them twice costs little)."""
    if folder is None:
        return {}
    listed = folder_files(folder, pattern)
    if listed.skipped:
        warnings.warn(f"{folder}: {listed.skipped_line()}", UserWarning, stacklevel=3)
    found = {}
    for path in listed.files:
        name = system_name(path)
        if name in found:
            raise GecInputError(f"two files for system {name}: {found[name].name} and {path.name}", str(folder))
        read_text(path)
        found[name] = path
    if not found:
        raise GecInputError(f"no {pattern} files" + (" that can be read" if listed.skipped else ""), str(folder))
    return found
