"""The ``gecscore`` command line: ``gecscore <metric> [inputs] [options] [--json]``.

Each command lives in its own module exposing ``register(subparsers)``; add new ones to
``COMMAND_MODULES``. Every command takes ``--quiet`` (no progress bars; ``TQDM_DISABLE=1`` does
the same; bars are only drawn when stderr is a terminal anyway).

Exit codes: 0 success; 2 bad input, a bad option, a missing model or a judge setup error (one
line on stderr naming the file, line or option); 3 scores printed, but the LLM judge failed too
often (more than --max-fallback-share of CLEME2.0's LLM edit weights fell back to 1, or every
DSGram sentence failed); 1 an unexpected error (a bug: please report it).
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
import warnings

from gecscore import __version__
from gecscore.errors import GecInputError, GecOptionError, MissingModelError
from gecscore.judge.types import JudgeError
from gecscore.progress import silence

COMMAND_MODULES = (
    "gecscore.cli.score",
    "gecscore.cli.imeasure",
    "gecscore.cli.leaderboard",
    "gecscore.cli.errant", "gecscore.cli.compare",
    "gecscore.cli.publish",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gecscore", description="Grammatical error correction metrics.")
    parser.add_argument("--version", action="version", version=f"gecscore {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="<command>", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    for command in subparsers.choices.values():
        command.add_argument("--quiet", action="store_true", help="no progress bars on stderr")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)

    def show_warning(message, category, filename, lineno, file=None, line=None):
        print(f"gecscore {args.command}: warning: {message}", file=sys.stderr)

    warnings.showwarning = show_warning
    if getattr(args, "quiet", False):
        silence()
    try:
        return args.run(args) or 0
    except BrokenPipeError:  # the reader went away (| head): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except GecOptionError as error:
        print(f"gecscore {args.command}: error: {error.for_cli()}", file=sys.stderr)
        return 2
    except (GecInputError, MissingModelError, JudgeError, ValueError) as error:
        print(f"gecscore {args.command}: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        if error.filename is None:   # not about a file the user named: unexpected
            raise
        # a file or folder the command could not read or write (the output helper names most
        # of them first; this catches the rest): a set-up error, not a bug
        print(f"gecscore {args.command}: error: {error.filename}: {error.strerror or error}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
