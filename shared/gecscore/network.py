"""What every network call of gecscore shares: a hard deadline, which failures to retry, and how
long to wait before the next try. Used by the data downloads (:mod:`gecscore.benchdata.fetch`)
and the LLM judge (:mod:`gecscore.judge.backends`); httpx is imported only by the callers.

Deadline. httpx's timeouts bound each socket operation (connect, one read), never a whole
request: a server that trickles one byte just inside the read timeout, headers included, is
never cut off. :func:`run_with_deadline` runs the request in a daemon thread and stops waiting
for it at the deadline; the thread sees :meth:`Deadline.expired` at its next chunk and gives up
(until then, the per-read timeout bounds how long it can stay stuck). Its result is dropped.

Which failures to retry (:func:`unreachable`, :func:`retryable_status`). A refused connection,
a name that does not resolve or a host that does not answer the connect is a fact about the
setup (no network, a firewall, a wrong URL or a server that is not running): retrying it only
makes the user wait, so it is final. So is an HTTP status that is the server's considered answer
(4xx). A timeout or a dropped connection after the server was reached, and HTTP 408, 409, 425,
429 and 5xx, are worth a bounded number of retries with exponential backoff
(:func:`backoff_s`), or the server's ``Retry-After`` when that is longer (:func:`retry_after_s`).
"""
from __future__ import annotations

import email.utils
import random
import threading
import time
from dataclasses import dataclass
from typing import Callable, TypeVar

T = TypeVar("T")

#: HTTP statuses worth retrying besides 5xx: timeout, conflict, too early, too many requests
RETRYABLE_STATUS = frozenset({408, 409, 425, 429})


@dataclass(frozen=True, slots=True)
class Deadline:
    """A point in :func:`time.monotonic` time."""

    at: float

    @classmethod
    def after(cls, seconds: float) -> "Deadline":
        return cls(time.monotonic() + seconds)

    def expired(self) -> bool:
        return time.monotonic() > self.at

    def remaining(self) -> float:
        return max(0.0, self.at - time.monotonic())


class DeadlineExceeded(TimeoutError):
    """The work of :func:`run_with_deadline` was not done in time."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        super().__init__(f"not done within {seconds:g} s")


def run_with_deadline(seconds: float, work: Callable[[Deadline], T], *, grace_s: float = 0.25,
                      name: str = "gecscore-net") -> T:
    """``work(deadline)`` in a daemon thread; its result (or its exception, re-raised here) if it
    ends within ``seconds`` (+ ``grace_s`` for the work to notice the deadline itself), else
    :class:`DeadlineExceeded`. The thread is abandoned then, so ``work`` must keep what it makes
    to itself until it returns (write no shared file) and stop once ``deadline.expired()``."""
    deadline = Deadline.after(seconds)
    outcome: dict[str, object] = {}
    done = threading.Event()

    def call() -> None:
        try:
            outcome["value"] = work(deadline)
        except BaseException as error:  # noqa: BLE001 - handed to the caller
            outcome["error"] = error
        finally:
            done.set()

    threading.Thread(target=call, name=name, daemon=True).start()
    if not done.wait(seconds + grace_s):
        raise DeadlineExceeded(seconds)
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]


def unreachable(error: BaseException) -> bool:
    """Whether an httpx error says the server was never reached: the connection was refused,
    the name did not resolve, the network is unreachable or the connect timed out. Final: a
    retry a second later meets the same firewall, the same DNS and the same stopped server."""
    import httpx

    return isinstance(error, (httpx.ConnectError, httpx.ConnectTimeout))


def unreachable_reason(error: BaseException) -> str:
    """A few words for an :func:`unreachable` error: ``connection refused``, ``name not
    resolved``, ``connect timed out``, else httpx's own text."""
    import httpx

    text = str(error)
    lowered = text.lower()
    if isinstance(error, httpx.ConnectTimeout):
        return "connect timed out"
    if "refused" in lowered:
        return "connection refused"
    if "name or service not known" in lowered or "name resolution" in lowered or "nodename nor servname" in lowered \
            or "getaddrinfo" in lowered:
        return "name not resolved"
    if "unreachable" in lowered:
        return "network unreachable"
    return text or type(error).__name__


def retryable_status(status: int) -> bool:
    """HTTP 408, 409, 425, 429 and every 5xx: the server may answer differently soon."""
    return status in RETRYABLE_STATUS or status >= 500


def backoff_s(retry: int, base_s: float, max_s: float, *, jitter: float = 0.0,
              retry_after: float | None = None) -> float:
    """Seconds to wait before retry number ``retry`` (0 for the first): ``base_s * 2**retry``
    capped at ``max_s``, times ``1 +- jitter`` (uniform noise, so that many clients do not
    retry in step), or the server's ``retry_after`` (capped at ``max_s``) when that is longer."""
    wait = min(max_s, base_s * 2 ** retry)
    if jitter:
        wait *= 1 + random.uniform(-jitter, jitter)
    if retry_after is not None:
        wait = max(wait, min(retry_after, max_s))
    return max(0.0, wait)


def retry_after_s(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (a number of seconds or an HTTP date); None when
    absent or unreadable."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
