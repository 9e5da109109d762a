"""``gecscore compare``: significance of the differences between systems on one metric.

    gecscore compare --metric pt_m2 --set scorer=none --m2 GOLD.m2 --hyp BASE.txt B.txt [C.txt ...]
                     [--bootstrap 1000] [--randomisation 1000] [--seed 0] [--json]

Each system is scored once (one prepared reference side for all); every system after the
first is compared with the first (the baseline) by paired bootstrap and paired approximate
randomisation over sentences (:mod:`gecscore.significance.comparison`). With more than two
systems, every pair is also compared by the same randomisation and the systems are printed in
significance clusters (:mod:`gecscore.significance.system_clusters`; ``--alpha``).
"""
from __future__ import annotations

import argparse
import json

from gecscore.cli.numbers import COUNT, OPEN_UNIT, SEED
from gecscore.outputs import json_text
from gecscore.warnings_once import with_warnings
from gecscore.cli.inputs import add_input_arguments, prepare_gold, read_systems
from gecscore.significance.comparison import SignificanceConfig


def register(subparsers) -> None:
    help_text = "paired bootstrap and approximate randomisation: each system against the first"
    parser = subparsers.add_parser("compare", help=help_text, description=help_text)
    parser.add_argument("--metric", required=True, help="a metric of gecscore.load (e.g. pt_m2, cleme2, gleu)")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                        help="a metric option (repeat), e.g. --set scorer=none; values are read as JSON "
                             "where they parse (numbers, true/false), else as text")
    add_input_arguments(parser)
    defaults = SignificanceConfig()
    parser.add_argument("--bootstrap", type=COUNT, default=defaults.bootstrap, metavar="N",
                        help=f"bootstrap resamples (0: off; default {defaults.bootstrap})")
    parser.add_argument("--randomisation", type=COUNT, default=defaults.randomisation, metavar="N",
                        help="approximate randomisation trials (0: off)")
    parser.add_argument("--seed", type=SEED, default=defaults.seed, help=f"seed of both tests (default {defaults.seed})")
    parser.add_argument("--confidence", type=OPEN_UNIT, default=defaults.confidence,
                        help=f"confidence of the interval of the difference (default {defaults.confidence:g})")
    parser.add_argument("--alpha", type=OPEN_UNIT, default=0.05,
                        help="with more than two systems: the significance level of the clusters (default 0.05)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def metric_options(pairs: list[str]) -> dict:
    from gecscore.errors import GecInputError

    options = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise GecInputError(f"--set expects OPTION=VALUE, got {pair!r}")
        try:
            options[name.replace("-", "_")] = json.loads(text)
        except json.JSONDecodeError:
            options[name.replace("-", "_")] = text
    return options


def system_labels(paths: list[str]) -> list[str]:
    """How systems are named in the table: the file stem (``AMU`` for ``systems/AMU.txt``), as
    the leaderboard names them; the paths as given when two stems collide (or for stdin)."""
    from pathlib import Path

    stems = [Path(path).stem if path != "-" else "-" for path in paths]
    return stems if len(set(stems)) == len(stems) and all(stems) else list(paths)


def run(args: argparse.Namespace) -> int:
    import gecscore
    from gecscore.errors import GecInputError
    from gecscore.significance.comparison import SignificanceConfig, compare_against_baseline
    from gecscore.result_text import number

    metric = gecscore.load(args.metric, **metric_options(args.set))
    if not args.hyp or len(args.hyp) < 2:
        raise GecInputError("give at least two systems: --hyp BASELINE.txt SYSTEM.txt ...")
    config = SignificanceConfig(args.bootstrap, args.randomisation, args.seed, args.confidence)
    prepared = prepare_gold(args, metric)
    systems = read_systems(args, prepared)
    labels = system_labels([name for name, _ in systems])
    results = [(label, metric.score(prepared, predictions)) for label, (_, predictions) in zip(labels, systems)]
    comparisons = compare_against_baseline(results, config)
    clusters = system_clusters(results, config, args.alpha)
    if args.json:
        print(json_text(with_warnings({"metric": args.metric, "signature": str(results[0][1].signature),
                                        "significance": config.signature(),
                                        "scores": {name: result.score for name, result in results},
                                        "comparisons": [c.as_dict() for c in comparisons],
                                        **({"clusters": clusters.as_dict()} if clusters else {})})))
        return 0
    print(results[0][1].signature)
    print(config.signature())
    print(f"{'system':<40} {'score':>8} {'delta':>8} {'CI low':>8} {'CI high':>8} {'p boot':>8} {'p AR':>8}")
    print(f"{results[0][0]:<40} {number(results[0][1].score, '>8.4f')} {'(baseline)':>8}")
    fmt = lambda x: number(x, ">8.4f") if x is not None else f"{'-':>8}"
    for c in comparisons:
        print(f"{c.system:<40} {number(c.score_b, '>8.4f')} {fmt(c.delta)} {fmt(c.low)} {fmt(c.high)} "
              f"{fmt(c.p_bootstrap)} {fmt(c.p_randomisation)}")
    if clusters:
        print()
        print(f"clusters: every pair by paired approximate randomisation (two-sided p, {config.randomisation} trials, "
              f"seed {config.seed}); rank, score, then > (p < {args.alpha:g}) or = against each system below")
        print(clusters.text())
    return 0


def system_clusters(results: list, config: SignificanceConfig, alpha: float):
    """With more than two systems and randomisation on: every pair and the ranks
    (:func:`gecscore.significance.system_clusters.rank_results`), else None."""
    if len(results) <= 2 or not config.randomisation:
        return None
    from gecscore.significance.system_clusters import rank_results

    return rank_results(results, trials=config.randomisation, seed=config.seed, alpha=alpha)
