"""The reference side of a reference-free model metric (SOME, IMPARA, Scribendi): the sources
alone. References, if given, are not read.

The models read text: a source given as text is kept as it was written (``prepared.state
["sources"]``); a source from an M2 file is its tokens joined by spaces. A prediction given as
a :class:`~gecscore.types.Target` (a hypothesis M2 file) is its tokens joined by spaces.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from gecscore.types import Gold, GoldCorpus, Target

if TYPE_CHECKING:   # annotations only: the components layer does not import the seam
    from gecscore.metric import Metric, Predictions, Prepared


class SourceSide:
    """Mixin for a :class:`~gecscore.metric.Metric` that reads sources and predictions only."""

    needs_references = False

    def prepare(self: Metric, gold: GoldCorpus) -> Prepared:
        return self.prepared(gold, facts=(), state={"sources": tuple(" ".join(g.source) for g in gold.sentences)})

    def prepare_text(self: Metric, sources: Sequence[str], references: Any = None) -> Prepared:
        """The sources as written (references, if given, are not used)."""
        from gecscore import inputs

        sources, _, _ = inputs.parallel(sources)
        gold = GoldCorpus(tuple(Gold(tuple(s.split()), {}, 0, str(i + 1)) for i, s in enumerate(sources)), "none")
        return self.prepared(gold, facts=(), state={"sources": tuple(sources)})

    def needed_references(self, references: Any) -> None:
        """None: the metric is reference-free."""
        return None

    def reference_options(self) -> tuple[tuple[str, Any], ...]:
        """The sources: no option changes them."""
        return (("reference side", "sources"),)

    def texts(self: Metric, prepared: Prepared, predictions: Predictions) -> tuple[list[str], list[str]]:
        """(sources, hypotheses) as the models read them."""
        predictions = self.checked_predictions(prepared, predictions)
        hypotheses = [" ".join(p.tokens) if isinstance(p, Target) else p for p in predictions]
        sources = prepared.state.get("sources") or tuple(" ".join(g.source) for g in prepared.gold.sentences)
        return list(sources), hypotheses

    def needs(self) -> str:
        """A model: the leaderboard scores every system in its main process, models loaded once."""
        return "model"
