"""Adding an option or a metric costs one declaration: a toy metric declared in one folder
(its config with one option, its prepare/score) and one registry line is found, with its
option, default and help, by ``gecscore.load``, the CLI, an evaluate module, the leaderboard
and the signature, with nothing else written anywhere."""
from __future__ import annotations

import inspect
import json
import sys
import textwrap

import pytest

import gecscore
from gecscore.registry import ENTRIES, register_metric

TOY = '''
"""A toy metric: the share of predictions equal to their first reference, times ``factor``."""
from dataclasses import dataclass
from typing import Any

import numpy as np

from gecscore.metric import Metric, Result, first_column
from gecscore.options import option, validate


@dataclass(frozen=True)
class ToyConfig:
    factor: float = option(1.0, "multiply the share of exact matches by this", exclusive_minimum=0)

    def __post_init__(self):
        validate(self)


class ToyMetric(Metric):
    name = "toy"
    config_type = ToyConfig
    summary = "toy: exact matches times a factor"

    def prepare(self, gold):
        return self.prepared(gold)

    def _score(self, prepared, predictions, work):
        predictions = self.checked_predictions(prepared, predictions)
        hits = [float(" ".join(g.targets()[0].tokens) == p) * self.config.factor
                for g, p in zip(prepared.gold.sentences, predictions)]
        stats = np.asarray(hits, dtype=float).reshape(-1, 1)
        return Result(self.name, self.signature(prepared), {"score": float(stats.mean())}, stats, first_column)
'''

SOURCES = ["He go home .", "She like it ."]
REFERENCES = [["He goes home ."], ["She likes it ."]]
PREDICTIONS = ["He goes home .", "She like it ."]


@pytest.fixture
def toy(tmp_path, monkeypatch):
    folder = tmp_path / "toy_family"
    folder.mkdir()
    (folder / "__init__.py").write_text(textwrap.dedent(TOY))
    monkeypatch.syspath_prepend(str(tmp_path))
    register_metric("toy", "toy_family:ToyMetric", module="toy")     # the one registry line
    yield tmp_path
    ENTRIES.pop("toy")
    sys.modules.pop("toy_family", None)


def test_load_and_signature(toy):
    result = gecscore.load("toy", factor=3).compute(SOURCES, PREDICTIONS, REFERENCES)
    assert result.score == 1.5 and "|factor:3|" in str(result.signature)
    assert str(gecscore.load("toy").compute(SOURCES, PREDICTIONS, REFERENCES).signature).startswith("toy|factor:1|")
    with pytest.raises(gecscore.errors.GecOptionError, match="factor: must be greater than 0"):
        gecscore.load("toy", factor=0)


def test_cli(toy, tmp_path, capsys):
    from gecscore.cli import build_parser, main

    help_text = build_parser()._subparsers._group_actions[0].choices["toy"].format_help()
    help_text = " ".join(help_text.split())
    assert "--factor FACTOR multiply the share of exact matches by this (default 1)" in help_text
    for name, lines in (("src", SOURCES), ("hyp", PREDICTIONS), ("ref", [r[0] for r in REFERENCES])):
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n")
    assert main(["toy", "--src", str(tmp_path / "src.txt"), "--hyp", str(tmp_path / "hyp.txt"),
                 "--ref", str(tmp_path / "ref.txt"), "--factor", "4", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["score"] == 2.0 and "|factor:4|" in out["signature"]


def test_evaluate_module(toy, tmp_path):
    from gecscore.evaluate_info import compute_method, options_description

    compute = compute_method("toy")
    parameters = inspect.signature(compute).parameters
    assert parameters["factor"].default == 1.0 and parameters["factor"].kind is inspect.Parameter.KEYWORD_ONLY
    assert not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    assert "factor: multiply the share of exact matches by this (default 1.0)" in options_description("toy")
    assert "factor" in compute.__doc__
    assert compute(None, SOURCES, PREDICTIONS, REFERENCES, factor=2.0)["score"] == 1.0
    # as an evaluate module script, the way metrics/<name>/<name>.py are written
    import evaluate

    module = tmp_path / "toy_module"
    module.mkdir()
    (module / "toy_module.py").write_text(textwrap.dedent('''
        import evaluate
        from gecscore.evaluate_info import compute_method
        from gecscore.evaluate_info import gec_metric_info
        from gecscore.evaluate_info import input_methods


        class Toy(evaluate.Metric):
            def _info(self):
                return gec_metric_info("toy", "", "")

            compute, add_batch, add = input_methods("toy")
            _compute = compute_method("toy")
        '''))
    loaded = evaluate.load(str(module))
    assert loaded.compute(sources=SOURCES, predictions=PREDICTIONS, references=REFERENCES, factor=6.0)["score"] == 3.0


def test_leaderboard(toy, tmp_path):
    from gecscore.io.m2 import read_m2
    from gecscore.leaderboard.board import run_leaderboard
    from gecscore.leaderboard.systems import discover_systems
    from gecscore.benchdata.refsets import load_refset
    from gecscore.leaderboard.specs import resolve

    (tmp_path / "gold.m2").write_text("S He go home .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
                                      "S She like it .\nA 1 2|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||0\n\n")
    assert len(read_m2(tmp_path / "gold.m2")) == 2
    (tmp_path / "systems").mkdir()
    (tmp_path / "systems" / "HALF.txt").write_text("\n".join(PREDICTIONS) + "\n")
    configs, _ = resolve(["toy:factor=5"])
    assert configs[0].metric == "toy" and configs[0].option_dict == {"factor": 5.0}
    with pytest.raises(gecscore.errors.GecOptionError, match="factor: must be greater than 0"):
        resolve(["toy:factor=0"])
    board = run_leaderboard(load_refset(tmp_path / "gold.m2"), discover_systems(tmp_path / "systems"),
                            ["toy:factor=5"], progress=False)
    cell = board.scores["HALF"]["toy:factor=5"]
    assert cell.score == 2.5 and "|factor:5|" in cell.signature


def test_space_control(toy):
    """A Space listing the option gets its widget from the declaration, and its value back by name."""
    from gecscore.registry import metric_class
    from gecscore.spaces.controls import controls_for, option_values

    (control,) = controls_for(["factor"], {"toy": metric_class("toy").config_type})
    assert (control.widget, control.default, control.value, control.number) == ("number", 1.0, 1.0, float)
    assert control.help == "multiply the share of exact matches by this" and control.elem_id == "gec-factor"
    options = option_values([control], ["2.5"])
    assert options == {"factor": 2.5}
    assert gecscore.load("toy", **options).compute(SOURCES, PREDICTIONS, REFERENCES).score == 1.25
