"""LLM-S and LLM-E behind the metric seam: ``gecscore.load("llm_s")`` / ``load("llm_e")``.

Both are reference-free: the prepared side is the sources. The judge (with its on-disk answer
cache, transcripts, replay and Batch API export/import, all from the judge options) is built
once per metric object and kept across calls, as DSGram's. LLM-E shows each hypothesis as its
edits, extracted by the language profile (ERRANT for English) through
:meth:`Metric.hypothesis_edits`, or taken as given when the predictions are targets (e.g. a
hypothesis M2 file).

Systems scored together (``score_systems``, the leaderboard) share prompts: each shows up to
``targets_per_prompt`` distinct outputs of its source, as the paper (:mod:`gecscore.llm_eval.scorer`).

Sentence stats: (score, 1) per scored sentence and (0, 0) for a failed or unshown one, so the statistic
(mean of column 0 over mean of column 1) is the mean over scored sentences, as the value.
"""
from __future__ import annotations

from functools import partial
from typing import Any, Callable, Sequence


from gecscore.llm_eval.config import LlmEConfig, LlmSConfig
from gecscore.llm_eval.prompts import edit_messages, render_edits, sentence_messages
from gecscore.llm_eval.scorer import LlmEvalResult, result_values, score_systems, sentence_records
from gecscore.judge.types import Message, Sampling
from gecscore.judged_metric import JudgedMetric, judged_sentence_stats, ratio_of_columns
from gecscore.metric import Predictions, Prepared, Result
from gecscore.types import Gold, GoldCorpus, Target


class _LlmJudgeMetric(JudgedMetric):
    """What LLM-S and LLM-E share: the judge, the reference-free prepared side, scoring systems
    together (up to ``targets_per_prompt`` distinct outputs per prompt), the result."""

    def sampling(self) -> Sampling:
        c = self.config
        return Sampling(c.temperature, c.top_p, c.max_tokens)

    def needs_all_systems(self) -> bool:
        """Several targets per prompt: a system's score depends on the outputs shown beside its own."""
        return self.config.targets_per_prompt > 1

    def messages(self) -> Callable[[str, str], list[Message]]:
        """The prompt of (source, the targets shown, one per line)."""
        raise NotImplementedError

    def shown_targets(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]
                      ) -> tuple[list[str], list[str], list[str], bool]:
        """One system's (sources, hypotheses, targets as the prompt shows them, whether the
        hypothesis edits were extracted)."""
        raise NotImplementedError

    def _score(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> Result:
        return self._score_together(prepared, [predictions], [work])[0]

    def score_systems(self, prepared: Prepared, systems: Sequence[tuple[str, Predictions]],
                      works: Sequence[dict[str, Any]] | None = None) -> list[tuple[str, Result]]:
        """The systems together: each prompt shows up to ``targets_per_prompt`` of their distinct
        outputs of its source (:mod:`gecscore.llm_eval.scorer`)."""
        prepared = self.check_prepared(prepared)
        works = list(works) if works is not None else [{} for _ in systems]
        results = self._score_together(prepared, [p for _, p in systems], works)
        return [(name, result) for (name, _), result in zip(systems, results, strict=True)]

    def _score_together(self, prepared: Prepared, systems: Sequence[Predictions], works: Sequence[dict[str, Any]]
                        ) -> list[Result]:
        c = self.config
        found = [self.shown_targets(prepared, predictions, work) for predictions, work in zip(systems, works,
                                                                                              strict=True)]
        details = score_systems(self.name, found[0][0] if found else [], [f[1] for f in found], [f[2] for f in found],
                                self.messages(), self.judge(), sampling=self.sampling(),
                                scale=(c.scale_min, c.scale_max), max_reasks=c.max_reasks,
                                targets=c.targets_per_prompt)
        return [self._result(prepared, detail, f[3]) for detail, f in zip(details, found, strict=True)]

    def _result(self, prepared: Prepared, detail: LlmEvalResult, extracted: bool = False) -> Result:
        stats = judged_sentence_stats([s.failed for s in detail.sentences], [s.score for s in detail.sentences])
        return Result(self.name, self.signature(prepared, extracted), result_values(detail), stats, ratio_of_columns,
                      detail, partial(sentence_records, detail))


class LlmSMetric(_LlmJudgeMetric):
    name = "llm_s"
    sentence_score_key = "score"
    config_type = LlmSConfig
    summary = "LLM-S (Kobayashi et al. 2024): an LLM judge scores each corrected sentence 1-5 given its source"

    def messages(self) -> Callable[[str, str], list[Message]]:
        c = self.config
        return partial(sentence_messages, low=c.scale_min, high=c.scale_max, criteria=c.criteria)

    def shown_targets(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]
                      ) -> tuple[list[str], list[str], list[str], bool]:
        predictions = self.checked_predictions(prepared, predictions)
        if predictions and isinstance(predictions[0], Target):
            predictions = [" ".join(p.tokens) for p in predictions]
        return list(prepared.gold.sources), list(predictions), list(predictions), False


class LlmEMetric(_LlmJudgeMetric):
    name = "llm_e"
    sentence_score_key = "score"
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

    def messages(self) -> Callable[[str, str], list[Message]]:
        c = self.config
        return partial(edit_messages, low=c.scale_min, high=c.scale_max, criteria=c.criteria)

    def shown_targets(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]
                      ) -> tuple[list[str], list[str], list[str], bool]:
        predictions = self.checked_predictions(prepared, predictions)
        extracted = bool(predictions) and not isinstance(predictions[0], Target)
        targets = self.hypothesis_edits(prepared, predictions, work) if extracted else list(predictions)
        joiner = "" if self.lang == "zh" else " "
        sources = [joiner.join(g.source) for g in prepared.gold.sentences]
        shown = [render_edits(g.source, t.edits, edit_format=self.config.edit_format, joiner=joiner)
                 for g, t in zip(prepared.gold.sentences, targets, strict=True)]
        return sources, [joiner.join(t.tokens) for t in targets], shown, extracted
