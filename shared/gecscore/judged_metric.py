"""What every metric asked of an LLM judge shares (DSGram, LLM-S, LLM-E): the judge, built once
from the config's judge and model options and kept across calls (its answer cache and
connections with it), the reference-free prepared side (the sources), the signature facts of the
judge, and the statistic of a mean over the sentences the judge scored."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from gecscore.cache.safe_pickle import storable
from gecscore.metric import Metric, Prepared, Share, Shared, SharingKey, build_now
from gecscore.types import Gold, GoldCorpus


class JudgedMetric(Metric):
    """A reference-free metric scored by an LLM judge (configs with ``JudgeOptions`` and
    ``ModelOptions``)."""

    needs_references = False

    def __init__(self, config, *, judge=None):
        """``judge`` shares one judge (and its cache and connections) between metric objects."""
        super().__init__(config)
        self._judge = judge

    def needs(self) -> str:
        return "judge"

    def shared_collaborators(self, progress: bool = False, share: Share = build_now) -> dict[str, Shared]:
        """The judge, shared by every metric object with the same judge and model options."""
        return {"judge": shared_judge(self.config)}

    def judge(self):
        """The judge, built on first use and kept (close it with :meth:`close`)."""
        if self._judge is None:
            self._judge = self.own_collaborator("judge")
        return self._judge

    def has_judge(self) -> bool:
        return self._judge is not None

    def judge_used(self):
        """The judge, if it has been built."""
        return self._judge

    def close(self) -> None:
        if self._judge is not None:
            self._judge.close()
            self._judge = None

    def model_facts(self) -> tuple[tuple[str, str], ...]:
        """The judge's backend and model (a local folder or file by its last two path components,
        as every model fact: the rest of the path is machine-specific)."""
        from gecscore.models.loading import model_label

        backend = self.judge().backend
        return (("backend", backend.name), ("model", model_label(backend.model)))

    def prepare(self, gold: GoldCorpus) -> Prepared:
        return self.prepared(gold, facts=())

    def needed_references(self, references: Any) -> None:
        """None: the metric is reference-free (references, if given, are not used)."""
        return None

    def prepare_text(self, sources: Sequence[str], references: Any = None) -> Prepared:
        """The sources (references, if given, are not used: the metric is reference-free)."""
        from gecscore import inputs

        sources, _, _ = inputs.parallel(sources)
        return self.prepare(GoldCorpus(tuple(Gold(tuple(s.split()), {}, 0, str(i + 1))
                                             for i, s in enumerate(sources)), "none"))


def shared_judge(config: Any) -> Shared:
    """The judge of a validated config with judge and model options, as a collaborator to share
    (judged metrics ask it; CLEME's LLM weigher asks it for edit weights): keyed by every option
    that changes it; it shows no bars."""
    from gecscore.judge.factory import judge_from_options, judge_settings

    return (SharingKey("judge", judge_settings(config)),
            lambda: judge_from_options(config, config.model, config.device, config.batch_size, progress=False))


def judged_sentence_stats(failed: Sequence[bool], scores: Sequence[float | None]) -> np.ndarray:
    """Per sentence (score, 1), or (0, 0) where the judge failed: the column means' ratio
    (:func:`ratio_of_columns`) is the mean over the scored sentences."""
    return np.asarray([[0.0, 0.0] if bad else [score, 1.0] for bad, score in zip(failed, scores)],
                      dtype=np.float64).reshape(-1, 2)


@storable
def ratio_of_columns(means: np.ndarray) -> float:
    return float(means[0] / means[1]) if means[1] else float("nan")
