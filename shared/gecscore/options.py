"""Declaring metric options once: default, help, allowed values, when an option applies, how
it enters the signature, and one validation for every entry point.

A metric's config is a frozen dataclass whose fields are made with :func:`option`. Everything
else reads those declarations: the CLI builds its flags (choices, defaults, help), the evaluate
modules their ``_compute`` parameters and docstring, the Spaces their controls, the leaderboard
its ``NAME:key=value`` configurations, and :mod:`gecscore.signature` the signature, so a value is
accepted or rejected identically everywhere, with a :class:`~gecscore.errors.GecOptionError`
naming the option. Options shared by several metrics (``level``, ``tokenize``, the model and the
judge) are declared here, once; each metric family declares its own in ``<family>/config.py``.

An option may apply only under another option's value (PT-M2's ``max_unchanged_words`` only
with ``base="m2"``; the BERTScore ``precision`` only when a BERTScore model weighs edits): a
config lists those as :class:`When` rules in its ``conditions``. An option that does not apply
is left out of the signature (it cannot change the number), hidden in a Space, and skipped when
the leaderboard applies run-wide model or judge options.
"""
from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator, Mapping, Sequence

from gecscore.errors import GecOptionError, UnknownOptionError

# What the signature calls a value that is absent; a field whose value is this is left out.
UNSET = None


def option(default: Any, help: str, *, kind: type | tuple[type, ...] | None = None,
           choices: Sequence[Any] | None = None, minimum: float | None = None,
           exclusive_minimum: float | None = None, maximum: float | None = None,
           signature: str | None = "", signature_rank: int = 0, signature_default: bool = True,
           signature_format: Callable[[Any], str] | None = None, cli: bool = True,
           metavar: str | None = None, repeat: bool = False, pattern: str | None = None,
           refused: Mapping[Any, str] | None = None, normalize: Callable[[Any], Any] | None = None,
           space: bool = True) -> Any:
    """A config field with its default and what :func:`validate` checks.

    ``kind``: the accepted type(s) (default: the default's type; ``None`` is always accepted
    when the default is ``None``). ``signature``: the key this option has in the signature
    ("" = its own name, ``None`` = not part of the signature because it cannot change the
    number, e.g. a batch size or a cache path). ``signature_rank``: 0 places the option among
    the metric's options, before the facts of its model or judge; 1, 2, ... after them, in that
    order (so that signatures published before an option existed keep their prefix).
    ``signature_default=False``: left out while it has its default value (an option added
    later, such as ``precision``). ``signature_format``: how the value is written (default
    :func:`format_value`). ``cli=False`` keeps it off the command line; ``repeat``: a list of
    values, one per use of the flag. ``pattern``: a regular expression a text value must match
    in full; ``refused``: values that are refused with the reason given (known, but not offered);
    ``normalize``: maps a value to the one it means before it is checked (``zh-CN`` -> ``zh``),
    so that every entry point, the config and the signature hold the value actually used.
    ``space=False`` keeps it out of the Spaces: a value no visitor of a web page can give (a
    file on the server, an environment variable's name, a judge transcript or cache).
    """
    if kind is None and default is not None:
        kind = type(default)
    return dataclasses.field(default=default, metadata={
        "help": help, "kind": kind, "choices": tuple(choices) if choices is not None else None,
        "minimum": minimum, "exclusive_minimum": exclusive_minimum, "maximum": maximum,
        "signature": signature, "signature_rank": signature_rank, "signature_default": signature_default,
        "signature_format": signature_format, "cli": cli, "metavar": metavar, "repeat": repeat,
        "pattern": pattern, "refused": dict(refused or {}), "normalize": normalize, "space": space})


@dataclass(frozen=True)
class When:
    """An option applies only while option ``option`` has one of ``values`` (a config's
    ``conditions`` map option names to these)."""

    option: str
    values: tuple[Any, ...]

    def holds(self, config: Any) -> bool:
        return getattr(config, self.option) in self.values

    def describe(self) -> str:
        """``scorer=bertscore|bartscore``: for help texts."""
        return f"{self.option}={'|'.join(map(str, self.values))}"


def conditions_of(config: Any) -> Mapping[str, When]:
    """The config's ``conditions`` (option name -> :class:`When`), empty if it has none."""
    return getattr(config, "conditions", {}) or {}


def applies(config: Any, name: str) -> bool:
    """Whether option ``name`` can change what ``config`` computes (see :class:`When`)."""
    rule = conditions_of(config).get(name)
    return rule is None or rule.holds(config)


def declared_default(config_type: type, name: str) -> Any:
    """The declared default of option ``name`` of ``config_type``."""
    return next(f.default for f in dataclasses.fields(config_type) if f.name == name)


def merged_help(declared: Mapping[str, dataclasses.Field]) -> str:
    """The help of one option declared by several metrics (``{metric: field}``): the one text,
    or each metric's where they say different things (LLM-S and LLM-E list different
    ``criteria``)."""
    helps = {metric: f.metadata["help"] for metric, f in declared.items()}
    if len(set(helps.values())) == 1:
        return next(iter(helps.values()))
    return "; ".join(f"{metric}: {text}" for metric, text in helps.items())


def fields_of(config: Any) -> Iterator[dataclasses.Field]:
    """The declared options of a config class or instance, in declaration order."""
    return (f for f in dataclasses.fields(config) if "help" in f.metadata)


def space_fields(config_type: type) -> Iterator[dataclasses.Field]:
    """The declared options a Space can offer (not ``space=False``), in the order a page shows
    them: the config's own options first, then those of its bases, nearest first, so that the
    metric's options lead and the shared groups (text, model, judge, per type) follow."""
    own = [name for cls in config_type.__mro__ for name in vars(cls).get("__annotations__", {})]
    rank = {name: i for i, name in reversed(list(enumerate(own)))}
    shown = [f for f in fields_of(config_type) if f.metadata.get("space", True)]
    return iter(sorted(shown, key=lambda f: rank[f.name]))


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
    normalize = metadata.get("normalize")
    if normalize is not None:
        value = normalize(value)
    if isinstance(value, float) and not math.isfinite(value):
        raise GecOptionError(name, f"must be a finite number, got {value!r}")
    refused = metadata.get("refused") or {}
    if isinstance(value, str) and value in refused:
        raise GecOptionError(name, refused[value])
    pattern = metadata.get("pattern")
    if pattern is not None and isinstance(value, str) and not re.fullmatch(pattern, value):
        raise GecOptionError(name, f"must match {pattern}, got {value!r}")
    choices = metadata.get("choices")
    if choices is not None and value not in choices:
        raise GecOptionError(name, f"unknown value {value!r}; expected one of: {', '.join(map(str, choices))}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        problem = out_of_bounds(value, metadata.get("minimum"), metadata.get("exclusive_minimum"),
                                metadata.get("maximum"))
        if problem:
            raise GecOptionError(name, f"{problem}, got {value!r}")
    return value


def out_of_bounds(value: float, minimum: float | None = None, exclusive_minimum: float | None = None,
                  maximum: float | None = None, exclusive_maximum: float | None = None) -> str | None:
    """Why ``value`` is outside the bounds (``"must be at least 0"``), or None: the one wording
    of a bound, for a declared option (:func:`check_value`) and a command-line number
    (:class:`gecscore.cli.numbers.Number`) alike. Checked in this order."""
    if minimum is not None and value < minimum:
        return f"must be at least {minimum:g}"
    if exclusive_minimum is not None and value <= exclusive_minimum:
        return f"must be greater than {exclusive_minimum:g}"
    if maximum is not None and value > maximum:
        return f"must be at most {maximum:g}"
    if exclusive_maximum is not None and value >= exclusive_maximum:
        return f"must be less than {exclusive_maximum:g}"
    return None


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
        raise UnknownOptionError(unknown[0], known)
    return config_type(**options)


def signature_items(config: Any) -> list[tuple[int, str, str]]:
    """``(rank, key, value)`` of every option that can change the number: in the signature,
    applying under the config's other options, set, and shown at its default unless declared
    otherwise; in declaration order (:func:`gecscore.signature.signature_of` orders by rank)."""
    items = []
    for f in fields_of(config):
        meta = f.metadata
        key = meta["signature"]
        value = getattr(config, f.name)
        if key is None or value is None or not applies(config, f.name):
            continue
        if not meta["signature_default"] and value == _normalised_default(f):
            continue
        written = (meta["signature_format"] or format_value)(value)
        items.append((meta["signature_rank"], key or f.name, written))
    return items


def _normalised_default(f: dataclasses.Field) -> Any:
    return float(f.default) if isinstance(f.default, int) and float in _kinds(f.metadata) else f.default


def _kinds(metadata: Mapping[str, Any]) -> tuple:
    kind = metadata.get("kind")
    return kind if isinstance(kind, tuple) else (kind,)


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


# A language code: ISO 639 (two or three letters), optionally with a subtag (pt-BR, zh-word).
LANG_PATTERN = r"[a-z]{2,3}(-[A-Za-z0-9]+)?"
DEFAULT_LANG = "en"
REFUSED_LANGS = {"zh-word": "Chinese word level (ChERRANT -g word) needs LTP and its models from a hub, which "
                            "gecscore does not download; use lang=zh (character level, the MuCGEC and NLPCC-2018 "
                            "setting)"}


# A region subtag (BCP 47: two letters or three digits): zh-CN, en-US, pt-BR, es-419.
_REGION = re.compile(r"([a-z]{2,3})-(?:[A-Za-z]{2}|[0-9]{3})")


def language_of(code: Any) -> Any:
    """The language of a code with a region subtag (``zh-CN`` -> ``zh``, ``en-US`` -> ``en``):
    the profiles are per language, and a region changes no tokenisation or edit, so a regional
    code gets its language's profile (not the model-free one an unknown code gets), and the
    signature names the language used. Other codes are returned as they are."""
    match = _REGION.fullmatch(code) if isinstance(code, str) else None
    return match.group(1) if match else code


@dataclass(frozen=True)
class LanguageOptions:
    """The language of the text, which picks the profile that turns it into tokens and edits
    (:mod:`gecscore.lang.profiles`: en ERRANT, zh ChERRANT char level, others model-free or
    MultiGEC-2025 over an installed spaCy pipeline)."""

    lang: str = option(DEFAULT_LANG, "language of the text: en (ERRANT), zh (ChERRANT, character level), or any "
                                     "other code (e.g. uk, cs): ERRANT over an installed spaCy pipeline for it, else "
                                     "the model-free profile; a region subtag means its language (zh-CN is zh); in the "
                                     "signature unless en", pattern=LANG_PATTERN, normalize=language_of,
                       refused=REFUSED_LANGS, signature_rank=1, signature_default=False, metavar="CODE")


@dataclass(frozen=True)
class TextOptions(LanguageOptions):
    """How text inputs are read: whitespace-tokenised as given, or tokenised first (spaCy for
    English; the profile's tokeniser for other languages; Chinese is always split into
    characters)."""

    tokenize: bool = option(False, "tokenise sources, predictions and references first (spaCy for English; for "
                                   "untokenised text such as LLM outputs)", signature="tok", signature_rank=1)


#: per-error-type granularities, as errant_compare -cat 1/2/3 (see gecscore.m2.per_type.type_at)
PER_TYPE_GRANULARITIES = ("operation", "main", "full")
# BERTScore's forward pass: fp32 is exact (the reference code's numbers); bf16 / fp16 are faster
# and approximate (their largest difference on CoNLL-2014: docs/pt_m2_fidelity.md).
PRECISIONS = ("fp32", "bf16", "fp16")
DEFAULT_PRECISION = "fp32"
# The judges: an OpenAI-compatible endpoint, a local transformers model, or recorded answers
# (gecscore.judge.factory builds each).
JUDGE_BACKENDS = ("openai", "transformers", "replay")


@dataclass(frozen=True)
class PerTypeOptions:
    """Per-error-type scores beside the headline score (they change no number: not in the
    signature)."""

    per_type: str | None = option(
        None, "also score per error type at this granularity: operation (M/R/U), main (NOUN, VERB:TENSE) or full "
              "(R:NOUN), as errant_compare -cat 1/2/3; an M2 file's own types (NUCLE) are kept as they are",
        kind=str, choices=PER_TYPE_GRANULARITIES, signature=None)


@dataclass(frozen=True)
class DeviceOptions:
    """Where a pretrained model runs (every model-backed metric)."""

    device: str | None = option(None, "torch device: cpu, cuda, cuda:1 ... (default: cuda if available)",
                                kind=str, signature=None)


@dataclass(frozen=True)
class ModelOptions(DeviceOptions):
    """A pretrained model: BERTScore/BARTScore weights, or the judge's model."""

    model: str | None = option(None, "model name or local directory (BERTScore default bert-base-uncased; "
                                     "the judge's model for LLM judges)", kind=str, signature=None)
    batch_size: int | None = option(None, "items per model batch", kind=int, minimum=1, signature=None)


@dataclass(frozen=True)
class LayerOptions:
    """BERTScore: the layer of the model, and the precision of its forward pass."""

    num_layers: int | None = option(None, "BERTScore: the model layer (default: the model's; 9 for "
                                          "bert-base-uncased)", kind=int, minimum=1, signature=None)
    precision: str = option(DEFAULT_PRECISION, "BERTScore forward pass: fp32 (exact: the reference code's "
                                               "numbers) or bf16 / fp16 (faster, approximate; fp16 on CUDA "
                                               "only); in the signature unless fp32", choices=PRECISIONS,
                              signature_rank=3, signature_default=False)


@dataclass(frozen=True)
class JudgeOptions:
    """An LLM judge: an OpenAI-compatible endpoint or a local transformers model (``model``)."""

    backend: str = option("openai", "judge backend: openai (any OpenAI-compatible endpoint), transformers "
                                    "(a local causal LM) or replay (answers from the replay= file)",
                          choices=JUDGE_BACKENDS, signature=None)
    base_url: str | None = option(None, "chat-completions base URL (default $OPENAI_BASE_URL or OpenAI)",
                                  kind=str, signature=None)
    api_key_env: str = option("OPENAI_API_KEY", "environment variable holding the API key", signature=None,
                              metavar="NAME", space=False)
    cache: str | None = option(None, "judge answer cache (SQLite; default $GECSCORE_JUDGE_CACHE or "
                                     "~/.cache/gecscore/judge.sqlite)", kind=str, signature=None, metavar="PATH",
                               space=False)
    no_cache: bool = option(False, "do not read or write the judge cache", signature=None, space=False)
    concurrency: int = option(8, "judge requests in flight", minimum=1, signature=None)
    timeout: float = option(60.0, "seconds per judge request", exclusive_minimum=0, signature=None)
    max_retries: int = option(4, "retries of a judge request after a transport error", minimum=0,
                              signature=None)
    export_batch: str | None = option(None, "write the judge requests the cache cannot answer to FILE, an OpenAI "
                                            "Batch API input file, instead of calling the judge; submit it, then "
                                            "run again with import_batch= OUTPUT", kind=str, signature=None,
                                      metavar="FILE", space=False)
    import_batch: tuple[str, ...] | None = option(None, "store a finished OpenAI batch's output (or error) file in "
                                                        "the judge cache before the run (repeatable)",
                                                  kind=(tuple, list, str), signature=None, metavar="FILE",
                                                  repeat=True, space=False)
    transcript: str | None = option(None, "write every judge request of the run with its answer to FILE (JSON "
                                          "lines), for backend='replay'", kind=str, signature=None, metavar="FILE",
                                    space=False)
    replay: str | None = option(None, "with backend='replay': answer from FILE (a transcript= file or a DSGram-Eval "
                                      "answer file)", kind=str, signature=None, metavar="FILE", space=False)


def check_precision(precision: Any, device: Any = None) -> str:
    """The one check of a BERTScore precision, for a config (:func:`check_precision_device`) and
    for a model built without one (:class:`gecscore.models.similarity.BertScoreF1`): a value the
    declaration (:class:`LayerOptions`) accepts, and fp16 only on a CUDA device (fp16 on a CPU
    is slow or unsupported; ``device`` None: not chosen yet, checked again when it is)."""
    declaration = next(f for f in dataclasses.fields(LayerOptions) if f.name == "precision")
    precision = check_value("precision", precision, declaration.metadata, declaration.default)
    if precision == "fp16" and device is not None and not str(device).startswith("cuda"):
        raise GecOptionError("precision", f"fp16 needs a CUDA device, not device={device}; use bf16 on the CPU")
    return precision


def check_precision_device(config: Any) -> None:
    """fp16 runs on CUDA only: refuse it at load when the config names another device (with no
    device given, the device is chosen, and checked, when the model is loaded)."""
    if applies(config, "precision"):
        check_precision(config.precision, getattr(config, "device", None))
