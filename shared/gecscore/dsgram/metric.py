"""DSGram behind the metric seam: the config (the paper's sampling and weighting defaults and
the judge, declared here once) and the prepare/score pair. DSGram is reference-free: the
prepared side is the sources; the judge (with its on-disk answer cache) is built once per
metric object and kept across calls."""
from __future__ import annotations

import warnings
from functools import partial
from typing import Any

from gecscore.dsgram.config import DsgramConfig
from gecscore.dsgram.scorer import result_values, score_dsgram, sentence_records
from gecscore.errors import JudgeShortfallWarning
from gecscore.judge.batch import BATCH_EXPORTED
from gecscore.judged_metric import JudgedMetric, judged_sentence_stats, ratio_of_columns
from gecscore.metric import Predictions, Prepared, Result
from gecscore.result_text import values_text
from gecscore.types import Target


class DsgramSummaryResult(Result):
    """A DSGram result as text: the mean weights on one line, without the judge's counts (the
    CLI prints those on stderr)."""

    def format(self) -> str:
        summary = self.as_dict()
        summary["weights"] = ", ".join(f"{k} {v:.4f}" for k, v in summary["weights"].items() if v is not None)
        summary.pop("judge")
        return values_text(summary)


class DsgramMetric(JudgedMetric):
    name = "dsgram"
    config_type = DsgramConfig
    summary = "DSGram: LLM-judged semantic coherence, edit level and fluency with AHP weights"

    def _score(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> Result:
        c = self.config
        predictions = self.checked_predictions(prepared, predictions)
        if isinstance(predictions[0], Target):
            predictions = [" ".join(p.tokens) for p in predictions]
        detail = score_dsgram(prepared.gold.sources, predictions, self.judge(), c)
        values = result_values(detail)
        failed, total = values.get("n_failed", 0), values.get("n_sentences", len(detail.sentences))
        exporting = set(values.get("judge", {}).get("failures") or {}) == {BATCH_EXPORTED}   # written to a batch file: not failed
        if failed and not exporting:
            # the CLI exits 3 when every call failed; a Python or evaluate caller is told here
            warnings.warn(f"dsgram: the judge failed on {failed} of {total} sentences"
                          + ("; no sentence has a score (the scores are None)" if failed == total else
                             "; the scores are means over the others") + f" (judge failures: {values['judge']['failures']})",
                          JudgeShortfallWarning, stacklevel=3)
        # per sentence (score, 1), or (0, 0) when the judge failed: the mean over scored sentences
        stats = judged_sentence_stats([s.failed for s in detail.sentences], [s.score for s in detail.sentences])
        return DsgramSummaryResult(self.name, self.signature(prepared), values, stats, ratio_of_columns, detail,
                      partial(sentence_records, detail))
