"""``gecscore cleme`` (P/R/F) and ``gecscore cleme2`` (hit/wrong/under/over)."""
from __future__ import annotations

import argparse
import sys

from gecscore.cli.judge_options import add_judge_arguments, add_model_arguments, judge_from_args
from gecscore.cli.inputs import (add_input_arguments, add_output_arguments, load_samples,
                                 print_result, write_json_lines)
from gecscore.chunks.evaluation import WEIGHTINGS


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
                            help=f"edit weighting (default {default_weighting}); similarity = BERTScore "
                                 f"(CLEME2.0-sim), llm = 1-5 ratings from an LLM judge")
        models = parser.add_argument_group("models (--weighting similarity or llm)")
        add_model_arguments(models, "similarity: BERT-style model name or local directory (default "
                                    "bert-base-uncased); llm: the judge model")
        models.add_argument("--num-layers", type=int,
                            help="similarity: the model layer used by BERTScore (default: the model's; 9 for bert-base-uncased)")
        add_judge_arguments(parser.add_argument_group("judge (--weighting llm)"), with_model=False)
        if name == "cleme2":
            parser.add_argument("--alpha", metavar="A1,A2,A3,A4",
                                help="trade-off factors (default 0.45,0.35,0.15,0.05 corpus; "
                                     "0.35,0.25,0.20,0.20 sentence)")
        else:
            parser.add_argument("--beta", type=float, default=0.5, help="F beta (default 0.5)")
        parser.set_defaults(run=run, metric=name)


def run(args: argparse.Namespace) -> int:
    from gecscore.chunks.report import result_dict, sentence_records
    from gecscore.chunks.cleme import score_cleme
    from gecscore.chunks.cleme2 import score_cleme2
    from gecscore.chunks.weighers import build_chunk_weigher

    samples = load_samples(args)
    judge = judge_from_args(args) if args.weighting == "llm" else None
    weigher = build_chunk_weigher(args.weighting, model=args.model, num_layers=args.num_layers,
                                  batch_size=args.batch_size, device=args.device, judge=judge)
    common = dict(level=args.level, assumption=args.assumption, weighting=args.weighting, weigher=weigher)
    if args.metric == "cleme2":
        result = score_cleme2(samples, alpha=args.alpha, **common)
    else:
        result = score_cleme(samples, beta=args.beta, **common)
    if judge is not None:
        print(weigher.summary(), file=sys.stderr)
        judge.close()
    if args.per_sentence:
        write_json_lines(args.per_sentence, sentence_records(result))
    print_result(result_dict(result), args.json)
    return 0
