"""``gecscore cleme | cleme2 | pt_m2 | imeasure | dsgram``: one command per metric, each a thin
translation of flags onto the metric seam (its flags come from the metric's config)."""
from __future__ import annotations

import argparse
import json
import sys

from gecscore.cli.inputs import (add_input_arguments, add_output_arguments, prepare_gold, print_result,
                                 read_systems, write_json_lines)
from gecscore.cli.options import add_config_arguments, config_from_args

# Exit code when scores were printed but the LLM judge let the run down: more than
# --max-fallback-share of the LLM edit weights fell back to 1 (CLEME2.0 --weighting llm), or every
# DSGram sentence failed.
JUDGE_SHORTFALL = 3
DEFAULT_MAX_FALLBACK_SHARE = 0.1


def register(subparsers) -> None:
    """One command per registered metric (:mod:`gecscore.registry`), its flags read from the
    metric's config."""
    from gecscore.registry import metric_class, metric_names

    for name in metric_names():
        cls = metric_class(name)
        from gecscore.cli import in_cli_vocabulary
        from gecscore.cli.options import flag
        from gecscore.options import fields_of

        summary = in_cli_vocabulary(cls.summary, {f.name: flag(f.name) for f in fields_of(cls.config_type)})
        parser = subparsers.add_parser(name, help=summary, description=summary)
        add_input_arguments(parser, reference_free=not cls.needs_references)
        add_output_arguments(parser)
        add_config_arguments(parser, cls.config_type)
        if name in ("cleme", "cleme2"):
            parser.add_argument("--max-fallback-share", type=float, default=DEFAULT_MAX_FALLBACK_SHARE,
                                metavar="FRACTION",
                                help=f"--weighting llm: exit with status {JUDGE_SHORTFALL} when more than this share "
                                     f"of the edits fell back to weight 1 (default {DEFAULT_MAX_FALLBACK_SHARE:g})")
        parser.set_defaults(run=run, metric=name)


def run(args: argparse.Namespace) -> int:
    """Score each --hyp system against one prepared reference side; print one result (one
    system) or one JSON object with a result per system (``systems``)."""
    from gecscore.registry import metric_class

    cls = metric_class(args.metric)
    metric = cls(config_from_args(cls.config_type, args))
    prepared = prepare_gold(args, metric)
    systems = read_systems(args, prepared)
    judge = None
    try:
        results = metric.score_systems(prepared, systems)
    finally:
        judge = judge_of(metric)
        if judge is not None:
            from gecscore.cli import in_cli_vocabulary

            print(in_cli_vocabulary(judge.summary(), getattr(args, "cli_flags", {})), file=sys.stderr)
            judge.close()
    if judge is not None and judge.exporter is not None:
        # the requests went to a batch file: these scores are not the metric's, print none
        exported = judge.exporter.result
        if args.json:
            print(json.dumps({"metric": args.metric, "batch_export": {
                "files": [str(p) for p in exported.paths], "requests": exported.written}}))
        return 0
    if args.per_sentence:
        several = len(results) > 1
        write_json_lines(args.per_sentence, ({"system": name, **record} if several else record
                                             for name, result in results for record in result.records()))
    if len(results) > 1 and args.json:
        print(json.dumps({"metric": args.metric, "systems": {name: result.as_dict() for name, result in results}}))
        return 0
    for name, result in results:
        if len(results) > 1:
            print(f"== {name}")
        print_one(args, result)
    return judge_shortfall(args, results)


def judge_shortfall(args: argparse.Namespace, results) -> int:
    """0, or JUDGE_SHORTFALL (with a line on stderr) when the judge's failures make the scores
    untrustworthy: too many LLM edit weights fell back to 1, or no DSGram sentence was judged."""
    status = 0
    for name, result in results:
        values = result.values
        if "llm_edits" in values and values["llm_edits"]:
            share = values["llm_fallbacks"] / values["llm_edits"]
            if share > args.max_fallback_share:
                print(f"gecscore {args.metric}: error: {name}: {values['llm_fallbacks']} of {values['llm_edits']} "
                      f"LLM edit weights fell back to 1 ({share:.0%} > --max-fallback-share "
                      f"{args.max_fallback_share:g})", file=sys.stderr)
                status = JUDGE_SHORTFALL
        if values.get("n_sentences") and values.get("n_failed") == values["n_sentences"]:
            print(f"gecscore {args.metric}: error: {name}: every judge call failed; no sentence was scored",
                  file=sys.stderr)
            status = JUDGE_SHORTFALL
    return status


def print_one(args: argparse.Namespace, result) -> None:
    if args.metric == "imeasure" and not args.json:
        print_imeasure_table(result.as_dict())
    elif args.metric == "dsgram" and not args.json:
        summary = result.as_dict()
        summary["weights"] = ", ".join(f"{k} {v:.4f}" for k, v in summary["weights"].items() if v is not None)
        summary.pop("judge")
        print_result(summary, False)
    else:
        print_result(result.as_dict(), args.json)


def judge_of(metric):
    """The LLM judge a metric object used (DSGram, or CLEME2.0's llm weighting), if any."""
    if metric.needs() == "judge" and hasattr(metric, "has_judge"):
        return metric.judge() if metric.has_judge() else None
    weigher = metric.weigher() if getattr(metric.config, "weighting", None) == "llm" and metric.has_weigher() else None
    return getattr(weigher, "judge", None)


def print_imeasure_table(out: dict) -> None:
    print(out["signature"])
    print(f"{'':<11}" + "".join(f"{k.upper():>10}" for k in ("tp", "tn", "fp", "fn", "fpn", "p", "r", "f",
                                                              "acc", "acc_base", "wacc", "wacc_base", "i")))
    for aspect in ("detection", "correction"):
        row = out[aspect]
        cells = [f"{row[k]:>10d}" for k in ("tp", "tn", "fp", "fn", "fpn")]
        cells += [f"{100 * row[k]:>10.2f}" for k in ("p", "r", "f", "acc", "acc_base", "wacc", "wacc_base", "i")]
        print(f"{aspect:<11}" + "".join(cells))
