"""``gecscore dsgram``: LLM-judged sub-scores with AHP weights (reference-free)."""
from __future__ import annotations

import argparse
import sys

from gecscore.cli.inputs import add_output_arguments, print_result, write_json_lines
from gecscore.cli.judge_options import add_judge_arguments, judge_from_args
from gecscore.judge.types import DSGRAM_SAMPLING
from gecscore.dsgram.scorer import MAX_REASKS, WEIGHT_MODES

HELP = "DSGram: LLM-judged semantic coherence, edit level and fluency with AHP weights"


def register(subparsers) -> None:
    parser = subparsers.add_parser("dsgram", help=HELP, description=HELP)
    group = parser.add_argument_group("inputs")
    group.add_argument("--src", metavar="SRC.txt", required=True, help="source, one sentence per line")
    group.add_argument("--hyp", metavar="HYP.txt", required=True, help="hypothesis, one sentence per line")
    add_output_arguments(parser)
    judge = parser.add_argument_group("judge")
    add_judge_arguments(judge)
    judge.add_argument("--temperature", type=float, default=DSGRAM_SAMPLING.temperature)
    judge.add_argument("--top-p", type=float, default=DSGRAM_SAMPLING.top_p)
    judge.add_argument("--max-tokens", type=int, default=DSGRAM_SAMPLING.max_tokens)
    parser.add_argument("--weights", choices=WEIGHT_MODES, default="dynamic",
                        help="dynamic: AHP weights per sentence; equal: 1/3 each (default dynamic)")
    parser.add_argument("--max-reasks", type=int, default=MAX_REASKS,
                        help=f"re-asks for unreadable output or an inconsistent matrix (default {MAX_REASKS})")
    parser.set_defaults(run=run, metric="dsgram")


def run(args: argparse.Namespace) -> int:
    from gecscore.errors import GecInputError
    from gecscore.io.text import read_lines
    from gecscore.judge.types import JudgeConfigError, Sampling
    from gecscore.dsgram.scorer import result_dict, score_dsgram, sentence_records

    sources = read_lines(args.src, allow_empty=False)
    hypotheses = read_lines(args.hyp)
    if len(hypotheses) != len(sources):
        raise GecInputError(f"{len(hypotheses)} lines but the source has {len(sources)}", args.hyp)
    judge = judge_from_args(args)
    sampling = Sampling(args.temperature, args.top_p, args.max_tokens)
    try:
        result = score_dsgram(sources, hypotheses, judge, weights=args.weights, sampling=sampling,
                              max_reasks=args.max_reasks)
    except JudgeConfigError as error:
        print(f"gecscore dsgram: error: {error}", file=sys.stderr)
        return 2
    finally:
        print(judge.summary(), file=sys.stderr)
        judge.close()
    if args.per_sentence:
        write_json_lines(args.per_sentence, sentence_records(result))
    summary = result_dict(result)
    if not args.json:
        summary = {**summary, "weights": ", ".join(f"{k} {v:.4f}" for k, v in summary["weights"].items()
                                                   if v is not None)}
        summary.pop("judge")
    print_result(summary, args.json)
    return 0
