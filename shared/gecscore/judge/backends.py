"""Judge backends: any OpenAI-compatible chat-completions endpoint, and local transformers LMs.

A backend turns one :class:`JudgeRequest` (or a batch, for local models) into the judge's text.
It raises :class:`TransientJudgeError` for failures worth retrying, :class:`PermanentJudgeError`
for a request that cannot succeed and :class:`JudgeConfigError` when the setup is wrong; the
:class:`~gecscore.judge.runner.Judge` does the caching, concurrency and retries.
"""
from __future__ import annotations

import email.utils
import time
from abc import ABC, abstractmethod
from typing import Any, Sequence

from gecscore.errors import MissingModelError
from gecscore.judge.types import (JudgeConfigError, JudgeRequest, PermanentJudgeError, Sampling,
                                  TransientJudgeError)

BACKENDS = ("openai", "transformers")  # the live ones; ``replay`` (gecscore.judge.replay) answers from files
DEFAULT_MODEL = "gpt-4o"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
RETRYABLE_STATUS = frozenset({408, 409, 425, 429})
CONFIG_STATUS = frozenset({401, 403, 404})


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


class OpenAIChatBackend(JudgeBackend):
    """``POST {base_url}/chat/completions`` (OpenAI, Azure v1, vLLM, Ollama, llama.cpp, ...).

    ``api_key`` is sent as a bearer token when given and is kept nowhere else.
    """

    name = "openai"

    def __init__(self, model: str = DEFAULT_MODEL, base_url: str = DEFAULT_BASE_URL, *,
                 api_key: str | None = None, timeout: float = 60.0, max_connections: int = 8):
        import httpx

        self.model = model
        base = base_url.rstrip("/")
        self.url = base if base.endswith("/chat/completions") else f"{base}/chat/completions"
        headers = {"Content-Type": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._httpx = httpx
        self._client = httpx.Client(
            headers=headers, timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
            limits=httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections))

    def body(self, request: JudgeRequest) -> dict[str, Any]:
        return chat_body(request, self.model)

    def complete(self, request: JudgeRequest) -> str:
        httpx = self._httpx
        try:
            response = self._client.post(self.url, json=self.body(request))
        except httpx.TimeoutException as error:
            raise TransientJudgeError("timeout", f"no answer from {self.url} in time ({error})") from None
        except httpx.TransportError as error:
            raise TransientJudgeError("connection", f"cannot reach {self.url}: {error}") from None
        status = response.status_code
        if status != 200:
            detail = _error_detail(response)
            if status in RETRYABLE_STATUS or status >= 500:
                raise TransientJudgeError(f"HTTP {status}", f"{self.url} answered {status}: {detail}",
                                          _retry_after(response.headers.get("retry-after")))
            if status in CONFIG_STATUS:
                raise JudgeConfigError(f"{self.url} answered {status} for model {self.model!r}: {detail}"
                                       " (check --base-url, --model and the API key)")
            raise PermanentJudgeError(f"HTTP {status}", f"{self.url} answered {status}: {detail}")
        try:
            return completion_text(response.json())
        except ValueError:
            raise TransientJudgeError("bad response", f"{self.url} sent a body that is not a chat "
                                      f"completion: {response.text[:200]!r}") from None

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


def _retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header (a number or an HTTP date)."""
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
            try:
                tokenizer = tokenizer or transformers.AutoTokenizer.from_pretrained(model)
                model = transformers.AutoModelForCausalLM.from_pretrained(model, dtype=dtype)
            except OSError as error:
                raise MissingModelError(f"cannot load the causal LM {model!r}: {error}") from None
            model_id = model_id or model.name_or_path
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
            raise PermanentJudgeError("out of memory", f"{error} (lower --batch-size)") from None
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
    try:
        import torch
        import transformers
    except ImportError as error:
        raise MissingModelError("the transformers judge needs torch and transformers: "
                                f"pip install torch transformers ({error})") from None
    return torch, transformers
