"""LLM-S and LLM-E scoring: prompts of one source and up to ``targets`` distinct hypotheses,
the answer read as one score per target on the scale, bounded re-asks, and the mean.

Per source i the systems scored together give hypotheses h_i^1..h_i^K. The prompt shows the
distinct ones, each once (systems with the same output share its score): all of them when
there are at most ``targets``, else the ``targets`` most frequent (a tie in frequency goes to
the hypothesis of the earlier system), listed in sorted order (a fixed order: the paper's
SEEDA-style prompts, as gec-metrics builds them; an output not shown has no score for that
source, ``n_unshown``). With ``targets=1`` every distinct output is asked about alone (none
goes unscored); a system scored alone has one target per prompt whatever ``targets``. The judge
answers ``{"target1_score": s_1, ..., "targetN_score": s_N}`` with every ``scale_min <= s_k <= scale_max`` (the paper: 1-5). An unreadable answer, a missing
or out-of-scale score is asked again (attempt 1, 2, ...: a new request, so a rerun finds every
attempt in the cache), at most ``max_reasks`` more times; a request that failed in transport
(after the judge's own retries) is not re-asked. A system's sentence without a score (failed
or not shown) is left out of its mean:

    score = (1 / |S|) * sum_{i in S} s_i,   S = the system's sentences with a score

(the paper's system ranking aggregates the sentence scores across systems with TrueSkill:
``gecscore leaderboard --aggregation trueskill``; the mean is the per-system score, see
docs/llm_eval.md). When every sentence of a system failed the score is None and a warning gives
the count. All requests of a round go to the judge together, so they run concurrently.
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
_KTH_KEY = re.compile(r"target(\d+)score|targetscore(\d+)")
_TEXT_KTH = re.compile(rf"target[\s_\-]*(?:(\d+)[\s_\-]*score|score[\s_\-]*(\d+))[\s*\"']*[:=]\s*[\"']?\s*({NUMBER})",
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


def parse_scores(text: str | None, n: int, low: float = 1, high: float = 5) -> list[float]:
    """The scores of targets 1..n from judge output. One target: :func:`parse_score`. Several:
    the first JSON object naming ``target{k}_score`` (or ``target_score{k}``), else
    ``target{k}_score: 4`` as text, for every k; each must be on the scale. Raises
    :class:`JudgeOutputError` saying what is wrong (a missing target, an off-scale score).

    >>> parse_scores('```json\\n{"target1_score": 4, "target2_score": 2}\\n```', 2)
    [4.0, 2.0]
    """
    if n == 1:
        return [parse_score(text, low, high)]
    if not isinstance(text, str) or not text.strip():
        raise JudgeOutputError("empty output")
    found: dict[int, Any] = {}
    for value in json_values(text):
        if isinstance(value, dict):
            for key, item in value.items():
                match = _KTH_KEY.fullmatch(re.sub(r"[^a-z0-9]", "", normal_key(key)))
                if match:
                    found.setdefault(int(match.group(1) or match.group(2)), item)
            if found:
                break
    if not found:
        for match in _TEXT_KTH.finditer(text):
            found.setdefault(int(match.group(1) or match.group(2)), match.group(3))
    scores = []
    for k in range(1, n + 1):
        if k not in found:
            raise JudgeOutputError(f"no score for target {k} of {n} in {text[:80]!r}")
        number = to_number(found[k])
        if number is None:
            raise JudgeOutputError(f"the score of target {k} has no number (got {found[k]!r})")
        if not low <= number <= high:
            raise JudgeOutputError(f"score {number:g} of target {k} is outside {low:g}-{high:g}")
        scores.append(number)
    return scores


def shown_hypotheses(hypotheses: Sequence[str], targets: int) -> list[str]:
    """The distinct hypotheses one prompt shows, in the order it shows them (module docstring).

    >>> shown_hypotheses(["b", "a", "c", "a", "c", "d"], 2)
    ['a', 'c']
    """
    counts = Counter(hypotheses)   # in first-seen order, so a stable sort breaks ties by system order
    chosen = list(counts) if len(counts) <= targets else \
        [h for h, _ in sorted(counts.items(), key=lambda item: item[1], reverse=True)][:targets]
    return sorted(chosen)


@dataclass
class Prompt:
    """One source with the targets it shows (as the prompt shows them), and what the judge said."""

    source: str
    hypotheses: list[str]
    shown: list[str]
    scores: list[float] | None = None
    attempts: int = 0
    problems: list[str] = field(default_factory=list)


@dataclass
class SentenceScore:
    """What one system got for one sentence, and how."""

    index: int
    source: str
    hypothesis: str
    shown: str  # the target as the prompt shows it (the hypothesis, or its edits)
    score: float | None = None
    attempts: int = 0
    problems: list[str] = field(default_factory=list)
    in_prompt: bool = True   # False: more distinct outputs than ``targets``, this one not shown
    targets: int = 1         # how many targets its prompt showed

    @property
    def failed(self) -> bool:
        return self.score is None


@dataclass
class LlmEvalResult:
    """Per-sentence scores of one system, and the judge counts of the run that scored it."""

    metric: str
    sentences: list[SentenceScore]
    judge: dict[str, Any]
    scale: tuple[int, int] = (1, 5)


def ask(metric: str, prompts: Sequence[Prompt], messages: Callable[[str, str], list[Message]], judge: Judge, *,
        sampling: Sampling, scale: tuple[int, int], max_reasks: int) -> dict[str, Any]:
    """Ask the judge about every prompt (``messages(source, targets shown, one per line)``),
    re-ask unreadable answers at most ``max_reasks`` times, fill each prompt's scores, and return
    the judge's counts of this run."""
    before = judge.stats.copy()
    pending = list(range(len(prompts)))
    low, high = scale
    for attempt in range(max_reasks + 1):
        if not pending:
            break
        requests = [JudgeRequest.of(messages(prompts[i].source, "\n".join(prompts[i].shown)), sampling, attempt)
                    for i in pending]
        desc = metric if attempt == 0 else f"{metric} re-ask {attempt}"
        still = []
        for i, answer in zip(pending, judge.ask(requests, desc=desc), strict=True):
            prompt = prompts[i]
            prompt.attempts += 1
            if not answer.ok:  # the judge already retried transport errors
                prompt.problems.append(f"attempt {attempt + 1}: {answer.error}")
                continue
            try:
                prompt.scores = parse_scores(answer.text, len(prompt.shown), low, high)
            except JudgeOutputError as error:
                prompt.problems.append(f"attempt {attempt + 1}: {error}")
                still.append(i)
        pending = still
    return judge.stats.since(before).as_dict()


def score_systems(metric: str, sources: Sequence[str], hypotheses: Sequence[Sequence[str]],
                  shown: Sequence[Sequence[str]], messages: Callable[[str, str], list[Message]], judge: Judge, *,
                  sampling: Sampling, scale: tuple[int, int], max_reasks: int, targets: int = 1
                  ) -> list[LlmEvalResult]:
    """Score the systems together (module docstring): ``hypotheses[k][i]`` is system k's output
    for source i, ``shown[k][i]`` that output as the prompt shows it; all already checked and
    parallel. One result per system, in order."""
    prompts: list[Prompt] = []
    where: dict[tuple[int, str], tuple[Prompt, int]] = {}   # (source, output) -> its prompt, its position
    for i, source in enumerate(sources):
        outputs = [system[i] for system in hypotheses]
        as_shown = {h: shown[k][i] for k, h in reversed(list(enumerate(outputs)))}   # the first system's form
        groups = [[h] for h in dict.fromkeys(outputs)] if targets == 1 else [shown_hypotheses(outputs, targets)]
        for group in groups:
            prompts.append(Prompt(source, group, [as_shown[h] for h in group]))
            where.update({(i, h): (prompts[-1], position) for position, h in enumerate(group)})
    counts = ask(metric, prompts, messages, judge, sampling=sampling, scale=scale, max_reasks=max_reasks)
    results = []
    for k, system in enumerate(hypotheses):
        sentences = []
        for i, (source, hypothesis) in enumerate(zip(sources, system, strict=True)):
            found = where.get((i, hypothesis))
            if found is None:
                distinct = len({h[i] for h in hypotheses})
                sentences.append(SentenceScore(i, source, hypothesis, shown[k][i], in_prompt=False, targets=0, problems=[
                    f"not shown: {distinct} distinct outputs, the prompt shows the {targets} most frequent"]))
                continue
            prompt, position = found
            score = None if prompt.scores is None else prompt.scores[position]
            sentences.append(SentenceScore(i, source, hypothesis, shown[k][i], score, prompt.attempts,
                                           list(prompt.problems), targets=len(prompt.shown)))
        results.append(LlmEvalResult(metric, sentences, counts, scale))
        asked = [s for s in sentences if s.in_prompt]
        if asked and all(s.failed for s in asked):
            warnings.warn(f"{metric}: every judge call failed: none of the {len(asked)} sentences has a score "
                          f"(n_failed = {len(asked)}); see the judge summary", JudgeShortfallWarning, stacklevel=2)
    return results


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def result_values(result: LlmEvalResult) -> dict[str, Any]:
    """The contract keys: score (the mean on the scale; None when no sentence was scored), the
    counts (``n_failed``: asked, no score; ``n_unshown``: not among the prompt's targets), how
    often each score was given, and the judge's counts (the seam adds ``metric`` and
    ``signature``)."""
    scored = [s.score for s in result.sentences if s.score is not None]
    counts = Counter(scored)
    unshown = sum(not s.in_prompt for s in result.sentences)
    return {
        "score": _mean(scored),
        "n_sentences": len(result.sentences),
        "n_failed": len(result.sentences) - len(scored) - unshown,
        "n_unshown": unshown,
        "n_reasked": sum(s.attempts > 1 for s in result.sentences),
        "scale": list(result.scale),
        "distribution": {f"{value:g}": counts[value] for value in sorted(counts)},
        "judge": result.judge,
    }


def sentence_records(result: LlmEvalResult) -> list[dict[str, Any]]:
    """One record per sentence: the score, the target as shown, the prompt's target count,
    attempts and problems."""
    return [{"index": s.index, "source": s.source, "hypothesis": s.hypothesis, "shown": s.shown, "score": s.score,
             "targets": s.targets, "attempts": s.attempts, "problems": list(s.problems)}
            for s in result.sentences]
