"""Warnings said once: a command's repeated warning is printed the first time, then counted.

A leaderboard or robustness run scores many systems under many configurations, and the same
condition warns once per system and configuration (the I-measure's "sentence 333 ... may not
be the maximum", untokenised predictions): tens or hundreds of near-identical lines, the one
that matters lost among them. Python's own filter does not help: its "default" action shows a
text once per place, and these texts differ in a number or a quoted token.

The command line (:func:`gecscore.cli.main`) runs each command under :func:`said_once`, which
sends the command's warnings to a :class:`WarningTally`:

- a warning's *kind* (:func:`kind_of`) is its category and its text with what varies between
  occurrences masked: numbers (``3.52e+13``, ``#333``), quoted tokens, lists of numbers;
- the first warning of a kind is printed with its full text; the later ones are kept and
  counted (``--verbose`` prints every one as it comes);
- when the command ends, one line per repeated kind says how many more there were and where
  they are: ``--verbose``, and the JSON result's ``"warnings"`` list (``--json``, and the
  JSON files of ``--out``: :func:`with_warnings`), every warning's text in order.

A script running several commands in one process (``scripts/reproduce.py``) wraps them in its
own :func:`said_once`: the outer tally counts, so a kind is said once for the whole script.

Worker processes (the leaderboard's ``--jobs N``, a Dask cluster) record their warnings
(:func:`recorded`) and send them back with their results; the main process warns them again
(:func:`relay`), so that every warning of a run is counted in one place and said once there.
"""
from __future__ import annotations

import contextlib
import re
import sys
import threading
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

#: what varies between two warnings of one kind: a quoted token, a number (with its decimals
#: and exponent); a list of them (``ids 332, 333, 334``) is masked as one
_VARIES = re.compile(r"'[^']*'|\"[^\"]*\"|\d+(?:[.,]\d+)*(?:[eE][+-]?\d+)?")
_MASKED_LIST = re.compile(r"#(?:, #)+")
#: the length of a warning's text quoted in its count line
QUOTED_CHARS = 80


def kind_of(text: str, category: type[Warning] = UserWarning) -> str:
    """The kind of a warning: its category and its text with what varies masked as ``#``
    (two warnings of one condition on different sentences, systems or counts are one kind)."""
    return f"{category.__name__}: {_MASKED_LIST.sub('#', _VARIES.sub('#', text))}"


#: where a command line's count lines say the warnings not printed are
SEE_VERBOSE = "--verbose prints every one"
SEE_VERBOSE_AND_JSON = '--verbose prints every one; the JSON result lists them under "warnings"'


@dataclass
class WarningTally:
    """Every warning of one command, by kind: the first of each printed (``prefix`` + its
    text, passed through ``rewrite``), the later ones counted, or all printed when
    ``verbose``; :meth:`summary` says how many were not and where they are (``see``).

    Within another tally's block (``parent``: a script running several commands), the
    parent counts and decides what is printed, so a kind is said once for the whole script;
    this one keeps its own command's ``messages``."""

    prefix: str = "warning: "
    verbose: bool = False
    see: str = SEE_VERBOSE
    rewrite: Callable[[str], str] = str
    parent: WarningTally | None = None
    messages: list[str] = field(default_factory=list)     # every warning's text, in order
    counts: dict[str, int] = field(default_factory=dict)  # kind -> occurrences
    first: dict[str, str] = field(default_factory=dict)   # kind -> its first text
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)   # a judge warns from its threads

    def add(self, message: Any, category: type[Warning] = UserWarning) -> None:
        """One warning: counted, and printed if it is the first of its kind (or ``verbose``)."""
        text = self.rewrite(str(message))
        with self.lock:
            self.messages.append(text)
        counter = self if self.parent is None else self.parent
        if counter._count(kind_of(str(message), category), text) == 1 or self.verbose or counter.verbose:
            print(f"{self.prefix}{text}", file=sys.stderr, flush=True)

    def _count(self, kind: str, text: str) -> int:
        with self.lock:
            self.counts[kind] = self.counts.get(kind, 0) + 1
            self.first.setdefault(kind, text)
            return self.counts[kind]

    def show(self, message, category, filename, lineno, file=None, line=None) -> None:
        """``warnings.showwarning``'s signature: :meth:`add`."""
        self.add(message, category)

    def summary(self) -> list[str]:
        """One line per kind said more often than printed: how many more, the start of its
        first text, where the others are (none under a parent, which says it for all)."""
        if self.verbose or self.parent is not None:
            return []
        lines = []
        for kind, count in self.counts.items():
            if count > 1:
                first = self.first[kind]
                quoted = first if len(first) <= QUOTED_CHARS else first[:QUOTED_CHARS - 3].rstrip() + "..."
                lines.append(f"{self.prefix}{count - 1} more like \"{quoted}\" ({self.see})")
        return lines


_ACTIVE: list[WarningTally] = []


@contextlib.contextmanager
def said_once(prefix: str = "warning: ", *, verbose: bool = False, see: str = SEE_VERBOSE,
              rewrite: Callable[[str], str] = str) -> Iterator[WarningTally]:
    """Within the block, every UserWarning (and whatever else Python's filters let through)
    goes to a :class:`WarningTally`, which prints the first of each kind; on leaving, its
    count lines are printed (``see``: where the others are). Within another ``said_once``
    block the outer one counts (:class:`WarningTally`'s ``parent``) and prints the count
    lines when it ends. Python's filters and ``showwarning`` are restored after it."""
    tally = WarningTally(prefix, verbose, see, rewrite, parent=_ACTIVE[0] if _ACTIVE else None)
    with warnings.catch_warnings():
        warnings.simplefilter("always", UserWarning)   # every one reaches the tally, which says it once
        warnings.showwarning = tally.show
        _ACTIVE.append(tally)
        try:
            yield tally
        finally:
            _ACTIVE.remove(tally)
            for line in tally.summary():
                print(line, file=sys.stderr, flush=True)


def with_warnings(payload: dict) -> dict:
    """``payload`` (a command's JSON result) with ``"warnings"``: every warning of the command
    so far, in order, when there are any under :func:`said_once` (else ``payload`` as it is:
    a clean run's keys do not change)."""
    if not _ACTIVE or not _ACTIVE[-1].messages:
        return payload
    return {**payload, "warnings": list(_ACTIVE[-1].messages)}


# ---------------------------------------------------------------- worker processes

@dataclass(frozen=True)
class Relayed:
    """A warning recorded in a worker, as sent to the main process."""

    category: type[Warning]
    message: str
    filename: str
    lineno: int


# warnings.catch_warnings changes the whole process's state: one recording at a time (a Dask
# worker runs tasks in threads)
_RECORDING = threading.Lock()
# the registry relayed warnings are checked against: Python's "default" action shows a text
# relayed by several workers once, as it would have shown it in one process
_RELAYED_REGISTRY: dict = {}


@contextlib.contextmanager
def recorded() -> Iterator[list[Relayed]]:
    """In a worker: the warnings of the block, not printed here, as :class:`Relayed` (the list
    yielded is filled when the block ends) for the main process to :func:`relay`."""
    out: list[Relayed] = []
    with _RECORDING, warnings.catch_warnings(record=True) as caught:
        yield out
    out.extend(Relayed(w.category, str(w.message), str(w.filename), int(w.lineno or 0)) for w in caught)


def relay(relayed: Sequence[Relayed]) -> None:
    """In the main process: warn again what a worker recorded (through this process's filters
    and ``showwarning``: the command line's tally counts them with its own)."""
    for w in relayed:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, registry=_RELAYED_REGISTRY)
