"""The evaluate module metrics/cleme2: offline load, add_batch, distributed mode."""
from __future__ import annotations

import multiprocessing
import os

import pytest

evaluate = pytest.importorskip("evaluate", reason="evaluate is not installed (a base requirement: pip install -e .)")

from datapaths import REPO, example_corpus, library_result, offline_hub

MODULE = str(REPO / "metrics" / "cleme2")


pytestmark = pytest.mark.usefixtures("offline_hub")  # every test loads the module offline


def test_load_offline_and_compute_matches_library():
    metric = evaluate.load(MODULE)
    sources, hyps, refs = example_corpus()
    result = metric.compute(sources=sources, predictions=hyps, references=refs)
    assert result == library_result("cleme2", sources, hyps, refs)
    assert set(result) >= {"score", "hit", "wrong", "under", "over", "tp", "fp_ne", "fp_un", "fn", "signature"}
    perfect = metric.compute(sources=sources, predictions=[r[0] for r in refs], references=refs)
    assert (perfect["hit"], perfect["wrong"], perfect["under"]) == (1.0, 0.0, 0.0)


def test_add_batch_equals_one_compute_and_options_pass_through():
    metric = evaluate.load(MODULE)
    sources, hyps, refs = example_corpus()
    metric.add_batch(sources=sources[:2], predictions=hyps[:2], references=refs[:2])
    metric.add_batch(sources=sources[2:], predictions=hyps[2:], references=refs[2:])
    batched = metric.compute(level="sentence", assumption="ind")
    assert batched == library_result("cleme2", sources, hyps, refs, level="sentence", assumption="ind")
    for source, hyp, ref in zip(sources, hyps, refs):
        metric.add(sources=source, predictions=hyp, references=ref)
    cleme = metric.compute(metric="cleme")
    assert set(cleme) >= {"p", "r", "f", "tp", "fp", "fn", "tn"}


def test_bad_input_is_a_clear_error():
    metric = evaluate.load(MODULE)
    with pytest.raises(ValueError, match=r"sources\[1\]: empty source"):
        metric.compute(sources=["a b .", "  "], predictions=["a b .", "c"], references=[["a b ."], ["c"]])
    with pytest.raises(ValueError, match="assumption: unknown value"):
        metric.compute(sources=["a ."], predictions=["a ."], references=[["a ."]], assumption="xx")


def _distributed_worker(process_id: int, cache_dir: str, queue) -> None:
    import evaluate as ev

    os.environ["HF_HUB_OFFLINE"] = "1"
    sources, hyps, refs = example_corpus()
    half = slice(0, 2) if process_id == 0 else slice(2, None)
    metric = ev.load(MODULE, num_process=2, process_id=process_id, experiment_id="cleme2-dist-test",
                     cache_dir=cache_dir)
    metric.add_batch(sources=sources[half], predictions=hyps[half], references=refs[half])
    queue.put((process_id, metric.compute()))


@pytest.mark.slow
def test_distributed_two_processes(tmp_path):
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    workers = [context.Process(target=_distributed_worker, args=(i, str(tmp_path), queue)) for i in range(2)]
    for worker in workers:
        worker.start()
    results = dict(queue.get(timeout=240) for _ in workers)
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    sources, hyps, refs = example_corpus()
    assert results[1] is None                      # only process 0 computes
    assert results[0] == library_result("cleme2", sources, hyps, refs)


def test_one_reference_string_per_example_as_sacrebleu_allows():
    metric = evaluate.load(MODULE)
    sources, hyps, refs = example_corpus()
    as_strings = metric.compute(sources=sources, predictions=hyps, references=[r[0] for r in refs])
    assert as_strings == library_result("cleme2", sources, hyps, [[r[0]] for r in refs])
    assert "|refs:1|" in as_strings["signature"]
