"""A stand-in for raw.githubusercontent.com on 127.0.0.1 (tests never reach the internet).

:class:`FakeUpstream` serves ``files`` (``{url_path: bytes}``, the path after the host, e.g.
``owner/name/<commit>/dir/file``), counts the requests per path in ``hits`` and can misbehave
per path (``behaviour[path]``); a mode ending in ``-once`` misbehaves on the first request
only, then serves normally:

- ``truncate``: announce the full Content-Length, send half the body, close;
- ``short``: send half the body without a Content-Length (the close ends it: a truncated
  download no transport error reveals);
- ``corrupt``: the right length, one byte changed;
- ``silent``: accept the request and never answer (held until the server stops);
- ``stall``: announce the full Content-Length, send half the body, then nothing (held);
- ``trickle``: the right length, the body one byte every ``trickle_s`` seconds (each read
  well inside any per-read timeout: only a whole-file deadline ends it);
- ``trickle-headers``: the status line and headers one byte every ``trickle_s`` seconds;
- ``lie-longer``: announce 100 bytes more than the body, send the body, then nothing (held);
- ``lie-shorter``: announce one byte less than the body and send it all;
- ``more``: announce and send the body followed by 1 MB more;
- ``endless``: no Content-Length, the body then zeros until the client hangs up (``sent``
  counts the bytes that went out);
- ``redirect-loop``: 302 to the same path, every time;
- ``status:NNN``: answer HTTP NNN (``Retry-After: 0`` with 429 and 503);
- ``gather:N``: hold each request until N requests for the path have arrived (or 10 s), then
  serve normally: N clients are then surely downloading at once.
"""
from __future__ import annotations

import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

GATHER_LIMIT_S = 10.0


class _QuietServer(ThreadingHTTPServer):
    """Clients that give up and hang up are part of the tests: no tracebacks for them."""

    def handle_error(self, request, client_address) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


class FakeUpstream:
    def __init__(self, files: dict[str, bytes], *, trickle_s: float = 0.05):
        self.files = dict(files)
        self.hits: Counter[str] = Counter()
        self.sent: Counter[str] = Counter()
        self.behaviour: dict[str, str] = {}
        self.trickle_s = trickle_s
        self.released = threading.Event()   # set when the server stops: held requests end
        self.lock = threading.Lock()
        upstream = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # quiet
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                path = self.path.lstrip("/")
                with upstream.lock:
                    upstream.hits[path] += 1
                    hit = upstream.hits[path]
                mode = upstream.behaviour.get(path, "")
                if mode.endswith("-once"):
                    mode = mode.removesuffix("-once") if hit == 1 else ""
                if mode == "silent":
                    upstream.released.wait()
                    return
                if mode == "redirect-loop":
                    self.send_response(302)
                    self.send_header("Location", self.path)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if mode.startswith("status:"):
                    self._status(int(mode.split(":", 1)[1]))
                    return
                if mode.startswith("gather:"):
                    deadline = time.monotonic() + GATHER_LIMIT_S
                    while upstream.hits[path] < int(mode.split(":", 1)[1]) and time.monotonic() < deadline:
                        time.sleep(0.01)
                    mode = ""
                body = upstream.files.get(path)
                if body is None:
                    self.send_error(404)
                    return
                self._serve(path, body, mode)

            def _status(self, code: int) -> None:
                self.send_response(code)
                if code in (429, 503):
                    self.send_header("Retry-After", "0")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def _serve(self, path: str, body: bytes, mode: str) -> None:
                if mode == "corrupt":
                    body = bytes([body[0] ^ 1]) + body[1:]
                extra = b"x" * 1_000_000 if mode == "more" else b""
                length = {"lie-longer": len(body) + 100, "lie-shorter": len(body) - 1}.get(mode, len(body) + len(extra))
                if mode == "trickle-headers":
                    head = f"HTTP/1.0 200 OK\r\nContent-Length: {len(body)}\r\n\r\n".encode()
                    self._trickle(head)
                    self.wfile.write(body)
                    return
                self.send_response(200)
                if mode not in ("short", "endless"):
                    self.send_header("Content-Length", str(length))
                self.end_headers()
                if mode in ("truncate", "short", "stall"):
                    self.wfile.write(body[: len(body) // 2])
                    self.wfile.flush()
                    if mode == "stall":
                        upstream.released.wait()
                    self.close_connection = True
                    return
                if mode == "trickle":
                    self._trickle(body)
                    return
                if mode == "endless":
                    self.wfile.write(body)
                    self._endless(path)
                    return
                self.wfile.write(body + extra)
                if mode == "lie-longer":
                    self.wfile.flush()
                    upstream.released.wait()

            def _trickle(self, data: bytes) -> None:
                for index in range(len(data)):
                    if upstream.released.wait(upstream.trickle_s):
                        return
                    self.wfile.write(data[index:index + 1])
                    self.wfile.flush()

            def _endless(self, path: str) -> None:
                block = bytes(64 * 1024)
                while not upstream.released.is_set():
                    try:
                        self.wfile.write(block)
                        self.wfile.flush()
                    except OSError:   # the client hung up
                        return
                    with upstream.lock:
                        upstream.sent[path] += len(block)

        self.server = _QuietServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "FakeUpstream":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()

    @property
    def total_hits(self) -> int:
        return sum(self.hits.values())
