"""LLM-S and LLM-E behind the metric seam: ``gecscore.load("llm_s")`` / ``load("llm_e")``.

Both are reference-free: the prepared side is the sources. The judge (with its on-disk answer
cache, transcripts, replay and Batch API export/import, all from the judge options) is built
once per metric object and kept across calls, as DSGram's. LLM-E shows each hypothesis as its
edits, extracted by the language profile (ERRANT for English) through
:meth:`Metric.hypothesis_edits`, or taken as given when the predictions are targets (e.g. a
hypothesis M2 file).

Sentence stats: (score, 1) per scored sentence and (0, 0) for a failed one, so the statistic
(mean of column 0 over mean of column 1) is the mean over scored sentences, as the value.
"""
from __future__ import annotations

from functools import partial
from typing import Any, Sequence


from gecscore.llm_eval.config import LlmEConfig, LlmSConfig
from gecscore.llm_eval.prompts import edit_messages, render_edits, sentence_messages
from gecscore.llm_eval.scorer import LlmEvalResult, result_values, score_sentences, sentence_records
from gecscore.judge.types import Sampling
from gecscore.judged_metric import JudgedMetric, judged_sentence_stats, ratio_of_columns
from gecscore.metric import Predictions, Prepared, Result
from gecscore.types import Gold, GoldCorpus, Target


class _LlmJudgeMetric(JudgedMetric):
    """What LLM-S and LLM-E share: the judge, the reference-free prepared side, the result."""

    def sampling(self) -> Sampling:
        c = self.config
        return Sampling(c.temperature, c.top_p, c.max_tokens)

    def _result(self, prepared: Prepared, detail: LlmEvalResult, extracted: bool = False) -> Result:
        stats = judged_sentence_stats([s.failed for s in detail.sentences], [s.score for s in detail.sentences])
        return Result(self.name, self.signature(prepared, extracted), result_values(detail), stats, ratio_of_columns,
                      detail, partial(sentence_records, detail))


class LlmSMetric(_LlmJudgeMetric):
    name = "llm_s"
    config_type = LlmSConfig
    summary = "LLM-S (Kobayashi et al. 2024): an LLM judge scores each corrected sentence 1-5 given its source"

    def _score(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> Result:
        c = self.config
        predictions = self.checked_predictions(prepared, predictions)
        if predictions and isinstance(predictions[0], Target):
            predictions = [" ".join(p.tokens) for p in predictions]
        messages = partial(sentence_messages, low=c.scale_min, high=c.scale_max, criteria=c.criteria)
        detail = score_sentences(self.name, prepared.gold.sources, predictions, predictions, messages, self.judge(),
                                 sampling=self.sampling(), scale=(c.scale_min, c.scale_max),
                                 max_reasks=c.max_reasks)
        return self._result(prepared, detail)


class LlmEMetric(_LlmJudgeMetric):
    name = "llm_e"
    config_type = LlmEConfig
    summary = ("LLM-E (Kobayashi et al. 2024): an LLM judge scores each hypothesis 1-5 shown as its edits "
               "(ERRANT's for English) in the source")

    def prepare_text(self, sources: Sequence[str], references: Any = None) -> Prepared:
        """The sources as the language profile tokenises them (references, if given, are not
        used: LLM-E is reference-free)."""
        from gecscore import inputs

        sources, _, _ = inputs.parallel(sources)
        tokens = self.tokens_of(sources)
        return self.prepare(GoldCorpus(tuple(Gold(tuple(t.split()), {}, 0, str(i + 1))
                                             for i, t in enumerate(tokens)), "none"))

    def _score(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> Result:
        c = self.config
        predictions = self.checked_predictions(prepared, predictions)
        extracted = bool(predictions) and not isinstance(predictions[0], Target)
        targets = self.hypothesis_edits(prepared, predictions, work) if extracted else list(predictions)
        joiner = "" if self.lang == "zh" else " "
        sources = [joiner.join(g.source) for g in prepared.gold.sentences]
        shown = [render_edits(g.source, t.edits, edit_format=c.edit_format, joiner=joiner)
                 for g, t in zip(prepared.gold.sentences, targets, strict=True)]
        hypotheses = [joiner.join(t.tokens) for t in targets]
        messages = partial(edit_messages, low=c.scale_min, high=c.scale_max, criteria=c.criteria)
        detail = score_sentences(self.name, sources, hypotheses, shown, messages, self.judge(),
                                 sampling=self.sampling(), scale=(c.scale_min, c.scale_max),
                                 max_reasks=c.max_reasks)
        return self._result(prepared, detail, extracted)
