"""The signature of a result (as in sacreBLEU): every option that changes the number, the facts
of the model or judge behind it, and the facts of the input, so that two published figures can
be compared honestly.

``metric|option:value|...|model facts|later options|input facts|v:<version>``

One builder serves every metric: the options come from the config's declarations
(:func:`gecscore.options.signature_items`: key, rank, format, whether it applies, whether it is
shown at its default); a metric family adds only facts it alone knows (the model and layer that
weighed the edits, the judge), and the prepared input adds its own (number of references, gold
origin, the extractor's versions).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from gecscore.options import signature_items
from gecscore.version import __version__

Facts = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Signature:
    """``metric|option:value|...|fact:value|...|v:<version>``: the options that change the
    number, then the facts of the input that do (references, gold origin, tokenisation, the
    ERRANT/spaCy/model versions), then the gecscore version."""

    metric: str
    options: Facts
    facts: Facts = ()

    def __str__(self) -> str:
        parts = [self.metric, *(f"{k}:{v}" for k, v in (*self.options, *self.facts)), f"v:{__version__}"]
        return "|".join(parts)

    def get(self, key: str) -> str | None:
        """The value of ``key`` among the options and facts, or None."""
        return dict((*self.options, *self.facts)).get(key)


def signature_of(metric: str, config: Any, model_facts: Sequence[tuple[str, str]] = (),
                 input_facts: Sequence[tuple[str, str]] = ()) -> Signature:
    """The signature of ``metric`` under ``config``: the options of rank 0 (declaration order),
    then ``model_facts`` (what the family's model or judge was), then the options of rank 1, 2,
    ... and ``input_facts``."""
    items = signature_items(config)
    first = [(key, value) for rank, key, value in items if rank == 0]
    later = [(key, value) for rank, key, value in sorted((i for i in items if i[0] > 0), key=lambda i: i[0])]
    return Signature(metric, tuple([*first, *model_facts, *later]), tuple(input_facts))
