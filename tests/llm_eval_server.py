"""A judge for LLM-S and LLM-E prompts, for the local test server (``judge_server.JudgeServer``)
and the offline Batch API (``judge_server.BatchService``).

``LlmEvalSimulator`` answers deterministically per shown target: the score is
``1 + hash(target) % 5``; by a second hash (``bucket`` 0-9) some targets first get malformed
JSON (bucket 0), an out-of-scale 9 (bucket 1) or the schema's own comment left in (bucket 2,
readable), and bucket 3 always answers in prose (never readable). A prompt with several targets
(one per line) is answered target by target in one JSON object, the first line's bucket
deciding the answer's form. ``Script`` replies per prompt's targets text from a list, the last
one repeating.
"""
from __future__ import annotations

import hashlib
import threading
from collections import Counter

from judge_server import Reply

SENTENCE_MARK, EDIT_MARK = "\n# source\n", "\n# context\n"


def request_subject(body: dict) -> tuple[str, str, str]:
    """(kind, source, shown target) of an LLM-S ("sentence") or LLM-E ("edit") request."""
    text = body["messages"][-1]["content"]
    kind = "edit" if EDIT_MARK in text else "sentence" if SENTENCE_MARK in text else "other"
    if kind == "other":
        return kind, "", ""
    source = text.split(EDIT_MARK if kind == "edit" else SENTENCE_MARK)[1].split("\n\n# targets\n")[0]
    target = text.split("\n# targets\n")[1].split("\n\n# output format\n")[0]
    return kind, source, target


def answer(*scores, comment: bool = False) -> str:
    """An answer in the prompt's schema (one score per target), fenced as the prompt asks."""
    lines = [f'"target{k}_score": {score}' + (f" // assigned score for target {k}" if comment else "")
             for k, score in enumerate(scores, start=1)]
    return "```json\n{\n" + ",\n".join(lines) + "\n}\n```"


class LlmEvalSimulator:
    def __init__(self) -> None:
        self.seen: Counter = Counter()
        self._lock = threading.Lock()

    @staticmethod
    def digest(text: str) -> int:
        return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)

    def expected(self, target: str) -> int | None:
        """The score the simulator ends up giving ``target`` (None: never readable)."""
        return None if self.bucket(target) == 3 else 1 + self.digest(target) % 5

    def bucket(self, target: str) -> int:
        return self.digest("b" + target) % 10

    def __call__(self, body: dict) -> Reply:
        kind, _, target = request_subject(body)
        if kind == "other":
            return Reply("I do not know this prompt.", status=400)
        with self._lock:
            self.seen[(kind, target)] += 1
            nth = self.seen[(kind, target)]
        shown = target.split("\n")
        bucket = self.bucket(shown[0])
        if bucket == 0 and nth == 1:
            return Reply('```json\n{\n"target1_score": \n```')
        if bucket == 1 and nth == 1:
            return Reply(answer(*[9] * len(shown)))
        if bucket == 3:
            return Reply("This target reads well overall.")
        return Reply(answer(*[self.expected(t) or 1 for t in shown], comment=bucket == 2))


class Script:
    """Replies per shown target, in order; the last one repeats. Counts requests per target."""

    def __init__(self, replies: dict[str, list[Reply]]):
        self.replies = replies
        self.count: Counter = Counter()
        self._lock = threading.Lock()

    def __call__(self, body: dict) -> Reply:
        _, _, target = request_subject(body)
        with self._lock:
            self.count[target] += 1
            n = self.count[target]
        replies = self.replies[target]
        return replies[min(n, len(replies)) - 1]
