"""The data a CLEME2.0 weight tuning reads (:mod:`gecscore.metaeval.weight_tuning`): each
system's candidate counts, scored through the metric seam as the leaderboard scores it, on the
human rankings' own benchmarks."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from gecscore.errors import GecInputError
from gecscore.metaeval.weight_tuning import (ASSUMPTIONS, BUILTIN, LEVELS, Dataset, select_rankings,
                                             system_candidates)


def chunk_counts(refset, systems, level: str, assumption: str,
                 progress: Callable[[str], None] | None = None) -> dict[str, list[np.ndarray]]:
    """Each system's candidate counts: one CLEME2.0 run per system through the metric seam (as
    the leaderboard scores it: hypothesis M2 edits when given, else our ERRANT on the text)."""
    from gecscore.leaderboard.configurations import MetricConfig, resolve_configuration
    from gecscore.leaderboard.shared_data import ReferenceData, SystemData

    if assumption not in ASSUMPTIONS:
        raise GecInputError(f"unknown assumption {assumption!r}; expected dep or ind")
    if level not in LEVELS:
        raise GecInputError(f"unknown level {level!r}; expected corpus or sentence")
    refs = ReferenceData(refset)
    metric = refs.metric(resolve_configuration(MetricConfig(f"cleme2-{level}-{assumption}", "cleme2",
                                                            (("level", level), ("assumption", assumption)))))
    prepared = refs.prepared(metric)
    out = {}
    for source in systems:
        system = SystemData(source.name, source.text_path, source.hyp_m2_path)
        result = metric.score(prepared, system.predictions(refs), work=system.work)
        out[source.name] = system_candidates(result.detail.chunks)
        if progress:
            progress(f"{refset.name}: {source.name} labelled")
    return out


def load_datasets(specs: Sequence[str], level: str, assumption: str, *, method: str = "TS",
                  data_dir: str | Path | None = None, m2: str | Path | None = None,
                  systems_dir: str | Path | None = None,
                  progress: Callable[[str], None] | None = None) -> list[Dataset]:
    """Datasets for ``specs``: ``gjg15`` (CoNLL-2014's systems, their ERRANT hypothesis M2, on
    the ERRANT-typed CoNLL-2014 gold: the CLEME2.0 paper's setting, Table 1), ``seeda-SET``
    (SEEDA's 391-sentence subset outputs, our ERRANT, on the same gold's subset: the paper's
    Table 2 setting), or a human TSV scored on ``m2`` and ``systems_dir`` (its own family).
    Outputs shared by several specs are labelled once."""
    from gecscore.metaeval.human import load_human, match_lines
    from gecscore.leaderboard.systems import discover_systems
    from gecscore.benchdata import require
    from gecscore.benchdata.refsets import load_refset
    from gecscore.io.text import read_lines

    if not specs:
        raise GecInputError("give at least one human ranking (--human)")
    if len(set(specs)) != len(specs):
        raise GecInputError(f"a human ranking is given twice: {' '.join(specs)}")
    cache: dict[str, dict[str, list[np.ndarray]]] = {}
    datasets = []
    for spec in specs:
        if spec in BUILTIN or spec.lower().startswith("seeda-"):
            family = "gjg15" if spec == "gjg15" else "seeda"
            root = require(["conll14/conll14.errant.m2"] + (["seeda/outputs/subset/INPUT.txt"] if family == "seeda"
                                                            else []), data_dir)
            rankings = load_human(spec if spec == "gjg15" else spec.lower(), data_dir)
            if family not in cache:
                gold = load_refset("conll14-errant", data_dir)
                if family == "gjg15":
                    sources = discover_systems(None, root / "conll14" / "systems-errant")
                else:
                    subset = root / "seeda" / "outputs" / "subset"
                    gold = gold.subset(match_lines(read_lines(subset / "INPUT.txt"), gold.sources,
                                                   str(subset / "INPUT.txt"), "CoNLL-2014 sources"))
                    sources = discover_systems(subset)
                cache[family] = chunk_counts(gold, sources, level, assumption, progress)
        else:
            if not os.path.lexists(spec):   # a path that is there is read, or refused saying what it is
                raise GecInputError(f"unknown human ranking {spec!r}; expected one of {', '.join(BUILTIN)} "
                                    "or a TSV file")
            if m2 is None or systems_dir is None:
                raise GecInputError(f"a human TSV ({spec}) needs the gold (--m2) and the systems (--systems)")
            rankings = load_human(spec)
            family = f"tsv:{Path(spec).stem}"
            if "tsv" not in cache:
                cache["tsv"] = chunk_counts(load_refset(m2), discover_systems(systems_dir), level, assumption,
                                            progress)
            cache[family] = cache["tsv"]
        datasets.append(Dataset(spec, family, select_rankings(rankings, method), cache[family]))
    return datasets
