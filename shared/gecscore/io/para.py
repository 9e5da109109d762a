"""ChERRANT's parallel format: ``id \\t source \\t target1 \\t target2 ...`` one sentence a line.

Used by MuCGEC (references: 1 to 7 targets a line) and by system outputs (one prediction a
line). As ChERRANT's ``parallel_to_m2.py`` reads it: UTF-8 (a byte-order mark and CRLF are
accepted here), blank lines at the start and end of the file ignored (ChERRANT strips the whole
text), fields split on tabs. The targets ``没有错误`` ("no error") and ``无法标注`` ("cannot be
annotated") are kept as text: the annotator turns them into a ``noop`` and an ``NA`` marker.

ChERRANT crashes on a blank line inside the file, a line without a target and an empty source
or target; here each is a :class:`~gecscore.errors.GecInputError` naming ``file:line``.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gecscore.errors import GecInputError
from gecscore.io.text import read_lines


@dataclass(frozen=True, slots=True)
class ParallelFile:
    """The lines of a parallel file: ids, sources and each line's targets (raw text)."""

    path: str
    ids: tuple[str, ...]
    sources: tuple[str, ...]
    targets: tuple[tuple[str, ...], ...]
    lines: tuple[int, ...]  # the 1-based line number of each entry

    def __len__(self) -> int:
        return len(self.sources)

    def where(self, index: int) -> str:
        return f"{self.path}:{self.lines[index]}"


def parse_para(lines: list[str], path: str = "<para>") -> ParallelFile:
    """The entries of a parallel text given as lines (see the module docstring)."""
    first, last = 0, len(lines)
    while first < last and not lines[first].strip():
        first += 1
    while last > first and not lines[last - 1].strip():
        last -= 1
    ids, sources, targets, numbers = [], [], [], []
    for number in range(first + 1, last + 1):
        line = lines[number - 1]
        where = f"{path}:{number}"
        if not line.strip():
            raise GecInputError("blank line inside the file (expected 'id<TAB>source<TAB>target...')", where)
        fields = line.split("\t")
        if len(fields) < 3:
            raise GecInputError(f"expected 'id<TAB>source<TAB>target[<TAB>target...]', got "
                                f"{len(fields)} tab-separated field(s)", where)
        if not "".join(fields[1].split()):
            raise GecInputError("empty source sentence", where)
        for k, target in enumerate(fields[2:], start=1):
            if not "".join(target.split()):
                raise GecInputError(f"target {k} is empty (write 没有错误 for an unchanged sentence)", where)
        ids.append(fields[0])
        sources.append(fields[1])
        targets.append(tuple(fields[2:]))
        numbers.append(number)
    return ParallelFile(path, tuple(ids), tuple(sources), tuple(targets), tuple(numbers))


def read_para(path: str | Path) -> ParallelFile:
    """Read a parallel file (``-``: standard input)."""
    return parse_para(read_lines(path), str(path))
