"""The one reader of a system's output file, plain or parallel, checked against the gold.

A hypothesis file is either

- **plain**: one prediction a line, no tab anywhere (a blank line is an empty prediction); or
- **parallel** (ChERRANT's format): ``id<TAB>source<TAB>prediction`` on every line.

The format is decided for the whole file, never line by line: one tab anywhere makes it
parallel, and then every line must be a parallel line with exactly one prediction. A line
that lost a column (``id<TAB>prediction``), gained one, or has no tab in a parallel file is
refused, naming ``file:line``: read as plain text it would become a prediction and give a
wrong score with exit 0. (No system output in the evaluation data has a tab in a plain line;
a tab in a prediction is a damaged file far more often than a sentence.)

A parallel file's lines are matched against the gold, line by line: its ids against the gold's
ids when the gold has ids (a parallel gold), and its sources against the gold's sources always.
Sources are compared without whitespace (the gold's may be tokenised or split into characters,
the file's raw), so a file in another order than the gold, or of another corpus, is refused
before any scoring. The metric commands and the leaderboard read through :func:`read_hypotheses`.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from gecscore.errors import GecInputError

PARALLEL_LINE = "id<TAB>source<TAB>prediction"


@dataclass(frozen=True, slots=True)
class ExpectedLines:
    """What a hypothesis file is checked against: the gold's sources (one per sentence), its ids
    when the gold has ids of its own (a parallel file's), and how messages name the gold."""

    sources: tuple[str, ...]
    ids: tuple[str, ...] | None = None
    described: str = "the gold"

    def __len__(self) -> int:
        return len(self.sources)


@dataclass(frozen=True, slots=True)
class Hypotheses:
    """A system's predictions, and the file's own ids and sources when it was parallel."""

    predictions: tuple[str, ...]
    format: str   # "plain" or "parallel"
    ids: tuple[str, ...] | None = None
    sources: tuple[str, ...] | None = None


def comparable(sentence: str) -> str:
    """A sentence without its whitespace: how a file's raw source is compared with the gold's
    (tokenised, or split into characters for Chinese)."""
    return "".join(sentence.split())


def read_hypotheses(path: str | Path, expected: ExpectedLines) -> Hypotheses:
    """The predictions of ``path`` (``-``: standard input), checked against ``expected``."""
    from gecscore.io.text import read_lines

    return parse_hypotheses(read_lines(path), str(path), expected)


def parse_hypotheses(lines: Sequence[str], path: str, expected: ExpectedLines) -> Hypotheses:
    """:func:`read_hypotheses` on lines already read."""
    from gecscore.io.text import check_line_count

    tabbed = next((number for number, line in enumerate(lines, start=1) if "\t" in line), None)
    if tabbed is None:
        return Hypotheses(tuple(check_line_count(path, lines, len(expected), expected.described)), "plain")
    return _parallel(list(lines), path, expected, tabbed)


def _parallel(lines: list[str], path: str, expected: ExpectedLines, first_tabbed: int) -> Hypotheses:
    from gecscore.io.para import parse_para

    for number, line in enumerate(lines, start=1):
        if line.strip() and "\t" not in line:
            raise GecInputError(f"no tab on this line, but line {first_tabbed} has one: a hypothesis file is "
                                f"plain text (no tabs) or parallel ({PARALLEL_LINE} on every line) throughout",
                                f"{path}:{number}")
        fields = line.count("\t") + 1
        if line.strip() and fields != 3:
            raise GecInputError(f"{fields} tab-separated fields: a parallel hypothesis line is {PARALLEL_LINE}",
                                f"{path}:{number}")
    para = parse_para(lines, path)
    if len(para) != len(expected):
        raise GecInputError(f"{len(para)} sentences but {expected.described} has {len(expected)}", path)
    if expected.ids is not None:
        _check_ids(para.ids, expected, para.where)
    for index, (mine, theirs) in enumerate(zip(para.sources, expected.sources)):
        if comparable(mine) != comparable(theirs):
            raise GecInputError(f"the source differs from {expected.described}'s sentence {index + 1} "
                                f"(is the file in another order, or of another corpus?)", para.where(index))
    return Hypotheses(tuple(targets[0] for targets in para.targets), "parallel", para.ids, para.sources)


def _check_ids(ids: Sequence[str], expected: ExpectedLines, where) -> None:
    position = {id_: index for index, id_ in reversed(list(enumerate(expected.ids)))}
    for index, (mine, theirs) in enumerate(zip(ids, expected.ids)):
        if mine == theirs:
            continue
        if mine in position:
            raise GecInputError(f"id {mine!r} is {expected.described}'s sentence {position[mine] + 1}, not "
                                f"{index + 1} ({theirs!r}): the lines are in another order than "
                                f"{expected.described}'s", where(index))
        raise GecInputError(f"id {mine!r} is not in {expected.described} (its sentence {index + 1} is "
                            f"{theirs!r})", where(index))
