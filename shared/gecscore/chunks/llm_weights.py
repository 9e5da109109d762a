"""CLEME2.0's LLM edit weighting (``--weighting llm``): the judge rates each edit 1-5.

Each changed chunk becomes an edit ``source tokens -> target tokens`` (an empty side is
written ``∅``): the hypothesis chunk for TP/FP_ne/FP_un, the reference's chunk for FN (under
``ind``, the first reference, as every reference changed an FN chunk). The judge sees the
uncorrected sentence and the edit with the prompt of the paper's appendix A at temperature
0.1; the weight is the rating. Output without a rating in 1-5 is re-asked at most
``max_reasks`` times, then the edit weighs 1 and is counted as a failure. TN chunks weigh 1.
Identical (sentence, edit) pairs are asked once per corpus.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from gecscore.judge.parsing import JudgeOutputError
from gecscore.judge.prompts import edit_weight_messages
from gecscore.judge.runner import Judge
from gecscore.judge.types import EDIT_WEIGHT_SAMPLING, JudgeRequest, Sampling
from gecscore.chunks.labels import Label, LabelledChunks
from gecscore.types import Chunk, ChunkPartition, Sample

EMPTY_SIDE = "∅"
WEIGHT_MIN, WEIGHT_MAX = 1.0, 5.0
FALLBACK_WEIGHT = 1.0
MAX_REASKS = 2

_RANGE_MENTIONS = re.compile(r"\(?\b1\s*(?:-|–|to)\s*5\b\)?|\bout\s+of\s+5\b|/\s*5\b", re.I)
_NUMBER = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)(?![\d.])")


def format_edit(chunk: Chunk) -> str:
    """``"were -> have"``; an empty side is ``∅``."""
    source = " ".join(chunk.source) or EMPTY_SIDE
    target = " ".join(chunk.target) or EMPTY_SIDE
    return f"{source} -> {target}"


def parse_edit_weight(text: str) -> float:
    """The first number of the answer (mentions of the 1-5 range removed); it must be in 1-5."""
    if not isinstance(text, str) or not text.strip():
        raise JudgeOutputError("empty output")
    match = _NUMBER.search(_RANGE_MENTIONS.sub(" ", text))
    if match is None:
        raise JudgeOutputError(f"no rating in {text[:60]!r}")
    value = float(match.group(1))
    if not WEIGHT_MIN <= value <= WEIGHT_MAX:
        raise JudgeOutputError(f"rating {value:g} is outside 1-5")
    return value


@dataclass(frozen=True, slots=True)
class EditWeightFailure:
    sentence: str
    edit: str
    problem: str


@dataclass
class LlmChunkWeigher:
    """A ``CorpusWeigher`` (see ``chunk_evaluation``) asking ``judge`` for edit weights.

    After a call, ``failures`` lists the edits that fell back to weight 1 and ``ratings`` maps
    (sentence, edit) to its weight, over the weigher's life (ratings are reused across calls).
    ``last_call`` counts the last call alone (what a result should report, since one weigher
    may score several systems): distinct edits weighed, how many of them fell back to weight 1
    (including fallbacks from an earlier call reused from ``ratings``) and how many chunks
    (occurrences over samples and candidates) carry a fallback weight; see :meth:`counts`.
    """

    judge: Judge
    sampling: Sampling = EDIT_WEIGHT_SAMPLING
    max_reasks: int = MAX_REASKS
    ratings: dict[tuple[str, str], float] = field(default_factory=dict)
    failures: list[EditWeightFailure] = field(default_factory=list)
    fallen_back: set[tuple[str, str]] = field(default_factory=set)
    last_call: dict[str, int] = field(default_factory=dict)

    def __call__(self, samples: Sequence[Sample], partitions: Sequence[ChunkPartition],
                 labelled: Sequence[Sequence[LabelledChunks]]) -> list[list[Sequence[float]]]:
        plan: list[list[list[tuple[str, str] | None]]] = []
        for sample, partition, candidates in zip(samples, partitions, labelled, strict=True):
            sentence = " ".join(sample.source)
            plan.append([[None if label is Label.TN else (sentence, format_edit(
                _edit_chunk(partition, candidate, index, label)))
                for index, label in enumerate(candidate.labels)] for candidate in candidates])
        wanted = list(dict.fromkeys(key for sample in plan for cand in sample for key in cand
                                    if key is not None and key not in self.ratings))
        self._rate(wanted)
        used = [key for sample in plan for cand in sample for key in cand if key is not None]
        distinct = set(used)
        self.last_call = {"edits": len(distinct), "fallback_edits": len(distinct & self.fallen_back),
                          "fallback_chunks": sum(key in self.fallen_back for key in used)}
        return [[tuple(FALLBACK_WEIGHT if key is None else self.ratings[key] for key in cand)
                 for cand in sample] for sample in plan]

    def _rate(self, keys: list[tuple[str, str]]) -> None:
        pending = list(keys)
        problems: dict[tuple[str, str], str] = {}
        for attempt in range(self.max_reasks + 1):
            if not pending:
                break
            requests = [JudgeRequest.of(edit_weight_messages(sentence, edit), self.sampling, attempt)
                        for sentence, edit in pending]
            desc = "edit weights" if attempt == 0 else f"edit weights re-ask {attempt}"
            still = []
            for key, answer in zip(pending, self.judge.ask(requests, desc=desc), strict=True):
                if not answer.ok:  # transport failure: the judge already retried
                    problems[key] = answer.error or "failed"
                    continue
                try:
                    self.ratings[key] = parse_edit_weight(answer.text)
                except JudgeOutputError as error:
                    problems[key] = str(error)
                    still.append(key)
            pending = still
        for key in keys:
            if key not in self.ratings:
                self.ratings[key] = FALLBACK_WEIGHT
                self.fallen_back.add(key)
                self.failures.append(EditWeightFailure(key[0], key[1], problems.get(key, "no answer")))

    def facts(self) -> tuple[tuple[str, str], ...]:
        return (("judge", self.judge.name),)

    def fallback_count(self) -> int:
        """Edits that fell back to weight 1 (no usable judge answer)."""
        return len(self.failures)

    def counts(self) -> dict[str, int]:
        """The last call's counts as result values: ``llm_edits`` (distinct edits weighed by the
        judge), ``llm_fallbacks`` (of those, how many weigh 1 for want of a usable answer) and
        ``llm_fallback_chunks`` (chunk occurrences with a fallback weight)."""
        last = self.last_call or {"edits": 0, "fallback_edits": 0, "fallback_chunks": 0}
        return {"llm_edits": last["edits"], "llm_fallbacks": last["fallback_edits"],
                "llm_fallback_chunks": last["fallback_chunks"]}

    def summary(self) -> str:
        return (f"LLM edit weights: {len(self.ratings)} edits rated, {len(self.failures)} fell back to "
                f"weight {FALLBACK_WEIGHT:g}; {self.judge.summary()}")


def _edit_chunk(partition: ChunkPartition, candidate: LabelledChunks, index: int, label: Label) -> Chunk:
    if label is not Label.FN:
        return partition.hypothesis[index]
    if candidate.reference is not None:
        return partition.references[candidate.reference][index]
    return next((ref[index] for ref in partition.references if ref[index].changed),
                partition.references[0][index])


def llm_chunk_weigher(judge: Judge, *, sampling: Sampling = EDIT_WEIGHT_SAMPLING,
                      max_reasks: int = MAX_REASKS) -> LlmChunkWeigher:
    """A corpus weigher for ``label_corpus``/``score_cleme2(weigher=...)`` backed by ``judge``."""
    return LlmChunkWeigher(judge, sampling, max_reasks)
