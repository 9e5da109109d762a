"""GLEU behind the metric seam: ``gecscore.load("gleu", order=4, iterations=500, seed=0)``.

``sentence_stats`` holds, for every round of reference choice, the sentence's statistics
against the reference drawn for it (``rounds x (2 + 2 order)`` columns, round-major);
``statistic`` reshapes the column means into rounds and averages their corpus GLEU, so
``statistic(sentence_stats.mean(axis=0)) == score`` and a bootstrap over sentences keeps each
sentence's draws.
"""
from __future__ import annotations

from functools import partial
from typing import Any, Sequence

import numpy as np

from gecscore.extract.text_gold import text_gold
from gecscore.gleu.config import GleuConfig
from gecscore.gleu.scorer import ReferenceNgrams, gleu, gleu_of_rounds, n_stats, reference_draws, stats_against
from gecscore.metric import Metric, Predictions, Prepared, Result
from gecscore.strings import ascii_tokens
from gecscore.types import GoldCorpus, Target


class GleuMetric(Metric[GleuConfig]):
    name = "gleu"
    sentence_score_key = "gleu"
    config_type = GleuConfig
    summary = ("GLEU (Napoles et al. 2016): n-gram precision against the references, penalising source n-grams "
               "the reference does not contain")

    def prepare(self, gold: GoldCorpus) -> Prepared:
        """The references' target tokens (annotator k's edits applied) of every sentence."""
        references = tuple(tuple(tuple(t.tokens) for t in sentence.targets()) for sentence in gold.sentences)
        return self.prepared(gold, state={"references": references})

    def prepare_text(self, sources: Sequence[str], references: Any) -> Prepared:
        """English text references are used as they are (no ERRANT extraction: GLEU reads
        tokens only); the gold records each reference as one whole-sentence edit (origin
        ``text``). Another language's text is read through its profile (Chinese: characters,
        so GLEU counts character n-grams as Chinese GEC does)."""
        if self.lang != "en":
            return super().prepare_text(sources, references)
        return self.prepare(text_gold(sources, references, split=ascii_tokens))

    def _score(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> Result:
        predictions = self.checked_predictions(prepared, predictions)
        if predictions and not isinstance(predictions[0], Target):
            # tokens cut at ASCII whitespace only, as the official script (Python 2, bytes) cuts them
            predictions = [Target(ascii_tokens(line), ()) for line in self.tokens_of(predictions)]
        hyps = [tuple(p.tokens) for p in predictions]
        order = self.config.order
        references = prepared.state["references"]
        per_ref = [table if h == tuple(g.source) else stats_against(h, grams)
                   for g, h, grams, table in zip(prepared.gold.sentences, hyps, *reference_side(prepared, order))]
        key = ("reference draws", self.config.iterations, self.config.seed)   # the same for every system
        draws = prepared.state.get(key)
        if draws is None:
            draws = prepared.state[key] = reference_draws([len(refs) for refs in references], self.config.iterations,
                                                          self.config.seed)
        width = n_stats(order)
        stats = np.empty((len(hyps), draws.shape[0] * width))
        for i, table in enumerate(per_ref):
            stats[i] = table[draws[:, i]].reshape(-1)
        statistic = partial(gleu_of_rounds, order=order)
        value = statistic(stats.mean(axis=0)) if len(hyps) else 0.0
        rounds = draws.shape[0]
        signature = self.signature(prepared)

        def records() -> list[dict]:
            return [{"index": i, "gleu": score} for i, score in enumerate(sentence_gleu(per_ref))]

        return Result(self.name, signature, {"score": value, "gleu": value, "rounds": rounds}, stats, statistic,
                      None, records, partial(sentence_gleu, per_ref))

    def order_dependence(self, references: Sequence[Sequence[str]] | None) -> str | None:
        """Why the score depends on the order of the sentences, or None. Round ``j`` draws the
        references of sentences 0, 1, 2, ... from one seeded stream, as the reference
        implementation does, so with several references a sentence's draws follow its position:
        the same sentences in another order draw other references (the official number is the
        one of the sentences in their order). With one reference each, nothing is drawn."""
        if any(len(refs) > 1 for refs in references or ()):
            return ("GLEU draws each sentence's reference from a seeded stream in sentence order (as the "
                    "reference implementation does)")
        return None

    def reference_options(self) -> tuple[tuple[str, Any], ...]:
        """The references' tokens: no option changes them."""
        return (("reference side", self.name), ("lang", self.lang))


def reference_side(prepared: Prepared, order: int) -> tuple[list[tuple[ReferenceNgrams, ...]], list[np.ndarray]]:
    """Per sentence, its references' n-grams and the statistics of the source as hypothesis
    (what an unchanged sentence scores), built once per prepared reference side and order
    (kept in its state, as the reference draws are) and reused by every system."""
    key = ("reference n-grams", order)
    found = prepared.state.get(key)
    if found is None:
        grams = [tuple(ReferenceNgrams.of(g.source, ref, order) for ref in refs)
                 for g, refs in zip(prepared.gold.sentences, prepared.state["references"])]
        unchanged = [stats_against(tuple(g.source), refs) for g, refs in zip(prepared.gold.sentences, grams)]
        found = prepared.state[key] = (grams, unchanged)
    return found


def sentence_gleu(per_ref: Sequence[np.ndarray]) -> list[float]:
    """Each sentence's GLEU (records only): the mean over its references of the smoothed GLEU
    of its statistics against each, ``np.mean(gleu(table, smooth=True))``, computed for all
    sentences with the same number of references at once (the same operations on each
    element, and the mean over each row the same reduction as over one sentence's array)."""
    scores = [0.0] * len(per_ref)
    by_count: dict[int, list[int]] = {}
    for index, table in enumerate(per_ref):
        by_count.setdefault(table.shape[0], []).append(index)
    for indices in by_count.values():
        means = gleu(np.stack([per_ref[i] for i in indices]), smooth=True).mean(axis=-1)
        for index, mean in zip(indices, means.tolist()):
            scores[index] = mean
    return scores
