"""Requests, answers, sampling settings and errors shared by every judge backend."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True, slots=True)
class Sampling:
    """Sampling settings sent with every request (part of the cache key)."""

    temperature: float = 0.6
    top_p: float = 0.7
    max_tokens: int = 512

    def as_dict(self) -> dict[str, float | int]:
        return {"temperature": self.temperature, "top_p": self.top_p, "max_tokens": self.max_tokens}


# DSGram's appendix A (Table 5): temperature 0.6, top-p 0.7, at most 512 tokens.
DSGRAM_SAMPLING = Sampling(0.6, 0.7, 512)
# CLEME2.0's appendix A: temperature 0.1 for edit weights; the answer is a single number.
EDIT_WEIGHT_SAMPLING = Sampling(0.1, 1.0, 16)

Message = tuple[str, str]  # (role, content)


@dataclass(frozen=True, slots=True)
class JudgeRequest:
    """One chat request. ``attempt`` numbers re-asks of the same prompt: it is part of the cache
    key, so a re-ask is a new call while a rerun finds every earlier attempt in the cache."""

    messages: tuple[Message, ...]
    sampling: Sampling = DSGRAM_SAMPLING
    attempt: int = 0

    @classmethod
    def of(cls, messages: Sequence[Message], sampling: Sampling = DSGRAM_SAMPLING,
           attempt: int = 0) -> "JudgeRequest":
        return cls(tuple((str(role), str(content)) for role, content in messages), sampling, attempt)

    def cache_key(self, backend: str, model: str) -> str:
        """sha256 of (backend, model, messages, sampling, attempt); nothing secret goes in."""
        payload = {"backend": backend, "model": model, **self.record()}
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def content_key(self) -> str:
        """sha256 of (messages, sampling, attempt): the request whoever answers it (replay files)."""
        text = json.dumps(self.record(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def record(self) -> dict:
        """The request as JSON-ready data (cache rows, transcripts); :meth:`from_record` inverts it."""
        return {"messages": [list(m) for m in self.messages], "sampling": self.sampling.as_dict(),
                "attempt": self.attempt}

    @classmethod
    def from_record(cls, record: dict) -> "JudgeRequest":
        """The request of :meth:`record` output. Values keep their JSON types (0 stays an int), so
        the keys of the rebuilt request equal the original's."""
        sampling = record["sampling"]
        return cls.of([(role, content) for role, content in record["messages"]],
                      Sampling(sampling["temperature"], sampling["top_p"], sampling["max_tokens"]),
                      record.get("attempt", 0))


@dataclass(frozen=True, slots=True)
class JudgeAnswer:
    """The judge's text, or the error that ended the request after its retries."""

    text: str | None
    error: str | None = None
    cached: bool = False

    @property
    def ok(self) -> bool:
        return self.text is not None


class JudgeError(RuntimeError):
    """A request that failed for good (after retries where they apply)."""


class TransientJudgeError(JudgeError):
    """A failure worth retrying: timeout, connection error, HTTP 408/409/429/5xx, bad body.

    ``kind`` names it for the failure summary; ``retry_after`` is the server's hint (seconds).
    """

    def __init__(self, kind: str, message: str, retry_after: float | None = None):
        self.kind = kind
        self.retry_after = retry_after
        super().__init__(message)


class PermanentJudgeError(JudgeError):
    """A failure of this request that a retry would not fix (e.g. HTTP 400)."""

    def __init__(self, kind: str, message: str):
        self.kind = kind
        super().__init__(message)


class JudgeConfigError(JudgeError):
    """A failure of the whole setup (bad key, unknown model, wrong URL): the run stops."""
