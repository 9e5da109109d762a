"""Per-edit JSON records of an attribution (what a CLI ``--per-edit`` or a Space shows).

One record per edit of the hypothesis, in edit order::

    {"sentence": 3, "edit": 0, "start": 4, "end": 5, "source": "go", "correction": "goes",
     "type": "R:VERB:SVA", "method": "shapley", "attribution": 0.41, "share": 0.82,
     "empty": 0.0, "full": 0.5, "samples": null}

``start``/``end``: the source token span; ``attribution``: the edit's value; ``share``: its
fraction of ``full - empty`` (None when that is 0); ``empty``/``full``: the sentence score with no
edit / all edits.
"""
from __future__ import annotations

from typing import Sequence

from gecscore.attribution.methods import Attribution
from gecscore.types import Edit


def edit_records(sentence: int, source: Sequence[str], edits: Sequence[Edit], attribution: Attribution
                 ) -> list[dict]:
    gap = attribution.gap
    return [{"sentence": sentence, "edit": i, "start": e.start, "end": e.end,
             "source": " ".join(source[e.start:e.end]), "correction": " ".join(e.correction), "type": e.type,
             "method": attribution.method, "attribution": value, "share": (value / gap) if gap else None,
             "empty": attribution.empty, "full": attribution.full, "samples": attribution.samples}
            for i, (e, value) in enumerate(zip(edits, attribution.values))]
