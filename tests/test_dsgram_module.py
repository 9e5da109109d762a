"""The evaluate module metrics/dsgram: loads offline, computes the library's numbers against the
local judge server, accepts add/add_batch, works without references and in distributed mode."""
from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from judge_server import DSGramSimulator, JudgeServer
from gecscore.judge import Judge, OpenAIChatBackend
from gecscore.dsgram.scorer import result_values, score_dsgram

REPO = Path(__file__).resolve().parent.parent
MODULE = REPO / "metrics" / "dsgram"
SOURCES = [f"this are sentence {i} with a error ." for i in range(6)]
PREDICTIONS = [f"This is sentence {i} with an error ." for i in range(6)]


@pytest.fixture(scope="module")
def evaluate_offline():
    saved = {k: os.environ.get(k) for k in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE")}
    os.environ.update(HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    import evaluate
    yield evaluate
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(scope="module")
def server():
    with JudgeServer(DSGramSimulator()) as running:
        yield running


def library_result(server) -> dict:
    judge = Judge(OpenAIChatBackend("sim", server.base_url), None, progress=False)
    return result_values(score_dsgram(SOURCES, PREDICTIONS, judge))


def strip(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in ("judge", "metric", "signature")}


def test_module_matches_the_library(evaluate_offline, server, tmp_path):
    metric = evaluate_offline.load(str(MODULE))
    assert type(metric).__name__ == "Dsgram"
    options = dict(base_url=server.base_url, model="sim", cache=str(tmp_path / "c.sqlite"))
    with_refs = metric.compute(sources=SOURCES, predictions=PREDICTIONS, references=[[p] for p in PREDICTIONS],
                               **options)
    without_refs = metric.compute(sources=SOURCES, predictions=PREDICTIONS, **options)
    assert strip(with_refs) == strip(without_refs) == strip(library_result(server))
    assert without_refs["judge"]["cache_hits"] == without_refs["judge"]["requests"]
    assert set(with_refs) >= {"score", "semantic_coherence", "edit_level", "fluency", "weights", "n_inconsistent",
                              "n_failed", "signature"}


def test_add_and_add_batch(evaluate_offline, server):
    metric = evaluate_offline.load(str(MODULE))
    metric.add(sources=SOURCES[0], prediction=PREDICTIONS[0])
    metric.add_batch(sources=SOURCES[1:], predictions=PREDICTIONS[1:])
    result = metric.compute(base_url=server.base_url, model="sim", no_cache=True)
    assert strip(result) == strip(library_result(server))


def test_equal_weights_option(evaluate_offline, server):
    metric = evaluate_offline.load(str(MODULE))
    result = metric.compute(sources=SOURCES, predictions=PREDICTIONS, base_url=server.base_url, model="sim",
                            no_cache=True, weights="equal")
    means = (result["semantic_coherence"] + result["edit_level"] + result["fluency"]) / 3
    assert result["score"] == pytest.approx(means) and "weights:equal" in result["signature"]
    with pytest.raises(ValueError, match="weights: unknown value 'fixed'"):
        metric.compute(sources=SOURCES, predictions=PREDICTIONS, base_url=server.base_url, weights="fixed",
                       no_cache=True)


def test_distributed_mode(evaluate_offline, server, tmp_path):
    # Two processes (threads here) each add half; process 0 computes over both halves.
    results = {}

    def worker(rank: int) -> None:
        metric = evaluate_offline.load(str(MODULE), num_process=2, process_id=rank, experiment_id="dsgram-test",
                                       cache_dir=str(tmp_path))
        metric.add_batch(sources=SOURCES[rank * 3:(rank + 1) * 3], predictions=PREDICTIONS[rank * 3:(rank + 1) * 3])
        results[rank] = metric.compute(base_url=server.base_url, model="sim", no_cache=True)

    threads = [threading.Thread(target=worker, args=(rank,)) for rank in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert results[1] is None
    assert strip(results[0]) == strip(library_result(server))
