"""The evaluate module metrics/imeasure: offline loading, contract keys, known values."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

MODULE = Path(__file__).resolve().parents[1] / "metrics" / "imeasure"


@pytest.fixture(scope="module")
def metric():
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    evaluate = pytest.importorskip("evaluate", reason="evaluate is not installed (a base requirement: pip install -e .)")
    try:
        from gecscore.lang.en.spacy_model import load_spacy_model

        load_spacy_model()
    except Exception as error:  # no spaCy model: ERRANT cannot run
        pytest.skip(f"no spaCy English model: {error}")
    return evaluate.load(str(MODULE))


def test_module_source_rules():
    text = (MODULE / "imeasure.py").read_text(encoding="utf-8")
    assert "import evaluate\n" in text and "(evaluate.Metric)" in text
    assert "from evaluate import" not in text
    card = (MODULE / "README.md").read_text(encoding="utf-8")
    for section in ("## Metric Description", "## How to Use", "## Limitations and Bias", "## Citation"):
        assert section in card
    assert "gecscore" in (MODULE / "requirements.txt").read_text(encoding="utf-8")


def test_contract_and_values(metric):
    sources = ["This machines is designed for help people .", "He go to school ."]
    references = [["These machines are designed for helping people .", "This machine is designed to help people ."],
                  ["He goes to school .", "He went to school ."]]
    # hypotheses equal to a reference: WAcc 1 > baseline, so I = 1 (exactly, by the formula)
    result = metric.compute(sources=sources, predictions=[references[0][1], references[1][0]], references=references)
    assert result["score"] == 1.0 and result["correction"]["fp"] == 0
    assert set(result["correction"]) == {"tp", "tn", "fp", "fn", "fpn", "p", "r", "f", "acc", "acc_base",
                                         "wacc", "wacc_base", "i"}
    assert result["signature"].startswith("imeasure|mix:yes|max:cwacc|opt:sent|beta:1|w:2|tok:no|refs:2|gold:errant|errant:")
    # the do-nothing system scores exactly 0
    unchanged = metric.compute(sources=sources, predictions=sources, references=references, no_mix=True)
    assert unchanged["score"] == 0.0 and "mix:no" in unchanged["signature"]
    # add_batch works like compute
    for s, p, r in zip(sources, sources, references):
        metric.add_batch(sources=[s], predictions=[p], references=[r])
    assert metric.compute()["correction"] == metric.compute(sources=sources, predictions=sources,
                                                            references=references)["correction"]
