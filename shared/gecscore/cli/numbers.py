"""Numbers on the command line, checked while the arguments are parsed: a bad value is refused
with the flag's name (``argument --bootstrap: must be at least 0, got -5``) and exit status 2,
before any file is read or any system scored.

Every int and float flag of every command is a :class:`Number` (``tests/test_cli_numbers.py``
walks the parsers): the hand-written flags say their bounds here, the declared options of the
metrics take theirs from the declaration (:func:`gecscore.options.option`).
"""
from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

from gecscore.options import out_of_bounds


@dataclass(frozen=True)
class Number:
    """An argparse ``type``: text -> ``kind`` within the bounds, else
    :class:`argparse.ArgumentTypeError` (argparse prefixes the flag). ``off``: a value outside
    the bounds that is accepted all the same, meaning "off" (``--window 0``). Floats must be
    finite."""

    kind: type = int
    minimum: float | None = None
    exclusive_minimum: float | None = None
    maximum: float | None = None
    exclusive_maximum: float | None = None
    off: float | None = None

    def __call__(self, text: str) -> int | float:
        try:
            value = self.kind(text)
        except (TypeError, ValueError):
            raise argparse.ArgumentTypeError(f"expected {self.expected()}, got {text!r}") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
        if self.off is not None and value == self.off:
            return value
        problem = self.out_of_bounds(value)
        if problem:
            raise argparse.ArgumentTypeError(f"{problem}, got {text}")
        return value

    def out_of_bounds(self, value: float) -> str | None:
        """Why ``value`` is out of bounds (:func:`gecscore.options.out_of_bounds`, with the "off"
        value named beside a lower bound), or None."""
        below = out_of_bounds(value, self.minimum, self.exclusive_minimum)
        if below:
            return below + (f" (or {self.off:g}: off)" if self.off is not None else "")
        return out_of_bounds(value, maximum=self.maximum, exclusive_maximum=self.exclusive_maximum)

    def expected(self) -> str:
        return "an integer" if self.kind is int else "a number"


#: counts of things that may be none (resamples, trials: 0 is off)
COUNT = Number(int, minimum=0)
#: counts of at least one (processes, samples)
POSITIVE = Number(int, minimum=1)
#: random seeds (NumPy takes 0 to 2**32 - 1)
SEED = Number(int, minimum=0, maximum=2**32 - 1)
#: durations in seconds
SECONDS = Number(float, exclusive_minimum=0)
#: a confidence level or a probability strictly between 0 and 1
OPEN_UNIT = Number(float, exclusive_minimum=0, exclusive_maximum=1)
#: a share, 0 to 1
SHARE = Number(float, minimum=0, maximum=1)
