"""``gecscore cleme | cleme2 | pt_m2 | imeasure | dsgram``: one command per metric, each a thin
translation of flags onto the metric seam (its flags come from the metric's config)."""
from __future__ import annotations

import argparse
import json
import sys

from gecscore.cli.inputs import (add_input_arguments, add_output_arguments, prepare_gold, print_result,
                                 read_systems, write_json_lines)
from gecscore.cli.options import add_config_arguments, config_from_args

COMMANDS = {
    "cleme": "CLEME: chunk-level precision, recall and F0.5",
    "cleme2": "CLEME2.0: hit/wrong/under/over-correction and the comprehensive score",
    "pt_m2": "PT-M2 / PT-ERRANT: M2 or ERRANT F_beta with edits weighted by BERTScore or BARTScore "
             "(--scorer none: plain M2 / SentM2)",
    "imeasure": "I-measure: WAS counts on a 3-way alignment, WAcc and improvement I",
    "dsgram": "DSGram: LLM-judged semantic coherence, edit level and fluency with AHP weights",
}


def register(subparsers) -> None:
    from gecscore.metric import metric_class

    for name, help_text in COMMANDS.items():
        parser = subparsers.add_parser(name, help=help_text, description=help_text)
        add_input_arguments(parser, reference_free=name == "dsgram")
        add_output_arguments(parser)
        add_config_arguments(parser, metric_class(name).config_type)
        parser.set_defaults(run=run, metric=name)


def run(args: argparse.Namespace) -> int:
    """Score each --hyp system against one prepared reference side; print one result (one
    system) or one JSON object with a result per system (``systems``)."""
    from gecscore.metric import metric_class

    cls = metric_class(args.metric)
    metric = cls(config_from_args(cls.config_type, args))
    prepared = prepare_gold(args, metric)
    systems = read_systems(args, prepared)
    judge = None
    try:
        results = [(name, metric.score(prepared, predictions)) for name, predictions in systems]
    finally:
        judge = judge_of(metric)
        if judge is not None:
            print(judge.summary(), file=sys.stderr)
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
    return 0


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
    if metric.name == "dsgram":
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
