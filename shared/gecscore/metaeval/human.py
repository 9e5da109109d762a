"""Human system rankings: GJG15 (EW/TS), SEEDA (EW/TS x sentence/edit, four system sets) and
GMEG-Data's mean ratings (FCE and Wiki, dev and test; :mod:`gecscore.metaeval.human_segments`).

A :class:`HumanScores` is one ranking: system name -> human score, in the file's order.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from gecscore.errors import GecInputError
from gecscore.io.text import read_lines

SEEDA_SYSTEM_SETS = {
    # Kobayashi et al. (2024): the standard "base" set drops GPT-3.5, INPUT and REF-F.
    "base": ("GPT-3.5", "INPUT", "REF-F"),
    "+input": ("GPT-3.5", "REF-F"),
    # The fluent corrections added to base (SEEDA's "+REF-F_GPT-3.5", the "+fluency" setting):
    # only INPUT is dropped (SEEDA's utils/corr_system.py: del_id = [5]), 14 systems.
    "+ref-f": ("INPUT",),
    "all": (),
}
#: other spellings of a set: SEEDA's own option value and the paper's "+fluency"
SEEDA_SET_ALIASES = {"+ref-f_gpt-3.5": "+ref-f", "+fluency": "+ref-f"}
SEEDA_GRANULARITIES = {"sent": "SEEDA-S", "edit": "SEEDA-E"}
HUMAN_METHODS = ("EW", "TS")
#: where the named rankings are in the data folder (:mod:`gecscore.benchdata`)
GJG15_SCORES = "gjg15/human_scores.tsv"
SEEDA_HUMAN = "seeda/human"


@dataclass(frozen=True)
class HumanScores:
    """One human ranking, e.g. ``gjg15-TS`` or ``seeda-S-TS``."""

    name: str
    scores: dict[str, float]

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(self.scores)

    def without(self, excluded: Sequence[str]) -> "HumanScores":
        return HumanScores(self.name, {k: v for k, v in self.scores.items() if k not in set(excluded)})


def _float(text: str, where: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise GecInputError(f"expected a number, got {text!r}", where) from None


def read_human_tsv(path: str | Path, prefix: str = "") -> dict[str, HumanScores]:
    """A TSV with a header ``system<TAB>NAME1<TAB>NAME2...`` and one row per system.

    Returns one ranking per score column, named ``<prefix><column>``.
    """
    path = Path(path)
    lines = [line for line in read_lines(path) if line.strip()]
    if not lines:
        raise GecInputError("empty human score file", str(path))
    header = lines[0].split("\t")
    if len(header) < 2:
        raise GecInputError("the header needs 'system' and at least one score column", f"{path}:1")
    columns: dict[str, dict[str, float]] = {name: {} for name in header[1:]}
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        where = f"{path}:{number}"
        if len(fields) != len(header):
            raise GecInputError(f"expected {len(header)} tab-separated fields, got {len(fields)}", where)
        system = fields[0].strip()
        if system in columns[header[1]]:
            raise GecInputError(f"system {system!r} listed twice", where)
        for name, value in zip(header[1:], fields[1:]):
            columns[name][system] = _float(value.strip(), where)
    return {f"{prefix}{name}": HumanScores(f"{prefix}{name}", scores) for name, scores in columns.items()}


def gjg15_scores(path: str | Path) -> dict[str, HumanScores]:
    """GJG15 (Grundkiewicz et al. 2015) from ``gjg15/human_scores.tsv``: ``gjg15-EW``, ``gjg15-TS``."""
    rankings = read_human_tsv(path, prefix="gjg15-")
    missing = [f"gjg15-{m}" for m in HUMAN_METHODS if f"gjg15-{m}" not in rankings]
    if missing:
        raise GecInputError(f"missing column(s) {', '.join(m.split('-')[1] for m in missing)}", str(path))
    return rankings


def _read_column(path: Path) -> list[str]:
    return [line.strip() for line in read_lines(path) if line.strip()]


def seeda_set(system_set: str) -> str:
    """The canonical name of a SEEDA system set (case-insensitive; aliases resolved), so the
    CLI, the scripts and the sentence-level meta-evaluation all mean the same systems."""
    key = system_set.lower()
    key = SEEDA_SET_ALIASES.get(key, key)
    if key not in SEEDA_SYSTEM_SETS:
        raise GecInputError(f"unknown SEEDA system set {system_set!r}; expected one of: "
                            f"{', '.join([*SEEDA_SYSTEM_SETS, *SEEDA_SET_ALIASES])}")
    return key


def seeda_systems(system_set: str, systems: Sequence[str]) -> list[str]:
    """The ``systems`` (e.g. SEEDA's ``SYSTEMS.txt``) kept by ``system_set``, in their order."""
    dropped = set(SEEDA_SYSTEM_SETS[seeda_set(system_set)])
    return [s for s in systems if s not in dropped]


def seeda_scores(human_dir: str | Path, system_set: str = "base") -> dict[str, HumanScores]:
    """SEEDA rankings ``seeda-S-EW``, ``seeda-S-TS``, ``seeda-E-EW``, ``seeda-E-TS``.

    Reads ``{EW,TS}_{sent,edit}.txt`` (one score per line, in the order of ``SYSTEMS.txt``)
    and keeps the systems of ``system_set`` (``base``, ``+input``, ``+ref-f`` alias
    ``+fluency`` / ``+REF-F_GPT-3.5``, or ``all``).
    """
    system_set = seeda_set(system_set)
    human_dir = Path(human_dir)
    systems = _read_column(human_dir / "SYSTEMS.txt")
    rankings = {}
    for granularity, label in SEEDA_GRANULARITIES.items():
        for method in HUMAN_METHODS:
            path = human_dir / f"{method}_{granularity}.txt"
            values = _read_column(path)
            if len(values) != len(systems):
                raise GecInputError(f"{len(values)} scores but SYSTEMS.txt lists {len(systems)} systems",
                                    str(path))
            scores = {s: _float(v, f"{path}:{i + 1}") for i, (s, v) in enumerate(zip(systems, values))}
            name = f"seeda-{label.split('-')[1]}-{method}"
            rankings[name] = HumanScores(name, scores).without(SEEDA_SYSTEM_SETS[system_set])
    return rankings


def match_lines(subset: Sequence[str], full: Sequence[str], subset_name: str = "subset",
                full_name: str = "full set") -> list[int]:
    """For each subset line, the index of the identical line of ``full`` (in increasing order).

    Used to map the SEEDA subset (``outputs/subset/INPUT.txt``) onto CoNLL-2014 source lines.
    Repeated lines are matched to the first unused occurrence after the previous match.
    """
    positions: dict[str, list[int]] = {}
    for index, line in enumerate(full):
        positions.setdefault(line.strip(), []).append(index)
    indices, last = [], -1
    for number, line in enumerate(subset, start=1):
        candidates = [i for i in positions.get(line.strip(), ()) if i > last]
        if not candidates:
            raise GecInputError(f"line not found (in order) in the {full_name}", f"{subset_name}:{number}")
        last = candidates[0]
        indices.append(last)
    return indices


def load_human(spec: str, data_dir: str | Path | None = None) -> dict[str, HumanScores]:
    """Rankings named by ``spec``: ``gjg15``, ``seeda-base``, ``seeda-+input``, ``seeda-+ref-f``
    (also ``seeda-+fluency``, ``seeda-+REF-F_GPT-3.5``), ``seeda-all``, ``gmeg-fce`` and
    ``gmeg-wiki`` (GMEG-Data's test split; ``gmeg-fce-dev``, ``gmeg-wiki-dev`` its dev split:
    the six systems' mean human ratings, :mod:`gecscore.metaeval.human_segments`), or the path
    of a TSV file (``system<TAB>score...`` with a header)."""
    from gecscore.benchdata import require

    if spec.lower().startswith("gmeg-") and not os.path.lexists(spec):
        from gecscore.metaeval.human_segments import gmeg_corpus_scores, gmeg_name

        name = gmeg_name(spec)
        return {name: HumanScores(name, gmeg_corpus_scores(spec, data_dir))}
    if spec == "gjg15":
        return gjg15_scores(require([GJG15_SCORES], data_dir) / GJG15_SCORES)
    if spec.startswith("seeda-"):
        seeda_set(spec[len("seeda-"):])   # an unknown set fails before anything is fetched
        return seeda_scores(require([SEEDA_HUMAN + "/SYSTEMS.txt"], data_dir) / SEEDA_HUMAN, spec[len("seeda-"):])
    if os.path.lexists(spec):   # a path: read as a TSV, or refused saying what it is (a FIFO ...)
        return read_human_tsv(spec, prefix=f"{Path(spec).stem}-")
    raise GecInputError(f"unknown human ranking {spec!r}; expected gjg15, seeda-base, seeda-+input, "
                        "seeda-+ref-f (alias seeda-+fluency), seeda-all, gmeg-fce, gmeg-wiki, gmeg-fce-dev, "
                        "gmeg-wiki-dev or a TSV file")
