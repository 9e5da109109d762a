"""The ``gecscore`` command line: ``gecscore <metric> [inputs] [options] [--json]``.

Each command lives in its own module exposing ``register(subparsers)``; add new ones to
``COMMAND_MODULES``.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from gecscore import __version__
from gecscore.errors import GecInputError, MissingModelError

COMMAND_MODULES = (
    "gecscore.cli.cleme",
    "gecscore.cli.pt_m2",
    "gecscore.cli.imeasure",
    "gecscore.cli.leaderboard",
    "gecscore.cli.dsgram",
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
    try:
        return args.run(args) or 0
    except (GecInputError, MissingModelError, ValueError) as error:
        print(f"gecscore {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
