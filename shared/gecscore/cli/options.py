"""Command-line flags read from a metric's config: names, choices, defaults and help come from
the config's declarations (:mod:`gecscore.options`), so they are written once."""
from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from gecscore.cli.numbers import Number
from gecscore.options import (JudgeOptions, LayerOptions, ModelOptions, TextOptions, conditions_of, fields_of,
                              format_value)

GROUPS = (
    (TextOptions, "inputs"),
    (ModelOptions, "models (similarity / PT-M2 weights, or the judge's model)"),
    (LayerOptions, "models (similarity / PT-M2 weights, or the judge's model)"),
    (JudgeOptions, "judge (LLM)"),
)


def flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _group_title(field_name: str) -> str:
    for mixin, title in GROUPS:
        if field_name in {f.name for f in dataclasses.fields(mixin)}:
            return title
    return "options"


def add_config_arguments(parser: argparse.ArgumentParser, config_type: type) -> None:
    """One flag per declared option of ``config_type`` (bools are switches), in groups."""
    titles = ["options", *dict.fromkeys(title for _, title in GROUPS)]
    used = {_group_title(f.name) for f in fields_of(config_type) if f.metadata["cli"]}
    groups: dict[str, Any] = {title: parser.add_argument_group(title) for title in titles if title in used}
    vocabulary = {f.name: flag(f.name) for f in fields_of(config_type)}
    for f in fields_of(config_type):
        if f.metadata["cli"]:
            add_option_flag(groups[_group_title(f.name)], f, conditions_of(config_type).get(f.name),
                            vocabulary=vocabulary)


def add_option_flag(group, f: dataclasses.Field, rule=None, *, prefix: str = "", dest_prefix: str = "",
                    run_wide: bool = False, vocabulary: dict[str, str] | None = None) -> None:
    """The flag of one declared option: ``--<prefix><name>`` with its help, choices, type and
    default (``run_wide``: no default, so that each configuration keeps its own unless set).
    The help names options as Python does (``scorer='none'``); ``vocabulary`` (option name ->
    flag) spells them as this command line does."""
    from gecscore.cli import in_cli_vocabulary

    meta = f.metadata
    default = f.default
    help_text = in_cli_vocabulary(meta["help"], vocabulary or {})
    dest = dest_prefix + f.name
    if rule is not None:
        help_text += f" [with --{rule.option.replace('_', '-')} {'|'.join(map(str, rule.values))}]"
    if isinstance(default, bool):
        group.add_argument(flag(prefix + f.name), dest=dest, action="store_true", help=help_text)
        return
    if meta["repeat"]:
        group.add_argument(flag(prefix + f.name), dest=dest, action="append", metavar=meta["metavar"], help=help_text)
        return
    kinds = meta["kind"] if isinstance(meta["kind"], tuple) else (meta["kind"],)
    number = next((k for k in (int, float) if k in kinds), None)
    # a number is checked against its declared bounds while the arguments are parsed
    value_type = str if number is None else Number(number, minimum=meta["minimum"],
                                                   exclusive_minimum=meta["exclusive_minimum"],
                                                   maximum=meta["maximum"])
    if default is not None:
        help_text += f" (default {format_value(default)})"
    group.add_argument(flag(prefix + f.name), dest=dest, type=value_type, default=None if run_wide else default,
                       choices=meta["choices"], metavar=meta["metavar"] or (f.name.upper() if meta["choices"] is None else None), help=help_text)


def options_from_args(args: argparse.Namespace, fields, dest_prefix: str = "") -> dict[str, Any]:
    """The options set on the command line among ``fields`` (flags made with ``dest_prefix``)."""
    out = {}
    for f in fields:
        value = getattr(args, dest_prefix + f.name, None)
        if value is not None and value is not False:
            out[f.name] = value
    return out


def config_from_args(config_type: type, args: argparse.Namespace) -> Any:
    """The config of the parsed flags (validated by the config itself)."""
    return config_type(**{f.name: getattr(args, f.name) for f in fields_of(config_type) if f.metadata["cli"]})
