"""``gecscore tune-weights``: tune CLEME2.0's alphas on a simplex grid, in-sample and held out.

The metrics offered are those whose class declares weights to tune (``tunable_weights``:
CLEME2.0's alphas). The table gives, per dataset, the paper's default
alpha, the alpha tuned on the dataset itself (in-sample) and the alpha tuned on the other
datasets (held out: other families by default, see :mod:`gecscore.metaeval.weight_tuning`), each
with its correlation (the mean over the dataset's selected rankings).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from gecscore.cli.numbers import Number
from gecscore.errors import GecInputError
from gecscore.result_text import number
from gecscore.warnings_once import with_warnings
from gecscore.leaderboard.tuning_data import load_datasets
from gecscore.metaeval.weight_tuning import (ASSUMPTIONS, COEFFICIENTS, HOLDOUTS, LEVELS, METHODS, TuningReport,
                                             simplex_grid, tune)


def tunable_metrics() -> tuple[str, ...]:
    """The metrics whose classes declare weights to tune (``Metric.tunable_weights``)."""
    from gecscore.registry import metric_class, metric_names

    return tuple(name for name in metric_names() if metric_class(name).tunable_weights)


def register(subparsers) -> None:
    help_text = "tune CLEME2.0's alpha weights on a simplex grid against human rankings (in-sample and held out)"
    parser = subparsers.add_parser("tune-weights", help=help_text, description=help_text)
    tunable = tunable_metrics()
    parser.add_argument("--metric", default=tunable[0], choices=tunable,
                        help=f"the metric whose weights are tuned (default {tunable[0]})")
    parser.add_argument("--level", default="corpus", choices=LEVELS)
    parser.add_argument("--assumption", default="dep", choices=ASSUMPTIONS)
    parser.add_argument("--human", nargs="+", required=True, metavar="SPEC",
                        help="datasets: gjg15, seeda-base, seeda-+input, seeda-+ref-f, seeda-all, or human TSV "
                             "files (scored on --m2 and --systems)")
    parser.add_argument("--method", default="TS", choices=METHODS,
                        help="which rankings of each dataset: TS (TrueSkill; default), EW (Expected Wins) or all; "
                             "a SEEDA set contributes its sentence- and edit-based ranking")
    parser.add_argument("--step", type=Number(float, exclusive_minimum=0, maximum=1), default=0.05, help="grid step; 1/step must be an integer (default 0.05)")
    parser.add_argument("--coefficient", default="pearson", choices=COEFFICIENTS)
    parser.add_argument("--holdout", default="family", choices=HOLDOUTS,
                        help="what a held-out dataset leaves out of tuning: its family (datasets sharing its "
                             "systems: every SEEDA set; default) or only itself")
    parser.add_argument("--m2", metavar="GOLD.m2", help="gold for human TSV datasets")
    parser.add_argument("--systems", metavar="DIR", help="systems (DIR/<NAME>.txt) for human TSV datasets")
    parser.add_argument("--data-dir", help="evaluation data folder (default $GEC_DATA, else the per-user data folder; "
                                           "see gecscore data)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--out", metavar="FILE", help="also write the report (JSON) to FILE")
    parser.set_defaults(run=run)


def _alpha(alpha) -> str:
    return "-" if alpha is None else "(" + ", ".join(f"{a:.2f}" for a in alpha) + ")"


def _value(value: float) -> str:
    return number(value, ".3f")


def table(report: TuningReport) -> list[str]:
    """The Markdown table of a report."""
    c = "r" if report.coefficient == "pearson" else "rho"
    lines = [f"CLEME2.0, {report.level} level, {report.assumption}, {report.coefficient}, step {report.step:g} "
             f"({report.grid_points} grid points), held out by {report.holdout}; tuned on every dataset: "
             f"{_alpha(report.all_datasets_alpha)}", "",
             f"| dataset | systems | default alpha | default {c} | in-sample alpha | in-sample {c} | "
             f"held-out alpha | held-out {c} | tuned on |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in report.rows:
        lines.append(f"| {row.dataset} | {row.n_systems} | {_alpha(row.default.alpha)} | {_value(row.default.mean)} | "
                     f"{_alpha(row.in_sample.alpha)} | {_value(row.in_sample.mean)} | "
                     f"{_alpha(row.held_out.alpha)} | {_value(row.held_out.mean)} | "
                     f"{', '.join(row.trained_on) or '-'} |")
    rankings = [f"{row.dataset}: " + ", ".join(f"{k} {_value(row.default.per_ranking[k])}/"
                                               f"{_value(row.in_sample.per_ranking[k])}/"
                                               f"{_value(row.held_out.per_ranking[k])}" for k in row.default.per_ranking)
                for row in report.rows]
    return [*lines, "", f"Per ranking ({c}: default/in-sample/held-out): " + "; ".join(rankings)]


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    progress = None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    if bool(args.m2) != bool(args.systems):
        raise GecInputError("--m2 and --systems go together (for human TSV datasets)")
    simplex_grid(args.step)   # a bad --step fails before the (slow) labelling
    datasets = load_datasets(args.human, args.level, args.assumption, method=args.method, data_dir=args.data_dir,
                             m2=args.m2, systems_dir=args.systems, progress=progress)
    report = tune(datasets, level=args.level, assumption=args.assumption, step=args.step,
                  coefficient=args.coefficient, holdout=args.holdout, progress=progress)
    payload = {**report.as_dict(), "seconds": round(time.perf_counter() - started, 1)}
    if args.out:
        Path(args.out).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(with_warnings(payload), indent=2))
    else:
        print("\n".join(table(report)))
        print(f"\n({payload['seconds']} s)")
    return 0
