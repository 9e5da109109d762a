"""Judge backends: any OpenAI-compatible chat-completions endpoint, and local transformers LMs.

A backend turns one :class:`JudgeRequest` (or a batch, for local models) into the judge's text.
It raises :class:`TransientJudgeError` for failures worth retrying, :class:`PermanentJudgeError`
for a request that cannot succeed and :class:`JudgeConfigError` when the setup is wrong (an
endpoint that was never reached included: :class:`JudgeUnreachableError`); the
:class:`~gecscore.judge.runner.Judge` does the caching, concurrency and retries.
"""
from __future__ import annotations

import re
import urllib.parse
from abc import ABC, abstractmethod
from typing import Any, Sequence

from gecscore.judge.types import (JudgeConfigError, JudgeRequest, PermanentJudgeError, Sampling,
                                  TransientJudgeError)
from gecscore.network import (Deadline, DeadlineExceeded, retry_after_s, retryable_status, run_with_deadline,
                              unreachable, unreachable_reason)

BACKENDS = ("openai", "transformers")  # the live ones; ``replay`` (gecscore.judge.replay) answers from files
DEFAULT_MODEL = "gpt-4o"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
# Hugging Face Inference Providers: an OpenAI-compatible router; the key is a Hugging Face token
# (HF_TOKEN) and models are Hub ids, optionally with a provider suffix ("org/model:provider").
HF_ROUTER_URL = "https://router.huggingface.co/v1"
HF_TOKEN_ENV = "HF_TOKEN"
CONFIG_STATUS = frozenset({401, 403, 404})
MAX_BODY_BYTES = 16 * 1024 * 1024  # a chat completion is kilobytes; past this the server is broken
_SECRET_QUERY = re.compile(r"(key|token|secret|password|sig|auth)", re.I)


class JudgeBackend(ABC):
    """One LLM behind a uniform call. ``batch_size > 1`` asks the runner for lists of requests."""

    name: str = ""
    model: str = ""
    batch_size: int = 1

    @abstractmethod
    def complete(self, request: JudgeRequest) -> str:
        """The judge's answer text for one request."""

    def complete_batch(self, requests: Sequence[JudgeRequest]) -> list[str]:
        return [self.complete(request) for request in requests]

    @property
    def label(self) -> str:
        """How summaries name this judge."""
        return f"{self.name}:{self.model}"

    def close(self) -> None:
        """Release connections or memory."""


def chat_body(request: JudgeRequest, model: str) -> dict[str, Any]:
    """The chat-completions body of ``request`` (live calls and Batch API lines alike)."""
    return {"model": model,
            "messages": [{"role": role, "content": content} for role, content in request.messages],
            **request.sampling.as_dict()}


def redact_url(url: str) -> str:
    """``url`` as it may be shown: a password in the user part becomes ``***`` (a user part
    alone, often a key itself, too), and so do query values whose name mentions a key, token,
    secret, password, signature or auth. ``http://me:pw@host/v1?api-key=k`` ->
    ``http://me:***@host/v1?api-key=***``."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return "<unparseable URL>"
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        user, has_password, _ = userinfo.partition(":")
        netloc = f"{user}:***@{host}" if has_password else f"***@{host}"
    query = parts.query
    if query:
        pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
        query = "&".join(f"{k}=***" if _SECRET_QUERY.search(k) else f"{k}={v}" for k, v in pairs)
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def url_secrets(url: str) -> list[str]:
    """The secret pieces of ``url`` (password, user part, secret query values), longest first,
    so that any text quoting them can be scrubbed."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return [url]
    found = []
    if "@" in parts.netloc:
        userinfo = parts.netloc.rsplit("@", 1)[0]
        user, _, password = userinfo.partition(":")
        found += [userinfo, password, urllib.parse.unquote(password)] if password else [userinfo, user]
    for key, value in urllib.parse.parse_qsl(parts.query, keep_blank_values=True):
        if _SECRET_QUERY.search(key) and value:
            found += [value, urllib.parse.quote(value, safe="")]
    return sorted({s for s in found if len(s) >= 3}, key=len, reverse=True)


class JudgeUnreachableError(JudgeConfigError):
    """The endpoint was never reached (connection refused, name not resolved, connect timed
    out) before it had answered anything: a server that is not running or a wrong base URL,
    which no retry fixes, so the run stops at once with one line."""


class OpenAIChatBackend(JudgeBackend):
    """``POST {base_url}/chat/completions`` (OpenAI, Azure v1, vLLM, Ollama, llama.cpp, ...).

    ``api_key`` is sent as a bearer token when given and is kept nowhere else. Credentials in
    ``base_url`` (``http://user:pass@host``) are used for the requests and never shown:
    messages and errors name :attr:`shown_url` (see :func:`redact_url`).

    ``timeout`` bounds the whole request: connecting, sending, waiting and reading the body
    together (httpx's own timeout is per socket operation, so a server trickling one byte at a
    time would never trip it). The request runs under :func:`gecscore.network.run_with_deadline`:
    a helper thread reads the body as a stream and gives up at the deadline; the caller waits for
    it at most ``timeout`` seconds (plus a small grace) and raises a transient ``timeout`` error
    past that, even if the helper is still stuck in a read, which httpx's per-read timeout then
    ends. Connecting may take ``min(timeout, CONNECT_TIMEOUT_S)``.

    An endpoint that cannot be connected to (refused, unresolved, connect timed out) before it
    has answered once raises :class:`JudgeUnreachableError` without a retry: the run stops with
    one line. Once it has answered, the same failure is transient (a server restarting in a long
    run) and retried.
    """

    name = "openai"
    GRACE_S = 0.25
    CONNECT_TIMEOUT_S = 10.0

    def __init__(self, model: str = DEFAULT_MODEL, base_url: str = DEFAULT_BASE_URL, *,
                 api_key: str | None = None, timeout: float = 60.0, max_connections: int = 8):
        import httpx

        self.model = model
        base = base_url.rstrip("/")
        self.url = base if base.endswith("/chat/completions") else f"{base}/chat/completions"
        self.shown_url = redact_url(self.url)
        self._secrets = url_secrets(self.url) + ([api_key] if api_key else [])
        self.timeout = float(timeout)
        headers = {"Content-Type": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._httpx = httpx
        self._reached = False  # the endpoint has answered (any HTTP status) in this backend's life
        self._client = httpx.Client(
            headers=headers, timeout=httpx.Timeout(timeout, connect=min(timeout, self.CONNECT_TIMEOUT_S)),
            limits=httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections))

    def body(self, request: JudgeRequest) -> dict[str, Any]:
        return chat_body(request, self.model)

    def scrub(self, text: str) -> str:
        """``text`` with the URL's credentials (and the API key) replaced by ``***``."""
        text = text.replace(self.url, self.shown_url)
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text

    def complete(self, request: JudgeRequest) -> str:
        try:
            return run_with_deadline(self.timeout, lambda deadline: self._post(request, deadline),
                                     grace_s=self.GRACE_S, name="judge-http")
        except DeadlineExceeded:
            raise TransientJudgeError("timeout", f"no complete answer from {self.shown_url} "
                                                 f"within {self.timeout:g} s") from None

    def _post(self, request: JudgeRequest, deadline: Deadline) -> str:
        """One streamed POST, abandoned when the body is not complete at ``deadline``."""
        httpx = self._httpx
        try:
            with self._client.stream("POST", self.url, json=self.body(request)) as response:
                self._reached = True
                chunks, size = [], 0
                for chunk in response.iter_bytes():
                    chunks.append(chunk)
                    size += len(chunk)
                    if deadline.expired():
                        raise TransientJudgeError("timeout", f"no complete answer from {self.shown_url} "
                                                             f"within {self.timeout:g} s (body still arriving)")
                    if size > MAX_BODY_BYTES:
                        raise TransientJudgeError("bad response", f"{self.shown_url} sent more than "
                                                                  f"{MAX_BODY_BYTES} bytes")
                raw = b"".join(chunks)
        except httpx.HTTPError as error:
            raise self._failure(error) from None
        except httpx.InvalidURL as error:
            raise JudgeConfigError(f"bad base URL {self.shown_url}: {self.scrub(str(error))}") from None
        status = response.status_code
        headers = [(k, v) for k, v in response.headers.items() if k.lower() not in ("content-encoding", "content-length")]
        response = httpx.Response(status, headers=headers, content=raw, request=response.request)  # decoded body
        if status != 200:
            detail = self.scrub(_error_detail(response))
            if retryable_status(status):
                raise TransientJudgeError(f"HTTP {status}", f"{self.shown_url} answered {status}: {detail}",
                                          retry_after_s(response.headers.get("retry-after")))
            if status in CONFIG_STATUS:
                raise JudgeConfigError(f"{self.shown_url} answered {status} for model {self.model!r}: {detail}"
                                       " (check base_url=, model= and the API key)")
            raise PermanentJudgeError(f"HTTP {status}", f"{self.shown_url} answered {status}: {detail}")
        try:
            return completion_text(response.json())
        except ValueError:
            raise TransientJudgeError("bad response", f"{self.shown_url} sent a body that is not a chat "
                                      f"completion: {self.scrub(response.text[:200])!r}") from None

    def _failure(self, error) -> Exception:
        """The judge error for an httpx error of one request (see the class docstring)."""
        httpx = self._httpx
        if unreachable(error):
            if not self._reached:
                return JudgeUnreachableError(
                    f"cannot reach {self.shown_url} ({self.scrub(unreachable_reason(error))}; not retried): is the "
                    "server running, and is the base URL right (base_url= or $OPENAI_BASE_URL)?")
            return TransientJudgeError("connection", f"cannot reach {self.shown_url}: {self.scrub(str(error))}")
        if isinstance(error, httpx.TimeoutException):
            return TransientJudgeError("timeout", f"no answer from {self.shown_url} in time "
                                                  f"({self.scrub(str(error))})")
        if isinstance(error, httpx.TransportError):
            return TransientJudgeError("connection", f"cannot reach {self.shown_url}: {self.scrub(str(error))}")
        # decoding and protocol errors
        return TransientJudgeError("bad response", f"{self.shown_url} sent a broken answer: {self.scrub(str(error))}")

    def close(self) -> None:
        self._client.close()


def completion_text(data: Any) -> str:
    """The answer text of a chat-completion body ("" when the message has no text content);
    ValueError when ``data`` is not a chat completion."""
    try:
        content = data["choices"][0]["message"].get("content")
    except (KeyError, IndexError, TypeError, AttributeError):
        raise ValueError("not a chat completion") from None
    return content if isinstance(content, str) else ""


def _error_detail(response) -> str:
    try:
        error = response.json().get("error")
        if isinstance(error, dict):
            return str(error.get("message", error))[:300]
        if error:
            return str(error)[:300]
    except (ValueError, AttributeError):
        pass
    return response.text[:300] or response.reason_phrase


class TransformersBackend(JudgeBackend):
    """A local causal LM through ``transformers``: chat template when the tokenizer has one,
    left-padded batches, sampling with the request's settings.

    ``model`` is a path or Hub id, or an already loaded model (then pass ``tokenizer`` and,
    for the cache key, ``model_id``).
    """

    name = "transformers"

    def __init__(self, model: Any, tokenizer: Any = None, *, model_id: str | None = None,
                 device: str | None = None, batch_size: int = 8, dtype: str = "auto"):
        torch, transformers = _import_transformers()
        self._torch = torch
        if isinstance(model, str):
            from gecscore.models.loading import load_pretrained, pretrained_source

            def build(transformers, name):
                where, extra = pretrained_source(name)
                return (tokenizer or transformers.AutoTokenizer.from_pretrained(where, **extra),
                        transformers.AutoModelForCausalLM.from_pretrained(where, dtype=dtype, **extra))

            model_id = model_id or model
            tokenizer, model = load_pretrained(model, "model", "the transformers judge", build)
        if tokenizer is None:
            raise ValueError("a loaded model needs its tokenizer")
        self.model = model_id or getattr(model, "name_or_path", "") or type(model).__name__
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.lm = model.to(self.device).eval()
        self.tokenizer = tokenizer
        self.tokenizer.padding_side = "left"
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.batch_size = max(1, int(batch_size))

    def prompt_text(self, request: JudgeRequest) -> str:
        """The request as model input: the chat template if any, else ``role: content`` lines.

        Templates that refuse a system role get the system text prepended to the first user turn.
        """
        messages = [{"role": role, "content": content} for role, content in request.messages]
        if getattr(self.tokenizer, "chat_template", None):
            try:
                return self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
            except Exception:  # noqa: BLE001 - jinja raises TemplateError for unsupported roles
                return self.tokenizer.apply_chat_template(_merge_system(messages), tokenize=False,
                                                          add_generation_prompt=True)
        lines = [f"{m['role']}: {m['content']}" for m in messages]
        return "\n\n".join([*lines, "assistant:"])

    def complete(self, request: JudgeRequest) -> str:
        return self.complete_batch([request])[0]

    def complete_batch(self, requests: Sequence[JudgeRequest]) -> list[str]:
        out: list[str] = [""] * len(requests)
        groups: dict[Sampling, list[int]] = {}
        for index, request in enumerate(requests):
            groups.setdefault(request.sampling, []).append(index)
        for sampling, indices in groups.items():
            texts = self._generate([self.prompt_text(requests[i]) for i in indices], sampling)
            for i, text in zip(indices, texts, strict=True):
                out[i] = text
        return out

    def _generate(self, prompts: list[str], sampling: Sampling) -> list[str]:
        torch = self._torch
        templated = bool(getattr(self.tokenizer, "chat_template", None))
        inputs = self.tokenizer(prompts, return_tensors="pt", padding=True,
                                add_special_tokens=not templated).to(self.device)
        options: dict[str, Any] = {"max_new_tokens": sampling.max_tokens,
                                   "pad_token_id": self.tokenizer.pad_token_id}
        if sampling.temperature > 0:
            options.update(do_sample=True, temperature=sampling.temperature, top_p=sampling.top_p)
        else:
            options.update(do_sample=False)
        try:
            with torch.no_grad():
                generated = self.lm.generate(**inputs, **options)
        except torch.cuda.OutOfMemoryError as error:
            raise PermanentJudgeError("out of memory", f"{error} (lower batch_size=)") from None
        new_tokens = generated[:, inputs["input_ids"].shape[1]:]
        return self.tokenizer.batch_decode(new_tokens, skip_special_tokens=True)

    def close(self) -> None:
        self.lm = None
        if self.device.startswith("cuda"):
            self._torch.cuda.empty_cache()


def _merge_system(messages: list[dict[str, str]]) -> list[dict[str, str]]:
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
    rest = [dict(m) for m in messages if m["role"] != "system"]
    if system and rest:
        rest[0]["content"] = f"{system}\n\n{rest[0]['content']}"
    return rest or [{"role": "user", "content": system}]


def _import_transformers():
    from gecscore.extras import require

    return require("torch", "the transformers judge"), require("transformers", "the transformers judge")
