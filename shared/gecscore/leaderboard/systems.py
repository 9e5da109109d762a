"""The systems of a leaderboard: one per output file of a folder (text and/or hypothesis M2),
named by the file's stem."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from gecscore.errors import GecInputError


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
    if folder is None:
        return {}
    folder = Path(folder)
    if not folder.is_dir():
        raise GecInputError("not a folder", str(folder))
    found = {}
    for path in sorted(folder.glob(pattern)):
        name = system_name(path)
        if name in found:
            raise GecInputError(f"two files for system {name}: {found[name].name} and {path.name}", str(folder))
        found[name] = path
    if not found:
        raise GecInputError(f"no {pattern} files", str(folder))
    return found

