"""The LightEval integration end to end, offline: a tiny random GPT-2 (built here from a config,
with a word-level tokenizer trained on a few sentences) and a replay model generate through
LightEval's pipeline; the scores LightEval reports must be ``gecscore.load(...)``'s on the
generations LightEval saved in its details."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("lighteval", reason="lighteval is not installed (pip install 'gecscore[lighteval]'; "
                                        "tested with lighteval 0.13.0)")

import gecscore  # noqa: E402
from gecscore.integrations.lighteval import data  # noqa: E402
from gecscore.integrations.lighteval.metrics import DEFAULT_METRICS, PREPARED, prediction_text  # noqa: E402

from datapaths import GEC_DATA, require  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
SOURCES = ["He go home .", "She like apples and banana .", "This is fine .", "I has a dogs .",
           "They was late for the the meeting ."]
REFS0 = ["He goes home .", "She likes apples and bananas .", "This is fine .", "I have a dog .",
         "They were late for the meeting ."]
REFS1 = ["He went home .", "She likes apples and bananas .", "This is fine .", "I have dogs .",
         "They were late for the meeting ."]
HYPS = ["He goes home .", "She like apples and bananas .", "This is fine .", "I have a dogs .",
        "They were late for the the meeting ."]


@pytest.fixture(autouse=True)
def offline(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("GEC_LIGHTEVAL_BOOTSTRAP", "200")


def write_corpus(folder: Path) -> tuple[Path, list[Path]]:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "src.txt").write_text("\n".join(SOURCES) + "\n", encoding="utf-8")
    refs = []
    for k, lines in enumerate((REFS0, REFS1)):
        (folder / f"ref{k}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        refs.append(folder / f"ref{k}.txt")
    return folder / "src.txt", refs


def direct_scores(sources: list[str], references: list[list[str]], predictions: list[str]) -> dict[str, float]:
    """What gecscore.load computes for each metric of the task family."""
    out = {}
    for label, (name, options) in DEFAULT_METRICS.items():
        metric = gecscore.load(name, **options)
        out[label] = metric.score(metric.prepare_text(sources, references), predictions).score
    return out


def details_predictions(output_dir: Path, task: str) -> dict[int, tuple[str, str]]:
    """corpus index -> (the model's raw text, the prediction our metrics scored), from the
    details parquet LightEval wrote."""
    import pandas as pd

    files = sorted((output_dir / "details").rglob(f"details_{task}|0_*.parquet"))
    assert files, f"no details for {task} under {output_dir}"
    frame = pd.read_parquet(files[-1])
    out = {}
    for doc, response, metric in zip(frame["doc"], frame["model_response"], frame["metric"]):
        index = int(doc["specific"]["index"])
        raw = list(response["text"])
        out[index] = (raw[0], metric["gleu"]["prediction"])
    return out


def results_json(output_dir: Path) -> dict:
    files = sorted((output_dir / "results").rglob("results_*.json"))
    assert files, f"no results under {output_dir}"
    return json.loads(files[-1].read_text(encoding="utf-8"))


def test_prediction_text_takes_the_first_nonblank_line():
    assert prediction_text(["\n  He goes home . \nmore text"]) == "He goes home ."
    assert prediction_text([""]) == ""


def test_materialized_corpus_loads_offline_in_corpus_order(tmp_path):
    from datasets import load_dataset

    source, refs = write_corpus(tmp_path / "c")
    corpus = data.from_files(source, refs)
    folder = data.materialize(corpus, tmp_path / "m")
    assert data.materialize(corpus, tmp_path / "m") == folder  # written once per text
    rows = load_dataset(str(folder), "default")["test"]
    assert [r["index"] for r in rows] == list(range(len(SOURCES)))
    assert rows[3]["source"] == SOURCES[3] and rows[3]["references"] == [REFS0[3], REFS1[3]]


def test_reference_files_of_another_length_are_refused(tmp_path):
    from gecscore.errors import GecInputError

    source, refs = write_corpus(tmp_path / "c")
    refs[1].write_text("only one line\n", encoding="utf-8")
    with pytest.raises(GecInputError, match="1 lines but"):
        data.from_files(source, refs)


def test_batched_metric_scores_in_corpus_order_and_aggregates_to_the_result(tmp_path):
    """The metric itself, without a pipeline: documents arrive shuffled (as LightEval sends
    them); values come back in the documents' order, each carrying its sentence's record; the
    corpus value is result.score; a resample of the values gives the statistic of its rows."""
    from types import SimpleNamespace

    import numpy as np

    from gecscore.integrations.lighteval.metrics import gec_metric
    from gecscore.integrations.lighteval.tasks import gec_prompt

    references = [[a, b] for a, b in zip(REFS0, REFS1)]
    rows = [{"index": i, "source": s, "references": r} for i, (s, r) in enumerate(zip(SOURCES, references))]
    shuffled = [3, 0, 4, 2, 1]
    docs = []
    for i in shuffled:
        doc = gec_prompt(rows[i], "gec:unit|0")
        doc.task_name = "gec:unit|0"
        docs.append(doc)
    responses = [SimpleNamespace(final_text=[f"{HYPS[i]}\nand more"]) for i in shuffled]
    metric = gec_metric("errant")
    computation = metric.sample_level_fn
    values = metric.compute_sample(responses=responses, docs=docs)["errant"]
    assert [v["prediction"] for v in values] == [HYPS[i] for i in shuffled]
    assert [v["position"] for v in values] == shuffled
    assert json.loads(values[0]["record"])["source"] == SOURCES[3]

    gec = gecscore.load("pt_m2", base="errant", scorer="none")
    expected = gec.score(gec.prepare_text(SOURCES, references), HYPS)
    corpus = metric.get_corpus_aggregations()["errant"](values)
    assert corpus["errant"] == expected.score
    assert corpus["errant_p"] == expected["p"] and corpus["errant_r"] == expected["r"]
    assert corpus["errant_stderr"] > 0
    resample = [values[0], values[0], values[2]]
    stats = expected.sentence_stats[[3, 3, 4]]
    assert computation.compute_corpus(resample)["errant"] == pytest.approx(expected.statistic(stats.mean(axis=0)))
    assert np.isfinite(computation.compute_corpus(resample)["errant"])


def build_tiny_gpt2(folder: Path) -> Path:
    """A randomly initialised 1-layer GPT-2 and a word-level tokenizer trained on the corpus:
    no download, and its generations are words of the corpus (so that the metrics see real
    edits)."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers, decoders
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.decoder = decoders.WordPiece(prefix="##")  # joins word-level tokens with spaces
    words = " ".join(SOURCES + REFS0 + REFS1 + ["Correct the grammatical errors Sentence: Correction:"])
    tok.train_from_iterator([words], trainers.WordLevelTrainer(special_tokens=["[UNK]", "[PAD]", "[EOS]"]))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]",
                                   eos_token="[EOS]", bos_token="[EOS]")
    torch.manual_seed(0)
    config = GPT2Config(vocab_size=fast.vocab_size, n_positions=512, n_embd=32, n_layer=1, n_head=2,
                        bos_token_id=fast.eos_token_id, eos_token_id=fast.eos_token_id,
                        pad_token_id=fast.pad_token_id)
    GPT2LMHeadModel(config).save_pretrained(folder)
    fast.save_pretrained(folder)
    return folder


def test_tiny_model_through_the_pipeline_scores_like_gecscore_load(tmp_path):
    """LightEval's Python API with its transformers backend: corpus scores equal gecscore.load
    on the generations in LightEval's details, and each metric prepared the reference side
    once for the task."""
    from lighteval.logging.evaluation_tracker import EvaluationTracker
    from lighteval.models.transformers.transformers_model import TransformersModelConfig
    from lighteval.pipeline import ParallelismManager, Pipeline, PipelineParameters

    from gecscore.integrations.lighteval.offline import tolerate_broken_builtin_tasks

    source, refs = write_corpus(tmp_path / "c")
    model_dir = build_tiny_gpt2(tmp_path / "model")
    task_file = tmp_path / "my_gec_tasks.py"
    task_file.write_text(
        "from gecscore.integrations.lighteval import data\n"
        "from gecscore.integrations.lighteval.tasks import gec_task\n"
        f"corpus = data.from_files({str(source)!r}, {[str(r) for r in refs]!r}, name='tiny')\n"
        "TASKS_TABLE = [gec_task('gec:tiny', corpus, generation_size=6)]\n", encoding="utf-8")
    tolerate_broken_builtin_tasks()
    built_before = PREPARED.built
    output_dir = tmp_path / "out"
    pipeline = Pipeline(
        tasks="gec:tiny|0",
        pipeline_parameters=PipelineParameters(launcher_type=ParallelismManager.ACCELERATE,
                                               custom_tasks_directory=str(task_file)),
        evaluation_tracker=EvaluationTracker(output_dir=str(output_dir), save_details=True),
        model_config=TransformersModelConfig(model_name=str(model_dir), device="cpu", batch_size=5,
                                             max_length=512, cache_dir=str(tmp_path / "le_cache")),
    )
    pipeline.evaluate()
    pipeline.save_and_push_results()
    assert PREPARED.built - built_before == len(DEFAULT_METRICS)  # once per metric for the task

    scores = results_json(output_dir)["results"]["gec:tiny|0"]
    generated = details_predictions(output_dir, "gec:tiny")
    assert sorted(generated) == list(range(len(SOURCES)))
    predictions = [generated[i][1] for i in range(len(SOURCES))]
    assert predictions == [prediction_text([generated[i][0]]) for i in range(len(SOURCES))]
    assert predictions != SOURCES  # the random model did write something
    expected = direct_scores(SOURCES, [[a, b] for a, b in zip(REFS0, REFS1)], predictions)
    for label, value in expected.items():
        assert scores[label] == pytest.approx(value, abs=1e-12), label


def test_replay_through_the_command_line_scores_like_gecscore_load(tmp_path):
    """``python -m gecscore.integrations.lighteval custom ...`` (the documented command) on the
    user-files task: LightEval's numbers are gecscore.load's on the replayed file."""
    source, refs = write_corpus(tmp_path / "c")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    env = dict(os.environ, GEC_LIGHTEVAL_SOURCE=str(source), GEC_LIGHTEVAL_REFERENCES=",".join(map(str, refs)),
               GEC_LIGHTEVAL_PREDICTIONS=str(hyp), GEC_DATA=str(tmp_path / "no-data"),
               PYTHONPATH=os.pathsep.join([str(REPO / "shared"), os.environ.get("PYTHONPATH", "")]))
    from gecscore.integrations.lighteval import replay

    output_dir = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "gecscore.integrations.lighteval", "custom", "replay",
                          replay.__file__, "gec:files", "--custom-tasks", "gecscore.integrations.lighteval.tasks",
                          "--output-dir", str(output_dir), "--save-details"],
                         env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    scores = results_json(output_dir)["results"]["gec:files|0"]
    expected = direct_scores(SOURCES, [[a, b] for a, b in zip(REFS0, REFS1)], HYPS)
    for label, value in expected.items():
        assert scores[label] == pytest.approx(value, abs=1e-12), label
    assert scores["pt_m2_p"] == pytest.approx(1.0)
    assert {i: p for i, (_, p) in details_predictions(output_dir, "gec:files").items()} == dict(enumerate(HYPS))


def test_options_reach_the_metric_pt_m2_with_a_local_bert(tmp_path):
    """GEC_LIGHTEVAL_OPTIONS turns pt_m2 into PT-M2 proper (BERTScore edit weights) with the
    offline MiniLM; LightEval's number is gecscore.load's with the same options."""
    pytest.importorskip("bert_score", reason="bert-score is not installed (gecscore[models])")
    try:
        from gecscore.models.bundled import local_minilm_dir

        model = str(local_minilm_dir())
    except Exception as error:  # noqa: BLE001 - no offline model package here
        pytest.skip(f"no offline MiniLM (gecscore[offline-model]): {error}")
    source, refs = write_corpus(tmp_path / "c")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    options = {"scorer": "bertscore", "model": model}
    env = dict(os.environ, GEC_LIGHTEVAL_SOURCE=str(source), GEC_LIGHTEVAL_REFERENCES=",".join(map(str, refs)),
               GEC_LIGHTEVAL_PREDICTIONS=str(hyp), GEC_DATA=str(tmp_path / "no-data"), GEC_LIGHTEVAL_METRICS="pt_m2",
               GEC_LIGHTEVAL_OPTIONS=json.dumps({"pt_m2": options}),
               PYTHONPATH=os.pathsep.join([str(REPO / "shared"), os.environ.get("PYTHONPATH", "")]))
    from gecscore.integrations.lighteval import replay

    output_dir = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "gecscore.integrations.lighteval", "custom", "replay",
                          replay.__file__, "gec:files", "--custom-tasks", "gecscore.integrations.lighteval.tasks",
                          "--output-dir", str(output_dir)], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    scores = results_json(output_dir)["results"]["gec:files|0"]
    assert "cleme2" not in scores and "gleu" not in scores
    metric = gecscore.load("pt_m2", **options)
    expected = metric.score(metric.prepare_text(SOURCES, [[a, b] for a, b in zip(REFS0, REFS1)]), HYPS)
    assert scores["pt_m2"] == pytest.approx(expected.score, abs=1e-12)
    assert scores["pt_m2"] != pytest.approx(direct_scores(SOURCES, [[a, b] for a, b in zip(REFS0, REFS1)],
                                                          HYPS)["pt_m2"])  # not plain M2
    assert "scorer:bertscore" in run.stderr  # the logged signature


@pytest.mark.realdata
@pytest.mark.slow
def test_conll14_subset_scores_like_gecscore_load(tmp_path):
    """gec:conll14 and gec:conll14_m2 with --max-samples: LightEval evaluates a shuffled
    subset; the metrics score it in corpus order, as gecscore.load does on the same sentences
    (prepare_text on the annotators' corrections; prepare on the M2 gold's edits)."""
    m2 = require(GEC_DATA / "conll14" / "official-2014.combined.m2")
    from gecscore.integrations.lighteval import replay
    from gecscore.io.m2 import read_m2
    from gecscore.types import GoldCorpus

    output_dir = tmp_path / "out"
    amu = GEC_DATA / "conll14" / "systems" / "AMU.txt"
    env = dict(os.environ, GEC_DATA=str(GEC_DATA), GEC_LIGHTEVAL_PREDICTIONS=str(amu),
               PYTHONPATH=os.pathsep.join([str(REPO / "shared"), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run([sys.executable, "-m", "gecscore.integrations.lighteval", "custom", "AMU",
                          replay.__file__, "gec:conll14,gec:conll14_m2", "--custom-tasks",
                          "gecscore.integrations.lighteval.tasks", "--output-dir", str(output_dir),
                          "--save-details", "--max-samples", "40"],
                         env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    results = results_json(output_dir)["results"]
    corpus = data.conll14(GEC_DATA)
    gold = read_m2(m2)
    lines = amu.read_text(encoding="utf-8").split("\n")

    indices = sorted(details_predictions(output_dir, "gec:conll14"))
    assert len(indices) == 40
    predictions = [lines[i].strip() for i in indices]
    expected = direct_scores([corpus.sources[i] for i in indices], [list(corpus.references[i]) for i in indices],
                             predictions)
    for label, value in expected.items():
        assert results["gec:conll14|0"][label] == pytest.approx(value, abs=1e-12), label

    indices = sorted(details_predictions(output_dir, "gec:conll14_m2"))
    predictions = [lines[i].strip() for i in indices]
    subset = GoldCorpus(tuple(gold[i] for i in indices), "m2", str(m2))
    for label, (name, options) in DEFAULT_METRICS.items():
        metric = gecscore.load(name, **options)
        value = metric.score(metric.prepare(subset), predictions).score
        assert results["gec:conll14_m2|0"][label] == pytest.approx(value, abs=1e-12), label
