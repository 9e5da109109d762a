"""The evaluate module metrics/llm_eval, one module for LLM-S (the default) and LLM-E
(``metric="llm_e"``): loads offline, gives exactly the library's numbers against the local
judge server, keeps each metric's own options, accepts add_batch and no references."""
from __future__ import annotations

import pytest

import gecscore
from datapaths import REPO, offline_hub  # noqa: F401 - fixture
from judge_server import JudgeServer
from llm_eval_server import LlmEvalSimulator

evaluate = pytest.importorskip("evaluate", reason="evaluate is not installed (a base requirement: pip install -e .)")
pytestmark = pytest.mark.usefixtures("offline_hub")

MODULE = REPO / "metrics" / "llm_eval"
SOURCES = [f"this are sentence {i} with a error ." for i in range(6)]
PREDICTIONS = [f"This is sentence {i} with an error ." for i in range(6)]


@pytest.fixture(scope="module")
def server():
    with JudgeServer(LlmEvalSimulator()) as running:
        yield running


def without_judge(result: dict) -> dict:
    """The result without the judge's counts (which describe the run: calls or cache hits)."""
    return {k: v for k, v in result.items() if k != "judge"}


@pytest.mark.parametrize("metric", ["llm_s", "llm_e"])
def test_module_gives_the_library_numbers(metric, server, tmp_path):
    module = evaluate.load(str(MODULE))
    options = dict(base_url=server.base_url, model="sim", cache=str(tmp_path / "judge.sqlite"))
    got = module.compute(sources=SOURCES, predictions=PREDICTIONS, metric=metric, **options)
    library = gecscore.load(metric, **options)
    try:
        expected = library.compute(SOURCES, PREDICTIONS).as_dict()   # the same answers, from the cache
    finally:
        library.close()
    assert without_judge(got) == without_judge(expected)
    assert got["metric"] == metric and got["signature"].startswith(f"{metric}|")
    assert expected["judge"]["cache_hits"] == expected["judge"]["requests"]
    # references are ignored; add_batch gives the same
    with_refs = module.compute(sources=SOURCES, predictions=PREDICTIONS, references=[[p] for p in PREDICTIONS],
                               metric=metric, **options)
    assert without_judge(with_refs) == without_judge(got)
    module.add_batch(sources=SOURCES[:3], predictions=PREDICTIONS[:3])
    module.add_batch(sources=SOURCES[3:], predictions=PREDICTIONS[3:])
    assert without_judge(module.compute(metric=metric, **options)) == without_judge(got)


def test_llm_s_is_the_default_and_each_metric_keeps_its_options(server):
    module = evaluate.load(str(MODULE))
    options = dict(base_url=server.base_url, model="sim", no_cache=True)
    default = module.compute(sources=SOURCES[:2], predictions=PREDICTIONS[:2], **options)
    assert default["metric"] == "llm_s"
    # LLM-E's own options: its defaults when not given, refused for LLM-S
    edits = module.compute(sources=SOURCES[:2], predictions=PREDICTIONS[:2], metric="llm_e", **options)
    assert "|edits:inline|" in edits["signature"] and "|tok:no|" in edits["signature"]
    listed = module.compute(sources=SOURCES[:2], predictions=PREDICTIONS[:2], metric="llm_e", edit_format="list",
                            **options)
    assert "|edits:list|" in listed["signature"]
    with pytest.raises(gecscore.errors.GecOptionError, match="edit_format: not an option of llm_s"):
        module.compute(sources=SOURCES[:2], predictions=PREDICTIONS[:2], edit_format="list", **options)
    # criteria: each metric's own
    focused = module.compute(sources=SOURCES[:2], predictions=PREDICTIONS[:2], metric="llm_e", criteria="impact",
                             **options)
    assert "|criteria:impact|" in focused["signature"]
    with pytest.raises(gecscore.errors.GecOptionError, match="criteria"):
        module.compute(sources=SOURCES[:2], predictions=PREDICTIONS[:2], metric="llm_s", criteria="impact", **options)
    # after a refused call the module works as new
    assert module.compute(sources=SOURCES[:2], predictions=PREDICTIONS[:2], **options)["score"] == default["score"]
