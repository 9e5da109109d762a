"""The new metrics' Spaces compute the library's numbers (no browser: each app's ``compute`` is
called as the page calls it, with the options by name): GLEU, GREEN, GoToScorer (weights from
the uploaded systems, or a clear refusal), Scribendi, SOME and IMPARA (tiny models), and LLM-S /
LLM-E (the local judge server, the metric picked by the Space's radio)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import gecscore
from gecscore.errors import GecInputError, GecOptionError
from gecscore.spaces.examples import THREE_SENTENCES
from gecscore.spaces.inputs import corpus_input

ROOT = Path(__file__).resolve().parents[1]


def _load_app(name: str):
    pytest.importorskip("gradio", reason="gradio is not installed")
    spec = importlib.util.spec_from_file_location(f"gecscore_space_scores_{name}", ROOT / "spaces" / name / "app.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _corpus(references: bool = True):
    example = THREE_SENTENCES
    return corpus_input(example.sources, example.hypotheses, list(example.references) if references else [],
                        needs_references=references)


def _run(app, corpus, chosen: dict, **space_values):
    """The page's path: every widget at its default but the ``chosen`` ones, values by name."""
    space = app.SPACE
    controls = space.controls()
    values = [chosen.get(c.name, c.value) for c in controls]
    options, picked = space.by_name(controls, [*values, *(space_values.get(n) for n in space.space_controls)])
    return space.compute(corpus, space.run_options(options, picked), **picked)


@pytest.mark.parametrize("name, chosen", [("gleu", {"order": 2}), ("green", {"unit": "char"})])
def test_reference_based_spaces_give_the_library_numbers(name, chosen):
    corpus = _corpus()
    outcome = _run(_load_app(name), corpus, chosen)
    expected = gecscore.load(name, **chosen).compute(corpus.sources, corpus.hypotheses, corpus.references)
    assert outcome.result == expected.as_dict()
    assert [{k: v for k, v in r.items() if k not in ("source", "hypothesis")} for r in outcome.records] == \
        expected.records()
    assert [r["source"] for r in outcome.records] == corpus.sources
    assert [r["hypothesis"] for r in outcome.records] == corpus.hypotheses


def test_gotoscorer_space_weighs_with_the_uploaded_systems_or_says_what_is_missing(tmp_path):
    app = _load_app("gotoscorer")
    corpus = _corpus()
    with pytest.raises(GecInputError, match="upload the other systems' outputs, or tick no_weight"):
        _run(app, corpus, {})
    other = tmp_path / "source_copy.txt"
    other.write_text("\n".join(corpus.sources) + "\n", encoding="utf-8")
    weighted = _run(app, corpus, {}, other_systems=[str(other)])
    metric = gecscore.load("gotoscorer")
    prepared = metric.prepare_text(corpus.sources, corpus.references)
    (_, expected), _ = metric.score_systems(prepared, [("hypothesis", corpus.hypotheses), ("other", corpus.sources)])
    assert weighted.result == expected.as_dict() and "weights:2sys-" in weighted.result["signature"]
    assert "from 2 systems" in weighted.notes[0]
    unweighted = _run(app, corpus, {"no_weight": True}, other_systems=[str(other)])
    assert unweighted.result == gecscore.load("gotoscorer", no_weight=True).compute(
        corpus.sources, corpus.hypotheses, corpus.references).as_dict()
    assert "not used" in unweighted.notes[0]
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    with pytest.raises(GecInputError, match=r"other system \(short.txt\): 1 lines but the hypothesis has 3"):
        _run(app, corpus, {}, other_systems=[str(short)])


@pytest.fixture(scope="module")
def tiny_models(tmp_path_factory):
    pytest.importorskip("transformers")
    from gecscore.models.tiny import tiny_bert, tiny_gpt2

    root = tmp_path_factory.mktemp("tiny-spaces")
    return {
        "scribendi": {"lm": tiny_gpt2(str(root / "gpt2")), "device": "cpu"},
        "some": {**{aspect: tiny_bert(str(root / aspect), seed=seed)
                    for seed, aspect in enumerate(("grammaticality", "fluency", "meaning"))}, "device": "cpu"},
        "impara": {"quality_estimator": tiny_bert(str(root / "qe")),
                   "similarity_model": tiny_bert(str(root / "encoder"), regression=False, seed=1), "device": "cpu"},
    }


@pytest.mark.parametrize("name", ["scribendi", "some", "impara"])
def test_model_spaces_give_the_library_numbers(name, tiny_models, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    corpus = _corpus(references=False)
    outcome = _run(_load_app(name), corpus, tiny_models[name])
    expected = gecscore.load(name, **tiny_models[name]).compute(corpus.sources, corpus.hypotheses)
    assert outcome.result == expected.as_dict()
    assert [r["hypothesis"] for r in outcome.records] == corpus.hypotheses


def test_llm_space_scores_the_picked_metric_with_the_typed_judge():
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from judge_server import JudgeServer
    from llm_eval_server import LlmEvalSimulator

    app = _load_app("llm_eval")
    corpus = _corpus(references=False)
    with JudgeServer(LlmEvalSimulator()) as server:
        chosen = {"base_url": server.base_url, "model": "sim"}
        for metric in ("llm_s", "llm_e"):
            outcome = _run(app, corpus, chosen, metric=metric, api_key="sk-test")
            library = gecscore.load(metric, **chosen, no_cache=True)
            try:
                expected = library.compute(corpus.sources, corpus.hypotheses).as_dict()
            finally:
                library.close()
            assert outcome.result["metric"] == metric
            assert outcome.result["signature"] == expected["signature"]
            assert outcome.result["score"] == expected["score"]
        assert server.authorizations["Bearer sk-test"] > 0
        # a criterion of the other metric is refused by the picked metric's config, naming the option
        with pytest.raises(GecOptionError) as refused:
            _run(app, corpus, {**chosen, "criteria": "impact"}, metric="llm_s", api_key="sk-test")
        assert refused.value.option == "criteria"
    view = app.render_view(outcome.records)   # LLM-E's last run: the target as the judge saw it
    assert '<td data-key="shown" class="gec-text">' in view and "→" in view
