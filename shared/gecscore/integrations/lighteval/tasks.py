"""The GEC task family for LightEval (``--custom-tasks gecscore.integrations.lighteval.tasks``).

Tasks (their data is read from local files, never downloaded):

- ``gec:conll14``: CoNLL-2014 test, sources and the annotators' corrections from
  ``$GEC_DATA/conll14/official-2014.combined.m2`` (edits re-extracted by ERRANT, as for any
  reference sentences);
- ``gec:conll14_m2``: the same sentences scored against that file's gold edits, as the
  official M2 scorer does;
- ``gec:jfleg`` and ``gec:jfleg_dev``: JFLEG test and dev (``$GEC_DATA/jfleg``, 4 references);
- ``gec:files``: any text files, ``GEC_LIGHTEVAL_SOURCE`` (one sentence a line) and
  ``GEC_LIGHTEVAL_REFERENCES`` (one or more files, separated by ``,``).

A task whose files are missing is left out of the table (with a warning), so that the others
still load. Each task scores its generations with cleme2, pt_m2 (plain M2 unless
``GEC_LIGHTEVAL_OPTIONS`` gives another scorer), errant and gleu, or the labels listed in
``GEC_LIGHTEVAL_METRICS``. ``gec`` alone runs every task in the table. For other corpora,
write a small task file of your own with :func:`gec_task`.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any, Callable, Sequence

from lighteval.tasks.lighteval_task import LightevalTaskConfig
from lighteval.tasks.requests import Doc

from gecscore.errors import GecInputError
from gecscore.integrations.lighteval import data
from gecscore.integrations.lighteval.metrics import DEFAULT_METRICS, gec_metric

logger = logging.getLogger(__name__)

PROMPT = ("Correct the grammatical errors in the following sentence. Keep its tokenisation "
          "(tokens separated by spaces) and change nothing else. Answer with the corrected "
          "sentence only.\nSentence: {source}\nCorrection:")
METRICS_ENV = "GEC_LIGHTEVAL_METRICS"
SOURCE_ENV = "GEC_LIGHTEVAL_SOURCE"
REFERENCES_ENV = "GEC_LIGHTEVAL_REFERENCES"


def gec_prompt(line: dict, task_name: str = "") -> Doc:
    """One document: the instruction with the source; the references are the gold answers and
    travel in ``specific`` (with the corpus index) for the metrics."""
    references = list(line["references"])
    return Doc(task_name=task_name, query=PROMPT.format(source=line["source"]), choices=references,
               gold_index=list(range(len(references))),
               specific={"index": int(line["index"]), "source": line["source"], "references": references})


def metric_labels() -> list[str]:
    raw = os.environ.get(METRICS_ENV, "")
    labels = [label.strip() for label in raw.split(",") if label.strip()]
    return labels or list(DEFAULT_METRICS)


def gec_task(name: str, corpus: data.GecCorpus, metrics: Sequence[str] | None = None,
             options: dict[str, dict[str, Any]] | None = None, *, gold_edits: bool = False,
             generation_size: int = 256,
             prompt_function: Callable[[dict, str], Doc] = gec_prompt) -> LightevalTaskConfig:
    """A LightEval task over ``corpus`` scored by the gecscore ``metrics`` (labels of
    :data:`DEFAULT_METRICS` or gecscore metric names), ``options[label]`` overriding a metric's
    defaults; ``gold_edits`` scores against the corpus's M2 gold edits (it must have been read
    from an M2 file). The corpus is written to the local cache and loaded from there."""
    options = options or {}
    labels = list(metrics) if metrics else metric_labels()
    if gold_edits and not corpus.gold_m2:
        raise ValueError(f"{name}: gold_edits needs a corpus read from an M2 file")
    gold_m2 = corpus.gold_m2 if gold_edits else ""
    return LightevalTaskConfig(
        name=name,
        prompt_function=prompt_function,
        hf_repo=str(data.materialize(corpus)),
        hf_subset="default",
        hf_avail_splits=[data.SPLIT],
        evaluation_splits=[data.SPLIT],
        few_shots_split=None,
        few_shots_select=None,
        metrics=[gec_metric(label, gold_m2=gold_m2, **options.get(label, {})) for label in labels],
        generation_size=generation_size,
        stop_sequence=["\n"],
        version=0,
    )


def _available(builders: dict[str, Callable[[], LightevalTaskConfig]]) -> list[LightevalTaskConfig]:
    table = []
    for name, build in builders.items():
        try:
            table.append(build())
        except (GecInputError, OSError) as error:
            logger.warning("GEC task %s left out: %s", name, error)
    return table


def _files() -> data.GecCorpus:
    source = os.environ.get(SOURCE_ENV, "")
    references = [r for r in os.environ.get(REFERENCES_ENV, "").split(",") if r]
    if not source or not references:
        raise GecInputError(f"set {SOURCE_ENV} and {REFERENCES_ENV} to use it")
    return data.from_files(Path(source), [Path(r) for r in references], name="files")


def default_builders() -> dict[str, Callable[[], LightevalTaskConfig]]:
    return {
        "gec:conll14": lambda: gec_task("gec:conll14", data.conll14()),
        "gec:conll14_m2": lambda: gec_task("gec:conll14_m2", data.conll14(), gold_edits=True),
        "gec:jfleg": lambda: gec_task("gec:jfleg", data.jfleg(split="test")),
        "gec:jfleg_dev": lambda: gec_task("gec:jfleg_dev", data.jfleg(split="dev")),
        "gec:files": lambda: gec_task("gec:files", _files()),
    }


TASKS_TABLE: list[LightevalTaskConfig] = _available(default_builders())
