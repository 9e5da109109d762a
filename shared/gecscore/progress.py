"""Progress bars for long work: on stderr, only when stderr is a terminal, never on stdout;
``TQDM_DISABLE`` (any non-empty value but 0/false) or the CLI's ``--quiet`` silences them."""
from __future__ import annotations

import os
import sys
from typing import Any

from tqdm.auto import tqdm

QUIET_ENV = "TQDM_DISABLE"


def wanted(requested: bool = True, size: int | None = None, minimum: int = 0) -> bool:
    """Whether to show a bar: asked for, work at least ``minimum`` items, stderr a terminal
    and not silenced."""
    if not requested or (size is not None and size < minimum):
        return False
    if os.environ.get(QUIET_ENV, "").strip().lower() not in ("", "0", "false", "no"):
        return False
    return bool(getattr(sys.stderr, "isatty", lambda: False)())


def bar(iterable: Any = None, *, desc: str, total: int | None = None, requested: bool = True,
        minimum: int = 0, **options: Any) -> tqdm:
    """A tqdm bar on stderr that is shown only when :func:`wanted`."""
    if total is None and iterable is not None and hasattr(iterable, "__len__"):
        total = len(iterable)
    return tqdm(iterable, desc=desc, total=total, file=sys.stderr, leave=False,
                disable=not wanted(requested, total, minimum), **options)


def silence() -> None:
    """Silence every bar of this process (and of the worker processes it starts)."""
    os.environ[QUIET_ENV] = "1"
