"""A stand-in for raw.githubusercontent.com on 127.0.0.1 (tests never reach the internet).

:class:`FakeUpstream` serves ``files`` (``{url_path: bytes}``, the path after the host, e.g.
``owner/name/<commit>/dir/file``), counts the requests per path in ``hits`` and can misbehave
per path (``behaviour[path]``):

- ``truncate``: announce the full Content-Length, send half the body, close (every time);
- ``truncate-once``: the same on the first request only, then serve normally;
- ``short``: send half the body without a Content-Length (the close ends it: a truncated
  download no transport error reveals);
- ``corrupt``: the right length, one byte changed.
"""
from __future__ import annotations

import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeUpstream:
    def __init__(self, files: dict[str, bytes]):
        self.files = dict(files)
        self.hits: Counter[str] = Counter()
        self.behaviour: dict[str, str] = {}
        upstream = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # quiet
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                path = self.path.lstrip("/")
                upstream.hits[path] += 1
                body = upstream.files.get(path)
                if body is None:
                    self.send_error(404)
                    return
                mode = upstream.behaviour.get(path, "")
                if mode == "truncate-once" and upstream.hits[path] > 1:
                    mode = ""
                if mode == "corrupt":
                    body = bytes([body[0] ^ 1]) + body[1:]
                self.send_response(200)
                if mode != "short":
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if mode in ("truncate", "truncate-once", "short"):
                    self.wfile.write(body[: len(body) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "FakeUpstream":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def total_hits(self) -> int:
        return sum(self.hits.values())
