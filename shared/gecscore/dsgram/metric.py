"""DSGram behind the metric seam: the config (the paper's sampling and weighting defaults and
the judge, declared here once) and the prepare/score pair. DSGram is reference-free: the
prepared side is the sources; the judge (with its on-disk answer cache) is built once per
metric object and kept across calls."""
from __future__ import annotations

from functools import partial
from typing import Any, Sequence

import numpy as np

from gecscore.dsgram.config import DsgramConfig
from gecscore.dsgram.scorer import result_values, score_dsgram, sentence_records
from gecscore.judge.types import Sampling
from gecscore.metric import Metric, Predictions, Prepared, Result, Signature
from gecscore.types import Gold, GoldCorpus, Target


class DsgramMetric(Metric):
    name = "dsgram"
    config_type = DsgramConfig

    def __init__(self, config: DsgramConfig, *, judge=None):
        """``judge`` shares one judge (and its cache and connections) between metric objects."""
        super().__init__(config)
        self._judge = judge

    def judge(self):
        """The judge, built on first use and kept (close it with :meth:`close`)."""
        if self._judge is None:
            c = self.config
            self._judge = c.build_judge(c.model, c.device, c.batch_size, progress=False)
        return self._judge

    def has_judge(self) -> bool:
        return self._judge is not None

    def close(self) -> None:
        if self._judge is not None:
            self._judge.close()
            self._judge = None

    def prepare(self, gold: GoldCorpus) -> Prepared:
        return Prepared(gold, ())

    def needed_references(self, references: Any) -> None:
        """None: DSGram is reference-free (references, if given, are not used)."""
        return None

    def prepare_text(self, sources: Sequence[str], references: Any = None) -> Prepared:
        """The sources (references, if given, are not used: DSGram is reference-free)."""
        from gecscore import inputs

        sources, _, _ = inputs.parallel(sources)
        return self.prepare(GoldCorpus(tuple(Gold(tuple(s.split()), {}, 0, str(i + 1))
                                             for i, s in enumerate(sources)), "none"))

    def score(self, prepared: Prepared, predictions: Predictions) -> Result:
        c = self.config
        predictions = self.checked_predictions(prepared, predictions)
        if isinstance(predictions[0], Target):
            predictions = [" ".join(p.tokens) for p in predictions]
        detail = score_dsgram(prepared.gold.sources, predictions, self.judge(), weights=c.weights,
                              sampling=Sampling(c.temperature, c.top_p, c.max_tokens), max_reasks=c.max_reasks)
        values = result_values(detail)
        # per sentence (score, 1), or (0, 0) when the judge failed: the mean over scored sentences
        stats = np.asarray([[s.score, 1.0] if not s.failed else [0.0, 0.0] for s in detail.sentences],
                           dtype=np.float64).reshape(-1, 2)
        signature = Signature(self.name, tuple(detail.options.items()), prepared.facts)
        return Result(self.name, signature, values, stats, ratio_of_columns, detail,
                      partial(sentence_records, detail))

    def reference_key(self) -> tuple:
        return ("dsgram",)


def ratio_of_columns(means: np.ndarray) -> float:
    return float(means[0] / means[1]) if means[1] else float("nan")
