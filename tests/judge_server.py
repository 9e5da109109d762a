"""A small OpenAI-compatible chat-completions server for tests and benchmarks.

Listens on 127.0.0.1 on a free port, in a daemon thread; a ``respond(body) -> Reply`` function
scripts the answers (text, HTTP status, raw malformed bodies, delays). It counts requests, and
it is bounded: past ``max_requests`` it answers 503 and stops, and it stops itself after
``lifetime_s`` seconds whatever happens.

``DSGramSimulator`` plays a judge for DSGram and CLEME2.0 prompts, deterministically per
sentence: most answers are good, some sentences first get malformed JSON, out-of-range
scores, a 500, inconsistent or non-reciprocal matrices.

``BatchService`` emulates the OpenAI Batch API offline: it checks an input file as the
provider would, answers each line with the same ``respond`` functions, and writes the
provider's output file (and error file).
"""
from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

from gecscore.judge.prompts import EDIT_WEIGHT_PROMPT, MATRIX_PROMPT, SUB_SCORE_PROMPT


@dataclass
class Reply:
    """One scripted answer: ``content`` as a chat completion, or ``body`` sent raw.

    ``delay``: seconds before the answer; ``trickle``: seconds between the body's bytes (sent
    one at a time, each well inside any per-read timeout; with ``trickle_headers`` the status
    line and headers too); ``drop``: close the connection without an answer."""

    content: str | None = None
    status: int = 200
    body: bytes | None = None
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    trickle: float = 0.0
    trickle_headers: bool = False
    drop: bool = False


def completion(content: str, model: str = "test") -> bytes:
    return json.dumps({"id": "chatcmpl-test", "object": "chat.completion", "model": model,
                       "choices": [{"index": 0, "finish_reason": "stop",
                                    "message": {"role": "assistant", "content": content}}]}).encode()


class _QuietServer(ThreadingHTTPServer):
    """Clients that time out and hang up are part of the tests: no tracebacks for them."""

    def handle_error(self, request, client_address) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class JudgeServer:
    """``with JudgeServer(respond) as server: ... server.base_url ... server.requests``."""

    def __init__(self, respond: Callable[[dict], Reply], *, max_requests: int = 20000,
                 lifetime_s: float = 300.0):
        self.respond = respond
        self.max_requests = max_requests
        self.lifetime_s = lifetime_s
        self.requests = 0
        self.bodies: list[dict] = []
        self.authorizations: Counter = Counter()
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._timer: threading.Timer | None = None
        self.port = 0

    @property
    def base_url(self) -> str:
        assert self.port, "server not started"
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> "JudgeServer":
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body go out at once, no 40 ms ACK stall

            def log_message(self, *args) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    return self._send(404, b'{"error": {"message": "unknown path"}}')
                try:
                    body = json.loads(raw)
                except ValueError:
                    return self._send(400, b'{"error": {"message": "body is not JSON"}}')
                with owner._lock:
                    owner.requests += 1
                    number = owner.requests
                    if len(owner.bodies) < 100000:
                        owner.bodies.append(body)
                    owner.authorizations[self.headers.get("Authorization")] += 1
                if number > owner.max_requests:
                    self._send(503, b'{"error": {"message": "request budget spent"}}')
                    threading.Thread(target=owner.stop, daemon=True).start()
                    return
                reply = owner.respond(body)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.drop:
                    self.close_connection = True
                    return
                data = reply.body if reply.body is not None else (
                    completion(reply.content or "", body.get("model", "test")) if reply.status == 200
                    else json.dumps({"error": {"message": reply.content or "scripted error"}}).encode())
                if reply.trickle_headers:
                    return self._trickle_all(reply.status, data, reply.trickle)
                self._send(reply.status, data, reply.headers, reply.trickle)

            def _trickle_all(self, status: int, data: bytes, trickle: float) -> None:
                head = (f"HTTP/1.1 {status} OK\r\nContent-Type: application/json\r\n"
                        f"Content-Length: {len(data)}\r\n\r\n").encode()
                try:
                    for byte in head + data:
                        if not owner.running:
                            return
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(trickle)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _send(self, status: int, data: bytes, headers: dict[str, str] | None = None,
                      trickle: float = 0.0) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in (headers or {}).items():
                        self.send_header(key, value)
                    self.end_headers()
                    if not trickle:
                        self.wfile.write(data)
                        return
                    self.wfile.flush()
                    for index in range(len(data)):
                        if not owner.running:
                            return
                        self.wfile.write(data[index:index + 1])
                        self.wfile.flush()
                        time.sleep(trickle)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                    pass

        self._server = _QuietServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True, name="judge-server").start()
        self._timer = threading.Timer(self.lifetime_s, self.stop)
        self._timer.daemon = True
        self._timer.start()
        return self

    def stop(self) -> None:
        with self._lock:
            server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        if self._timer is not None:
            self._timer.cancel()

    @property
    def running(self) -> bool:
        return self._server is not None

    def __enter__(self) -> "JudgeServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


# ------------------------------------------------------------------ reading requests

def request_kind(body: dict) -> str:
    """``scores`` (DSGram A.1), ``matrix`` (A.2) or ``edit`` (CLEME2.0 edit weight)."""
    first = body["messages"][0]["content"]
    if first == SUB_SCORE_PROMPT:
        return "scores"
    if first == MATRIX_PROMPT:
        return "matrix"
    if first.startswith(EDIT_WEIGHT_PROMPT.split("{sentence}")[0]):
        return "edit"
    return "other"


def request_subject(body: dict) -> tuple[str, str]:
    """(source, hypothesis) of a DSGram request; (sentence, edit) of an edit-weight request."""
    kind = request_kind(body)
    if kind == "edit":
        text = body["messages"][0]["content"]
        tail = text.split("Here is the formal input:")[1]
        sentence = tail.split("Uncorrected sentence: ")[1].split("\n")[0]
        edit = tail.split("Edit: ")[1].split("\n")[0]
        return sentence, edit
    user = body["messages"][1]["content"].strip().strip("`").removeprefix("json").strip()
    pair = json.loads(user)
    pair = pair[0] if isinstance(pair, list) else pair
    return pair["original sentence"], pair["corrected sentence"]


def scores_answer(sc: float, el: float, fl: float, overall: float, reason: str = "Checked.") -> str:
    """A well-formed A.1 answer (reason first, as our prompt asks)."""
    return "```json\n" + json.dumps([{"reason": reason, "score": {
        "semantic coherence": sc, "edit level": el, "fluency": fl, "overall": overall}, "id": 1}]) + "\n```"


def matrix_answer(rows) -> str:
    return json.dumps({"Semantic Coherence": rows[0], "Edit Level": rows[1], "Fluency": rows[2]})


def consistent_matrix(weights) -> list[list[float]]:
    """a_ij = w_i / w_j, rounded to 3 decimals as an LLM would write it."""
    return [[round(wi / wj, 3) for wj in weights] for wi in weights]


# An inconsistent reciprocal matrix: CR = 0.187 (see test_ahp).
INCONSISTENT = [[1, 2, 2], [0.5, 1, 4], [0.5, 0.25, 1]]
# Not reciprocal (a_12 = a_21 = 2); repaired to [[1, 1, 2], [1, 1, 2], [0.5, 0.5, 1]] (CR = 0).
NON_RECIPROCAL = [[1, 2, 2], [2, 1, 2], [0.5, 0.5, 1]]


class DSGramSimulator:
    """A deterministic judge: behaviour by a hash of the hypothesis (``bucket`` 0-19) and by how
    many times the same (kind, subject) was asked before.

    scores: bucket 0 malformed first, 1 out-of-range first, 2 HTTP 500 first, 3 ``label: value``
    text; others JSON. matrix: buckets 4-5 inconsistent first, 6 always inconsistent, 7
    non-reciprocal, 8 malformed first; others consistent. edits: rating from the edit's hash,
    bucket 9 answers "7" (out of range) first. ``latency`` delays every reply.
    """

    def __init__(self, latency: float = 0.0):
        self.latency = latency
        self.seen: Counter = Counter()
        self._lock = threading.Lock()

    @staticmethod
    def digest(text: str) -> int:
        return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)

    def expected_scores(self, hypothesis: str) -> tuple[int, int, int, int]:
        h = self.digest(hypothesis)
        return 5 + h % 5, 4 + (h >> 3) % 6, 6 + (h >> 6) % 5, 5 + (h >> 9) % 5

    def expected_weights(self, hypothesis: str) -> tuple[float, float, float]:
        h = self.digest("w" + hypothesis)
        raw = (1 + h % 4, 1 + (h >> 2) % 4, 1 + (h >> 4) % 4)
        return tuple(x / sum(raw) for x in raw)

    def bucket(self, hypothesis: str) -> int:
        return self.digest("b" + hypothesis) % 20

    def __call__(self, body: dict) -> Reply:
        kind = request_kind(body)
        subject = request_subject(body)
        with self._lock:
            self.seen[(kind, subject)] += 1
            nth = self.seen[(kind, subject)]
        reply = self.reply(kind, subject, nth)
        reply.delay = reply.delay or self.latency
        return reply

    def reply(self, kind: str, subject: tuple[str, str], nth: int) -> Reply:
        if kind == "edit":
            bucket = self.digest("b" + subject[1]) % 20
            if bucket == 9 and nth == 1:
                return Reply("7")
            return Reply(str(1 + self.digest(subject[1]) % 5))
        hypothesis = subject[1]
        bucket = self.bucket(hypothesis)
        if kind == "scores":
            sc, el, fl, overall = self.expected_scores(hypothesis)
            if bucket == 0 and nth == 1:
                return Reply('[{"score": {"semantic coherence": 8, "edit level": ')
            if bucket == 1 and nth == 1:
                return Reply(scores_answer(12, el, fl, overall))
            if bucket == 2 and nth == 1:
                return Reply("overloaded", status=500)
            if bucket == 3:
                return Reply(f"semantic coherence: {sc}, edit level:{el}, fluency : {fl}, overall: {overall}")
            return Reply(scores_answer(sc, el, fl, overall))
        if kind == "matrix":
            if (bucket in (4, 5) and nth == 1) or bucket == 6:
                return Reply(matrix_answer(INCONSISTENT))
            if bucket == 7:
                return Reply(matrix_answer(NON_RECIPROCAL))
            if bucket == 8 and nth == 1:
                return Reply('{"Semantic Coherence": [1, 2, ')
            return Reply(matrix_answer(consistent_matrix(self.expected_weights(hypothesis))))
        return Reply("I do not know this prompt.", status=400)


# ------------------------------------------------------------------ a tiny local judge

TINY_VOCAB = ("<unk>", "<pad>", "<eos>", *(str(i) for i in range(10)), ".", ",", ":", "-", ">",
              "the", "edit", "score", "sentence", "is", "a", "good")


def tiny_causal_lm(seed: int = 0, chat_template: str | None = None):
    """A randomly initialised 2-layer Llama with a 25-word word-level tokenizer, built here
    (nothing from the Hub). Its vocabulary has digits but no sub-metric names and no brackets,
    so it can rate edits 1-5 by chance but can never produce DSGram sub-scores or a matrix."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    vocab = {word: index for index, word in enumerate(TINY_VOCAB)}
    core = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    core.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Whitespace(),
                                                  pre_tokenizers.Digits(individual_digits=True)])
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, unk_token="<unk>", pad_token="<pad>",
                                        eos_token="<eos>")
    if chat_template:
        tokenizer.chat_template = chat_template
    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=len(vocab), hidden_size=16, intermediate_size=32, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=4096,
                         bos_token_id=None, eos_token_id=vocab["<eos>"], pad_token_id=vocab["<pad>"])
    return LlamaForCausalLM(config).eval(), tokenizer


# ------------------------------------------------------------------ the Batch API, offline

class BatchService:
    """``BatchService(respond).run(input_path, output_path, error_path=None, expire=...)``.

    Rejects an input file that :func:`gecscore.judge.batch.validate_batch_file` faults (as the
    provider would at upload), answers each line with ``respond(body)`` and writes one output
    line per request: ``{"id", "custom_id", "response": {"status_code", "request_id", "body"},
    "error": null}``. Non-200 answers go to ``error_path`` when given (the provider's error
    file), else to the output. ``expire(custom_id)`` true: the line is
    ``{"response": null, "error": {"code": "batch_expired", ...}}``. ``requests`` counts lines
    answered over the service's life.
    """

    def __init__(self, respond: Callable[[dict], Reply]):
        self.respond = respond
        self.requests = 0
        self.batches = 0

    def run(self, input_path, output_path, *, error_path=None, expire=lambda custom_id: False) -> dict:
        from gecscore.judge.batch import validate_batch_file

        problems = validate_batch_file(input_path)
        if problems:
            raise ValueError("batch input rejected: " + "; ".join(problems[:5]))
        self.batches += 1
        counts = Counter()
        out, errors = [], []
        with open(input_path, encoding="utf-8") as lines:
            for raw in lines:
                line = json.loads(raw)
                self.requests += 1
                number = self.requests
                record = {"id": f"batch_req_{number}", "custom_id": line["custom_id"]}
                if expire(line["custom_id"]):
                    record.update(response=None, error={
                        "code": "batch_expired",
                        "message": "This request could not be executed before the completion window expired."})
                    errors.append(record)
                    counts["expired"] += 1
                    continue
                reply = self.respond(line["body"])
                if reply.body is not None:
                    try:
                        body = json.loads(reply.body)
                    except ValueError:
                        body = reply.body.decode("utf-8", "replace")
                elif reply.status == 200:
                    body = json.loads(completion(reply.content or "", line["body"].get("model", "test")))
                else:
                    body = {"error": {"message": reply.content or "scripted error", "type": "server_error"}}
                record.update(response={"status_code": reply.status, "request_id": f"req_{number}", "body": body},
                              error=None)
                (out if reply.status == 200 or error_path is None else errors).append(record)
                counts[reply.status] += 1
        for path, records in ((output_path, out), (error_path, errors if error_path else [])):
            if path is not None:
                with open(path, "w", encoding="utf-8") as file:
                    file.writelines(json.dumps(r) + "\n" for r in records)
        if error_path is None and errors:  # expired lines share the output file
            with open(output_path, "a", encoding="utf-8") as file:
                file.writelines(json.dumps(r) + "\n" for r in errors)
        return dict(counts)
