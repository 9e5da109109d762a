"""Command-line options for LLM judges, shared by `gecscore dsgram` and `gecscore cleme2 --weighting llm`."""
from __future__ import annotations

import argparse

from gecscore.judge.backends import BACKENDS, DEFAULT_MODEL
from gecscore.judge.factory import DEFAULT_API_KEY_ENV


def add_model_arguments(group, model_help: str) -> None:
    """--model, --device, --batch-size: meaningful for judges and for similarity weighting."""
    group.add_argument("--model", help=model_help)
    group.add_argument("--device", help="cpu, cuda, cuda:1 ... (default: cuda if available)")
    group.add_argument("--batch-size", type=int, help="items per model batch (default: 8 for judges, 64 for similarity)")


def add_judge_arguments(group, *, with_model: bool = True) -> None:
    group.add_argument("--backend", choices=BACKENDS, default="openai",
                       help="judge backend: openai (any OpenAI-compatible endpoint) or transformers (local LM)")
    if with_model:
        add_model_arguments(group, f"judge model name (openai default {DEFAULT_MODEL}) or local path / Hub id")
    group.add_argument("--base-url", help="chat-completions base URL (default $OPENAI_BASE_URL or OpenAI)")
    group.add_argument("--api-key-env", default=DEFAULT_API_KEY_ENV, metavar="NAME",
                       help=f"environment variable holding the API key (default {DEFAULT_API_KEY_ENV})")
    group.add_argument("--cache", metavar="PATH", help="judge answer cache (SQLite; default "
                       "$GECSCORE_JUDGE_CACHE or ~/.cache/gecscore/judge.sqlite)")
    group.add_argument("--no-cache", action="store_true", help="do not read or write the judge cache")
    group.add_argument("--concurrency", type=int, default=8, help="judge requests in flight (default 8)")
    group.add_argument("--timeout", type=float, default=60.0, help="seconds per judge request (default 60)")
    group.add_argument("--max-retries", type=int, default=4,
                       help="retries of a judge request after a transport error (default 4)")


def judge_from_args(args: argparse.Namespace):
    from gecscore.judge.factory import build_judge

    return build_judge(args.backend, args.model, base_url=args.base_url, api_key_env=args.api_key_env,
                       cache=args.cache, no_cache=args.no_cache, concurrency=args.concurrency,
                       timeout=args.timeout, max_retries=args.max_retries, device=args.device,
                       batch_size=args.batch_size or 8)
