"""PT-M2 (and plain M2 / SentM2, PT-ERRANT, ERRANT) behind the metric seam: the config (every
option with the papers' defaults, declared here once) and the prepare/score pair.

Reference side (``prepare``): each sentence's gold edits per annotator (an M2 file's own edits,
or ERRANT on plain-text references). System side (``score``): MaxMatch edits against each
annotator (``base="m2"``) or the hypothesis ERRANT edits (``base="errant"``), edit weights from
the pretrained scorer (its pair cache keeps reference-side scores across calls), counts.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from gecscore.m2.config import PtM2Config
from gecscore.m2.pt_m2 import result_values, score_pt_m2, sentence_records
from gecscore.m2.scoring import EditCounts
from gecscore.metric import Metric, Predictions, Prepared, Result, Signature, first_column
from gecscore.options import DEFAULT_PRECISION, format_value
from gecscore.types import GoldCorpus, Target


class PtM2Metric(Metric):
    name = "pt_m2"
    config_type = PtM2Config

    def __init__(self, config: PtM2Config, *, pair_scorer=None):
        """``pair_scorer`` shares one model scorer (and its caches) between metric objects."""
        super().__init__(config)
        self._pair_scorer = pair_scorer

    @property
    def family_name(self) -> str:
        """m2, errant, pt_m2 or pt_errant: the leaderboard's name for this setting."""
        base, weighted = self.config.base, self.config.scorer != "none"
        return f"pt_{base}" if weighted else base

    def pair_scorer(self):
        """The model scorer, built once per metric object (its cache keeps pair scores)."""
        c = self.config
        if c.scorer != "none" and self._pair_scorer is None:
            from gecscore.models.similarity import make_scorer

            self._pair_scorer = make_scorer(c.scorer, c.model, c.num_layers, c.batch_size, c.device, progress=False,
                                            precision=c.precision)
        return self._pair_scorer

    def prepare(self, gold: GoldCorpus) -> Prepared:
        """The gold; with a BERTScore scorer also the embeddings of every source and reference
        (encoded here once, kept by the scorer for every later ``score`` call)."""
        prepared = Prepared(gold, gold.facts())
        self.keep_reference_side(prepared)
        return prepared

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

    def hypotheses(self, prepared: Prepared, predictions: Predictions) -> tuple[list[Target], bool]:
        """Hypothesis targets; ERRANT edits only where the base needs them (and not given)."""
        predictions = self.checked_predictions(prepared, predictions)
        if isinstance(predictions[0], Target):
            return predictions, False
        from gecscore.extract.gold import hypothesis_targets, tokenized

        if self.config.base == "m2":
            lines = tokenized(predictions, self.tokenize, "predictions")
            return [Target(tuple(line.split()), ()) for line in lines], False
        return hypothesis_targets(prepared.gold.sources, predictions, tokenize=self.tokenize), True

    def score(self, prepared: Prepared, predictions: Predictions, *, candidates=None) -> Result:
        """``candidates`` (MaxMatch or ERRANT candidates of these predictions) skips the edit
        extraction, so weighted and unweighted settings of one system can share it."""
        hypotheses, extracted = self.hypotheses(prepared, predictions)
        return self._result(prepared, hypotheses, extracted, candidates)

    def _result(self, prepared: Prepared, hypotheses: list[Target], extracted: bool, candidates=None) -> Result:
        """The result of one system's hypotheses (``extracted``: their edits came from ERRANT)."""
        c = self.config
        gold = list(prepared.gold.sentences)
        self.keep_reference_side(prepared)     # prepared by another config, or evicted since
        detail = score_pt_m2(gold, hypotheses, base=c.base, scorer=c.scorer, level=c.level, beta=c.beta,
                             max_unchanged_words=c.max_unchanged_words, pair_scorer=self.pair_scorer(),
                             candidates=candidates, progress=False, segmentation=c.segmentation,
                             max_cells=c.max_cells)
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
        return Result(self.name, self.signature_for(prepared, detail, extracted), values, stats, statistic,
                      detail, partial(sentence_records, detail, gold))

    def score_systems(self, prepared: Prepared, systems) -> list:
        """Every system's edits first, then the model pairs of all of them in one pass (each
        distinct sentence encoded once, in full batches), then each system's score."""
        if self.config.scorer == "none" or len(systems) < 2:
            return super().score_systems(prepared, systems)
        from gecscore.m2.pt_m2 import score_pairs_in_one_pass, system_candidates

        c = self.config
        gold = list(prepared.gold.sentences)
        self.keep_reference_side(prepared)
        work = []
        for _, predictions in systems:
            hypotheses, from_errant = self.hypotheses(prepared, predictions)
            work.append((hypotheses, from_errant, system_candidates(
                gold, hypotheses, c.base, c.max_unchanged_words, False, c.segmentation, c.max_cells)))
        score_pairs_in_one_pass(gold, (candidates for _, _, candidates in work), self.pair_scorer())
        return [(name, self._result(prepared, *done)) for (name, _), done in zip(systems, work)]

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

    def signature_for(self, prepared: Prepared, detail, extracted: bool) -> Signature:
        c = self.config
        options = [("base", c.base), ("scorer", c.scorer), ("level", c.level), ("beta", format_value(c.beta))]
        if c.base == "m2":
            options.append(("max_unchanged_words", str(c.max_unchanged_words)))
        options += [(k, detail.options[k]) for k in ("model", "layer") if k in detail.options]
        options.append(("tok", format_value(c.tokenize)))
        if c.base == "m2":     # after tok: older signatures keep their prefix
            options.append(("segmentation", c.segmentation))
        if c.scorer == "bertscore" and c.precision != DEFAULT_PRECISION:
            options.append(("precision", c.precision))
        return Signature(self.name, tuple(options), self.input_facts(prepared, extracted))

    def reference_key(self) -> tuple:
        return ("m2", self.tokenize)


def m2_from_means(means: np.ndarray, beta: float) -> float:
    """F_beta of (weighted) correct / proposed / gold totals."""
    correct, proposed, gold = means
    return EditCounts(correct, proposed, gold).scores(beta)[2]
