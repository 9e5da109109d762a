"""A Space's option controls, generated from the metric configs' option declarations.

A Space shows every option its configs declare for a Space (``MetricSpace.options``:
:func:`gecscore.options.space_fields`, less what the Space leaves out); each becomes a
:class:`Control` worked out from its :func:`gecscore.options.option` declaration (widget kind,
label, help, default, choices, bounds), so a Space cannot drift from the library: a new choice,
a changed default or help text reaches the page with no edit to the app. Values go back BY NAME
(:func:`option_values` -> ``{name: value}``), never by position, so the order of a config's
fields or of a Space's list cannot send a value to the wrong option.

Everything here but :func:`build_widget` is plain Python (no gradio), so it is tested without
a browser or a running app.
"""
from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Iterable, Mapping, Sequence

from gecscore.errors import GecInputError, GecOptionError
from gecscore.options import conditions_of, fields_of, format_value, merged_help

#: the extra first choice of an option whose default is None: "leave it to the metric"
DEFAULT_CHOICE = "default"
#: where None means "off" rather than "the metric's default", the choice says so
NONE_CHOICES: Mapping[str, str] = {"per_type": "none"}
#: more choices than this are a dropdown rather than a row of radio buttons
MAX_RADIO_CHOICES = 6
#: the arrows' step of a float box (any value can be typed)
FLOAT_STEP = 0.01


@dataclass(frozen=True)
class Control:
    """One option's widget as its declaration describes it, and how its value goes back.

    ``value`` is what the widget shows first (the declared default, or ``none_choice`` /
    an empty box for a None default); ``number`` is the type a number box's value is cast to;
    ``text_kind`` is ``str`` or ``tuple`` for a text box (a tuple is typed comma-separated).
    """

    name: str
    widget: str          # checkbox | radio | dropdown | number | textbox
    default: Any
    value: Any
    help: str
    choices: tuple[Any, ...] = ()
    none_choice: str | None = None
    number: type | None = None
    text_kind: type | None = None
    minimum: float | None = None
    maximum: float | None = None
    placeholder: str | None = None

    @property
    def label(self) -> str:
        return self.name

    @property
    def elem_id(self) -> str:
        """``gec-<name>`` with dashes: the id browser tests and the CSS address."""
        return f"gec-{self.name.replace('_', '-')}"

    def value_of(self, raw: Any) -> Any:
        """The option value of the widget's value: None for "default" or an empty box; a
        number box's value cast per the declaration; a GecOptionError naming the option for
        something that is not a number."""
        if self.widget == "checkbox":
            return bool(raw)
        if self.widget in ("radio", "dropdown"):
            return None if raw is None or raw == self.none_choice else raw
        if self.number is not None:
            return _number(self.name, raw, self.number)
        text = "" if raw is None else str(raw).strip()
        if not text:
            return None
        if self.text_kind is tuple:
            return tuple(part.strip() for part in text.split(","))
        return text


def _number(name: str, raw: Any, kind: type) -> int | float | None:
    """``raw`` (a number, or text from a box) as ``kind``; None when empty."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    try:
        value = float(str(raw).strip()) if isinstance(raw, str) else float(raw)
    except (TypeError, ValueError):
        raise GecOptionError(name, f"must be a number, got {str(raw).strip()!r}") from None
    if not math.isfinite(value):
        raise GecOptionError(name, f"must be a finite number, got {str(raw).strip()!r}")
    if kind is int:
        if not value.is_integer():
            raise GecOptionError(name, f"must be a whole number, got {str(raw).strip()!r}")
        return int(value)
    return value


# ---------------------------------------------------------------- declarations -> controls

def _kinds(metadata: Mapping[str, Any]) -> tuple[type, ...]:
    kind = metadata.get("kind")
    return () if kind is None else kind if isinstance(kind, tuple) else (kind,)


def _declarations(name: str, configs: Mapping[str, type]) -> dict[str, dataclasses.Field]:
    """``{metric: field}`` of every config that declares option ``name``."""
    found = {metric: f for metric, config in configs.items() for f in fields_of(config) if f.name == name}
    if not found:
        raise GecInputError(f"{name!r} is not an option of {', '.join(configs)}")
    return found


def _default_phrase(help_text: str) -> str | None:
    """The help's own words on a None default, e.g. ``default: the model's; 9 for ...``."""
    match = re.search(r"\(([^()]*\bdefault\b[^()]*)\)", help_text)
    return match.group(1).strip() if match else None


def control_for(name: str, configs: Mapping[str, type], choices: Sequence[Any] | None = None,
                placeholder: str | None = None) -> Control:
    """The control of option ``name`` declared by one or more ``configs`` (metric -> config).

    Options several configs declare with different defaults (CLEME's ``weighting`` is length,
    CLEME2.0's none) start at "default": each metric then keeps its own. ``choices`` replaces
    the declared ones where the config checks a value by a rule (the I-measure's ``max``) or
    the Space offers fewer (no ``replay`` judge in a Space); ``placeholder`` says what an empty
    box means where the help text does not.
    """
    declared = _declarations(name, configs)
    meta = next(iter(declared.values())).metadata
    default, help_text = _merged_default(declared, merged_help(declared))
    kinds = _kinds(meta)
    offered = tuple(choices) if choices is not None else merged_choices(declared)
    base = dict(name=name, default=default, help=help_text)
    if bool in kinds:
        return Control(widget="checkbox", value=bool(default), **base)
    if offered is not None:
        return _choice_control(offered, base)
    placeholder = placeholder or _placeholder(default, help_text)
    if str not in kinds and (int in kinds or float in kinds):
        return _number_control(float if float in kinds else int, meta, placeholder, base)
    text_kind = str if (str in kinds or not kinds) else tuple
    value = default if isinstance(default, str) else format_value(default) if default is not None else ""
    return Control(widget="textbox", value=value, text_kind=text_kind, placeholder=placeholder, **base)


def merged_choices(declared: Mapping[str, dataclasses.Field]) -> tuple[Any, ...] | None:
    """The declared choices of every metric, in order, each once (None: free values). A choice
    only some metrics accept is refused by the others' configs, naming the option; the help
    says which are whose."""
    lists = [f.metadata["choices"] for f in declared.values()]
    if any(c is None for c in lists):
        return None
    return tuple(dict.fromkeys(choice for c in lists for choice in c))


def _merged_default(declared: Mapping[str, dataclasses.Field], help_text: str) -> tuple[Any, str]:
    """The one default of the declarations, or None ("each metric's own") with the help saying
    which is whose when they differ."""
    defaults = {metric: f.default for metric, f in declared.items()}
    if len(set(map(repr, defaults.values()))) == 1:
        return next(iter(defaults.values())), help_text
    whose = "; ".join(f"{format_value(v)} for {metric}" for metric, v in defaults.items())
    return None, f"{help_text} (default: {whose})"


def _choice_control(offered: Sequence[Any], base: dict[str, Any]) -> Control:
    """A radio (a dropdown when long); a None default gets a first choice meaning None."""
    default = base["default"]
    none_choice = NONE_CHOICES.get(base["name"], DEFAULT_CHOICE) if default is None else None
    listed = ((none_choice,) if none_choice else ()) + tuple(offered)
    widget = "radio" if len(listed) <= MAX_RADIO_CHOICES else "dropdown"
    return Control(widget=widget, value=none_choice or default, choices=listed, none_choice=none_choice, **base)


def _number_control(number: type, meta: Mapping[str, Any], placeholder: str, base: dict[str, Any]) -> Control:
    """A number box with the declared bounds; with a None default a text box read as a number,
    since an empty box (the default) is what a visitor leaves most."""
    low = meta["minimum"] if meta["minimum"] is not None else meta["exclusive_minimum"]
    bounds = dict(number=number, minimum=low, maximum=meta["maximum"])
    if base["default"] is None:
        return Control(widget="textbox", value="", placeholder=placeholder, **bounds, **base)
    return Control(widget="number", value=base["default"], **bounds, **base)


def _placeholder(default: Any, help_text: str) -> str:
    if default is not None:
        return f"default: {format_value(default)}"
    return _default_phrase(help_text) or "empty: the metric's default"


def controls_for(names: Iterable[str], configs: Mapping[str, type],
                 choices: Mapping[str, Sequence[Any]] | None = None,
                 placeholders: Mapping[str, str] | None = None) -> tuple[Control, ...]:
    """The controls of ``names``, in the Space's order."""
    choices, placeholders = choices or {}, placeholders or {}
    names = list(names)
    if len(set(names)) != len(names):
        raise ValueError(f"an option is listed twice: {names}")
    return tuple(control_for(name, configs, choices.get(name), placeholders.get(name)) for name in names)


# ---------------------------------------------------------------- widget values -> options

def option_values(controls: Sequence[Control], values: Sequence[Any]) -> dict[str, Any]:
    """``{name: option value}``: each widget's value paired with its own control."""
    if len(controls) != len(values):
        raise ValueError(f"{len(values)} widget values for {len(controls)} controls")
    return {control.name: control.value_of(value) for control, value in zip(controls, values)}


def _settings(config: type, values: Mapping[str, Any]) -> SimpleNamespace:
    """The config's declared defaults overlaid with the set values: enough to tell which
    options apply, without building (and validating) a config."""
    merged = {f.name: f.default for f in fields_of(config)}
    merged.update({k: v for k, v in values.items() if v is not None and k in merged})
    return SimpleNamespace(conditions=conditions_of(config), **merged)


def _applies(config: type, settings: SimpleNamespace, name: str) -> bool:
    rule = conditions_of(config).get(name)
    return rule is None or rule.holds(settings)


def options_for(config: type, values: Mapping[str, Any]) -> dict[str, Any]:
    """What a Space passes to ``gecscore.load``: the options ``config`` declares, that apply
    under the other values (one that does not cannot change the number; a stale value left in
    a hidden box must not raise), and that are set (None where the default is not None means
    "the metric's default")."""
    declared = {f.name: f.default for f in fields_of(config)}
    settings = _settings(config, values)
    return {name: value for name, value in values.items()
            if name in declared and (value is not None or declared[name] is None)
            and _applies(config, settings, name)}


def shown(config: type, values: Mapping[str, Any], names: Iterable[str]) -> dict[str, bool]:
    """Which of ``names`` can change what ``config`` computes under ``values`` (the others
    are hidden)."""
    declared = {f.name for f in fields_of(config)}
    settings = _settings(config, values)
    return {name: name in declared and _applies(config, settings, name) for name in names}


def triggers(configs: Mapping[str, type], names: Iterable[str]) -> list[str]:
    """The options whose value decides whether another option applies."""
    wanted = set(names)
    return [name for name in dict.fromkeys(rule.option for config in configs.values()
                                           for rule in conditions_of(config).values()) if name in wanted]


def conditional(configs: Mapping[str, type], names: Iterable[str]) -> list[str]:
    """The options that some metric lacks or that apply only under another's value."""
    return [name for name in names
            if any(name not in {f.name for f in fields_of(c)} or name in conditions_of(c) for c in configs.values())]


# ---------------------------------------------------------------- gradio

def build_widget(control: Control, visible: bool = True) -> Any:
    """The gradio component of ``control`` (created inside the current Blocks context)."""
    from gecscore.extras import require

    gr = require("gradio", "the metric Spaces")
    common = dict(label=control.label, info=control.help, elem_id=control.elem_id, visible=visible)
    if control.widget == "checkbox":
        return gr.Checkbox(value=control.value, **common)
    if control.widget == "radio":
        return gr.Radio(list(control.choices), value=control.value, **common)
    if control.widget == "dropdown":
        return gr.Dropdown(list(control.choices), value=control.value, **common)
    if control.widget == "number":
        return gr.Number(value=control.value, precision=0 if control.number is int else None,
                         minimum=control.minimum, maximum=control.maximum,
                         step=1 if control.number is int else FLOAT_STEP, **common)
    return gr.Textbox(value=control.value, placeholder=control.placeholder, lines=1, max_lines=1, **common)
