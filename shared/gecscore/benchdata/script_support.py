"""What the repository's scripts and benchmarks share to read the named evaluation sets.

A script finds a set by name, as ``gecscore data path NAME`` does: in the data folder
(``--data-dir``, else ``$GEC_DATA``, else the per-user folder), verified against the catalogue
and fetched there on first use (:func:`gecscore.benchdata.fetch.require`). It never guesses a
folder of its own. A set that cannot be had (offline, unreachable, a file that differs) is a
:class:`~gecscore.errors.GecInputError`; :func:`run_script` prints it as one line and exits with
status 2, as the CLI does, so a script never exits 0 having done nothing.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NoReturn

from gecscore.benchdata.catalogue import CATALOGUE
from gecscore.benchdata.fetch import require
from gecscore.errors import GecInputError

DATA_DIR_HELP = ("the data folder holding the named sets (default $GEC_DATA, else the per-user data folder); "
                 "a set not there is fetched into it on first use")
INPUT_ERROR_STATUS = 2


def add_data_dir_option(parser: argparse.ArgumentParser) -> None:
    """``--data-dir DIR`` (``args.data_dir``, None by default), as the CLI's data commands have it."""
    parser.add_argument("--data-dir", metavar="DIR", help=DATA_DIR_HELP)


def data_root(names: Iterable[str], data_dir: str | Path | None = None) -> Path:
    """The data folder holding every set in ``names`` whole, verified; sets not there are fetched
    on first use. Paths under it are the catalogue's (``conll14/source.txt``)."""
    names = list(dict.fromkeys(names))
    unknown = [n for n in names if n not in CATALOGUE]
    if unknown:
        raise GecInputError(f"unknown set(s) {', '.join(unknown)}; expected one of: {', '.join(CATALOGUE)}")
    return require([CATALOGUE[name].files[0].path for name in names], data_dir)


def set_folder(name: str, data_dir: str | Path | None = None) -> Path:
    """The folder of the set ``name`` (``<data folder>/seeda``), verified: what
    ``gecscore data path NAME`` prints."""
    return data_root([name], data_dir) / CATALOGUE[name].folder


def script_name() -> str:
    return Path(sys.argv[0]).name or "script"


def run_script(main: Callable[[], int | None]) -> NoReturn:
    """``sys.exit(main())``, where an input error (a named set missing and not fetched, a file
    that differs from the catalogue, a bad argument value) is one line on stderr,
    ``<script>: error: <message>``, and exit status 2."""
    try:
        status = main()
    except GecInputError as error:
        print(f"{script_name()}: error: {error}", file=sys.stderr)
        sys.exit(INPUT_ERROR_STATUS)
    sys.exit(status or 0)
