"""LLM-S and LLM-E scoring: one judge request per sentence, the answer read as one score on the
scale, bounded re-asks, and the mean.

Per sentence i the judge sees the source and one target (the hypothesis for LLM-S; the
hypothesis as its edits in the source for LLM-E) and answers ``{"target1_score": s_i}`` with
``scale_min <= s_i <= scale_max`` (the paper: 1-5). An unreadable or out-of-scale answer is
asked again (attempt 1, 2, ...: a new request, so a rerun finds every attempt in the cache), at
most ``max_reasks`` more times; a request that failed in transport (after the judge's own
retries) is not re-asked. A sentence without a score is counted in ``n_failed`` and left out of
the mean:

    score = (1 / |S|) * sum_{i in S} s_i,   S = the sentences with a score

(the paper's system score aggregates sentence scores across systems with TrueSkill; the mean is
the per-system score this seam can give, see docs/llm_eval.md). When every sentence failed the
score is None and a warning gives the count. All requests of a round go to the judge together,
so they run concurrently.
"""
from __future__ import annotations

import re
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from gecscore.errors import JudgeShortfallWarning
from gecscore.judge.parsing import NUMBER, JudgeOutputError, json_values, normal_key, to_number
from gecscore.judge.runner import Judge
from gecscore.judge.types import JudgeRequest, Message, Sampling

# "target1_score" as the prompt's schema writes it, "target_score1" as gec-metrics' structured
# output names it (keys compared without case, spaces or punctuation).
_TARGET_KEYS = ("target1score", "targetscore1")
_TEXT_TARGET = re.compile(rf"target[\s_\-]*(?:1[\s_\-]*score|score[\s_\-]*1)[\s*\"']*[:=]\s*[\"']?\s*({NUMBER})",
                          re.I)
_TEXT_SCORE = re.compile(rf"\bscore[\s*\"']*[:=]\s*[\"']?\s*({NUMBER})", re.I)


def _score_in(value: Any) -> Any:
    """The target-1 score inside a JSON value (a number, an object, or a list of either), or None."""
    if isinstance(value, list):
        for item in value:
            found = _score_in(item)
            if found is not None:
                return found
        return None
    if isinstance(value, dict):
        keys = {normal_key(k): v for k, v in value.items()}
        for key, item in keys.items():
            if re.sub(r"[^a-z0-9]", "", key) in _TARGET_KEYS:
                return item
        scoring = [k for k in keys if "score" in k]
        if len(scoring) == 1:  # {"score": 4}, {"target_score": 4}
            return keys[scoring[0]]
        return None
    if isinstance(value, (int, float, str)) and not isinstance(value, bool):
        return value
    return None


def parse_score(text: str | None, low: float = 1, high: float = 5) -> float:
    """The score of target 1 from judge output: JSON first (``{"target1_score": 4}``, in a fenced
    block or anywhere in the text; ``target_score1``; a lone ``score`` key; a bare number), then
    ``target1_score: 4`` or ``score: 4`` in text, then a text that is only a number. It must lie on
    the scale ``[low, high]``. Raises :class:`JudgeOutputError` saying what is wrong.

    >>> parse_score('```json\\n{\\n"target1_score": 4 // assigned score for target 1\\n}\\n```')
    4.0
    >>> parse_score('{"target_score1": 2}')
    2.0
    """
    if not isinstance(text, str) or not text.strip():
        raise JudgeOutputError("empty output")
    raw: Any = None
    for value in json_values(text):
        raw = _score_in(value)
        if raw is not None:
            break
    if raw is None:
        for pattern in (_TEXT_TARGET, _TEXT_SCORE):
            match = pattern.search(text)
            if match:
                raw = match.group(1)
                break
    if raw is None and re.fullmatch(rf"\s*{NUMBER}\s*\.?\s*", text):
        raw = text.strip().rstrip(".")
    if raw is None:
        raise JudgeOutputError(f"no score found in {text[:80]!r}")
    number = to_number(raw)
    if number is None:
        raise JudgeOutputError(f"the score has no number (got {raw!r})")
    if not low <= number <= high:
        raise JudgeOutputError(f"score {number:g} is outside {low:g}-{high:g}")
    return number


@dataclass
class SentenceScore:
    """What the judge said about one sentence, and what was made of it."""

    index: int
    source: str
    hypothesis: str
    shown: str  # the target as the prompt shows it (the hypothesis, or its edits)
    score: float | None = None
    attempts: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return self.score is None


@dataclass
class LlmEvalResult:
    """Per-sentence scores, and this run's judge counts."""

    metric: str
    sentences: list[SentenceScore]
    judge: dict[str, Any]
    scale: tuple[int, int] = (1, 5)


def score_sentences(metric: str, sources: Sequence[str], hypotheses: Sequence[str], shown: Sequence[str],
                    messages: Callable[[str, str], list[Message]], judge: Judge, *, sampling: Sampling,
                    scale: tuple[int, int], max_reasks: int) -> LlmEvalResult:
    """Ask the judge about every (source, shown target) (``messages`` builds the prompt), re-ask
    unreadable answers at most ``max_reasks`` times, and return what came of it (module
    docstring). ``sources``, ``hypotheses`` and ``shown`` are parallel and already checked."""
    sentences = [SentenceScore(i, s, h, t) for i, (s, h, t) in enumerate(zip(sources, hypotheses, shown,
                                                                              strict=True))]
    before = judge.stats.copy()
    pending = list(range(len(sentences)))
    low, high = scale
    for attempt in range(max_reasks + 1):
        if not pending:
            break
        requests = [JudgeRequest.of(messages(sentences[i].source, sentences[i].shown), sampling, attempt)
                    for i in pending]
        desc = metric if attempt == 0 else f"{metric} re-ask {attempt}"
        still = []
        for i, answer in zip(pending, judge.ask(requests, desc=desc), strict=True):
            sentence = sentences[i]
            sentence.attempts += 1
            if not answer.ok:  # the judge already retried transport errors
                sentence.problems.append(f"attempt {attempt + 1}: {answer.error}")
                continue
            try:
                sentence.score = parse_score(answer.text, low, high)
            except JudgeOutputError as error:
                sentence.problems.append(f"attempt {attempt + 1}: {error}")
                still.append(i)
        pending = still
    result = LlmEvalResult(metric, sentences, judge.stats.since(before).as_dict(), scale)
    failed = sum(s.failed for s in sentences)
    if sentences and failed == len(sentences):
        warnings.warn(f"{metric}: every judge call failed: none of the {len(sentences)} sentences has a score "
                      f"(n_failed = {failed}); see the judge summary", JudgeShortfallWarning, stacklevel=2)
    return result


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def result_values(result: LlmEvalResult) -> dict[str, Any]:
    """The contract keys: score (the mean on the scale; None when no sentence was scored), the
    counts, how often each score was given, and the judge's counts (the seam adds ``metric``
    and ``signature``)."""
    scored = [s.score for s in result.sentences if s.score is not None]
    counts = Counter(scored)
    return {
        "score": _mean(scored),
        "n_sentences": len(result.sentences),
        "n_failed": len(result.sentences) - len(scored),
        "n_reasked": sum(s.attempts > 1 for s in result.sentences),
        "scale": list(result.scale),
        "distribution": {f"{value:g}": counts[value] for value in sorted(counts)},
        "judge": result.judge,
    }


def sentence_records(result: LlmEvalResult) -> list[dict[str, Any]]:
    """One record per sentence: the score, the target as shown, attempts and problems."""
    return [{"index": s.index, "source": s.source, "hypothesis": s.hypothesis, "shown": s.shown, "score": s.score,
             "attempts": s.attempts, "problems": list(s.problems)} for s in result.sentences]
