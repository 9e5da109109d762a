"""The ``gecscore`` command line: ``gecscore <metric> [inputs] [options] [--json]``.

Each command lives in its own module exposing ``register(subparsers)``; add new ones to
``COMMAND_MODULES``. Every command takes ``--quiet`` (no progress bars; ``TQDM_DISABLE=1`` does
the same; bars are only drawn when stderr is a terminal anyway) and ``--verbose`` (every
warning printed: a repeated one is otherwise printed once and counted at the end, see
:mod:`gecscore.warnings_once`).

Exit codes: 0 success; 2 bad input, a bad option, a missing model or a judge setup error (one
line on stderr naming the file, line or option); 3 scores printed, but the LLM judge failed too
often (more than --max-fallback-share of CLEME2.0's LLM edit weights fell back to 1, or every
DSGram sentence failed); 4 a leaderboard's Dask cluster lost every worker mid-run (nothing written;
an unreachable scheduler is 2); 1 an unexpected error (a bug: please report it).
"""
from __future__ import annotations

import argparse
import importlib
import os
import re
import sys

from gecscore.version import __version__
from gecscore.errors import ClusterError, GecInputError, GecOptionError, MissingModelError
from gecscore.judge.types import JudgeError
from gecscore.progress import log_plain_lines, silence
from gecscore.warnings_once import SEE_VERBOSE, SEE_VERBOSE_AND_JSON, said_once

COMMAND_MODULES = (
    "gecscore.cli.score",
    "gecscore.cli.imeasure",
    "gecscore.cli.leaderboard",
    "gecscore.cli.errant", "gecscore.cli.para_to_m2", "gecscore.cli.compare",
    "gecscore.cli.publish", "gecscore.cli.robustness", "gecscore.cli.cache", "gecscore.cli.tune_weights",
    "gecscore.cli.data",
)
METRIC_COMMANDS = "gecscore.cli.score"   # registers one command per metric of the registry
#: the commands each other module registers (``tests/test_cli_numbers.py`` checks them): a
#: command line builds the parser of its own command only, importing only what that command
#: needs (``gecscore leaderboard`` imported every metric's module: a second of a re-run)
COMMANDS = {
    "m2-to-ixml": "gecscore.cli.imeasure", "leaderboard": "gecscore.cli.leaderboard", "errant": "gecscore.cli.errant",
    "para-to-m2": "gecscore.cli.para_to_m2", "compare": "gecscore.cli.compare", "publish": "gecscore.cli.publish",
    "robustness": "gecscore.cli.robustness", "cache": "gecscore.cli.cache", "tune-weights": "gecscore.cli.tune_weights",
    "data": "gecscore.cli.data",
}


class CommandParser(argparse.ArgumentParser):
    """argparse's parser whose errors are one line, as every other error of gecscore's
    (``gecscore leaderboard: error: argument --bootstrap: must be at least 0, got -5 (gecscore
    leaderboard --help)``), exit status 2; subcommands are parsers of the same class."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every command, or with ``command`` (a command's name) that
    command's only (a name no module registers gets every command, so that argparse's error
    lists them)."""
    parser = CommandParser(prog="gecscore", description="Grammatical error correction metrics.")
    parser.add_argument("--version", action="version", version=f"gecscore {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="<command>", required=True)
    from gecscore.registry import metric_names

    if command in COMMANDS:
        importlib.import_module(COMMANDS[command]).register(subparsers)
    elif command is not None and command in metric_names():
        importlib.import_module(METRIC_COMMANDS).register(subparsers, only=command)
    else:
        for name in COMMAND_MODULES:
            importlib.import_module(name).register(subparsers)
    for command in subparsers.choices.values():
        command.add_argument("--quiet", action="store_true", help="no progress bars on stderr")
        command.add_argument("--verbose", action="store_true",
                             help="print every warning (a repeated one is otherwise printed once, and counted at the "
                                  "end)")
        if not any("--no-cache" in action.option_strings for action in command._actions):
            command.add_argument("--no-cache", action="store_true",
                                 help="do not read or write the persistent cache of parses and edits "
                                      "(GECSCORE_NO_CACHE=1; gecscore cache info|clear)")
    return parser


def command_flags(parser: argparse.ArgumentParser, command: str) -> dict[str, str]:
    """The command's options by Python name: ``{"model": "--model", "no_cache": "--no-cache"}``."""
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    flags: dict[str, str] = {}
    for action in subparsers.choices[command]._actions:
        long = [s for s in action.option_strings if s.startswith("--")]
        if long:
            flags[action.dest] = long[0]
    return flags


def in_cli_vocabulary(text: str, flags: dict[str, str]) -> str:
    """A library message with its options spelt as on this command line.

    The library names an option by its Python name: ``model=`` (the option), ``tokenize=True``
    (a switch turned on) or ``backend='replay'`` (a value); here they become ``--model``,
    ``--tokenize`` and ``--backend replay``. Names the command does not take stay as they are."""
    if not flags:
        return text
    names = "|".join(re.escape(name) for name in sorted(flags, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w.-])({names})=(?:(True)\b|'([^']*)'|(?=[\s,.;:)]|$))")

    def spelt(match: re.Match) -> str:
        flag = flags[match.group(1)]
        return f"{flag} {match.group(3)}" if match.group(3) is not None else flag

    return pattern.sub(spelt, text)


def main(argv: list[str] | None = None) -> int:
    from gecscore.collection import fewer_collections

    fewer_collections()
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(words[0] if words and not words[0].startswith("-") else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as stopped:   # a bad argument (named, status 2) or --help: a status, as any error
        return stopped.code if isinstance(stopped.code, int) else 2
    flags = command_flags(parser, args.command)
    args.cli_flags = flags   # for a command printing library text itself (in_cli_vocabulary)
    if getattr(args, "quiet", False):
        silence()
    else:
        log_plain_lines()
    # a warning is printed the first time its kind comes, counted after (gecscore.warnings_once)
    with said_once(f"gecscore {args.command}: warning: ", verbose=getattr(args, "verbose", False),
                   see=SEE_VERBOSE_AND_JSON if "json" in flags else SEE_VERBOSE,
                   rewrite=lambda text: in_cli_vocabulary(text, flags)):
        return _run_command(args, flags)


def _run_command(args: argparse.Namespace, flags: dict[str, str]) -> int:
    """The command's run; its errors as one line and an exit status (see the module's docstring).
    Every input path is looked at first (:func:`gecscore.cli.inputs.check_inputs`): a FIFO or a
    device given as a file is refused before any work, never opened."""
    from gecscore.cli.inputs import check_inputs

    try:
        check_inputs(args)
        if getattr(args, "no_cache", False):   # a judge command's --no-cache turns both caches off
            from gecscore.cache.store import disabled

            with disabled():
                return args.run(args) or 0
        return args.run(args) or 0
    except BrokenPipeError:  # the reader went away (| head): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except GecOptionError as error:
        print(f"gecscore {args.command}: error: {in_cli_vocabulary(error.for_cli(), flags)}", file=sys.stderr)
        return 2
    except ClusterError as error:   # docs/leaderboard_dask.md: 2 unreachable, 4 lost mid-run
        print(f"gecscore {args.command}: error: {in_cli_vocabulary(str(error), flags)}", file=sys.stderr)
        return 4 if error.reached else 2
    except (GecInputError, MissingModelError, JudgeError, ValueError) as error:
        print(f"gecscore {args.command}: error: {in_cli_vocabulary(str(error), flags)}", file=sys.stderr)
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
