"""OpenAI Batch API round trips for judge-backed metrics (DSGram, CLEME2.0 LLM edit weights).

A batch costs half the price of live calls and has its own rate limits, but answers within
24 hours instead of at once. The round trip:

1. **Export.** Run the metric with a judge in export mode (``build_judge(...,
   export_batch=FILE)``, ``--export-batch FILE``). Every request that is not in the judge cache
   is written once to ``FILE`` as a Batch API line instead of being sent, and answers as a
   failure (kind ``batch export``), so the metric runs to completion without a single call; its
   scores are meaningless. The line's ``custom_id`` is the request's cache key, and the cache
   remembers each exported request (table ``batch_pending``).
2. Submit ``FILE`` to the provider (``purpose=batch``, endpoint ``/v1/chat/completions``) and
   download its output file (and error file, if any) when the batch is done.
3. **Import.** :func:`import_batch` (``--import-batch OUTPUT``, repeatable) stores every
   successful answer in the cache exactly as a live call would have, and reports the requests
   that failed (status, provider error) by ``custom_id``. Failed requests stay out of the cache.
4. Rerun the metric. Everything answered comes from the cache: no HTTP call is made.

Metrics that re-ask (DSGram re-asks unreadable sub-scores and inconsistent matrices;
CLEME2.0 re-asks unreadable edit ratings) can only know their re-asks once the first answers
are in: run steps 1-4 again with ``--import-batch OUT1 --export-batch IN2``: the new file holds
the re-asks (attempt 1, 2, ...) and the requests that failed in the batch, nothing else. A run
is complete when an export writes no request. Each round adds at most one re-ask per request,
so DSGram with ``--max-reasks 3`` needs at most 4 rounds.

Files are split at the Batch API's limits (50,000 requests or 200 MB per file): ``FILE``,
then ``FILE`` with ``.part2``, ``.part3`` ... before its suffix; all requests of one file
name one model, as the API requires.
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from gecscore.errors import GecInputError
from gecscore.judge.backends import chat_body, completion_text
from gecscore.judge.cache import JudgeCache
from gecscore.judge.types import JudgeRequest

BATCH_ENDPOINT = "/v1/chat/completions"
BATCH_METHOD = "POST"
MAX_BATCH_REQUESTS = 50_000
MAX_BATCH_BYTES = 200_000_000
BATCH_EXPORTED = "batch export"  # failure kind of a request written to a batch file instead of asked
_ROLES = frozenset({"system", "developer", "user", "assistant"})
_LINE_KEYS = frozenset({"custom_id", "method", "url", "body"})


def batch_line(request: JudgeRequest, model: str, backend: str = "openai",
               custom_id: str | None = None) -> dict[str, Any]:
    """One Batch API input line: ``custom_id`` is the request's cache key for (backend, model)."""
    return {"custom_id": custom_id or request.cache_key(backend, model), "method": BATCH_METHOD,
            "url": BATCH_ENDPOINT, "body": chat_body(request, model)}


def part_path(path: Path, part: int) -> Path:
    """``out.jsonl``, ``out.part2.jsonl``, ``out.part3.jsonl`` ..."""
    return path if part == 1 else path.with_name(f"{path.stem}.part{part}{path.suffix}")


@dataclass
class BatchExport:
    """What an export wrote: the files, requests written, skipped as cached, and duplicates."""

    paths: list[Path] = field(default_factory=list)
    written: int = 0
    cached: int = 0
    duplicates: int = 0

    def summary(self) -> str:
        if not self.written:
            return "batch export: no request to export (every request is answered in the cache)"
        files = ", ".join(str(p) for p in self.paths)
        return (f"batch export: {self.written} requests written to {files}; submit to the Batch API "
                f"({BATCH_ENDPOINT}), then rerun with its output as import_batch=")


class BatchWriter:
    """Appends Batch API lines to ``path`` as requests come (each cache key once), splitting
    into parts at the API's limits, and remembers each request as pending in ``cache``.
    The first file is created (truncated) at the first request: no request, no file."""

    def __init__(self, path: str | Path, model: str, cache: JudgeCache | None = None, *,
                 backend: str = "openai", max_requests: int = MAX_BATCH_REQUESTS,
                 max_bytes: int = MAX_BATCH_BYTES):
        if not model:
            raise GecInputError("a batch file needs the judge model (model=)")
        self.path = Path(path)
        self.model = model
        self.backend = backend
        self.cache = cache
        self.max_requests = max_requests
        self.max_bytes = max_bytes
        self.result = BatchExport()
        self._keys: set[str] = set()
        self._file = None
        self._lines = 0
        self._bytes = 0
        self._lock = threading.Lock()

    def add(self, requests: Iterable[tuple[str, JudgeRequest]]) -> list[bool]:
        """Write ``(key, request)`` pairs; True for each written, False for a key written before."""
        written: list[bool] = []
        pending = []
        with self._lock:
            for key, request in requests:
                if key in self._keys:
                    self.result.duplicates += 1
                    written.append(False)
                    continue
                line = batch_line(request, self.model, self.backend, key)
                data = (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")
                if len(data) > self.max_bytes:
                    raise GecInputError(f"one batch request is {len(data)} bytes, over the "
                                        f"{self.max_bytes}-byte file limit", str(self.path))
                if self._file is None or self._lines >= self.max_requests or \
                        self._bytes + len(data) > self.max_bytes:
                    self._next_part()
                self._file.write(data)
                self._lines += 1
                self._bytes += len(data)
                self._keys.add(key)
                self.result.written += 1
                pending.append((key, self.backend, self.model, request))
                written.append(True)
            if self._file is not None:
                self._file.flush()
        if self.cache is not None and pending:
            self.cache.add_pending(pending, str(self.result.paths[-1]))
        return written

    def _next_part(self) -> None:
        if self._file is not None:
            self._file.close()
        from gecscore.outputs import open_output

        path = part_path(self.path, len(self.result.paths) + 1)
        self._file = open_output(path, "wb", "Batch API requests")
        self.result.paths.append(path)
        self._lines = self._bytes = 0

    def close(self) -> BatchExport:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None
        return self.result


def export_batch(requests: Sequence[JudgeRequest], path: str | Path, *, model: str,
                 cache: JudgeCache | None, backend: str = "openai",
                 max_requests: int = MAX_BATCH_REQUESTS, max_bytes: int = MAX_BATCH_BYTES) -> BatchExport:
    """Write the requests of a run that are not answered in ``cache`` (each once) as an OpenAI
    Batch API input file for ``model``. ``custom_id`` = ``request.cache_key(backend, model)``,
    the key a live call of the ``backend`` judge would store its answer under."""
    writer = BatchWriter(path, model, cache, backend=backend, max_requests=max_requests, max_bytes=max_bytes)
    todo = []
    for request in requests:
        key = request.cache_key(backend, model)
        if cache is not None and cache.get(key) is not None:
            writer.result.cached += 1
        else:
            todo.append((key, request))
    writer.add(todo)
    return writer.close()


# ------------------------------------------------------------------ checking a file

def check_batch_line(line: Any) -> list[str]:
    """What is wrong with one parsed Batch API input line for ``/v1/chat/completions``."""
    if not isinstance(line, dict):
        return ["not a JSON object"]
    problems = []
    if set(line) != _LINE_KEYS:
        missing, extra = sorted(_LINE_KEYS - set(line)), sorted(set(line) - _LINE_KEYS)
        problems.append("keys must be custom_id, method, url, body" +
                        (f"; missing {missing}" if missing else "") + (f"; unexpected {extra}" if extra else ""))
    custom_id = line.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id:
        problems.append("custom_id must be a non-empty string")
    if line.get("method") != BATCH_METHOD:
        problems.append(f"method must be {BATCH_METHOD!r}, got {line.get('method')!r}")
    if line.get("url") != BATCH_ENDPOINT:
        problems.append(f"url must be {BATCH_ENDPOINT!r}, got {line.get('url')!r}")
    body = line.get("body")
    if not isinstance(body, dict):
        return problems + ["body must be a JSON object"]
    if not isinstance(body.get("model"), str) or not body["model"]:
        problems.append("body.model must be a non-empty string")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        problems.append("body.messages must be a non-empty list")
    else:
        for index, message in enumerate(messages):
            if not isinstance(message, dict) or message.get("role") not in _ROLES or \
                    not isinstance(message.get("content"), str):
                problems.append(f"body.messages[{index}] must be {{role: system|developer|user|assistant, "
                                "content: string}")
    for name, low, high in (("temperature", 0, 2), ("top_p", 0, 1)):
        value = body.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                  or not low <= value <= high):
            problems.append(f"body.{name} must be a number in [{low}, {high}]")
    for name in ("max_tokens", "max_completion_tokens"):
        value = body.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            problems.append(f"body.{name} must be a positive integer")
    if body.get("stream"):
        problems.append("body.stream is not allowed in a batch")
    return problems


def validate_batch_file(path: str | Path, *, max_requests: int = MAX_BATCH_REQUESTS,
                        max_bytes: int = MAX_BATCH_BYTES) -> list[str]:
    """Problems of an OpenAI Batch API input file for chat completions (empty: valid): UTF-8
    JSON lines of the request shape, unique ``custom_id``, one model, at most ``max_requests``
    lines and ``max_bytes`` bytes."""
    path = Path(path)
    data = path.read_bytes()
    problems: list[str] = []
    if not data.strip():
        return [f"{path}: empty file"]
    if len(data) > max_bytes:
        problems.append(f"{path}: {len(data)} bytes, over the {max_bytes}-byte limit")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return problems + [f"{path}: not UTF-8 ({error})"]
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if len(lines) > max_requests:
        problems.append(f"{path}: {len(lines)} requests, over the {max_requests}-request limit")
    seen: dict[str, int] = {}
    models: set[str] = set()
    for number, raw in enumerate(lines, 1):
        try:
            line = json.loads(raw)
        except ValueError as error:
            problems.append(f"{path}:{number}: not JSON ({error})")
            continue
        problems.extend(f"{path}:{number}: {problem}" for problem in check_batch_line(line))
        if isinstance(line, dict):
            custom_id = line.get("custom_id")
            if isinstance(custom_id, str):
                if custom_id in seen:
                    problems.append(f"{path}:{number}: custom_id {custom_id!r} repeats line {seen[custom_id]}")
                seen.setdefault(custom_id, number)
            body = line.get("body")
            if isinstance(body, dict) and isinstance(body.get("model"), str):
                models.add(body["model"])
    if len(models) > 1:
        problems.append(f"{path}: requests name {len(models)} models ({', '.join(sorted(models))}); "
                        "a batch takes one")
    return problems


# ------------------------------------------------------------------ importing the output

@dataclass(frozen=True, slots=True)
class BatchFailure:
    """One output line whose request got no answer: ``kind`` like ``HTTP 400`` or the
    provider's error code (``batch_expired``), ``message`` its explanation."""

    custom_id: str | None
    line: int
    kind: str
    message: str


@dataclass
class BatchImport:
    """What an import stored: answers imported, answers already cached, failures (retry them
    by exporting again: they are not in the cache), and exported requests still unanswered."""

    path: str
    imported: int = 0
    already_cached: int = 0
    failed: list[BatchFailure] = field(default_factory=list)
    pending: int = 0

    @property
    def failed_ids(self) -> list[str]:
        return [f.custom_id for f in self.failed if f.custom_id]

    def summary(self, show: int = 5) -> str:
        text = f"batch import {self.path}: {self.imported} answers imported"
        if self.already_cached:
            text += f", {self.already_cached} already cached"
        if self.failed:
            text += f", {len(self.failed)} failed (export again to retry them)"
            for failure in self.failed[:show]:
                text += f"\n  line {failure.line} {failure.custom_id}: {failure.kind}: {failure.message}"
            if len(self.failed) > show:
                text += f"\n  ... {len(self.failed) - show} more"
        if self.pending:
            text += f"; {self.pending} exported requests still have no answer"
        return text


def _requests_file(path: str | Path) -> dict[str, tuple[str, dict]]:
    """custom_id -> (model, request record) from a Batch API input file (its attempt is unknown)."""
    found = {}
    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        if not raw.strip():
            continue
        line = json.loads(raw)
        body = line.get("body") or {}
        record = {"messages": [[m["role"], m["content"]] for m in body.get("messages", [])],
                  "sampling": {k: body.get(k) for k in ("temperature", "top_p", "max_tokens")},
                  "attempt": None}
        found[line["custom_id"]] = (body.get("model", ""), record)
    return found


#: re-asks a judge makes at most for one request (an input file's line does not say which attempt)
_MAX_ATTEMPTS_SEARCHED = 64


def _bound_record(custom_id: str, backend: str, model: str, record: dict) -> dict | None:
    """``record`` with the attempt whose cache key is ``custom_id`` (the cache keeps a row only
    under its own key: :meth:`JudgeCache.get`), or None when no attempt gives that key."""
    for attempt in range(_MAX_ATTEMPTS_SEARCHED):
        candidate = {**record, "attempt": attempt}
        try:
            if JudgeRequest.from_record(candidate).cache_key(backend, model) == custom_id:
                return candidate
        except (ValueError, KeyError, TypeError):
            return None
    return None


def _failure_of(line: dict) -> tuple[str, str] | None:
    """(kind, message) when an output line carries no answer."""
    error = line.get("error")
    if error:
        if isinstance(error, dict):
            return str(error.get("code") or "error"), str(error.get("message") or error)[:300]
        return "error", str(error)[:300]
    response = line.get("response")
    if not isinstance(response, dict):
        return "no response", "the line has neither a response nor an error"
    status = response.get("status_code")
    if status != 200:
        body = response.get("body")
        detail = body.get("error") if isinstance(body, dict) else body
        if isinstance(detail, dict):
            detail = detail.get("message", detail)
        return f"HTTP {status}", str(detail)[:300]
    return None


def import_batch(output_path: str | Path, cache: JudgeCache, *,
                 requests_path: str | Path | None = None) -> BatchImport:
    """Store the answers of a Batch API output (or error) file in ``cache`` as live calls would.

    Each line is ``{"id", "custom_id", "response": {"status_code", "request_id", "body"},
    "error"}``. A ``custom_id`` must be a request exported from this cache (or, for a cache that
    did not export it, one found in the input file ``requests_path``); others are failures of
    kind ``unknown custom_id``. An answer already in the cache is kept (the first answer wins, as
    for live calls). Failures are reported per request and are not cached, so the next export
    contains them again.
    """
    output_path = Path(output_path)
    if not output_path.is_file():
        raise GecInputError("batch output file not found", str(output_path))
    outside = _requests_file(requests_path) if requests_path else {}
    result = BatchImport(str(output_path))
    with open(output_path, encoding="utf-8") as lines:
        for number, raw in enumerate(lines, 1):
            if not raw.strip():
                continue
            answer = _answer_of(raw, number)
            if isinstance(answer, BatchFailure):
                result.failed.append(answer)
                continue
            custom_id, text = answer
            if cache.get(custom_id) is not None:
                result.already_cached += 1
                continue
            request = _request_of(custom_id, number, cache, outside, requests_path)
            if isinstance(request, BatchFailure):
                result.failed.append(request)
                continue
            backend, model, record = request
            cache.put(custom_id, backend, model, record, text)
            result.imported += 1
    result.pending = cache.pending_count()
    return result


def _answer_of(raw: str, number: int) -> tuple[str, str] | BatchFailure:
    """``(custom_id, answer text)`` of output line ``number``, or why it has none: not JSON, no
    ``custom_id``, an error the line reports, or a body that is not a chat completion."""
    try:
        line = json.loads(raw)
    except ValueError as error:
        return BatchFailure(None, number, "not JSON", str(error))
    custom_id = line.get("custom_id") if isinstance(line, dict) else None
    if not isinstance(custom_id, str) or not custom_id:
        return BatchFailure(None, number, "no custom_id", raw.strip()[:120])
    failure = _failure_of(line)
    if failure is None:
        try:
            return custom_id, completion_text(line["response"].get("body"))
        except ValueError:
            failure = ("bad response", f"not a chat completion: {str(line['response'].get('body'))[:120]}")
    return BatchFailure(custom_id, number, *failure)


def _request_of(custom_id: str, number: int, cache: JudgeCache, outside: dict,
                requests_path: str | Path | None) -> tuple[str, str, dict] | BatchFailure:
    """``(backend, model, request record)`` the answer of ``custom_id`` is stored under: the
    cache's exported request, else the input file's (its key checked), else an unknown id."""
    pending = cache.pending(custom_id)
    if pending is not None:
        return pending
    if custom_id in outside:
        model, record = outside[custom_id]
        record = _bound_record(custom_id, "openai", model, record)
        if record is None:
            return BatchFailure(custom_id, number, "custom_id does not match its request",
                                f"the input file's request under this id has another key ({requests_path})")
        return "openai", model, record
    return BatchFailure(custom_id, number, "unknown custom_id", f"not exported from the cache {cache.path}")
