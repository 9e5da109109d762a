"""The ``gecscore`` command line: ``gecscore <metric> [inputs] [options] [--json]``.

Each command lives in its own module exposing ``register(subparsers)``; add new ones to
``COMMAND_MODULES``.
"""
from __future__ import annotations

import argparse
import importlib
import sys
import warnings

from gecscore import __version__
from gecscore.errors import GecInputError, GecOptionError, MissingModelError
from gecscore.judge.types import JudgeError

COMMAND_MODULES = (
    "gecscore.cli.score",
    "gecscore.cli.imeasure",
    "gecscore.cli.leaderboard",
    "gecscore.cli.publish",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gecscore", description="Grammatical error correction metrics.")
    parser.add_argument("--version", action="version", version=f"gecscore {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="<command>", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)

    def show_warning(message, category, filename, lineno, file=None, line=None):
        print(f"gecscore {args.command}: warning: {message}", file=sys.stderr)

    warnings.showwarning = show_warning
    try:
        return args.run(args) or 0
    except GecOptionError as error:
        print(f"gecscore {args.command}: error: {error.for_cli()}", file=sys.stderr)
        return 2
    except (GecInputError, MissingModelError, JudgeError, ValueError) as error:
        print(f"gecscore {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
