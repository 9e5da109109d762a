"""``gecscore dsgram``: LLM-judged sub-scores with AHP weights (reference-free)."""
from __future__ import annotations

import argparse
import sys

from gecscore.cli.inputs import add_output_arguments, print_result, write_json_lines
from gecscore.judge.backends import BACKENDS, DEFAULT_MODEL
from gecscore.judge.factory import DEFAULT_API_KEY_ENV
from gecscore.judge.types import DSGRAM_SAMPLING
from gecscore.metrics.dsgram import MAX_REASKS, WEIGHT_MODES

HELP = "DSGram: LLM-judged semantic coherence, edit level and fluency with AHP weights"


def register(subparsers) -> None:
    parser = subparsers.add_parser("dsgram", help=HELP, description=HELP)
    group = parser.add_argument_group("inputs")
    group.add_argument("--src", metavar="SRC.txt", required=True, help="source, one sentence per line")
    group.add_argument("--hyp", metavar="HYP.txt", required=True, help="hypothesis, one sentence per line")
    add_output_arguments(parser)
    judge = parser.add_argument_group("judge")
    judge.add_argument("--backend", choices=BACKENDS, default="openai",
                       help="openai: any OpenAI-compatible endpoint; transformers: a local causal LM")
    judge.add_argument("--model", help=f"model name (openai default {DEFAULT_MODEL}) or local path / Hub id")
    judge.add_argument("--base-url", help="chat-completions base URL (default $OPENAI_BASE_URL or OpenAI)")
    judge.add_argument("--api-key-env", default=DEFAULT_API_KEY_ENV, metavar="NAME",
                       help=f"environment variable holding the API key (default {DEFAULT_API_KEY_ENV})")
    judge.add_argument("--cache", metavar="PATH", help="answer cache (SQLite; default "
                       "$GECSCORE_JUDGE_CACHE or ~/.cache/gecscore/judge.sqlite)")
    judge.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    judge.add_argument("--concurrency", type=int, default=8, help="requests in flight (default 8)")
    judge.add_argument("--timeout", type=float, default=60.0, help="seconds per request (default 60)")
    judge.add_argument("--max-retries", type=int, default=4,
                       help="retries of a request after a transport error (default 4)")
    judge.add_argument("--temperature", type=float, default=DSGRAM_SAMPLING.temperature)
    judge.add_argument("--top-p", type=float, default=DSGRAM_SAMPLING.top_p)
    judge.add_argument("--max-tokens", type=int, default=DSGRAM_SAMPLING.max_tokens)
    judge.add_argument("--device", help="transformers: device (default cuda if available)")
    judge.add_argument("--batch-size", type=int, default=8, help="transformers: prompts per batch")
    parser.add_argument("--weights", choices=WEIGHT_MODES, default="dynamic",
                        help="dynamic: AHP weights per sentence; equal: 1/3 each (default dynamic)")
    parser.add_argument("--max-reasks", type=int, default=MAX_REASKS,
                        help=f"re-asks for unreadable output or an inconsistent matrix (default {MAX_REASKS})")
    parser.set_defaults(run=run, metric="dsgram")


def run(args: argparse.Namespace) -> int:
    from gecscore.errors import GecInputError
    from gecscore.io.text import read_lines
    from gecscore.judge.factory import build_judge
    from gecscore.judge.types import JudgeConfigError, Sampling
    from gecscore.metrics.dsgram import result_dict, score_dsgram, sentence_records

    sources = read_lines(args.src, allow_empty=False)
    hypotheses = read_lines(args.hyp)
    if len(hypotheses) != len(sources):
        raise GecInputError(f"{len(hypotheses)} lines but the source has {len(sources)}", args.hyp)
    judge = build_judge(args.backend, args.model, base_url=args.base_url, api_key_env=args.api_key_env,
                        cache=args.cache, no_cache=args.no_cache, concurrency=args.concurrency,
                        timeout=args.timeout, max_retries=args.max_retries, device=args.device,
                        batch_size=args.batch_size)
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
