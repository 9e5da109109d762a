"""Errors raised on bad input: each names the place (file and line, or item index)."""
from __future__ import annotations


class GecInputError(ValueError):
    """Bad user input. ``where`` names the file and line, or the item, at fault."""

    def __init__(self, message: str, where: str | None = None):
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)


class M2FormatError(GecInputError):
    """A malformed M2 file; ``where`` is ``path:line``."""


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


class JudgeShortfallWarning(UserWarning):
    """An LLM judge failed on some sentences (their scores are left out) or on all of them (the
    score is None); the command line exits with status 3 in the second case."""
