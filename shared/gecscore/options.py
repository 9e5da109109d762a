"""Declaring metric options once: default, help, allowed values, and one validation for every
entry point.

A metric's config is a frozen dataclass whose fields are made with :func:`option`. The CLI
builds its flags (choices, defaults, help) from those fields, the evaluate modules and
``gecscore.load`` pass keyword arguments to the same dataclass, so a value is accepted or
rejected identically everywhere, with a :class:`~gecscore.errors.GecOptionError` naming the
option. Options shared by several metrics (``level``, ``tokenize``, the model and the judge)
are declared here, once; each metric module declares its own.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from gecscore.errors import GecOptionError
from gecscore.judge.factory import JUDGE_BACKENDS

# What the signature calls a value that is absent; a field whose value is this is left out.
UNSET = None


def option(default: Any, help: str, *, kind: type | tuple[type, ...] | None = None,
           choices: Sequence[Any] | None = None, minimum: float | None = None,
           exclusive_minimum: float | None = None, maximum: float | None = None,
           signature: str | None = "", cli: bool = True, metavar: str | None = None,
           repeat: bool = False) -> Any:
    """A config field with its default and what :func:`validate` checks.

    ``kind``: the accepted type(s) (default: the default's type; ``None`` is always accepted
    when the default is ``None``). ``signature``: the key this option has in the signature
    ("" = its own name, ``None`` = not part of the signature because it cannot change the
    number, e.g. a batch size or a cache path). ``cli=False`` keeps it off the command line;
    ``repeat``: a list of values, one per use of the flag.
    """
    if kind is None and default is not None:
        kind = type(default)
    return dataclasses.field(default=default, metadata={
        "help": help, "kind": kind, "choices": tuple(choices) if choices is not None else None,
        "minimum": minimum, "exclusive_minimum": exclusive_minimum, "maximum": maximum,
        "signature": signature, "cli": cli, "metavar": metavar,
        "repeat": repeat})


def fields_of(config: Any) -> Iterator[dataclasses.Field]:
    """The declared options of a config class or instance, in declaration order."""
    return (f for f in dataclasses.fields(config) if "help" in f.metadata)


def _check_kind(name: str, value: Any, kind: Any) -> Any:
    if kind is None:
        return value
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if float in kinds and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if bool not in kinds and isinstance(value, bool):
        raise GecOptionError(name, f"must be {' or '.join(k.__name__ for k in kinds)}, got {value!r}")
    if int in kinds and isinstance(value, float) and value.is_integer():
        return int(value)
    if not isinstance(value, kinds):
        raise GecOptionError(name, f"must be {' or '.join(k.__name__ for k in kinds)}, "
                                   f"got {type(value).__name__} {value!r}")
    return value


def check_value(name: str, value: Any, metadata: dict, default: Any = None) -> Any:
    """The value, normalised (int -> float for float options), or a GecOptionError."""
    if value is None and default is None:
        return None
    if value is None:
        raise GecOptionError(name, "must not be None")
    value = _check_kind(name, value, metadata.get("kind"))
    if isinstance(value, float) and not math.isfinite(value):
        raise GecOptionError(name, f"must be a finite number, got {value!r}")
    choices = metadata.get("choices")
    if choices is not None and value not in choices:
        raise GecOptionError(name, f"unknown value {value!r}; expected one of: {', '.join(map(str, choices))}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        low, low_open, high = metadata.get("minimum"), metadata.get("exclusive_minimum"), metadata.get("maximum")
        if low is not None and value < low:
            raise GecOptionError(name, f"must be at least {low:g}, got {value!r}")
        if low_open is not None and value <= low_open:
            raise GecOptionError(name, f"must be greater than {low_open:g}, got {value!r}")
        if high is not None and value > high:
            raise GecOptionError(name, f"must be at most {high:g}, got {value!r}")
    return value


def validate(config: Any) -> None:
    """Check and normalise every declared option of a frozen config in place (``__post_init__``)."""
    for f in fields_of(config):
        value = check_value(f.name, getattr(config, f.name), f.metadata, f.default)
        object.__setattr__(config, f.name, value)


def build_config(config_type: type, options: dict[str, Any]) -> Any:
    """``config_type(**options)`` with a GecOptionError for an unknown option name."""
    known = {f.name for f in dataclasses.fields(config_type)}
    unknown = [name for name in options if name not in known]
    if unknown:
        raise GecOptionError(unknown[0], f"unknown option for this metric; known: {', '.join(sorted(known))}")
    return config_type(**options)


def signature_items(config: Any) -> list[tuple[str, str]]:
    """(key, value) of every option that changes the number and is set, in declaration order."""
    items = []
    for f in fields_of(config):
        key = f.metadata["signature"]
        value = getattr(config, f.name)
        if key is None or value is None:
            continue
        items.append((key or f.name, format_value(value)))
    return items


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (tuple, list)):
        return ",".join(format_value(v) for v in value)
    return str(value)


# ---------------------------------------------------------------- options shared by metrics

LEVELS = ("corpus", "sentence")


@dataclass(frozen=True)
class TextOptions:
    """How text inputs are read: whitespace-tokenised as given, or tokenised by spaCy first."""

    tokenize: bool = option(False, "tokenise sources, predictions and references with spaCy first "
                                   "(for untokenised text such as LLM outputs)", signature="tok")


#: per-error-type granularities, as errant_compare -cat 1/2/3 (see gecscore.m2.per_type.type_at)
PER_TYPE_GRANULARITIES = ("operation", "main", "full")
# BERTScore's forward pass: fp32 is exact (the reference code's numbers); bf16 / fp16 are faster
# and approximate (their largest difference on CoNLL-2014: docs/pt_m2_fidelity.md).
PRECISIONS = ("fp32", "bf16", "fp16")
DEFAULT_PRECISION = "fp32"


@dataclass(frozen=True)
class PerTypeOptions:
    """Per-error-type scores beside the headline score (they change no number: not in the
    signature)."""

    per_type: str | None = option(
        None, "also score per error type at this granularity: operation (M/R/U), main (NOUN, VERB:TENSE) or full "
              "(R:NOUN), as errant_compare -cat 1/2/3; an M2 file's own types (NUCLE) are kept as they are",
        kind=str, choices=PER_TYPE_GRANULARITIES, signature=None)


@dataclass(frozen=True)
class ModelOptions:
    """A pretrained model: BERTScore/BARTScore weights, or the judge's model."""

    model: str | None = option(None, "model name or local directory (BERTScore default bert-base-uncased; "
                                     "the judge's model for LLM judges)", kind=str, signature=None)
    batch_size: int | None = option(None, "items per model batch", kind=int, minimum=1, signature=None)
    device: str | None = option(None, "torch device: cpu, cuda, cuda:1 ... (default: cuda if available)",
                                kind=str, signature=None)


@dataclass(frozen=True)
class LayerOptions:
    """BERTScore: the layer of the model, and the precision of its forward pass."""

    num_layers: int | None = option(None, "BERTScore: the model layer (default: the model's; 9 for "
                                          "bert-base-uncased)", kind=int, minimum=1, signature=None)
    precision: str = option(DEFAULT_PRECISION, "BERTScore forward pass: fp32 (exact: the reference code's "
                                               "numbers) or bf16 / fp16 (faster, approximate; fp16 on CUDA "
                                               "only); in the signature unless fp32", choices=PRECISIONS)


@dataclass(frozen=True)
class JudgeOptions:
    """An LLM judge: an OpenAI-compatible endpoint or a local transformers model (``model``)."""

    backend: str = option("openai", "judge backend: openai (any OpenAI-compatible endpoint), transformers "
                                    "(a local causal LM) or replay (answers from --replay FILE)",
                          choices=JUDGE_BACKENDS, signature=None)
    base_url: str | None = option(None, "chat-completions base URL (default $OPENAI_BASE_URL or OpenAI)",
                                  kind=str, signature=None)
    api_key_env: str = option("OPENAI_API_KEY", "environment variable holding the API key", signature=None,
                              metavar="NAME")
    cache: str | None = option(None, "judge answer cache (SQLite; default $GECSCORE_JUDGE_CACHE or "
                                     "~/.cache/gecscore/judge.sqlite)", kind=str, signature=None, metavar="PATH")
    no_cache: bool = option(False, "do not read or write the judge cache", signature=None)
    concurrency: int = option(8, "judge requests in flight", minimum=1, signature=None)
    timeout: float = option(60.0, "seconds per judge request", exclusive_minimum=0, signature=None)
    max_retries: int = option(4, "retries of a judge request after a transport error", minimum=0,
                              signature=None)
    export_batch: str | None = option(None, "write the judge requests the cache cannot answer to FILE, an OpenAI "
                                            "Batch API input file, instead of calling the judge; submit it, then "
                                            "run again with --import-batch OUTPUT", kind=str, signature=None,
                                      metavar="FILE")
    import_batch: tuple[str, ...] | None = option(None, "store a finished OpenAI batch's output (or error) file in "
                                                        "the judge cache before the run (repeatable)",
                                                  kind=(tuple, list, str), signature=None, metavar="FILE",
                                                  repeat=True)
    transcript: str | None = option(None, "write every judge request of the run with its answer to FILE (JSON "
                                          "lines), for --backend replay", kind=str, signature=None, metavar="FILE")
    replay: str | None = option(None, "with --backend replay: answer from FILE (a --transcript or a DSGram-Eval "
                                      "answer file)", kind=str, signature=None, metavar="FILE")

    def build_judge(self, model: str | None, device: str | None, batch_size: int | None,
                    progress: bool = True):
        """The :class:`gecscore.judge.runner.Judge` these options describe."""
        from gecscore.judge.factory import build_judge

        return build_judge(self.backend, model, base_url=self.base_url, api_key_env=self.api_key_env,
                           cache=self.cache, no_cache=self.no_cache, concurrency=self.concurrency,
                           timeout=self.timeout, max_retries=self.max_retries, device=device,
                           batch_size=batch_size or 8, progress=progress, replay=self.replay,
                           transcript=self.transcript, export_batch=self.export_batch,
                           import_batch=self.import_batch)
