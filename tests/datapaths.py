"""Where the real evaluation data lives (GEC_DATA, default ../shared/data beside the repo)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
GEC_DATA = Path(os.environ.get("GEC_DATA", REPO.parent / "shared" / "data"))
CONLL14 = GEC_DATA / "conll14"
EXAMPLES = REPO / "examples"


def require(path: Path) -> Path:
    """Skip the calling test when a data file is absent."""
    if not path.exists():
        pytest.skip(f"evaluation data not found at {path} (set GEC_DATA)")
    return path


def example_corpus() -> tuple[list[str], list[str], list[list[str]]]:
    """The bundled examples/: sources, hypotheses and two references per sentence."""
    read = lambda name: (EXAMPLES / name).read_text(encoding="utf-8").splitlines()
    sources, hyps = read("source.txt"), read("hypothesis.txt")
    refs = [list(pair) for pair in zip(read("reference0.txt"), read("reference1.txt"))]
    return sources, hyps, refs


@pytest.fixture
def offline_hub(monkeypatch):
    """No Hugging Face Hub or datasets access in the test (evaluate.load of a local module)."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")


def library_result(name: str, sources, predictions, references, **options) -> dict:
    """The contract dictionary of ``gecscore.load(name, **options)`` on parallel text."""
    import gecscore

    return gecscore.load(name, **options).compute(sources, predictions, references).as_dict()
