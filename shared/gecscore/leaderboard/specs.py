"""From what a user writes to leaderboard configurations: preset names, families such as
``m2`` or ``cleme2_sim``, shell globs such as ``cleme2-sim-*``, and specs
``NAME:key=value,key=value`` (``pt_m2:scorer=none,beta=0.3``; a value may hold commas, as in
``cleme2:alpha=0.4,0.3,0.2,0.1``), each value read as its declaration's kind and validated as
by ``gecscore.load``."""
from __future__ import annotations

import re
from fnmatch import fnmatchcase
from typing import Any, Mapping, Sequence

from gecscore.errors import GecInputError, GecOptionError, UnknownOptionError
from gecscore.leaderboard.configurations import Configuration, MetricConfig, resolve_configuration
from gecscore.leaderboard.presets import PRESETS
from gecscore.leaderboard.run_wide import RunWide, run_wide_refusal, unavailable_reason
from gecscore.options import build_config, fields_of
from gecscore.registry import metric_class, metric_names

# ``key=value`` pairs of a configuration spec: a value runs to the next ``,key=`` (values may hold commas)
_PAIR = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*?)(?=,[A-Za-z_][A-Za-z0-9_]*=|$)")


def parse_spec(spec: str) -> MetricConfig:
    """``NAME`` or ``NAME:key=value,...``: a metric of the registry with options, each value
    read as its declaration's kind and validated as by ``gecscore.load``."""
    metric, _, rest = spec.partition(":")
    if metric not in metric_names():
        raise GecInputError(f"unknown metric {metric!r} in {spec!r}; expected one of: {', '.join(metric_names())}")
    declared = {f.name: f for f in fields_of(metric_class(metric).config_type)}
    options: dict[str, Any] = {}
    rest = rest.strip()
    if rest:
        pairs = _PAIR.findall(rest)
        if ",".join(f"{k}={v}" for k, v in pairs) != rest:
            raise GecInputError(f"cannot read the options of {spec!r}: write NAME:key=value,key=value")
        for key, text in pairs:
            if key not in declared:
                raise UnknownOptionError(key, declared)
            if key in options:   # the last one would win without a word
                raise GecOptionError(key, f"given twice in {spec!r}; give it once")
            options[key] = _read_value(key, text, declared[key].metadata)
    build_config(metric_class(metric).config_type, options)   # the seam's own validation and message
    return MetricConfig(spec_name(metric, pairs if rest else []), metric, tuple(options.items()),
                        f"{metric} with {rest or 'its defaults'}", metric, spec)


def spec_name(metric: str, pairs: Sequence[tuple[str, str]]) -> str:
    """A spec configuration's name in tables, CSV and JSON: the spec, with a local model path
    as signatures write it (its last two components; the full spec is the description).

    >>> spec_name("a_metric", [("level", "sentence")])
    'a_metric:level=sentence'
    """
    from gecscore.models.loading import model_label

    return metric + (":" + ",".join(f"{k}={model_label(v)}" for k, v in pairs) if pairs else "")


def _read_value(key: str, text: str, metadata: Mapping[str, Any]) -> Any:
    kinds = metadata["kind"] if isinstance(metadata["kind"], tuple) else (metadata["kind"],)
    if bool in kinds:
        lowered = text.strip().lower()
        if lowered not in ("true", "false", "yes", "no", "1", "0"):
            raise GecOptionError(key, f"must be true or false, got {text!r}")
        return lowered in ("true", "yes", "1")
    for kind in (int, float):
        if kind in kinds:
            try:
                return kind(text)
            except ValueError:
                if kind is int and float in kinds:
                    continue
                raise GecOptionError(key, f"must be {kind.__name__}, got {text!r}") from None
    return text


def check_spec_names(config: MetricConfig, chosen: Sequence[MetricConfig]) -> bool:
    """False when ``config`` is already among ``chosen`` (the same spec twice: one
    configuration); a GecInputError naming both when another configuration has its name (two
    model paths alike in their last components, which the tables show): their rows, columns
    and signatures' keys would be one."""
    other = next(c for c in chosen if c.name == config.name)
    if (other.metric, other.options) == (config.metric, config.options):
        return False
    raise GecInputError(f"two configurations would both be named {config.name!r} in the tables: "
                        f"{other.spec or other.name!r} and {config.spec or config.name!r}; give a model by a path "
                        f"whose last two components differ, or score them in two runs")


def resolve(patterns: Sequence[str] | None = None, run: RunWide | None = None
            ) -> tuple[list[Configuration], dict[str, str]]:
    """Configurations matching ``patterns`` (preset names, families such as ``m2`` or
    ``cleme2_sim``, shell globs such as ``cleme2-sim-*``, or ``NAME:key=value,...`` specs; all
    presets if None), each resolved once under ``run``
    (:func:`~gecscore.leaderboard.configurations.resolve_configuration`), and ``{name: reason}``
    for matching ones that cannot run now. Unknown names raise."""
    run = run or RunWide()
    chosen_configs: list[MetricConfig] = []
    if not patterns:
        chosen_configs = list(PRESETS.values())
    else:
        for pattern in patterns:
            if ":" in pattern or (pattern in metric_names() and pattern not in PRESETS
                                  and not any(c.family == pattern for c in PRESETS.values())):
                matches = [parse_spec(pattern)]
            else:
                matches = [c for n, c in PRESETS.items()
                           if n == pattern or fnmatchcase(n, pattern) or c.family == pattern]
            if not matches:
                raise GecInputError(f"unknown metric configuration {pattern!r}; known: {', '.join(PRESETS)} "
                                    f"(or NAME:key=value,... with NAME one of {', '.join(metric_names())})")
            chosen_configs += [c for c in matches if c.name not in {x.name for x in chosen_configs}
                               or check_spec_names(c, chosen_configs)]
    chosen, unavailable = [], {}
    for config in [resolve_configuration(asked, run) for asked in chosen_configs]:
        reason = unavailable_reason(config, run) or run_wide_refusal(config, run, named=bool(patterns))
        if reason:
            unavailable[config.name] = reason
        else:
            chosen.append(config)
    return chosen, unavailable
