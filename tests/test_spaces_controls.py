"""The Spaces' option controls are generated from the configs' declarations and their values
reach the metric by name (gecscore.spaces.controls; no browser: the Gradio pages are built, not
served)."""
from __future__ import annotations

import dataclasses
import importlib.util
import random
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

import gecscore
from gecscore.chunks.config import Cleme2Config, ClemeConfig
from gecscore.errors import GecOptionError
from gecscore.m2.config import PtM2Config
from gecscore.options import When, fields_of, merged_help, option
from gecscore.registry import module_names
from gecscore.spaces import controls, per_type_view
from gecscore.spaces.controls import (Control, control_for, controls_for, merged_choices, option_values, options_for,
                                      shown)

ROOT = Path(__file__).resolve().parents[1]
SPACES = tuple(module_names())   # every evaluate module has its Space
# What the PT-M2 and CLEME2.0 Spaces show besides the score-changing options (as before).
ALSO_SHOWN = {"model", "num_layers", "batch_size", "device", "per_type", "tokenize"}


def _load_app(name: str):
    """``spaces/<name>/app.py`` as a module (its page is built, not launched)."""
    pytest.importorskip("gradio", reason="gradio is not installed")
    spec = importlib.util.spec_from_file_location(f"gecscore_space_app_{name}", ROOT / "spaces" / name / "app.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module", params=SPACES)
def app(request):
    return _load_app(request.param)


@pytest.fixture(scope="module")
def apps():
    return {name: _load_app(name) for name in ("cleme2", "pt_m2")}


def _declared(configs, name: str) -> dict[str, dataclasses.Field]:
    return {metric: f for metric, c in configs.items() for f in fields_of(c) if f.name == name}


def _widgets_by_id(demo) -> dict[str, object]:
    return {block.elem_id: block for block in demo.blocks.values() if getattr(block, "elem_id", None)}


def _choice_values(widget) -> list:
    return [choice[1] if isinstance(choice, (tuple, list)) else choice for choice in widget.choices]


# ---------------------------------------------------------------- every Space, every listed option

def test_every_listed_option_gets_its_declared_default_choices_and_help(app):
    import gradio as gr

    space = app.SPACE
    widgets = _widgets_by_id(app.demo)
    assert space.options, "the Space lists no options"
    for control in space.controls():
        declared = _declared(space.configs, control.name)
        assert declared, f"{control.name} is not an option of {list(space.configs)}"
        field = next(iter(declared.values()))
        widget = widgets[f"gec-{control.name.replace('_', '-')}"]
        assert widget.label == control.name
        # each metric's help (one text where the declarations agree)
        assert widget.info.startswith(merged_help(declared))
        assert all(f.metadata["help"] in widget.info for f in declared.values())
        defaults = {f.default for f in declared.values()}
        # the widget starts at the declared default (or at "default" where each metric keeps its own)
        expected = field.default if len(defaults) == 1 else None
        assert control.value_of(widget.value) == expected, control.name
        choices = space.choices.get(control.name, merged_choices(declared))
        if choices is not None:
            assert isinstance(widget, (gr.Radio, gr.Dropdown))
            offered = _choice_values(widget)
            assert [c for c in offered if c != control.none_choice] == list(choices)
            # radio labels are the values themselves (browser tests click "length", "full")
            assert all(label == value for label, value in widget.choices)
        elif bool in (field.metadata["kind"],):
            assert isinstance(widget, gr.Checkbox)
        elif field.metadata["kind"] in (int, float) and field.default is not None:
            assert isinstance(widget, gr.Number)
            assert widget.precision == (0 if field.metadata["kind"] is int else None)
            low = field.metadata["minimum"]
            assert widget.minimum == (low if low is not None else field.metadata["exclusive_minimum"])
            assert widget.maximum == field.metadata["maximum"]
        else:
            assert isinstance(widget, gr.Textbox)
            assert widget.placeholder


def test_no_option_widget_is_hand_written(app):
    """Every component labelled like an option is the generated one (Space-only controls such as
    the metric picker and the API key box are not options)."""
    space = app.SPACE
    names = {f.name for c in space.configs.values() for f in fields_of(c)}
    generated = {f"gec-{n.replace('_', '-')}" for n in space.options}
    for block in app.demo.blocks.values():
        label = getattr(block, "label", None)
        if label in names:
            assert block.elem_id in generated, f"hand-written widget for option {label!r}"
    assert not set(space.space_controls) & names


def test_space_ids_the_browser_tests_use_are_kept():
    assert "gec-model" in _widgets_by_id(_load_app("pt_m2").demo)
    dsgram = _widgets_by_id(_load_app("dsgram").demo)
    assert {"gec-base-url", "gec-api-key"} <= set(dsgram)


@pytest.mark.parametrize("name", ["pt_m2", "cleme2"])
def test_pt_m2_and_cleme2_spaces_list_every_score_changing_option(apps, name):
    space = apps[name].SPACE
    changing = {f.name for c in space.configs.values() for f in fields_of(c) if f.metadata["signature"] is not None}
    assert "precision" in changing
    assert changing <= set(space.options), changing - set(space.options)
    assert ALSO_SHOWN <= set(space.options)


# ---------------------------------------------------------------- values pass by name

def test_values_pass_by_name_whatever_the_order():
    space_controls = list(controls_for(["base", "scorer", "level", "beta", "precision", "max_unchanged_words",
                                        "num_layers", "per_type", "tokenize"], {"pt_m2": PtM2Config}))
    raw = {"base": "errant", "scorer": "bertscore", "level": "sentence", "beta": 2, "precision": "bf16",
           "max_unchanged_words": 3.0, "num_layers": " 7 ", "per_type": "main", "tokenize": True}
    expected = {"base": "errant", "scorer": "bertscore", "level": "sentence", "beta": 2.0, "precision": "bf16",
                "max_unchanged_words": 3, "num_layers": 7, "per_type": "main", "tokenize": True}
    rng = random.Random(4)
    for _ in range(5):
        rng.shuffle(space_controls)
        values = [raw[c.name] for c in space_controls]
        got = option_values(space_controls, values)
        assert got == expected
        assert type(got["max_unchanged_words"]) is int and type(got["beta"]) is float


def _toy(order: list[str]) -> type:
    """A config whose fields are declared in ``order``."""
    specs = {
        "alpha": (float, option(0.25, "a float", exclusive_minimum=0)),
        "count": (int, option(3, "an int", minimum=1, maximum=9)),
        "mode": (str, option("x", "a choice", choices=("x", "y", "z"))),
        "name": (str | None, option(None, "free text (default: the first)", kind=str)),
    }
    return dataclasses.make_dataclass("Toy", [(n, *specs[n]) for n in order], frozen=True)


def test_shuffled_declaration_order_keeps_the_mapping():
    names = ["alpha", "count", "mode", "name"]
    typed = {"alpha": "0.5", "count": 7, "mode": "z", "name": " bob "}
    wanted = {"alpha": 0.5, "count": 7, "mode": "z", "name": "bob"}
    rng = random.Random(11)
    for _ in range(6):
        order = names[:]
        rng.shuffle(order)
        toy = _toy(order)
        assert [f.name for f in fields_of(toy)] == order
        shown_order = names[:]
        rng.shuffle(shown_order)
        built = controls_for(shown_order, {"toy": toy})
        values = [typed[n] if n != "alpha" else 0.5 for n in shown_order]
        got = options_for(toy, option_values(built, values))
        assert got == wanted
        assert toy(**got) == toy(alpha=0.5, count=7, mode="z", name="bob")


def test_space_values_reach_the_metric_config_by_name(apps):
    """From widget values, through the framework's mapping, to the loaded metric's config."""
    space = apps["pt_m2"].SPACE
    built = space.controls()
    chosen = {"base": "errant", "level": "sentence", "beta": 1.5, "precision": "bf16", "num_layers": "4",
              "per_type": "full", "device": "cpu"}
    values = [chosen.get(c.name, c.value) for c in built]
    option_vals, space_vals = space.by_name(built, [*values, "none"])   # the Space-only attribution control
    assert space_vals == {"attribution": "none"}
    config = gecscore.load("pt_m2", **space.run_options(option_vals, space_vals)).config
    assert (config.base, config.level, config.beta, config.precision, config.num_layers, config.per_type,
            config.device) == ("errant", "sentence", 1.5, "bf16", 4, "full", "cpu")
    assert config.scorer == "bertscore" and config.max_unchanged_words == 2


def test_a_non_number_in_a_number_box_names_the_option():
    num_layers, beta, batch_size = controls_for(["num_layers", "beta", "batch_size"], {"pt_m2": PtM2Config})
    assert num_layers.widget == "textbox" and num_layers.number is int
    with pytest.raises(GecOptionError) as caught:
        num_layers.value_of("nine")
    assert caught.value.option == "num_layers" and "'nine'" in str(caught.value)
    with pytest.raises(GecOptionError, match="whole number"):
        batch_size.value_of("2.5")
    assert num_layers.value_of("  ") is None and num_layers.value_of("9") == 9
    assert beta.value_of(None) is None and beta.value_of(1) == 1.0
    with pytest.raises(GecOptionError) as caught:
        beta.value_of("nan")
    assert caught.value.option == "beta"


# ---------------------------------------------------------------- one Space, two metrics (CLEME2.0)

def _cleme_controls():
    return controls_for(["weighting", "alpha", "beta", "precision", "per_type"],
                        {"cleme2": Cleme2Config, "cleme": ClemeConfig})


def test_cleme2_space_leaves_each_metric_its_own_weighting_default():
    weighting = _cleme_controls()[0]
    assert weighting.choices == ("default", "none", "length", "similarity", "llm")
    assert weighting.value == "default" and "none for cleme2" in weighting.help and "length for cleme" in weighting.help
    values = option_values(_cleme_controls(), ["default", "", 0.5, "fp32", "none"])
    assert gecscore.load("cleme2", **options_for(Cleme2Config, values)).config.weighting == "none"
    assert gecscore.load("cleme", **options_for(ClemeConfig, values)).config.weighting == "length"


def test_cleme2_space_passes_only_the_options_the_chosen_metric_has():
    values = option_values(_cleme_controls(), ["length", "0.4,0.3,0.2,0.1", 2, "fp32", "main"])
    for_cleme2, for_cleme = options_for(Cleme2Config, values), options_for(ClemeConfig, values)
    assert "beta" not in for_cleme2 and for_cleme2["alpha"] == "0.4,0.3,0.2,0.1"
    assert "alpha" not in for_cleme and for_cleme["beta"] == 2.0
    assert gecscore.load("cleme2", **for_cleme2).config.alpha == (0.4, 0.3, 0.2, 0.1)
    assert gecscore.load("cleme", **for_cleme).config.beta == 2.0
    assert for_cleme2["per_type"] == "main" and for_cleme2["weighting"] == "length"


def test_options_that_do_not_apply_are_not_passed_and_their_widgets_hidden():
    built = _cleme_controls()
    plain = option_values(built, ["none", "", 0.5, "bf16", "none"])
    assert "precision" not in options_for(Cleme2Config, plain)  # cannot change the number: not passed
    assert gecscore.load("cleme2", **options_for(Cleme2Config, plain)).config.per_type is None
    similarity = option_values(built, ["similarity", "", 0.5, "bf16", "none"])
    assert options_for(Cleme2Config, similarity)["precision"] == "bf16"
    names = [c.name for c in built]
    assert shown(Cleme2Config, plain, names) == {"weighting": True, "alpha": True, "beta": False,
                                                 "precision": False, "per_type": True}
    assert shown(ClemeConfig, similarity, names)["precision"] and not shown(ClemeConfig, similarity, names)["alpha"]
    pt_m2 = {"scorer": "none", "base": "errant"}
    visible = shown(PtM2Config, pt_m2, ["model", "precision", "max_unchanged_words", "beta"])
    assert visible == {"model": False, "precision": False, "max_unchanged_words": False, "beta": True}
    # BARTScore runs in fp32 only: a bf16 left in the hidden precision box is not passed
    assert "precision" not in options_for(PtM2Config, {"scorer": "bartscore", "precision": "bf16"})


def test_space_picks_the_metric_for_the_options(apps):
    space = apps["cleme2"].SPACE
    built = space.controls()
    values = [{"alpha": "", "beta": 1.0}.get(c.name, c.value) for c in built]
    options, picked = space.by_name(built, [*values, "cleme", "shapley"])
    assert picked == {"metric": "cleme", "attribution": "shapley"}
    assert space.run_options(options, picked)["beta"] == 1.0 and "alpha" not in space.run_options(options, picked)
    assert space.visibility(options, picked)["beta"] and not space.visibility(options, {"metric": "cleme2"})["beta"]


def test_llm_space_offers_each_metrics_criteria_and_llm_e_options_for_llm_e_only():
    """One Space for LLM-S and LLM-E: criteria lists both metrics' choices, each help says whose;
    the options only LLM-E declares are hidden and not passed for LLM-S."""
    space = _load_app("llm_eval").SPACE
    built = space.controls()
    criteria = next(c for c in built if c.name == "criteria")
    assert criteria.choices == ("none", "grammaticality", "fluency", "meaning", "difficulty", "impact")
    assert criteria.help.startswith("llm_s: ") and "; llm_e: " in criteria.help
    values = [c.value for c in built]
    for metric, shown_for in (("llm_s", False), ("llm_e", True)):
        options, picked = space.by_name(built, [*values, metric, ""])
        visible = space.visibility(options, picked)
        passed = space.run_options(options, picked)
        for name in ("edit_format", "lang", "tokenize"):
            assert visible[name] is shown_for and (name in passed) is shown_for
        assert gecscore.load(metric, **passed).config.criteria == "none"


def test_a_single_dependent_option_gets_its_update_itself():
    """GoToScorer's weight_match is the only option that another (no_weight) decides: its
    visibility update is returned as such, not as a one-item list (which Gradio would read as
    the radio's value, refusing it)."""
    app = _load_app("gotoscorer")
    update = next(f.fn for f in app.demo.fns.values() if getattr(f.fn, "__name__", "") == "update")
    built = app.SPACE.controls()
    for no_weight, visible in ((True, False), (False, True)):
        values = [no_weight if c.name == "no_weight" else c.value for c in built]
        assert update(*values, None) == {"__type__": "update", "visible": visible}


# ---------------------------------------------------------------- widget kinds of a toy config

@dataclass(frozen=True)
class ToyConfig:
    conditions: ClassVar = {"depth": When("mode", ("deep",))}

    flag: bool = option(False, "a switch")
    mode: str = option("shallow", "how", choices=("shallow", "deep"))
    depth: int = option(2, "how deep", minimum=1, maximum=8)
    ratio: float = option(0.5, "a share", exclusive_minimum=0, maximum=1)
    limit: int | None = option(None, "a cap (default: none)", kind=int, minimum=1)
    label: str = option("plain", "a name")
    tags: tuple[str, ...] | None = option(None, "comma-separated tags", kind=(tuple, list))
    flavour: str | None = option(None, "one of many (default: vanilla)", kind=str,
                                 choices=("a", "b", "c", "d", "e", "f", "g"))
    grain: str | None = option(None, "an optional granularity", kind=str, choices=("coarse", "fine"))


def test_toy_config_gets_the_right_widget_kinds():
    built = {c.name: c for c in controls_for([f.name for f in fields_of(ToyConfig)], {"toy": ToyConfig})}
    assert {n: c.widget for n, c in built.items()} == {
        "flag": "checkbox", "mode": "radio", "depth": "number", "ratio": "number", "limit": "textbox",
        "label": "textbox", "tags": "textbox", "flavour": "dropdown", "grain": "radio"}
    assert built["depth"].number is int and (built["depth"].minimum, built["depth"].maximum) == (1, 8)
    assert built["ratio"].number is float and (built["ratio"].minimum, built["ratio"].maximum) == (0, 1)
    assert built["limit"].number is int and built["limit"].placeholder == "default: none"
    assert built["label"].value == "plain" and built["label"].placeholder == "default: plain"
    assert built["grain"].choices == ("default", "coarse", "fine") and built["grain"].value == "default"
    assert built["grain"].value_of("default") is None and built["grain"].value_of("fine") == "fine"
    assert built["flavour"].choices[0] == "default" and built["flavour"].value_of("default") is None
    assert built["tags"].value_of(" x, y ") == ("x", "y") and built["tags"].value_of("") is None
    assert built["label"].value_of("") is None and built["flag"].value_of(None) is False
    assert built["limit"].elem_id == "gec-limit"
    # per_type's None means "no table": its first choice says "none", as the per-type panel reads it
    per_type = control_for("per_type", {"pt_m2": PtM2Config})
    assert per_type.choices == per_type_view.CHOICES and per_type.choices[0] == "none"
    assert per_type_view.option_value(per_type.value) is None is per_type.value_of(per_type.value)
    # an empty box for an option with a default leaves the default; an unset optional stays None
    got = options_for(ToyConfig, option_values(list(built.values()),
                                               [True, "deep", 5, 0.25, "", "", "", "default", "fine"]))
    assert got == {"flag": True, "mode": "deep", "depth": 5, "ratio": 0.25, "limit": None, "tags": None,
                   "flavour": None, "grain": "fine"}
    assert "depth" not in options_for(ToyConfig, {"mode": "shallow", "depth": 5})


def test_toy_config_widgets_are_gradio_components_with_the_declaration():
    gr = pytest.importorskip("gradio")
    built = controls_for(["flag", "mode", "depth", "ratio", "limit", "flavour"], {"toy": ToyConfig})
    with gr.Blocks():
        widgets = [controls.build_widget(c) for c in built]
    flag, mode, depth, ratio, limit, flavour = widgets
    assert isinstance(flag, gr.Checkbox) and flag.value is False and flag.info == "a switch"
    assert isinstance(mode, gr.Radio) and _choice_values(mode) == ["shallow", "deep"] and mode.value == "shallow"
    assert isinstance(depth, gr.Number) and depth.precision == 0 and (depth.minimum, depth.maximum) == (1, 8)
    assert isinstance(ratio, gr.Number) and ratio.precision is None and ratio.value == 0.5
    assert isinstance(limit, gr.Textbox) and limit.placeholder == "default: none" and limit.elem_id == "gec-limit"
    assert isinstance(flavour, gr.Dropdown) and _choice_values(flavour)[0] == "default"


def test_unknown_or_repeated_option_is_refused():
    with pytest.raises(gecscore.errors.GecInputError, match="not an option"):
        control_for("alpha", {"pt_m2": PtM2Config})
    with pytest.raises(ValueError, match="twice"):
        controls_for(["beta", "beta"], {"pt_m2": PtM2Config})
    with pytest.raises(ValueError):
        option_values([Control("x", "checkbox", False, False, "")], [])


def test_a_language_choice_reaches_the_metric():
    """The language is a choice of the CLEME2.0, PT-M2 and I-measure Spaces (en, zh), generated
    from its one declaration, and a Chinese request scores at character level."""
    (control,) = controls_for(["lang"], {"cleme2": Cleme2Config}, {"lang": ("en", "zh")})
    assert (control.widget, control.default, control.choices) == ("radio", "en", ("en", "zh"))
    options = options_for(Cleme2Config, option_values([control], ["zh"]))
    assert options == {"lang": "zh"}
    result = gecscore.load("cleme2", **options).compute(["他去学校了昨天。"], ["他昨天去学校了。"], [["他昨天去学校了。"]])
    assert result.score == 1.0 and "|lang:zh|" in str(result.signature)
