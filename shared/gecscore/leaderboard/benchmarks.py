"""Named benchmarks a system output can be scored on beside the published systems: a gold, the
published outputs, and the human ranking of those outputs where one exists, all read by name
from the data catalogue (:mod:`gecscore.benchdata`: fetched and verified on first use), never
from a path.

Each benchmark is what the command line scores with the same names, so a board here is the
board of one ``gecscore leaderboard`` command (:meth:`Benchmark.command`):

- ``conll14``: CoNLL-2014 test (1,312 sentences, the official gold), its 12 shared-task systems
  and the unchanged source (``INPUT``), ranked by humans in GJG15 (Grundkiewicz et al. 2015);
- ``seeda``: SEEDA's 391 CoNLL-2014 sentences (Kobayashi et al. 2024) and its 15 outputs (the
  12 systems of its base set, ``INPUT``, and the fluent corrections ``GPT-3.5`` and ``REF-F``),
  the base set ranked by SEEDA's human judgments (``seeda-base``, as "choosing a metric" ranks
  the metrics on it);
- ``jfleg``: JFLEG test (747 sentences, 4 fluency references; Napoles et al. 2017). The catalogue
  holds no published JFLEG system output: the unchanged source (``INPUT``) is the only other
  row, and there is no human ranking.

The per-error-type table is read on an ERRANT-typed gold (:attr:`Benchmark.per_type_refset`:
``conll14-errant`` for the CoNLL-2014 sentences, whose official gold has NUCLE's types): an
ERRANT table counts false positives under the system edits' ERRANT types, which would otherwise
sit beside NUCLE's (``ArtOrDet``, ``Vt``) in one table.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from gecscore.benchdata.refsets import RefSet
from gecscore.errors import GecInputError
from gecscore.leaderboard.systems import SystemSource, system_name


@dataclass(frozen=True)
class Benchmark:
    """A gold, the published outputs and their human ranking, by their names in the catalogue.

    ``refset``: a named reference set (:data:`gecscore.benchdata.refsets.REFSETS`), or None for
    a gold of parallel text files (``parallel_gold``: the source file, then one file per
    reference, read as ``--para`` reads a parallel file); ``subset_source``: the sources of the
    sentences scored when they are a subset of the gold's (SEEDA's ``INPUT.txt``);
    ``systems``: the folder of the published outputs (one ``<NAME>.txt`` each), or None;
    ``source_as_input``: the gold's source file is scored as system ``INPUT`` (a benchmark
    without published outputs still has that row); ``human``: a :func:`gecscore.metaeval.human.
    load_human` name; ``primary_human``: the ranking whose metric clusters mark the columns to
    believe; ``per_type_refset``: the ERRANT-typed gold of the per-type table (the same
    sentences)."""

    name: str
    label: str
    about: str
    refset: str | None = None
    parallel_gold: tuple[str, ...] = ()
    subset_source: str | None = None
    systems: str | None = None
    source_as_input: bool = False
    human: str | None = None
    primary_human: str | None = None
    per_type_refset: str | None = None

    def data_paths(self) -> list[str]:
        """Every catalogue path this benchmark reads (fetched together, verified)."""
        from gecscore.benchdata.refsets import REFSETS

        paths = [*self.parallel_gold, *(p for p in (self.subset_source,) if p)]
        for name in (self.refset, self.per_type_refset):
            if name:
                info = REFSETS[name]
                paths += [p for p in (info.path, info.ixml) if p]
        if self.systems:
            paths += published_files(self.systems)
        return list(dict.fromkeys(paths))

    def command(self, systems_dir: str = "SYSTEMS") -> str:
        """The ``gecscore leaderboard`` command whose board this is (the systems' folder named
        ``systems_dir``; the upload is one more file in it)."""
        gold = f"--refset {self.refset}" if self.refset else f"--para {self.name}.para"
        subset = f" --subset-source {self.subset_source}" if self.subset_source else ""
        return f"gecscore leaderboard {gold}{subset} --systems {systems_dir}"


BENCHMARKS: dict[str, Benchmark] = {b.name: b for b in (
    Benchmark("conll14", "CoNLL-2014 test",
              "The CoNLL-2014 shared task's test set (1,312 sentences of NUCLE essays, official gold of 2 "
              "annotators), its 12 participating systems and the unchanged source (INPUT); humans ranked them "
              "in GJG15 (Grundkiewicz et al. 2015).",
              refset="conll14", systems="conll14/systems", human="gjg15", primary_human="gjg15-TS",
              per_type_refset="conll14-errant"),
    Benchmark("seeda", "SEEDA (CoNLL-2014 subset, 15 outputs incl. GPT-3.5)",
              "SEEDA's 391 sentences of CoNLL-2014 (Kobayashi et al. 2024) with its 15 outputs: 12 systems, the "
              "unchanged source (INPUT) and two fluent rewrites, GPT-3.5 and an expert's (REF-F); humans ranked the "
              "12 systems of its base set, sentence by sentence (SEEDA-S) and edit by edit (SEEDA-E).",
              refset="conll14", subset_source="seeda/outputs/subset/INPUT.txt", systems="seeda/outputs/subset",
              human="seeda-base", primary_human="seeda-S-TS", per_type_refset="conll14-errant"),
    Benchmark("jfleg", "JFLEG test",
              "JFLEG's test set (747 sentences, 4 fluency-oriented references; Napoles et al. 2017). The catalogue "
              "holds no published JFLEG system output: the unchanged source (INPUT) is the only other row, and "
              "there is no human ranking to say which metric to believe.",
              parallel_gold=("jfleg/test.src", "jfleg/test.ref0", "jfleg/test.ref1", "jfleg/test.ref2",
                             "jfleg/test.ref3"),
              source_as_input=True),
)}


def benchmark(name: str) -> Benchmark:
    try:
        return BENCHMARKS[name]
    except KeyError:
        raise GecInputError(f"unknown benchmark {name!r}; expected one of: {', '.join(BENCHMARKS)}") from None


def published_files(folder: str) -> list[str]:
    """The catalogue's ``<folder>/<NAME>.txt`` files (the published outputs), sorted."""
    from gecscore.benchdata.catalogue import CATALOGUE

    prefix = folder.rstrip("/") + "/"
    return sorted(f.path for dataset in CATALOGUE.values() for f in dataset.files
                  if f.path.startswith(prefix) and f.path.endswith(".txt") and "/" not in f.path[len(prefix):])


@dataclass(frozen=True)
class BenchmarkData:
    """A benchmark read from the data folder: the gold of the sentences scored, the published
    outputs, the human rankings (``{name: HumanScores}``, empty without), and the ERRANT-typed
    gold of the per-type table (None: the gold itself)."""

    benchmark: Benchmark
    refset: RefSet
    systems: tuple[SystemSource, ...]
    human: dict
    per_type_refset: RefSet | None


def load_benchmark(bench: Benchmark, work: Path, data_dir: str | Path | None = None) -> BenchmarkData:
    """Read ``bench`` (fetching its sets on first use, :func:`gecscore.benchdata.require`);
    ``work``: a folder for the parallel gold file a text gold is read from."""
    from gecscore.benchdata import require

    root = require(bench.data_paths(), data_dir)
    refset = _gold(bench, root, work, bench.refset, data_dir)
    per_type = _gold(bench, root, work, bench.per_type_refset, data_dir) if bench.per_type_refset else None
    systems: list[SystemSource] = []
    if bench.source_as_input:
        systems.append(SystemSource("INPUT", root / bench.parallel_gold[0]))
    if bench.systems:
        systems += [SystemSource(system_name(Path(p)), root / p) for p in published_files(bench.systems)]
    human = {}
    if bench.human:
        from gecscore.metaeval.human import load_human

        human = load_human(bench.human, data_dir)
    return BenchmarkData(bench, refset, tuple(systems), human, per_type)


def _gold(bench: Benchmark, root: Path, work: Path, refset_name: str | None, data_dir) -> RefSet:
    """The gold of the sentences scored: a named reference set (cut to ``subset_source``'s
    sentences), or the parallel text gold."""
    if refset_name is None:
        from gecscore.benchdata.refsets import refset_from_para

        return refset_from_para(parallel_file(root, bench.parallel_gold, work / f"{bench.name}.para"))
    from gecscore.benchdata.refsets import load_refset

    refset = load_refset(refset_name, data_dir)
    if bench.subset_source:
        from gecscore.io.text import read_lines
        from gecscore.metaeval.human import match_lines

        indices = match_lines(read_lines(root / bench.subset_source), refset.sources, bench.subset_source,
                              f"reference set {refset.name}")
        refset = refset.subset(indices)
    return refset


def parallel_file(root: Path, files: Sequence[str], path: Path) -> Path:
    """The source file and reference files as one parallel file (``<n><TAB>source<TAB>ref...``,
    numbered from 1): the gold ``gecscore leaderboard --para`` reads."""
    from gecscore.io.text import read_lines

    columns = [read_lines(root / f) for f in files]
    sizes = {len(c) for c in columns}
    if len(sizes) != 1:
        raise GecInputError("the gold files have different numbers of lines: "
                            + ", ".join(f"{f} {len(c)}" for f, c in zip(files, columns)))
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        for number, row in enumerate(zip(*columns), start=1):
            handle.write("\t".join((str(number), *row)) + "\n")
    return path


def sizes(exclude: str | None = None) -> dict[str, int]:
    """``{label: sentences}`` of the benchmarks (a wrong line count that matches another's is
    named), without reading any data: the catalogue's line counts are not kept, so these are
    the published sizes."""
    return {BENCHMARKS[name].label: n for name, n in PUBLISHED_SIZES.items() if name != exclude}


#: each benchmark's number of sentences (CoNLL-2014 test, SEEDA's subset, JFLEG test)
PUBLISHED_SIZES = {"conll14": 1312, "seeda": 391, "jfleg": 747}
