"""PT-M2 (and plain M2 / SentM2, PT-ERRANT, ERRANT) behind the metric seam: the config (every
option with the papers' defaults, declared here once) and the prepare/score pair.

Reference side (``prepare``): each sentence's gold edits per annotator (an M2 file's own edits,
or ERRANT on plain-text references). System side (``score``): MaxMatch edits against each
annotator (``base="m2"``) or the hypothesis ERRANT edits (``base="errant"``), edit weights from
the pretrained scorer (its pair cache keeps reference-side scores across calls), counts.
"""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from gecscore.cache.safe_pickle import storable
from gecscore.m2.config import PtM2Config
from gecscore.m2.pt_m2 import result_values, sentence_records
from gecscore.m2.scoring import EditCounts
from gecscore.metric import Metric, Predictions, Prepared, Result, Share, Shared, SharingKey, build_now, first_column
from gecscore.types import GoldCorpus, Target

if TYPE_CHECKING:
    from gecscore.models.similarity import PairScorer


class PtM2Metric(Metric):
    name = "pt_m2"
    sentence_score_key = "f"
    config_type = PtM2Config
    summary = ("PT-M2 / PT-ERRANT: M2 or ERRANT F_beta with edits weighted by BERTScore or BARTScore "
               "(scorer='none': plain M2 / SentM2)")
    per_edit = True

    def __init__(self, config: PtM2Config, *, pair_scorer: PairScorer | None = None):
        """``pair_scorer`` shares one model scorer (and its caches) between metric objects."""
        super().__init__(config)
        self._pair_scorer = pair_scorer

    @property
    def family_name(self) -> str:
        """m2, errant, pt_m2 or pt_errant: the usual name of this setting."""
        base, weighted = self.config.base, self.config.scorer != "none"
        return f"pt_{base}" if weighted else base

    def needs(self) -> str:
        return "similarity" if self.config.scorer != "none" else ""

    def shared_collaborators(self, progress: bool = False, share: Share = build_now) -> dict[str, Shared]:
        """The model scorer of a weighted setting, shared by every metric object with the same
        scorer settings."""
        if self.config.scorer == "none":
            return {}
        from gecscore.models.similarity import SimilaritySettings

        settings = SimilaritySettings.of(self.config, self.config.scorer)
        return {"pair_scorer": (SharingKey("pair scorer", settings), lambda: settings.build(progress))}

    def pair_scorer(self) -> PairScorer | None:
        """The model scorer, built once per metric object (its cache keeps pair scores)."""
        if self.config.scorer != "none" and self._pair_scorer is None:
            self._pair_scorer = self.own_collaborator("pair_scorer")
        return self._pair_scorer

    def prepare(self, gold: GoldCorpus) -> Prepared:
        """The gold; with a BERTScore scorer also the embeddings of every source and reference
        (encoded here once, kept by the scorer for every later ``score`` call)."""
        prepared = self.prepared(gold)
        self.keep_reference_side(prepared)
        return prepared

    def reference_options(self) -> tuple[tuple[str, Any], ...]:
        """Every M2-family setting builds the same reference side (the gold)."""
        return (("reference side", "m2"), ("tokenize", self.tokenize), ("lang", self.lang))

    def keep_reference_side(self, prepared: Prepared) -> None:
        """Have the BERTScore scorer keep the embeddings of the sources and references (a no-op
        for other scorers and for sentences already kept)."""
        scorer = self.pair_scorer()
        if scorer is None or not hasattr(scorer, "keep"):
            return
        from gecscore.m2.pt_m2 import reference_side_texts

        key = f"reference_side_texts:{self.config.base}"
        if key not in prepared.state:
            prepared.state[key] = reference_side_texts(prepared.gold.sentences, self.config.base)
        scorer.keep(prepared.state[key])

    def system_work(self) -> str:
        """The ERRANT base reads a system's text through its hypothesis edits; the M2 base
        through MaxMatch's candidates of its reference side."""
        return self.hypothesis_edits_key() if self.config.base != "m2" else super().system_work()

    def hypotheses(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]
                   ) -> tuple[list[Target], bool]:
        """Hypothesis targets; ERRANT edits only where the base needs them (and not given)."""
        predictions = self.checked_predictions(prepared, predictions)
        if isinstance(predictions[0], Target):
            return predictions, False
        if self.config.base == "m2":
            return [Target(tuple(line.split()), ()) for line in self.tokens_of(predictions)], False
        return self.hypothesis_edits(prepared, predictions, work), True

    def candidates(self, prepared: Prepared, hypotheses: list[Target], work: dict[str, Any]):
        """The system's MaxMatch or ERRANT candidates, computed once per system and options
        (``work`` keeps them for every configuration that agrees)."""
        from gecscore.m2.pt_m2 import candidates_key, system_candidates

        key = candidates_key(self.config)
        if key not in work:
            work[key] = system_candidates(prepared.gold.sentences, hypotheses, self.config)
        return work[key]

    def _score(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> Result:
        hypotheses, extracted = self.hypotheses(prepared, predictions, work)
        return self._result(prepared, hypotheses, extracted, self.candidates(prepared, hypotheses, work))

    def _result(self, prepared: Prepared, hypotheses: list[Target], extracted: bool, candidates) -> Result:
        """The result of one system's hypotheses (``extracted``: their edits came from ERRANT)."""
        from gecscore.m2.pt_m2 import score_candidates

        c = self.config
        gold = list(prepared.gold.sentences)
        self.keep_reference_side(prepared)     # prepared by another config, or evicted since
        detail = score_candidates(gold, candidates, c, self.pair_scorer())
        values = result_values(detail)
        if c.per_type:
            values["per_type"] = self.per_type_table(prepared, hypotheses, detail)
        if c.level == "corpus":
            stats = np.asarray([[s.counts.correct, s.counts.proposed, s.counts.gold] for s in detail.sentences],
                               dtype=np.float64).reshape(-1, 3)
            statistic = partial(m2_from_means, beta=c.beta)
        else:
            stats = np.asarray([[s.f] for s in detail.sentences], dtype=np.float64).reshape(-1, 1)
            statistic = first_column
        return Result(self.name, self.signature(prepared, extracted), values, stats, statistic,
                      detail, partial(sentence_records, detail, gold), partial(sentence_f, detail))

    def score_systems(self, prepared: Prepared, systems, works=None) -> list:
        """Every system's edits first, then the model pairs of all of them in one pass (each
        distinct sentence encoded once, in full batches), then each system's score."""
        if self.config.scorer == "none" or len(systems) < 2:
            return super().score_systems(prepared, systems, works)
        from gecscore.m2.pt_m2 import score_pairs_in_one_pass

        prepared = self.check_prepared(prepared)
        works = list(works) if works is not None else [{} for _ in systems]
        gold = list(prepared.gold.sentences)
        self.keep_reference_side(prepared)
        done = []
        for (_, predictions), work in zip(systems, works, strict=True):
            hypotheses, from_errant = self.hypotheses(prepared, predictions, work)
            done.append((hypotheses, from_errant, self.candidates(prepared, hypotheses, work)))
        score_pairs_in_one_pass(gold, (candidates for _, _, candidates in done), self.pair_scorer())
        return [(name, self._result(prepared, *one)) for (name, _), one in zip(systems, done)]

    def per_type_table(self, prepared: Prepared, hypotheses: list[Target], detail) -> dict:
        """The per-error-type table of this result (rules: :mod:`gecscore.m2.per_type`)."""
        from gecscore.m2 import per_type

        c = self.config
        if c.base == "errant":
            categories = per_type.errant_categories(prepared.gold.sentences, hypotheses, c.beta)
            rule = "errant_compare"
        else:
            categories = per_type.maxmatch_categories(detail)
            rule = "m2-choice" + ("-weighted" if c.scorer != "none" else "")
        return per_type.table_dict(categories, c.per_type, c.beta, rule)

    def model_facts(self) -> tuple[tuple[str, str], ...]:
        """The model and layer that weighed the edits (the resolved default included)."""
        scorer = self.pair_scorer()
        if scorer is None:
            return ()
        from gecscore.models.loading import model_label

        facts = [("model", model_label(scorer.model))]
        if scorer.layer:
            facts.append(("layer", str(scorer.layer)))
        return tuple(facts)


def sentence_f(detail) -> list[float]:
    """Each sentence's F in sentence order: the ``f`` of :func:`sentence_records`, without
    describing every edit (the leaderboard asks for it of every configuration and system)."""
    return [choice.f for choice in sorted(detail.sentences, key=lambda choice: choice.index)]


@storable
def m2_from_means(means: np.ndarray, beta: float) -> float:
    """F_beta of (weighted) correct / proposed / gold totals."""
    correct, proposed, gold = means
    return EditCounts(correct, proposed, gold).scores(beta)[2]
