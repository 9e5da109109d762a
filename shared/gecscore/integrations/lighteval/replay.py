"""A LightEval "model" that answers with the lines of a file of corrections.

Use it with ``lighteval custom NAME <this file> gec:conll14 --custom-tasks ...`` and
``GEC_LIGHTEVAL_PREDICTIONS=system.txt``: document i of the task (its corpus index) gets line i
of the file. It scores an existing system's outputs (a CoNLL-2014 submission, a model run
elsewhere) through the LightEval pipeline, and it is how the docs show that LightEval's numbers
are gecscore's: the same file given to ``gecscore.load(...).score`` gives the same scores.

LightEval's custom-model loader takes the first LightevalModel subclass it finds in this file,
so it defines exactly one.
"""
from __future__ import annotations

import os
from pathlib import Path

from lighteval.models.abstract_model import LightevalModel
from lighteval.models.model_output import ModelResponse
from lighteval.tasks.requests import Doc

from gecscore.io.text import read_lines

PREDICTIONS_ENV = "GEC_LIGHTEVAL_PREDICTIONS"


class _NoCache:
    def _init_registry(self, registry) -> None:
        pass


class ReplayModel(LightevalModel):
    """Generation = line ``doc.specific["index"]`` of ``$GEC_LIGHTEVAL_PREDICTIONS``."""

    def __init__(self, config, path: str | Path | None = None):
        self.config = config
        path = path or os.environ.get(PREDICTIONS_ENV, "")
        if not path:
            raise ValueError(f"set {PREDICTIONS_ENV} to the file of corrections to replay")
        self.lines = read_lines(path)
        # LightEval hands its registry to the model's sample cache; replayed lines are never
        # cached (the same model name may replay another file next time).
        self._cache = _NoCache()

    @property
    def tokenizer(self):
        return None

    @property
    def add_special_tokens(self) -> bool:
        return False

    @property
    def max_length(self) -> int:
        return 2048

    def greedy_until(self, docs: list[Doc]) -> list[ModelResponse]:
        responses = []
        for doc in docs:
            index = int(doc.specific["index"])
            if index >= len(self.lines):
                raise ValueError(f"{PREDICTIONS_ENV} has {len(self.lines)} lines; document {index} has none")
            responses.append(ModelResponse(text=[self.lines[index]]))
        return responses

    def loglikelihood(self, docs: list[Doc]) -> list[ModelResponse]:
        raise NotImplementedError("the replay model only answers generative tasks")

    def loglikelihood_rolling(self, docs: list[Doc]) -> list[ModelResponse]:
        raise NotImplementedError("the replay model only answers generative tasks")
