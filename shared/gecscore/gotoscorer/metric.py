"""GoToScorer behind the metric seam: ``gecscore.load("gotoscorer")``.

**Several systems.** The paper's chunk weights come from the outputs of the systems being
compared, so they are part of the reference side, never of one system's score:

- ``metric.score_systems(prepared, systems)`` builds the weights from all ``systems`` (at least two) and scores
  each of them with the same weights (the paper's procedure);
- ``metric.weighted(prepared, systems)`` returns the prepared reference side with those weights
  (its signature records how many systems and a digest of their outputs), which ``score`` then
  uses for any one system;
- ``score`` on a reference side without weights raises a clear error unless ``no_weight=True``
  (every chunk weighs 1).

So ``score(prepared, predictions)`` always depends only on its arguments.
``sentence_stats``: one row of weighted (TP, FP, FN, TN) per sentence at corpus level (the
statistic is F of the column means), the sentence F at sentence level.
"""
from __future__ import annotations

import dataclasses
import hashlib
from functools import partial
from typing import Any, Sequence

import numpy as np

from gecscore.cache.safe_pickle import storable
from gecscore.errors import GecInputError
from gecscore.gotoscorer.chunks import Chunk, chunks_of
from gecscore.gotoscorer.config import GoToScorerConfig
from gecscore.gotoscorer.scorer import COLUMNS, chunk_weights, f_beta, sentence_counts
from gecscore.metric import Metric, Predictions, Prepared, Result, first_column
from gecscore.types import GoldCorpus, Target


def reference_of(sentence, ref_id: int) -> Target:
    """Annotator ``ref_id``'s target of a gold sentence, or its first when it has no such one."""
    targets = sentence.targets()
    return targets[ref_id] if ref_id < len(targets) else targets[0]


@storable
def corrected_statistic(means: np.ndarray, beta: float) -> float:
    return f_beta(means, beta)


class GoToScorerMetric(Metric[GoToScorerConfig]):
    name = "gotoscorer"
    sentence_score_key = "f"
    config_type = GoToScorerConfig
    summary = ("GoToScorer (Gotou et al. 2020): chunk F0.5 weighted by how many of the systems scored together "
               "miss each chunk (no_weight=True: all 1)")

    def needs_all_systems(self) -> bool:
        """The weights come from every system compared: they are scored together."""
        return not self.config.no_weight

    def prepare(self, gold: GoldCorpus) -> Prepared:
        """The chunks of every sentence's reference ``ref_id``."""
        chunks = tuple(tuple(chunks_of(reference_of(g, self.config.ref_id).edits, g.source)) for g in gold.sentences)
        return self.prepared(gold, state={"chunks": chunks})

    def targets(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> tuple[list[Target], bool]:
        """One system's targets (the language profile's edits of text predictions, kept in
        ``work``; given targets as they are) and whether they were extracted."""
        predictions = self.checked_predictions(prepared, predictions)
        if predictions and not isinstance(predictions[0], Target):
            return self.hypothesis_edits(prepared, predictions, work), True
        return list(predictions), False

    def system_chunks(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]
                      ) -> tuple[list[list[Chunk]], bool]:
        """Every sentence's chunks of one system, and whether its edits were extracted."""
        targets, extracted = self.targets(prepared, predictions, work)
        return [chunks_of(t.edits, g.source) for t, g in zip(targets, prepared.gold.sentences)], extracted

    def weighted(self, prepared: Prepared, systems: Sequence[tuple[str, Predictions]] | Sequence[Predictions]
                 ) -> Prepared:
        """The reference side with chunk weights from ``systems`` (named or not; module docstring)."""
        outputs = [s[1] if isinstance(s, tuple) else s for s in systems]
        if len(outputs) < 2:
            raise GecInputError("GoToScorer's weights need the outputs of at least two systems (with one, every chunk "
                                "it corrects weighs 0); score several systems together, or use no_weight=True")
        per_system = [self.system_chunks(prepared, predictions, {})[0] for predictions in outputs]
        match = self.config.weight_match
        weights = tuple(chunk_weights(reference, [chunks[i] for chunks in per_system], match)
                        for i, reference in enumerate(prepared.state["chunks"]))
        digest = hashlib.blake2b(digest_size=6)
        for chunks in per_system:
            for sentence in chunks:
                digest.update(repr([(c.start, c.end, c.correction) for c in sentence if c.edited]).encode())
        facts = prepared.facts + (("weights", f"{len(outputs)}sys-{digest.hexdigest()}"),)
        return dataclasses.replace(prepared, facts=facts, state={**prepared.state, "weights": weights})

    def score_systems(self, prepared: Prepared, systems: Sequence[tuple[str, Predictions]], works=None
                      ) -> list[tuple[str, Result]]:
        """Weights from all ``systems`` (unless ``no_weight`` or already weighted), then each scored
        (each system's edits extracted once)."""
        prepared = self.check_prepared(prepared)
        works = list(works) if works is not None else [{} for _ in systems]
        found = [self.targets(prepared, predictions, work) for (_, predictions), work in zip(systems, works)]
        if not self.config.no_weight and "weights" not in prepared.state:
            prepared = self.weighted(prepared, [(name, targets) for (name, _), (targets, _) in zip(systems, found)])
        return [(name, self._scored(prepared, targets, {}, extracted))
                for (name, _), (targets, extracted) in zip(systems, found)]

    def _score(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> Result:
        return self._scored(prepared, predictions, work, False)

    def _scored(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any],
                extracted_before: bool) -> Result:
        """``score``; ``extracted_before``: the targets were extracted by ERRANT from text (the
        signature says so)."""
        if self.config.no_weight:
            weights = [None] * len(prepared)
        elif "weights" in prepared.state:
            weights = prepared.state["weights"]
        else:
            raise GecInputError("GoToScorer's weights come from the systems compared: use "
                                "metric.score_systems(prepared, systems) or metric.weighted(prepared, systems), "
                                "or no_weight=True")
        system, extracted = self.system_chunks(prepared, predictions, work)
        extracted = extracted or extracted_before
        counts = np.array([sentence_counts(reference, hyp, w) for reference, hyp, w
                           in zip(prepared.state["chunks"], system, weights)]).reshape(len(system), 4)
        beta = self.config.beta
        sentence_f = np.array([f_beta(row, beta) for row in counts])
        if self.config.level == "corpus":
            stats, statistic = counts, partial(corrected_statistic, beta=beta)
        else:
            stats, statistic = sentence_f.reshape(-1, 1), first_column
        value = statistic(stats.mean(axis=0)) if len(system) else 0.0
        total = counts.sum(axis=0)
        signature = self.signature(prepared, extracted)

        def records() -> list[dict]:
            return [{"index": i, "f": float(f), **{k: float(v) for k, v in zip(COLUMNS, row)}}
                    for i, (f, row) in enumerate(zip(sentence_f, counts))]

        values = {"score": value, "f": value, "precision": _ratio(total[0], total[1]),
                  "recall": _ratio(total[0], total[2]), **{k: float(v) for k, v in zip(COLUMNS, total)}}
        return Result(self.name, signature, values, stats, statistic, None, records)

    def reference_options(self) -> tuple[tuple[str, Any], ...]:
        """The chunks of reference ``ref_id``."""
        return (("reference side", self.name), ("tokenize", self.tokenize), ("lang", self.lang),
                ("ref_id", self.config.ref_id))


def _ratio(tp: float, other: float) -> float:
    return 1.0 if other == 0 else float(tp / (tp + other))
