"""Segment-level human scores: every system's human score on every segment (GMEG-Data).

GJG15 and SEEDA publish system scores and relative rankings; GMEG-Data (Napoles, Nădejde and
Tetreault, TACL 2019) publishes the mean of 8 raters' 0-100 slider scores of every system's
output of every sentence (``segment-scores.csv``), and their mean over the rated sentences per
system (``corpus-scores.csv``). Those are what segment-level correlations grouped by item
(:mod:`gecscore.metaeval.segment_correlation`) and soft pairwise accuracy
(:mod:`gecscore.metaeval.soft_pairwise`) need.

**Files.** ``segment-scores.csv``: a header naming the systems, then one row per segment (the
line order of the source file) with one cell per system; an empty cell is a segment nobody
rated (GMEG leaves a whole row empty for 5 to 12 of ~1,000 sentences per file). Any other cell
must be a finite number. ``corpus-scores.csv``: a header ``system,score``, one row per system.

**Named sets.** ``gmeg-fce`` and ``gmeg-wiki`` are the test split of a domain (the split of the
paper's Table 8), ``gmeg-fce-dev`` and ``gmeg-wiki-dev`` the dev split. Both files rate the six
systems (:data:`GMEG_SYSTEMS`) and also ``source`` and ``ref`` (a reference); the named rankings
keep the six systems, as the paper's meta-evaluation builds its systems from them (it leaves the
reference out of every correlation). The Yahoo domain's ratings are public but its text is not,
so it is not a named set.
"""
from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from gecscore.errors import GecInputError
from gecscore.io.user_files import read_text

GMEG_SYSTEMS = ("amu", "lstm", "lstm-r", "marian", "nus", "transformer")
GMEG_DOMAINS = ("fce", "wiki")
GMEG_SPLITS = ("dev", "test")
SEGMENT_SCORES = "segment-scores.csv"
CORPUS_SCORES = "corpus-scores.csv"


@dataclass(frozen=True)
class SegmentScores:
    """Human scores of ``systems`` on ``n_segments`` segments: ``rows[k][i]`` is system ``k``'s
    score of segment ``i``, NaN where the segment was not rated."""

    name: str
    systems: tuple[str, ...]
    rows: tuple[tuple[float, ...], ...]

    def __post_init__(self) -> None:
        if len(self.rows) != len(self.systems):
            raise GecInputError(f"{len(self.systems)} systems but {len(self.rows)} score rows", self.name)
        if len({len(row) for row in self.rows}) > 1:
            raise GecInputError("every system needs a score cell for every segment", self.name)

    @property
    def n_segments(self) -> int:
        return len(self.rows[0]) if self.rows else 0

    def of(self, system: str) -> tuple[float, ...]:
        try:
            return self.rows[self.systems.index(system)]
        except ValueError:
            raise GecInputError(f"no human scores of system {system!r}; it has {', '.join(self.systems)}",
                                self.name) from None

    def select(self, systems: Sequence[str]) -> "SegmentScores":
        """The scores of ``systems``, in that order."""
        return SegmentScores(self.name, tuple(systems), tuple(self.of(s) for s in systems))

    def rated_segments(self) -> tuple[int, ...]:
        """The segments every system has a score of (0-based)."""
        return tuple(i for i in range(self.n_segments) if not any(math.isnan(row[i]) for row in self.rows))

    def system_means(self) -> dict[str, float]:
        """Each system's mean over the segments it has a score of (GMEG's ``corpus-scores.csv``)."""
        means = {}
        for system, row in zip(self.systems, self.rows):
            rated = [v for v in row if not math.isnan(v)]
            means[system] = math.fsum(rated) / len(rated) if rated else math.nan
        return means


@dataclass(frozen=True)
class AlignedScores:
    """Human and metric scores as (systems x segments) matrices over the segments every system
    has a human score of; ``segments`` are their 0-based indices in the full set."""

    systems: tuple[str, ...]
    segments: tuple[int, ...]
    human: np.ndarray
    metric: np.ndarray
    unrated: int


def align(human: SegmentScores, metric: Mapping[str, Sequence[float]],
          systems: Sequence[str] | None = None) -> AlignedScores:
    """The human and metric scores of ``systems`` (default: the human file's) over the segments
    every one of them has a human score of. Each system needs a finite metric score for every
    segment of the set (a metric's NaN, e.g. a failed judge, is refused, naming it)."""
    systems = tuple(human.systems if systems is None else systems)
    if len(systems) < 2:
        raise GecInputError(f"needs at least 2 systems, got {len(systems)}", human.name)
    missing = [s for s in systems if s not in metric]
    if missing:
        raise GecInputError(f"no metric scores for system(s) {', '.join(missing)}", human.name)
    chosen = human.select(systems)
    for system in systems:
        if len(metric[system]) != chosen.n_segments:
            raise GecInputError(f"{len(metric[system])} metric scores of {system} but {chosen.n_segments} segments "
                                "with human scores", human.name)
    segments = chosen.rated_segments()
    if not segments:
        raise GecInputError("no segment has a human score of every system", human.name)
    human_matrix = np.array(chosen.rows, dtype=np.float64)[:, segments]
    metric_matrix = np.array([[float(v) for v in metric[s]] for s in systems], dtype=np.float64)[:, segments]
    bad = np.argwhere(~np.isfinite(metric_matrix))
    if bad.size:
        system, column = bad[0]
        raise GecInputError(f"the metric score of {systems[system]} on segment {segments[column] + 1} is not a "
                            "finite number", human.name)
    return AlignedScores(systems, segments, human_matrix, metric_matrix, chosen.n_segments - len(segments))


def _cell(text: str, where: str) -> float:
    text = text.strip()
    if text == "":
        return math.nan
    try:
        value = float(text)
    except ValueError:
        raise GecInputError(f"expected a number or an empty cell, got {text!r}", where) from None
    if not math.isfinite(value):
        raise GecInputError(f"expected a finite number (leave the cell empty for no score), got {text!r}", where)
    return value


def _rows(path: Path) -> list[list[str]]:
    text = read_text(path)   # a missing file, a FIFO, bytes that are not UTF-8 ...: one line naming it
    try:
        return list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as error:
        raise GecInputError(f"cannot read the scores: {error}", str(path)) from None


def _header(row: list[str], path: Path) -> tuple[str, ...]:
    names = tuple(name.strip() for name in row)
    if not names or any(not name for name in names):
        raise GecInputError("the header needs a non-empty name for every column", f"{path}:1")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise GecInputError(f"column(s) named twice: {', '.join(repeated)}", f"{path}:1")
    return names


def read_segment_scores(path: str | Path, name: str | None = None) -> SegmentScores:
    """A segment-level score file (module docstring), named ``name`` (default: the file's stem)."""
    path = Path(path)
    rows = _rows(path)
    if not rows:
        raise GecInputError("empty segment score file", str(path))
    systems = _header(rows[0], path)
    columns: list[list[float]] = [[] for _ in systems]
    for number, row in enumerate(rows[1:], start=2):
        where = f"{path}:{number}"
        if len(row) != len(systems):
            raise GecInputError(f"expected {len(systems)} comma-separated cells, got {len(row)}", where)
        for column, text in zip(columns, row):
            column.append(_cell(text, where))
    if not columns[0]:
        raise GecInputError("no segment rows after the header", str(path))
    return SegmentScores(name or path.stem, systems, tuple(tuple(column) for column in columns))


def read_corpus_scores(path: str | Path) -> dict[str, float]:
    """A ``system,score`` file (module docstring): system -> score, in the file's order."""
    path = Path(path)
    rows = _rows(path)
    if not rows:
        raise GecInputError("empty corpus score file", str(path))
    if tuple(cell.strip() for cell in rows[0]) != ("system", "score"):
        raise GecInputError(f"expected the header 'system,score', got {','.join(rows[0])!r}", f"{path}:1")
    scores: dict[str, float] = {}
    for number, row in enumerate(rows[1:], start=2):
        where = f"{path}:{number}"
        if len(row) != 2:
            raise GecInputError(f"expected 2 comma-separated cells, got {len(row)}", where)
        system = row[0].strip()
        if not system:
            raise GecInputError("empty system name", where)
        if system in scores:
            raise GecInputError(f"system {system!r} listed twice", where)
        value = _cell(row[1], where)
        if math.isnan(value):
            raise GecInputError(f"no score for system {system!r}", where)
        scores[system] = value
    if not scores:
        raise GecInputError("no system rows after the header", str(path))
    return scores


def gmeg_spec(spec: str) -> tuple[str, str]:
    """(split, domain) of a GMEG name: ``gmeg-<domain>`` (test) or ``gmeg-<domain>-<split>``."""
    parts = spec.lower().split("-")
    if parts[0] == "gmeg" and len(parts) in (2, 3) and parts[1] in GMEG_DOMAINS:
        split = parts[2] if len(parts) == 3 else "test"
        if split in GMEG_SPLITS:
            return split, parts[1]
    names = [f"gmeg-{d}{suffix}" for d in GMEG_DOMAINS for suffix in ("", "-dev")]
    raise GecInputError(f"unknown GMEG set {spec!r}; expected one of: {', '.join(names)}")


def gmeg_folder(split: str, domain: str) -> str:
    """The data-folder path of one GMEG split and domain (:mod:`gecscore.benchdata`)."""
    return f"gmeg/{split}/{domain}"


def gmeg_name(spec: str) -> str:
    """The canonical name of a GMEG set: ``gmeg-<domain>`` (test) or ``gmeg-<domain>-dev``."""
    split, domain = gmeg_spec(spec)
    return f"gmeg-{domain}" + ("" if split == "test" else f"-{split}")


def _gmeg_file(spec: str, file: str, data_dir: str | Path | None) -> Path:
    from gecscore.benchdata import require

    path = f"{gmeg_folder(*gmeg_spec(spec))}/{file}"   # an unknown name fails before anything is fetched
    return require([path], data_dir) / path


def gmeg_segment_scores(spec: str, data_dir: str | Path | None = None) -> SegmentScores:
    """GMEG's segment-level human scores of the six systems (``gmeg-fce``, ``gmeg-wiki-dev``, ...)."""
    path = _gmeg_file(spec, SEGMENT_SCORES, data_dir)
    return read_segment_scores(path, gmeg_name(spec)).select(GMEG_SYSTEMS)


def gmeg_corpus_scores(spec: str, data_dir: str | Path | None = None) -> dict[str, float]:
    """GMEG's system-level human scores of the six systems, as published in ``corpus-scores.csv``
    (:func:`gecscore.metaeval.human.load_human` names them as a ranking)."""
    path = _gmeg_file(spec, CORPUS_SCORES, data_dir)
    scores = read_corpus_scores(path)
    missing = [s for s in GMEG_SYSTEMS if s not in scores]
    if missing:
        raise GecInputError(f"no score for system(s) {', '.join(missing)}", str(path))
    return {s: scores[s] for s in GMEG_SYSTEMS}
