"""DSGram: LLM-judged sub-scores combined with per-sentence AHP weights.

Per sentence pair the judge gives semantic coherence, edit level and fluency (and its own
overall) on 1-10 (DSGram appendix A.1) and, for ``weights="dynamic"``, a 3x3 pairwise judgment
matrix over the same three criteria (appendix A.2). The matrix goes through :mod:`ahp`; when it
is inconsistent (CR >= 0.1) or unreadable the judge is asked again, at most ``max_reasks``
more times, and then the sentence falls back to equal weights and is counted. Unreadable
sub-scores are re-asked the same way; a sentence without sub-scores is counted as failed and
left out of the means. Sentence score = w . (SC, EL, F); the system score is the mean.
All requests of one round go to the judge together, so they run concurrently.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from gecscore import inputs
from gecscore.judge.parsing import NUMBER, JudgeOutputError, json_values, normal_key, to_number
from gecscore.judge.prompts import matrix_messages, sub_score_messages
from gecscore.judge.runner import Judge
from gecscore.judge.types import JudgeRequest, Sampling
from gecscore.dsgram.ahp import AhpResult, analyse_matrix, equal_weights
from gecscore.dsgram.config import DsgramConfig

SUB_METRICS = ("semantic_coherence", "edit_level", "fluency")
LABELS = {"semantic_coherence": "semantic coherence", "edit_level": "edit level", "fluency": "fluency",
          "overall": "overall"}
SCORE_MIN, SCORE_MAX = 1.0, 10.0
# Saaty's scale runs from 1/9 to 9; 0.1 admits 1/9 written as 0.11 or 0.1.
SCALE_MIN, SCALE_MAX = 0.1, 9.0
# How a sentence got its weights.
WEIGHTS_AHP = "ahp"
WEIGHTS_EQUAL = "equal"
FALLBACK_INCONSISTENT = "fallback-inconsistent"
FALLBACK_UNPARSED = "fallback-unparsed"
FALLBACK_FAILED = "fallback-failed"


@dataclass(frozen=True, slots=True)
class SubScores:
    semantic_coherence: float
    edit_level: float
    fluency: float
    overall: float | None = None
    reason: str | None = None

    @property
    def vector(self) -> tuple[float, float, float]:
        return (self.semantic_coherence, self.edit_level, self.fluency)


# ---------------------------------------------------------------- parsing

def _label_pattern(label: str) -> str:
    return r"[\s_\-]*".join(re.escape(word) for word in label.split())


def _score_value(value: Any) -> float | None:
    if isinstance(value, str):
        match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*/\s*10\s*", value)
        if match:
            return float(match.group(1))
    return to_number(value)


def _scores_mapping(value: Any) -> dict[str, Any] | None:
    """The first dict in ``value`` holding sub-score keys (directly or under "score(s)")."""
    if isinstance(value, list):
        for item in value:
            found = _scores_mapping(item)
            if found is not None:
                return found
        return None
    if not isinstance(value, dict):
        return None
    keys = {normal_key(k): v for k, v in value.items()}
    for name in ("score", "scores"):
        if isinstance(keys.get(name), dict):
            found = _scores_mapping(keys[name])
            if found is not None:
                reason = keys.get("reason") or keys.get("reasons") or keys.get("explanation")
                return {**found, "reason": reason} if isinstance(reason, str) else found
    if any(label in keys for label in LABELS.values()):
        return keys
    return None


def parse_sub_scores(text: str, *, require_overall: bool = False) -> SubScores:
    """Sub-scores from judge (or human) output: JSON first (a list or object, scores directly or
    under "score"), then ``label: value`` patterns in any spacing or case. Values must lie in
    1-10 (``8/10`` reads as 8). Raises :class:`JudgeOutputError` saying what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise JudgeOutputError("empty output")
    mapping = None
    for value in json_values(text):
        mapping = _scores_mapping(value)
        if mapping is not None:
            break
    values: dict[str, Any] = {}
    reason = None
    if mapping is not None:
        for name, label in LABELS.items():
            if label in mapping:
                values[name] = mapping[label]
        reason = mapping.get("reason") if isinstance(mapping.get("reason"), str) else None
    else:
        for name, label in LABELS.items():
            match = re.search(rf"{_label_pattern(label)}[\s*\"']*[:=]\s*[\"']?\s*({NUMBER})?", text, re.I)
            if match:
                values[name] = match.group(1) if match.group(1) is not None else ""
    if reason is None:
        match = re.search(r"\"?reason\"?\s*:\s*\"((?:[^\"\\]|\\.)*)\"", text, re.I)
        reason = match.group(1) if match else None
    if not values:
        raise JudgeOutputError(f"no sub-scores found in {text[:80]!r}")
    scores: dict[str, float | None] = {}
    for name, label in LABELS.items():
        if name not in values:
            if name == "overall" and not require_overall:
                scores[name] = None
                continue
            raise JudgeOutputError(f"{label} is missing")
        number = _score_value(values[name])
        if number is None:
            raise JudgeOutputError(f"{label} has no number (got {values[name]!r})")
        if not SCORE_MIN <= number <= SCORE_MAX:
            raise JudgeOutputError(f"{label} {number:g} is outside {SCORE_MIN:g}-{SCORE_MAX:g}")
        scores[name] = number
    return SubScores(scores["semantic_coherence"], scores["edit_level"], scores["fluency"],
                     scores["overall"], reason)


_ROW_WORDS = ("semantic", "edit", "fluen")


def _matrix_rows(value: Any) -> list[Any] | None:
    if isinstance(value, dict):
        rows: list[Any] = [None, None, None]
        for key, row in value.items():
            k = normal_key(key)
            for index, word in enumerate(_ROW_WORDS):
                if word in k and rows[index] is None:
                    rows[index] = row
        if all(row is not None for row in rows):
            return rows
        for inner in value.values():  # e.g. {"matrix": {...}}
            if isinstance(inner, (dict, list)):
                found = _matrix_rows(inner)
                if found is not None:
                    return found
        return None
    if isinstance(value, list) and len(value) == 3 and all(isinstance(r, list) for r in value):
        return value
    return None


def parse_judgment_matrix(text: str) -> list[list[float]]:
    """The 3x3 matrix (rows semantic coherence, edit level, fluency) from judge output: a JSON
    object keyed by the criteria, or a list of three rows, or ``"Label": [a, b, c]`` text.
    Entries may be fractions ("1/3") and must lie on Saaty's scale (1/9 to 9)."""
    if not isinstance(text, str) or not text.strip():
        raise JudgeOutputError("empty output")
    rows = None
    for value in json_values(text):
        rows = _matrix_rows(value)
        if rows is not None:
            break
    if rows is None:
        found = []
        for word in ("semantic[\\s_\\-]*coherence", "edit[\\s_\\-]*level", "fluency"):
            match = re.search(rf"{word}[^\[\]:]*:\s*\[([^\]]*)\]", text, re.I)
            found.append([part for part in match.group(1).split(",")] if match else None)
        if any(row is None for row in found):
            raise JudgeOutputError(f"no 3x3 judgment matrix found in {text[:80]!r}")
        rows = found
    matrix: list[list[float]] = []
    for index, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != 3:
            raise JudgeOutputError(f"row {index + 1} of the judgment matrix does not have 3 entries")
        numbers = [to_number(x) for x in row]
        if any(x is None for x in numbers):
            raise JudgeOutputError(f"row {index + 1} of the judgment matrix has a non-number: {row!r}")
        for x in numbers:
            if not SCALE_MIN <= x <= SCALE_MAX:
                raise JudgeOutputError(f"judgment {x:g} is off Saaty's 1/9-9 scale")
        matrix.append(numbers)  # type: ignore[arg-type]
    return matrix


# ---------------------------------------------------------------- scoring

@dataclass
class SentenceJudgement:
    """Everything the judge said about one pair, and what was made of it."""

    index: int
    source: str
    hypothesis: str
    scores: SubScores | None = None
    weights: tuple[float, float, float] = equal_weights(3)  # type: ignore[assignment]
    weight_source: str = WEIGHTS_EQUAL
    ahp: AhpResult | None = None
    score_attempts: int = 0
    matrix_attempts: int = 0
    matrices_repaired: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def score(self) -> float | None:
        if self.scores is None:
            return None
        return sum(w * s for w, s in zip(self.weights, self.scores.vector, strict=True))

    @property
    def failed(self) -> bool:
        return self.scores is None


@dataclass
class DSGramResult:
    """Per-sentence judgements, the signature options and this run's judge counts."""

    sentences: list[SentenceJudgement]
    judge: dict[str, Any]


def score_dsgram(sources: Sequence[str], hypotheses: Sequence[str], judge: Judge,
                 config: DsgramConfig = DsgramConfig()) -> DSGramResult:
    """DSGram of one system: ``hypotheses[i]`` corrects ``sources[i]`` (the implementation
    behind ``gecscore.load("dsgram")``; ``config`` is validated)."""
    weights, max_reasks = config.weights, config.max_reasks
    sampling = Sampling(config.temperature, config.top_p, config.max_tokens)
    sources, hypotheses, _ = inputs.parallel(sources, hypotheses)
    sentences = [SentenceJudgement(i, s, h) for i, (s, h) in enumerate(zip(sources, hypotheses, strict=True))]
    stats_before = judge.stats.copy()
    score_pending = set(range(len(sentences)))
    matrix_pending = set(range(len(sentences))) if weights == "dynamic" else set()
    for attempt in range(max_reasks + 1):
        jobs: list[tuple[str, int]] = [("scores", i) for i in sorted(score_pending)]
        jobs += [("matrix", i) for i in sorted(matrix_pending)]
        if not jobs:
            break
        requests = [JudgeRequest.of((sub_score_messages if kind == "scores" else matrix_messages)(
            sentences[i].source, sentences[i].hypothesis), sampling, attempt) for kind, i in jobs]
        round_name = "dsgram" if attempt == 0 else f"dsgram re-ask {attempt}"
        for (kind, i), answer in zip(jobs, judge.ask(requests, desc=round_name), strict=True):
            sentence = sentences[i]
            pending = score_pending if kind == "scores" else matrix_pending
            if kind == "scores":
                sentence.score_attempts += 1
            else:
                sentence.matrix_attempts += 1
            if not answer.ok:  # the judge already retried transport errors
                sentence.problems.append(f"{kind} attempt {attempt + 1}: {answer.error}")
                pending.discard(i)
                if kind == "matrix":
                    sentence.weight_source = FALLBACK_FAILED
                continue
            try:
                if kind == "scores":
                    sentence.scores = parse_sub_scores(answer.text)
                    pending.discard(i)
                    continue
                result = analyse_matrix(parse_judgment_matrix(answer.text))
            except (JudgeOutputError, ValueError) as error:
                sentence.problems.append(f"{kind} attempt {attempt + 1}: {error}")
                continue
            sentence.ahp = result
            sentence.matrices_repaired += result.reciprocity_repaired
            if result.consistent:
                sentence.weights = result.weights  # type: ignore[assignment]
                sentence.weight_source = WEIGHTS_AHP
                pending.discard(i)
            else:
                sentence.problems.append(f"matrix attempt {attempt + 1}: inconsistent, CR = {result.cr:.3f}")
    for i in matrix_pending:
        sentences[i].weight_source = FALLBACK_INCONSISTENT if sentences[i].ahp is not None else FALLBACK_UNPARSED
    return DSGramResult(sentences,
                        judge.stats.since(stats_before).as_dict())


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def result_values(result: DSGramResult) -> dict[str, Any]:
    """The contract keys: score (0-10), sub-score means, mean weights and the counts (the
    metric seam adds ``metric`` and ``signature``)."""
    scored = [s for s in result.sentences if not s.failed]
    weights = {name: _mean([s.weights[k] for s in scored]) for k, name in enumerate(SUB_METRICS)}
    overall = [s.scores.overall for s in scored if s.scores.overall is not None]
    sources = [s.weight_source for s in result.sentences]
    return {
        "score": _mean([s.score for s in scored]),
        **{name: _mean([getattr(s.scores, name) for s in scored]) for name in SUB_METRICS},
        "weights": weights,
        "n_inconsistent": sources.count(FALLBACK_INCONSISTENT),
        "n_failed": len(result.sentences) - len(scored),
        "overall": _mean(overall),
        "n_sentences": len(result.sentences),
        "n_weights_fallback": sum(src.startswith("fallback") for src in sources),
        "n_reciprocity_repaired": sum(s.matrices_repaired for s in result.sentences),
        "judge": result.judge,
    }


def sentence_records(result: DSGramResult) -> list[dict[str, Any]]:
    """One record per sentence: sub-scores, the judge's reason, weights and their origin, CR."""
    records = []
    for s in result.sentences:
        record: dict[str, Any] = {"index": s.index, "source": s.source, "hypothesis": s.hypothesis,
                                  "score": s.score}
        for name in (*SUB_METRICS, "overall"):
            record[name] = getattr(s.scores, name) if s.scores else None
        record["reason"] = s.scores.reason if s.scores else None
        record["weights"] = dict(zip(SUB_METRICS, s.weights, strict=True))
        record["weight_source"] = s.weight_source
        if s.ahp is not None:
            record.update(cr=s.ahp.cr, lambda_max=s.ahp.lambda_max, matrix=[list(r) for r in s.ahp.matrix])
        record.update(score_attempts=s.score_attempts, matrix_attempts=s.matrix_attempts,
                      matrices_repaired=s.matrices_repaired, problems=s.problems)
        records.append(record)
    return records
