"""Transcripts of judge runs, and the ``replay`` backend that answers from them.

A **transcript** (``build_judge(..., transcript=FILE)``, ``--transcript FILE``) is a JSON-lines
file with one line per distinct request a run used, written as the run goes::

    {"key": <cache key>, "backend": "openai", "model": "gpt-4o",
     "messages": [["system", "..."], ["user", "..."]],
     "sampling": {"temperature": 0.6, "top_p": 0.7, "max_tokens": 512}, "attempt": 0,
     "answer": "<the judge's text>" | null, "error": null | "<kind>: <message>"}

Answers from the cache are recorded like live ones; a request that failed (after its retries)
is recorded with its error, and replaced by a later line if the same request is answered later
in the run (a judge shared by several runs).

The **replay backend** (``--backend replay --replay FILE``) answers each request from such a
file, matched on (messages, sampling, attempt): the same run replayed gives the same result,
bit for bit, without a judge. It reports the transcript's judge as its own (backend and
model), so signatures match the run that wrote it. A request the file has no answer for stops
the run with :class:`ReplayMissError`, which names the request; a recorded failure is
replayed as the same failure.

It also reads the answer files the DSGram authors published for DSGram-Eval
(``dsgram-eval/results/gec_gpt4_eval_test.json``, ``gec_eval_llama3.json``; also the human
files of the same shape): a JSON array of ``{"input": "original sentence: S, corrected
sentence: H", "output": "semantic coherence: 7, edit level: 10, ..."}``. Their answers are
sub-scores (DSGram's appendix A.1), so they serve sub-score requests only, matched on
(source, hypothesis) (exactly, else ignoring whitespace: the LLaMA file detokenised two
hypotheses), for any sampling settings; judgment-matrix and edit-weight requests are misses
(use ``--weights equal``). A file holds one answer per pair: a re-ask (attempt >= 1) is a
failed request (kind ``no re-ask``), not a miss, so an unreadable answer costs its sentence
only.
"""
from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Sequence

from gecscore.errors import GecInputError
from gecscore.judge.backends import JudgeBackend
from gecscore.judge.prompts import prompt_kind, prompt_subject
from gecscore.judge.types import JudgeAnswer, JudgeConfigError, JudgeRequest, PermanentJudgeError

PUBLISHED_BACKEND = "dsgram-eval"
_PUBLISHED_INPUT = re.compile(r"^original sentence: (.*), corrected sentence: (.*)$", re.S)


class ReplayMissError(JudgeConfigError):
    """The replay file has no answer for ``request``: the run stops (the file does not belong
    to this run, or the run's options differ from the recorded ones)."""

    def __init__(self, path: Path, request: JudgeRequest, why: str = "has no answer for"):
        self.path = path
        self.request = request
        super().__init__(f"replay file {path} {why} the {describe_request(request)}")


def describe_request(request: JudgeRequest) -> str:
    """A one-line description for error messages: prompt kind, subject, attempt, sampling."""
    s = request.sampling
    settings = (f"attempt {request.attempt}, temperature {s.temperature:g}, top_p {s.top_p:g}, "
                f"max_tokens {s.max_tokens}")
    kind = prompt_kind(request.messages)
    subject = prompt_subject(request.messages)
    if subject is not None:
        what = {"scores": "sub-score", "matrix": "judgment-matrix", "edit": "edit-weight"}[kind]
        return f"{what} request for {subject[0]!r} -> {subject[1]!r} ({settings})"
    last = request.messages[-1][1] if request.messages else ""
    return f"request ending {last[-160:]!r} ({settings})"


# ------------------------------------------------------------------ writing transcripts

class TranscriptWriter:
    """Appends (request, answer) lines to ``path`` (truncated when opened), each request once;
    a request recorded as failed gets a second line if it is answered later."""

    def __init__(self, path: str | Path, backend: str, model: str):
        from gecscore.outputs import open_output

        self.path = Path(path)
        self.backend = backend
        self.model = model
        self._file = open_output(self.path, "w", "judge transcript")
        self._recorded: dict[str, bool] = {}  # key -> recorded with an answer
        self._lock = threading.Lock()
        self.lines = 0

    def write(self, keys: Sequence[str], requests: Sequence[JudgeRequest], answers: Sequence[JudgeAnswer]) -> None:
        with self._lock:
            for key, request, answer in zip(keys, requests, answers, strict=True):
                if key in self._recorded and (self._recorded[key] or not answer.ok):
                    continue
                line = {"key": key, "backend": self.backend, "model": self.model, **request.record(),
                        "answer": answer.text, "error": answer.error}
                self._file.write(json.dumps(line, ensure_ascii=False) + "\n")
                self._recorded[key] = answer.ok
                self.lines += 1
            self._file.flush()

    def summary(self) -> str:
        return f"transcript: {len(self._recorded)} requests recorded in {self.path}"

    def close(self) -> None:
        with self._lock:
            if not self._file.closed:
                self._file.close()


# ------------------------------------------------------------------ reading them back

class _Transcript:
    def __init__(self, path: Path, lines: list[dict]):
        self.path = path
        self.answers: dict[str, tuple[str | None, str | None]] = {}
        judges = set()
        for number, line in enumerate(lines, 1):
            try:
                request = JudgeRequest.from_record(line)
                answer, error = line.get("answer"), line.get("error")
            except (KeyError, TypeError, ValueError) as error:
                raise GecInputError(f"not a transcript line ({error})", f"{path}:{number}") from None
            if answer is None and error is None:
                raise GecInputError("the line has neither an answer nor an error", f"{path}:{number}")
            judges.add((str(line.get("backend", "")), str(line.get("model", ""))))
            key = request.content_key()
            if key not in self.answers or self.answers[key][0] is None:
                self.answers[key] = (answer, error)
        if len(judges) > 1:
            raise GecInputError(f"the transcript mixes {len(judges)} judges ({', '.join(sorted(map(':'.join, judges)))});"
                                " replay one judge's transcript at a time", str(path))
        self.backend, self.model = judges.pop() if judges else ("replay", "")

    def answer(self, request: JudgeRequest) -> str:
        found = self.answers.get(request.content_key())
        if found is None:
            raise ReplayMissError(self.path, request)
        text, error = found
        if text is None:
            kind, _, message = str(error).partition(": ")  # JudgeAnswer.error is "<kind>: <message>"
            raise PermanentJudgeError(kind, message)  # the same error string as the recorded run
        return text


def _squeeze(text: str) -> str:
    return "".join(text.split())


class _Published:
    """Sub-score answers keyed by (source, hypothesis)."""

    def __init__(self, path: Path, records: list):
        self.path = path
        self.backend = PUBLISHED_BACKEND
        self.model = path.stem
        self.exact: dict[tuple[str, str], str] = {}
        self.loose: dict[tuple[str, str], set[str]] = {}
        for number, record in enumerate(records, 1):
            match = _PUBLISHED_INPUT.match(str(record.get("input", ""))) if isinstance(record, dict) else None
            if match is None or not isinstance(record.get("output"), str):
                raise GecInputError("expected {\"input\": \"original sentence: ..., corrected sentence: ...\", "
                                    "\"output\": \"...\"}", f"{path}: record {number}")
            pair = (match.group(1), match.group(2))
            self.exact.setdefault(pair, record["output"])
            self.loose.setdefault((_squeeze(pair[0]), _squeeze(pair[1])), set()).add(record["output"])

    def answer(self, request: JudgeRequest) -> str:
        kind = prompt_kind(request.messages)
        if kind != "scores":
            raise ReplayMissError(self.path, request, why="holds DSGram sub-score answers only (use "
                                  "weights='equal'), not an answer for")
        pair = prompt_subject(request.messages)
        if pair is None:
            raise ReplayMissError(self.path, request, why="cannot read the sentence pair of")
        text = self.exact.get(pair)
        if text is None:
            loose = self.loose.get((_squeeze(pair[0]), _squeeze(pair[1])), set())
            if len(loose) > 1:
                raise ReplayMissError(self.path, request, why="has several different answers, ignoring "
                                      "whitespace, for")
            if not loose:
                raise ReplayMissError(self.path, request)
            text = next(iter(loose))
        if request.attempt > 0:
            raise PermanentJudgeError("no re-ask", f"{self.path.name} has one published answer per pair "
                                      f"and it was unusable: {text[:80]!r}")
        return text


def load_replay(path: str | Path):
    """The answers of a transcript or of a DSGram-Eval answer file (format detected)."""
    path = Path(path)
    if not path.is_file():
        raise GecInputError("replay file not found", str(path))
    text = path.read_text(encoding="utf-8")
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if isinstance(whole, list):
        return _Published(path, whole)
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except ValueError as error:
            raise GecInputError(f"not JSON ({error})", f"{path}:{number}") from None
        if isinstance(line, dict) and "messages" not in line and {"label", "predict"} <= set(line):
            raise GecInputError("label/predict pairs carry no inputs, so their answers cannot be matched "
                                "to requests", str(path))
        if not isinstance(line, dict) or "messages" not in line:
            raise GecInputError("neither a judge transcript line nor a DSGram-Eval answer file",
                                f"{path}:{number}")
        lines.append(line)
    return _Transcript(path, lines)


class ReplayBackend(JudgeBackend):
    """Answers from a transcript or a DSGram-Eval answer file (see the module docstring).

    ``name``/``model`` are the recorded judge's (for transcripts) so cache keys and signatures
    match the original run; ``model`` may name a published file's judge (default: its stem).
    """

    def __init__(self, path: str | Path, model: str | None = None):
        self.source = load_replay(path)
        self.path = self.source.path
        if isinstance(self.source, _Transcript) and model and self.source.model and model != self.source.model:
            raise GecInputError(f"the transcript was recorded with model {self.source.model!r}, not {model!r}",
                                str(self.path))
        self.name = self.source.backend
        self.model = model or self.source.model

    @property
    def label(self) -> str:
        return f"replay of {self.name}:{self.model} from {self.path.name}"

    def complete(self, request: JudgeRequest) -> str:
        return self.source.answer(request)
