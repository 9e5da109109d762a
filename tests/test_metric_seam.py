"""The metric seam: one config per metric, the same signature from every entry point, and
signatures that tell apart the input facts that change the number."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import gecscore
from gecscore.cli import main
from gecscore.errors import GecInputError, GecOptionError
from gecscore.io.m2 import format_m2
from gecscore.metric import PREPARED
from gecscore.registry import metric_names
from gecscore.options import fields_of

from datapaths import EXAMPLES, example_corpus

TEXT = ["--src", str(EXAMPLES / "source.txt"), "--hyp", str(EXAMPLES / "hypothesis.txt"),
        "--ref", str(EXAMPLES / "reference0.txt"), "--ref", str(EXAMPLES / "reference1.txt")]


def cli_json(capsys, *argv) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def facts(signature: str) -> dict[str, str]:
    return dict(part.split(":", 1) for part in str(signature).split("|")[1:])


@pytest.mark.parametrize("name, options, flags", [
    ("cleme2", {}, []),
    ("cleme2", {"level": "sentence", "assumption": "ind", "alpha": "0.25,0.25,0.25,0.25"},
     ["--level", "sentence", "--assumption", "ind", "--alpha", "0.25,0.25,0.25,0.25"]),
    ("cleme", {"weighting": "none", "beta": 1.0}, ["--weighting", "none", "--beta", "1"]),
    ("pt_m2", {"scorer": "none", "level": "sentence"}, ["--scorer", "none", "--level", "sentence"]),
    ("pt_m2", {"scorer": "none", "base": "errant"}, ["--scorer", "none", "--base", "errant"]),
    ("imeasure", {"no_mix": True, "w": 3.0}, ["--no-mix", "--w", "3"]),
])
def test_cli_evaluate_module_and_load_give_one_signature_and_one_result(capsys, name, options, flags):
    evaluate = pytest.importorskip("evaluate", reason="evaluate is not installed (a base requirement: pip install -e .)")
    from datapaths import REPO

    sources, hyps, refs = example_corpus()
    library = gecscore.load(name, **options).compute(sources, hyps, refs).as_dict()
    command = cli_json(capsys, name, *TEXT, *flags)
    module_name = "cleme2" if name in ("cleme", "cleme2") else name
    extra = {"metric": name} if module_name == "cleme2" and name == "cleme" else {}
    module = evaluate.load(str(REPO / "metrics" / module_name)).compute(
        sources=sources, predictions=hyps, references=refs, **options, **extra)
    assert library["signature"] == command["signature"] == module["signature"]
    assert library == command == module


def test_signature_tells_one_reference_from_two():
    sources, hyps, refs = example_corpus()
    metric = gecscore.load("cleme2")
    one = metric.compute(sources, hyps, [r[:1] for r in refs]).signature
    two = metric.compute(sources, hyps, refs).signature
    varying = metric.compute(sources, hyps, [r[:1] if i % 2 else r for i, r in enumerate(refs)]).signature
    assert (facts(one)["refs"], facts(two)["refs"], facts(varying)["refs"]) == ("1", "2", "var")
    assert len({str(one), str(two), str(varying)}) == 3


def test_signature_tells_tokenised_from_as_given():
    sources, hyps, refs = example_corpus()
    as_given = gecscore.load("pt_m2", scorer="none").compute(sources, hyps, refs).signature
    tokenised = gecscore.load("pt_m2", scorer="none", tokenize=True).compute(sources, hyps, refs).signature
    assert (facts(as_given)["tok"], facts(tokenised)["tok"]) == ("no", "yes")
    assert str(as_given) != str(tokenised)


def test_signature_tells_m2_gold_from_text_gold(capsys, tmp_path):
    sources, hyps, refs = example_corpus()
    metric = gecscore.load("cleme2")
    prepared = metric.prepare_text(sources, refs)
    (tmp_path / "gold.m2").write_text("\n".join(format_m2(g.source, g.targets()) for g in prepared.gold.sentences))
    from_m2 = cli_json(capsys, "cleme2", "--m2", str(tmp_path / "gold.m2"), "--hyp", str(EXAMPLES / "hypothesis.txt"))
    from_text = cli_json(capsys, "cleme2", *TEXT)
    assert (facts(from_m2["signature"])["gold"], facts(from_text["signature"])["gold"]) == ("m2", "errant")
    assert from_m2["signature"] != from_text["signature"]
    assert {k: v for k, v in from_m2.items() if k != "signature"} == \
        {k: v for k, v in from_text.items() if k != "signature"}   # the same edits, the same numbers


def test_every_metric_declares_validated_options():
    for name in metric_names():
        config_type = gecscore.metric.metric_class(name).config_type
        declared = list(fields_of(config_type))
        assert declared and all(f.metadata["help"] for f in declared)
        config_type()   # the defaults are valid


@pytest.mark.parametrize("name, option, value, message", [
    ("cleme2", "alpha", "nan,0,0,1", "must be finite"),
    ("cleme", "beta", float("nan"), "finite"),
    ("cleme", "beta", float("inf"), "finite"),
    ("cleme", "beta", 0, "greater than 0"),
    ("pt_m2", "max_unchanged_words", -1, "at least 0"),
    ("pt_m2", "max_unchanged_words", 1.5, "must be int"),
    ("pt_m2", "scorer", "bert", "unknown value 'bert'"),
    ("imeasure", "w", float("nan"), "finite"),
    ("imeasure", "max", "cxyz", "max"),
    ("dsgram", "top_p", 1.5, "at most 1"),
    ("cleme2", "tokenize", "yes", "must be bool"),
])
def test_bad_options_name_the_option_everywhere(capsys, name, option, value, message):
    with pytest.raises(GecOptionError, match=message) as caught:
        gecscore.load(name, **{option: value})
    assert caught.value.option == option and str(caught.value).startswith(f"{option}: ")


def test_cli_names_the_flag(capsys):
    assert main(["cleme", *TEXT, "--beta", "nan"]) == 2
    assert "error: argument --beta: must be a finite number, got 'nan'" in capsys.readouterr().err
    assert main(["pt_m2", *TEXT, "--max-unchanged-words", "-1"]) == 2
    assert "error: argument --max-unchanged-words: must be at least 0, got -1" in capsys.readouterr().err


def test_unknown_option_and_metric():
    with pytest.raises(GecOptionError, match="unknown option"):
        gecscore.load("cleme2", alhpa="0.25,0.25,0.25,0.25")
    with pytest.raises(GecInputError, match="unknown metric"):
        gecscore.load("bleu")


def test_reference_side_is_prepared_once_per_text():
    sources, hyps, refs = example_corpus()
    metric = gecscore.load("cleme2", level="sentence")
    PREPARED.clear()
    hits, misses = PREPARED.hits, PREPARED.misses
    first = metric.compute(sources, hyps, refs).as_dict()
    second = metric.compute(sources, [r[0] for r in refs], refs).as_dict()
    third = gecscore.load("cleme").compute(sources, hyps, refs).as_dict()   # same reference side
    assert (PREPARED.misses - misses, PREPARED.hits - hits) == (1, 2)
    assert (second["wrong"], second["under"], second["over"]) == (0.0, 0.0, 0.0) and first["wrong"] > 0
    assert third["metric"] == "cleme"
    changed = metric.compute(sources, hyps, [[r[0] + " x"] for r in refs])
    assert PREPARED.misses - misses == 2 and facts(changed.signature)["refs"] == "1"


def test_result_statistics_give_back_the_score():
    import numpy as np

    sources, hyps, refs = example_corpus()
    for name, options in (("cleme2", {}), ("cleme2", {"level": "sentence"}), ("cleme", {}),
                          ("pt_m2", {"scorer": "none"}), ("pt_m2", {"scorer": "none", "level": "sentence"}),
                          ("imeasure", {})):
        result = gecscore.load(name, **options).compute(sources, hyps, refs)
        assert len(result.sentence_stats) == len(sources)
        assert result.statistic(np.mean(result.sentence_stats, axis=0)) == pytest.approx(result.score, abs=1e-12)
        assert len(result.records()) == len(sources)


@pytest.mark.realdata
def test_m2_through_the_cli_gives_the_official_conll14_figures(capsys):
    from datapaths import CONLL14, require

    out = cli_json(capsys, "pt_m2", "--m2", str(require(CONLL14 / "official-2014.combined.m2")),
                   "--hyp", str(CONLL14 / "systems" / "AMU.txt"), "--scorer", "none")
    assert (out["correct"], out["proposed"], out["gold"]) == (509, 1223, 2378)
    assert (round(out["p"], 4), round(out["r"], 4), round(out["score"], 4)) == (0.4162, 0.2140, 0.3501)
    assert facts(out["signature"])["gold"] == "m2" and "errant" not in facts(out["signature"])


def test_segmentation_default_is_the_reference_for_every_scorer_and_is_in_the_signature():
    # the reference code's segmentation whatever the scorer: plain M2 with "minimal" gave other
    # counts than m2scorer 3.2 on SEEDA's fluent rewrites (tests/test_oracles.py)
    assert gecscore.load("pt_m2").config.segmentation == "reference"
    assert gecscore.load("pt_m2", scorer="none").config.segmentation == "reference"
    assert gecscore.load("pt_m2", scorer="none", level="sentence").config.segmentation == "reference"
    assert gecscore.load("pt_m2", scorer="none", segmentation="minimal").config.segmentation == "minimal"
    sources, hyps, refs = example_corpus()
    minimal = gecscore.load("pt_m2", scorer="none", segmentation="minimal").compute(sources, hyps, refs)
    reference = gecscore.load("pt_m2", scorer="none").compute(sources, hyps, refs)
    assert facts(minimal.signature)["segmentation"] == "minimal" != facts(reference.signature)["segmentation"]
    assert {k: v for k, v in minimal.values.items()} == {k: v for k, v in reference.values.items()}


def test_a_line_past_the_maxmatch_limit_is_a_clear_error_an_option_can_raise(capsys):
    long_source = " ".join(f"w{i}" for i in range(300))
    long_hypothesis = long_source.replace("w7 ", "w7 x ")
    metric = gecscore.load("pt_m2", scorer="none", max_cells=10_000)
    with pytest.raises(GecInputError, match=r"sentence 1: 300 source x 301 hypothesis tokens .* max_cells=10,000"):
        metric.compute([long_source], [long_hypothesis], [[long_hypothesis]])
    raised = gecscore.load("pt_m2", scorer="none", max_cells=100_000).compute([long_source], [long_hypothesis],
                                                                             [[long_hypothesis]])
    assert raised.score == 1.0


def test_score_refuses_a_reference_side_prepared_under_other_options():
    """A Prepared remembers the options that shaped it; another metric's score names the
    difference instead of scoring against it."""
    tokenised = gecscore.load("cleme2", tokenize=True)
    prepared = tokenised.prepare_text(["He go home."], [["He goes home."]])
    with pytest.raises(GecInputError, match="tokenize: prepared with yes, this metric has no"):
        gecscore.load("cleme2").score(prepared, ["He goes home."])
    # CLEME and CLEME2.0 build the same reference side: either may score it
    assert gecscore.load("cleme", tokenize=True).score(prepared, ["He goes home."]).score == 1.0
    with pytest.raises(GecInputError, match="reference side: prepared with chunks, this metric has m2"):
        gecscore.load("pt_m2", scorer="none", tokenize=True).score(prepared, ["He goes home."])
    with pytest.raises(GecInputError, match="needs the reference side from prepare"):
        gecscore.load("cleme2").score(["He goes home ."], ["He goes home ."])
    imeasure = gecscore.load("imeasure", no_mix=True)
    with pytest.raises(GecInputError, match="no_mix: prepared with yes, this metric has no"):
        gecscore.load("imeasure").score(imeasure.prepare_text(["a b"], [["a c"]]), ["a c"])


def test_cross_option_rules_are_checked_at_load():
    from gecscore.errors import GecOptionError

    with pytest.raises(GecOptionError, match="precision: bf16 needs scorer=bertscore"):
        gecscore.load("pt_m2", scorer="bartscore", precision="bf16")
    with pytest.raises(GecOptionError, match="precision: fp16 needs a CUDA device, not device=cpu"):
        gecscore.load("pt_m2", precision="fp16", device="cpu")
    with pytest.raises(GecOptionError, match="precision: fp16 needs a CUDA device"):
        gecscore.load("cleme2", weighting="similarity", precision="fp16", device="cpu")
    # an option that does not apply is accepted and left out of the signature
    result = gecscore.load("pt_m2", scorer="none", precision="bf16").compute(["a b"], ["a c"], [["a c"]])
    assert "precision" not in str(result.signature)
