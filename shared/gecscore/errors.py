"""Errors raised on bad input: each names the place (file and line, or item index)."""
from __future__ import annotations

from typing import Iterable


class GecInputError(ValueError):
    """Bad user input. ``where`` names the file and line, or the item, at fault."""

    def __init__(self, message: str, where: str | None = None):
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)


class M2FormatError(GecInputError):
    """A malformed M2 file; ``where`` is ``path:line``."""


class DistributedEvaluationError(ValueError):
    """The processes of an evaluate module in distributed mode did not meet (a missing process,
    a mismatched ``experiment_id`` or ``num_process``); the message names what was missing.
    A ValueError, as evaluate's own synchronisation errors."""


class MissingModelError(RuntimeError):
    """A model the metric needs is not installed; the message says how to install it."""


class GecOptionError(GecInputError):
    """A bad option value. ``option`` is the option's Python name; each entry point shows it in
    its own vocabulary (``alpha`` to a Python or evaluate user, ``--alpha`` on the command line)."""

    def __init__(self, option: str, message: str):
        self.option = option
        self.detail = message
        super().__init__(message, option)

    def for_cli(self) -> str:
        return f"--{self.option.replace('_', '-')}: {self.detail}"


class UnknownOptionError(GecOptionError, TypeError):
    """An option name the metric does not have. A :class:`GecOptionError` (its message lists the
    known options and the closest one) and a :class:`TypeError` (what Python raises for an
    unexpected keyword argument, so ``except TypeError`` still catches it)."""

    def __init__(self, option: str, known: Iterable[str], what: str = "this metric"):
        import difflib

        known = sorted(known)
        close = difflib.get_close_matches(option, known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        super().__init__(option, f"unknown option for {what}{hint}; known: {', '.join(known)}")


class ClusterError(RuntimeError):
    """The Dask cluster of a leaderboard run could not be reached (``reached=False``: a set-up
    error, status 2 on the command line) or could not finish the run (every worker lost: status
    4). Nothing was written either way."""

    def __init__(self, message: str, reached: bool = True):
        self.reached = reached
        super().__init__(message)


class JudgeShortfallWarning(UserWarning):
    """An LLM judge failed on some sentences (their scores are left out) or on all of them (the
    score is None); the command line exits with status 3 in the second case."""
