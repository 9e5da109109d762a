"""The evaluate modules of the model-backed reference-free metrics (metrics/scribendi, some,
impara): loaded offline, they give exactly the numbers of ``gecscore.load(...)`` with tiny
random models of the real architectures (no published weights exist offline), take
references or none, and name the missing model."""
from __future__ import annotations

import pytest

import gecscore
from datapaths import REPO, offline_hub  # noqa: F401 - fixture

evaluate = pytest.importorskip("evaluate", reason="evaluate is not installed (a base requirement: pip install -e .)")
pytestmark = pytest.mark.usefixtures("offline_hub")

SOURCES = ["He go to school every day .", "This is a sentence .", "This is no change ."]
PREDICTIONS = ["He goes to school every day .", "the sentence was corrected into a different one .",
               "This is no change ."]


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """Tiny GPT-2 and BERT folders, saved as users' checkpoints are (gecscore.models.tiny)."""
    pytest.importorskip("transformers")
    from gecscore.models.tiny import tiny_bert, tiny_gpt2

    root = tmp_path_factory.mktemp("tiny")
    return {
        "scribendi": {"lm": tiny_gpt2(str(root / "gpt2"))},
        "some": {aspect: tiny_bert(str(root / aspect), seed=seed)
                 for seed, aspect in enumerate(("grammaticality", "fluency", "meaning"))},
        "impara": {"quality_estimator": tiny_bert(str(root / "qe")),
                   "similarity_model": tiny_bert(str(root / "encoder"), regression=False, seed=1),
                   "threshold": 0.0},
    }


@pytest.mark.parametrize("name", ["scribendi", "some", "impara"])
def test_module_gives_the_library_numbers(name, models):
    module = evaluate.load(str(REPO / "metrics" / name))
    options = {**models[name], "device": "cpu"}
    expected = gecscore.load(name, **options).compute(SOURCES, PREDICTIONS).as_dict()
    assert module.compute(sources=SOURCES, predictions=PREDICTIONS, **options) == expected
    # references are accepted and ignored; add_batch gives the same
    with_refs = module.compute(sources=SOURCES, predictions=PREDICTIONS, references=[[p] for p in PREDICTIONS],
                               **options)
    assert with_refs == expected
    module.add_batch(sources=SOURCES[:2], predictions=PREDICTIONS[:2])
    module.add_batch(sources=SOURCES[2:], predictions=PREDICTIONS[2:])
    assert module.compute(**options) == expected
    assert expected["metric"] == name and expected["signature"].startswith(f"{name}|")


def test_scribendi_unchanged_sentences_need_no_model():
    module = evaluate.load(str(REPO / "metrics" / "scribendi"))
    result = module.compute(sources=SOURCES[2:], predictions=PREDICTIONS[2:], lm="no-such-org/no-such-model")
    assert (result["score"], result["unchanged"]) == (0.0, 1)


@pytest.mark.parametrize("name, options, option", [
    ("some", {}, "grammaticality="),
    ("impara", {"quality_estimator": "no-such-org/no-such-qe"}, "quality_estimator="),
    ("scribendi", {"lm": "no-such-org/no-such-model"}, "lm="),
])
def test_a_missing_model_is_named_and_the_module_stays_usable(name, options, option, models):
    pytest.importorskip("transformers")
    module = evaluate.load(str(REPO / "metrics" / name))
    with pytest.raises(gecscore.errors.MissingModelError, match=option):
        module.compute(sources=SOURCES[:2], predictions=PREDICTIONS[:2], device="cpu", **options)
    good = {**models[name], "device": "cpu"}
    assert module.compute(sources=SOURCES, predictions=PREDICTIONS, **good) == \
        gecscore.load(name, **good).compute(SOURCES, PREDICTIONS).as_dict()
