"""DSGram behind the metric seam: the config (the paper's sampling and weighting defaults and
the judge, declared here once) and the prepare/score pair. DSGram is reference-free: the
prepared side is the sources; the judge (with its on-disk answer cache) is built once per
metric object and kept across calls."""
from __future__ import annotations

from functools import partial
from typing import Any, Sequence

import warnings

import numpy as np

from gecscore.dsgram.config import DsgramConfig
from gecscore.errors import JudgeShortfallWarning
from gecscore.dsgram.scorer import result_values, score_dsgram, sentence_records
from gecscore.metric import Metric, Predictions, Prepared, Result
from gecscore.types import Gold, GoldCorpus, Target


class DsgramMetric(Metric):
    name = "dsgram"
    config_type = DsgramConfig
    summary = "DSGram: LLM-judged semantic coherence, edit level and fluency with AHP weights"
    needs_references = False

    def __init__(self, config: DsgramConfig, *, judge=None):
        """``judge`` shares one judge (and its cache and connections) between metric objects."""
        super().__init__(config)
        self._judge = judge

    def needs(self) -> str:
        return "judge"

    def judge(self):
        """The judge, built on first use and kept (close it with :meth:`close`)."""
        if self._judge is None:
            c = self.config
            from gecscore.judge.factory import judge_from_options

            self._judge = judge_from_options(c, c.model, c.device, c.batch_size, progress=False)
        return self._judge

    def has_judge(self) -> bool:
        return self._judge is not None

    def close(self) -> None:
        if self._judge is not None:
            self._judge.close()
            self._judge = None

    def prepare(self, gold: GoldCorpus) -> Prepared:
        return self.prepared(gold, facts=())

    def needed_references(self, references: Any) -> None:
        """None: DSGram is reference-free (references, if given, are not used)."""
        return None

    def prepare_text(self, sources: Sequence[str], references: Any = None) -> Prepared:
        """The sources (references, if given, are not used: DSGram is reference-free)."""
        from gecscore import inputs

        sources, _, _ = inputs.parallel(sources)
        return self.prepare(GoldCorpus(tuple(Gold(tuple(s.split()), {}, 0, str(i + 1))
                                             for i, s in enumerate(sources)), "none"))

    def model_facts(self) -> tuple[tuple[str, str], ...]:
        """The judge's backend and model."""
        backend = self.judge().backend
        return (("backend", backend.name), ("model", backend.model))

    def _score(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> Result:
        c = self.config
        predictions = self.checked_predictions(prepared, predictions)
        if isinstance(predictions[0], Target):
            predictions = [" ".join(p.tokens) for p in predictions]
        detail = score_dsgram(prepared.gold.sources, predictions, self.judge(), c)
        values = result_values(detail)
        failed, total = values.get("n_failed", 0), values.get("n_sentences", len(detail.sentences))
        if failed:
            # the CLI exits 3 when every call failed; a Python or evaluate caller is told here
            warnings.warn(f"dsgram: the judge failed on {failed} of {total} sentences"
                          + ("; no sentence has a score (the scores are None)" if failed == total else
                             "; the scores are means over the others") + f" (judge failures: {values['judge']['failures']})",
                          JudgeShortfallWarning, stacklevel=3)
        # per sentence (score, 1), or (0, 0) when the judge failed: the mean over scored sentences
        stats = np.asarray([[s.score, 1.0] if not s.failed else [0.0, 0.0] for s in detail.sentences],
                           dtype=np.float64).reshape(-1, 2)
        return Result(self.name, self.signature(prepared), values, stats, ratio_of_columns, detail,
                      partial(sentence_records, detail))



def ratio_of_columns(means: np.ndarray) -> float:
    return float(means[0] / means[1]) if means[1] else float("nan")
