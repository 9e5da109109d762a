"""``gecscore cleme`` (P/R/F) and ``gecscore cleme2`` (hit/wrong/under/over)."""
from __future__ import annotations

import argparse

from gecscore.cli.inputs import (add_input_arguments, add_output_arguments, load_samples,
                                 print_result, write_json_lines)
from gecscore.metrics.chunk_evaluation import WEIGHTINGS


def register(subparsers) -> None:
    for name, default_weighting, help_text in (
        ("cleme", "length", "CLEME: chunk-level precision, recall and F0.5"),
        ("cleme2", "none", "CLEME2.0: hit/wrong/under/over-correction and the comprehensive score"),
    ):
        parser = subparsers.add_parser(name, help=help_text, description=help_text)
        add_input_arguments(parser)
        add_output_arguments(parser)
        parser.add_argument("--assumption", choices=("dep", "ind"), default="dep",
                            help="references dependent (one at a time) or independent (any)")
        parser.add_argument("--weighting", choices=WEIGHTINGS, default=default_weighting,
                            help=f"edit weighting (default {default_weighting})")
        if name == "cleme2":
            parser.add_argument("--alpha", metavar="A1,A2,A3,A4",
                                help="trade-off factors (default 0.45,0.35,0.15,0.05 corpus; "
                                     "0.35,0.25,0.20,0.20 sentence)")
        else:
            parser.add_argument("--beta", type=float, default=0.5, help="F beta (default 0.5)")
        parser.set_defaults(run=run, metric=name)


def run(args: argparse.Namespace) -> int:
    from gecscore.metrics.chunk_report import result_dict, sentence_records
    from gecscore.metrics.cleme import score_cleme
    from gecscore.metrics.cleme2 import score_cleme2

    samples = load_samples(args)
    common = dict(level=args.level, assumption=args.assumption, weighting=args.weighting)
    if args.metric == "cleme2":
        result = score_cleme2(samples, alpha=args.alpha, **common)
    else:
        result = score_cleme(samples, beta=args.beta, **common)
    if args.per_sentence:
        write_json_lines(args.per_sentence, sentence_records(result))
    print_result(result_dict(result), args.json)
    return 0
