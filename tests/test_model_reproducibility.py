"""Issue 32, item 7: a model-backed score does not depend on the thread count, the batching or
the process beyond :data:`gecscore.models.SCORE_TOLERANCE` (the promise a leaderboard on Dask
workers or ``--jobs`` processes is tested against). BERTScore with the offline MiniLM on 120
CoNLL-2014 pairs (the bundled example's when the data is absent), every combination of 1 and
2 threads and two token budgets per batch, and a fresh process with one thread."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys

import pytest

from gecscore.models import SCORE_TOLERANCE

from datapaths import CONLL14, REPO, example_corpus

torch = pytest.importorskip("torch")


def pairs() -> list[tuple[str, str]]:
    gold, system = CONLL14 / "official-2014.combined.m2", CONLL14 / "systems" / "AMU.txt"
    if gold.exists() and system.exists():
        sources = [line[2:].strip() for line in gold.read_text().splitlines() if line.startswith("S ")][:120]
        return list(zip(system.read_text().splitlines()[:120], sources))
    sources, hypotheses, _ = example_corpus()
    return list(zip(hypotheses, sources))


SCRIPT = """
import json, sys, torch
torch.set_num_threads(1)
from gecscore.models.similarity import BertScoreF1
pairs = [tuple(p) for p in json.loads(sys.stdin.read())]
print(json.dumps(BertScoreF1(sys.argv[1], progress=False, block_tokens=256).score(pairs)))
"""


def test_bertscore_is_the_same_whatever_the_threads_the_batches_and_the_process():
    from gecscore.models.bundled import local_minilm_dir
    from gecscore.models.similarity import BertScoreF1

    model = local_minilm_dir()
    if model is None:
        pytest.skip("the offline MiniLM is not installed (make install)")
    chosen = pairs()
    threads = torch.get_num_threads()
    runs = {}
    try:
        for count, block in itertools.product((1, 2), (16, 32_768)):
            torch.set_num_threads(count)
            runs[(count, block)] = BertScoreF1(model, progress=False, block_tokens=block).score(chosen)
    finally:
        torch.set_num_threads(threads)
    other = subprocess.run([sys.executable, "-c", SCRIPT, str(model)], input=json.dumps(chosen), text=True,
                           capture_output=True, check=True, env={"PYTHONPATH": str(REPO / "shared"),
                                                                 "PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1"})
    runs["process"] = json.loads(other.stdout)
    first = runs[(2, 32_768)]
    assert len(first) == len(chosen) and len(set(first)) > len(chosen) // 2   # real, varied scores
    for key, scores in runs.items():
        assert scores == pytest.approx(first, abs=SCORE_TOLERANCE, rel=0), key
