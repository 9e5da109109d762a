"""The judge: a backend plus the on-disk cache, bounded concurrency, retries and a failure count.

``Judge.ask(requests)`` returns one :class:`JudgeAnswer` per request, in order. Cached answers
are served without a call; the rest go to the backend (``concurrency`` threads for HTTP,
batches of ``backend.batch_size`` for local models); each answer is committed to the cache
as it arrives. Transient errors are retried with exponential backoff (bounded); a request that
still fails is returned as a failed answer and counted. A setup error (bad key, unknown model)
stops the run.

Two optional modes (see :mod:`gecscore.judge.batch` and :mod:`gecscore.judge.replay`):
:meth:`Judge.export_batch_to` writes the requests the cache cannot answer to an OpenAI Batch API
file instead of calling the backend (they answer as failures of kind ``batch export``), and
:meth:`Judge.record_transcript` writes every request the judge answers, with its answer, to a
transcript that the ``replay`` backend can answer from.
"""
from __future__ import annotations

import threading
import time
from collections import Counter
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Sequence

from gecscore.network import backoff_s
from gecscore.progress import bar as progress_bar

from gecscore.judge.backends import JudgeBackend, OpenAIChatBackend
from gecscore.judge.batch import BATCH_EXPORTED, BatchImport, BatchWriter, import_batch
from gecscore.judge.cache import JudgeCache
from gecscore.judge.replay import TranscriptWriter
from gecscore.judge.types import (JudgeAnswer, JudgeConfigError, JudgeRequest, PermanentJudgeError,
                                  TransientJudgeError)


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """At most ``max_retries`` retries after the first try; waits ``backoff_s * 2**k`` (capped,
    with +-``jitter`` relative noise), or the server's Retry-After when that is longer."""

    max_retries: int = 4
    backoff_s: float = 1.0
    max_backoff_s: float = 30.0
    jitter: float = 0.1

    def delay(self, retry: int, retry_after: float | None = None) -> float:
        """Seconds before retry number ``retry`` (0 for the first): :func:`gecscore.network.backoff_s`."""
        return backoff_s(retry, self.backoff_s, self.max_backoff_s, jitter=self.jitter, retry_after=retry_after)


@dataclass
class JudgeStats:
    """Counts over the judge's lifetime: requests asked, served from cache, answered by the
    backend, calls (requests sent to the backend, retries included), retries, failures by kind."""

    requests: int = 0
    cache_hits: int = 0
    answered: int = 0
    calls: int = 0
    retries: int = 0
    failures: Counter = field(default_factory=Counter)

    @property
    def failed(self) -> int:
        return sum(self.failures.values())

    def copy(self) -> "JudgeStats":
        return JudgeStats(self.requests, self.cache_hits, self.answered, self.calls, self.retries,
                          Counter(self.failures))

    def since(self, earlier: "JudgeStats") -> "JudgeStats":
        """The counts added after the snapshot ``earlier`` (one run of a shared judge)."""
        return JudgeStats(self.requests - earlier.requests, self.cache_hits - earlier.cache_hits,
                          self.answered - earlier.answered, self.calls - earlier.calls,
                          self.retries - earlier.retries, self.failures - earlier.failures)

    def as_dict(self) -> dict:
        return {"requests": self.requests, "cache_hits": self.cache_hits, "answered": self.answered,
                "calls": self.calls, "retries": self.retries, "failed": self.failed,
                "failures": dict(sorted(self.failures.items()))}

    def summary(self) -> str:
        text = (f"{self.requests} requests: {self.cache_hits} from cache, {self.answered} answered, "
                f"{self.retries} retries, {self.failed} failed")
        if self.failures:
            text += " (" + ", ".join(f"{kind} x{n}" for kind, n in sorted(self.failures.items())) + ")"
        return text


class Judge:
    """An LLM judge: ``backend`` behind ``cache`` (optional), ``concurrency`` and ``retry``."""

    def __init__(self, backend: JudgeBackend, cache: JudgeCache | None = None, *, concurrency: int = 8,
                 retry: RetryPolicy = RetryPolicy(), progress: bool = True):
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got {concurrency}")
        self.backend = backend
        self.cache = cache
        self.concurrency = concurrency
        self.retry = retry
        self.progress = progress
        self.stats = JudgeStats()
        self.exporter: BatchWriter | None = None
        self.transcript: TranscriptWriter | None = None
        self.batch_imports: list[BatchImport] = []
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self.backend.label

    # ------------------------------------------------------------ batch and transcript modes

    def export_batch_to(self, path, **limits) -> BatchWriter:
        """From now on, write requests the cache cannot answer to the OpenAI Batch API file
        ``path`` (each once; ``limits``: ``max_requests``, ``max_bytes``) instead of asking the
        backend; they answer as failures. Their ``custom_id`` is the cache key this judge would
        store a live answer under."""
        if not isinstance(self.backend, OpenAIChatBackend):
            raise JudgeConfigError(f"batch files are for OpenAI-compatible endpoints, not the "
                                   f"{self.backend.label} backend")
        if self.cache is None:
            raise JudgeConfigError("a batch round trip needs the judge cache (drop no_cache=True)")
        self.exporter = BatchWriter(path, self.backend.model, self.cache, backend=self.backend.name, **limits)
        return self.exporter

    def import_batch(self, path, *, requests_path=None) -> BatchImport:
        """Store the answers of a Batch API output (or error) file in the cache; see
        :func:`gecscore.judge.batch.import_batch`. The summary is added to :meth:`summary`."""
        if self.cache is None:
            raise JudgeConfigError("a batch round trip needs the judge cache (drop no_cache=True)")
        result = import_batch(path, self.cache, requests_path=requests_path)
        self.batch_imports.append(result)
        return result

    def record_transcript(self, path) -> TranscriptWriter:
        """From now on, write every (request, answer) this judge returns to the transcript ``path``."""
        self.transcript = TranscriptWriter(path, self.backend.name, self.backend.model)
        return self.transcript

    # ------------------------------------------------------------ asking

    def ask(self, requests: Sequence[JudgeRequest], desc: str = "judge") -> list[JudgeAnswer]:
        """Answers for ``requests`` in order (identical requests are sent once)."""
        answers: list[JudgeAnswer | None] = [None] * len(requests)
        todo: dict[str, list[int]] = {}
        with self._lock:
            self.stats.requests += len(requests)
        keys = [request.cache_key(self.backend.name, self.backend.model) for request in requests]
        for index, (key, request) in enumerate(zip(keys, requests)):
            if key in todo:
                todo[key].append(index)
                continue
            text = self.cache.get(key) if self.cache is not None else None
            if text is not None:
                answers[index] = JudgeAnswer(text, cached=True)
                with self._lock:
                    self.stats.cache_hits += 1
            else:
                todo[key] = [index]
        if todo and self.exporter is not None:
            jobs = [(key, requests[indices[0]]) for key, indices in todo.items()]
            self.exporter.add(jobs)
            for key, _ in jobs:
                answer = self._failed(BATCH_EXPORTED, f"written to the batch file {self.exporter.path}")
                for index in todo[key]:
                    answers[index] = answer
        elif todo:
            jobs = [(key, requests[indices[0]]) for key, indices in todo.items()]
            with progress_bar(total=len(jobs), desc=desc, unit="call", requested=self.progress) as bar:
                if self.backend.batch_size > 1:
                    results = self._run_batched(jobs, bar)
                else:
                    results = self._run_threaded(jobs, bar)
            for (key, _), answer in zip(jobs, results, strict=True):
                for index in todo[key]:
                    answers[index] = answer
        if self.transcript is not None:
            self.transcript.write(keys, requests, answers)  # type: ignore[arg-type]
        return answers  # type: ignore[return-value]

    def _run_threaded(self, jobs: list[tuple[str, JudgeRequest]], bar) -> list[JudgeAnswer]:
        pool = ThreadPoolExecutor(max_workers=min(self.concurrency, len(jobs)), thread_name_prefix="judge")
        try:
            futures = [pool.submit(self._call_one, key, request, bar) for key, request in jobs]
            done, _ = wait(futures, return_when=FIRST_EXCEPTION)
            for future in done:
                error = future.exception()
                if error is not None:
                    raise error
            return [future.result() for future in futures]
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

    def _call_one(self, key: str, request: JudgeRequest, bar) -> JudgeAnswer:
        try:
            text = self._with_retries(lambda: self.backend.complete(request))
        except (TransientJudgeError, PermanentJudgeError) as error:
            answer = self._failed(error.kind, error)
        except JudgeConfigError:
            raise
        except Exception as error:  # noqa: BLE001 - one bad request must not end a long run
            answer = self._failed(type(error).__name__, error)
        else:
            answer = self._answered(key, request, text)
        bar.update(1)
        return answer

    def _run_batched(self, jobs: list[tuple[str, JudgeRequest]], bar) -> list[JudgeAnswer]:
        results: list[JudgeAnswer] = []
        size = self.backend.batch_size
        for start in range(0, len(jobs), size):
            batch = jobs[start:start + size]
            try:
                texts = self._with_retries(lambda b=batch: self.backend.complete_batch([r for _, r in b]),
                                           len(batch))
            except (TransientJudgeError, PermanentJudgeError) as error:
                results.extend(self._failed(error.kind, error) for _ in batch)
            except JudgeConfigError:
                raise
            except Exception as error:  # noqa: BLE001
                results.extend(self._failed(type(error).__name__, error) for _ in batch)
            else:
                results.extend(self._answered(key, request, text)
                               for (key, request), text in zip(batch, texts, strict=True))
            bar.update(len(batch))
        return results

    def _with_retries(self, call, n_requests: int = 1):
        """``call()`` with up to ``max_retries`` retries on transient errors; counts requests sent."""
        for retry in range(self.retry.max_retries + 1):
            with self._lock:
                self.stats.calls += n_requests
            try:
                return call()
            except TransientJudgeError as error:
                if retry == self.retry.max_retries:
                    raise
                with self._lock:
                    self.stats.retries += 1
                time.sleep(self.retry.delay(retry, error.retry_after))
        raise AssertionError("unreachable")

    def _answered(self, key: str, request: JudgeRequest, text: str) -> JudgeAnswer:
        if self.cache is not None:
            self.cache.put(key, self.backend.name, self.backend.model, request, text)
        with self._lock:
            self.stats.answered += 1
        return JudgeAnswer(text)

    def _failed(self, kind: str, error: Exception) -> JudgeAnswer:
        with self._lock:
            self.stats.failures[kind] += 1
        return JudgeAnswer(None, f"{kind}: {error}")

    def summary(self) -> str:
        lines = [f"judge {self.name}: {self.stats.summary()}"]
        lines += [result.summary() for result in self.batch_imports]
        if self.exporter is not None:
            lines.append(self.exporter.result.summary())
        if self.transcript is not None:
            lines.append(self.transcript.summary())
        return "\n".join(lines)

    def close(self) -> None:
        if self.exporter is not None:
            self.exporter.close()
        if self.transcript is not None:
            self.transcript.close()
        self.backend.close()
        if self.cache is not None:
            self.cache.close()

    def __enter__(self) -> "Judge":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
