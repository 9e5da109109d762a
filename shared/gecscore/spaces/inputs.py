"""What a Space user pasted or uploaded, turned into parallel lists (or a gold M2 file).

Pasted text and uploaded files follow the CLI's conventions: one tokenised sentence per line,
references as parallel files (one box or file per reference set), or a gold M2 file instead
of source + references.

One request is bounded (:class:`RequestLimits`), so that one paste cannot hold a Space's worker
for everyone: at most ``max_sentences`` sentences, ``max_chars`` characters over all boxes and
files, ``max_line_tokens`` tokens and ``max_line_chars`` characters in any one line, and
``max_upload_bytes`` per uploaded file (checked before reading it). The defaults keep a request
of the bundled metrics within about a minute on a 2-core Space: the longest-line benchmark
(``benchmarks/bench_long_lines.py``) puts a 400-token line at about 1 s for each of CLEME2.0,
PT-M2 (scorer none) and the I-measure, whose 3-way alignment refuses lines past ~730 tokens
anyway. Each can be changed with an environment variable ``GECSCORE_SPACE_<FIELD>`` (e.g.
``GECSCORE_SPACE_MAX_SENTENCES=5000``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Sequence

from gecscore.errors import GecInputError


@dataclass(frozen=True)
class CorpusInput:
    """One evaluation request: parallel sources, hypotheses and reference sets, or gold M2.

    ``references[i]`` lists the references of sentence i. With ``m2_path`` the sources and
    references come from the M2 file and ``sources``/``references`` are empty.
    """

    sources: list[str]
    hypotheses: list[str]
    references: list[list[str]]
    m2_path: str | None = None

    def __len__(self) -> int:
        return len(self.hypotheses)


@dataclass(frozen=True)
class RequestLimits:
    """The most one Space request may hold (see the module docstring)."""

    max_sentences: int = 1000
    max_chars: int = 500_000
    max_line_tokens: int = 400
    max_line_chars: int = 4000
    max_upload_bytes: int = 5_000_000

    @classmethod
    def from_env(cls, environ=None) -> "RequestLimits":
        """The defaults, each replaced by ``GECSCORE_SPACE_<FIELD>`` when that is a positive integer."""
        environ = os.environ if environ is None else environ
        values = {}
        for f in fields(cls):
            raw = environ.get(f"GECSCORE_SPACE_{f.name.upper()}")
            if raw is not None and raw.strip().isdigit() and int(raw) > 0:
                values[f.name] = int(raw)
        return cls(**values)

    def describe(self) -> str:
        """A line for the page, telling users the bounds before they hit them."""
        return (f"At most {self.max_sentences:,} sentences and {self.max_chars:,} characters per request, "
                f"{self.max_line_tokens:,} tokens per sentence; uploads up to {self.max_upload_bytes // 1_000_000} MB.")

    def check_lines(self, lines: Sequence[str], what: str) -> None:
        """A GecInputError naming the first line of ``lines`` past a per-line bound, or ``what``
        when there are too many lines."""
        if len(lines) > self.max_sentences:
            raise GecInputError(f"{len(lines):,} sentences; a request holds at most {self.max_sentences:,} "
                                "(split the corpus, or run the gecscore command line locally)", what)
        for number, line in enumerate(lines, start=1):
            if len(line) > self.max_line_chars:
                raise GecInputError(f"line of {len(line):,} characters; at most {self.max_line_chars:,} per "
                                    "sentence here (run the gecscore command line locally for longer ones)",
                                    f"{what}:{number}")
            tokens = len(line.split())
            if tokens > self.max_line_tokens:
                raise GecInputError(f"line of {tokens:,} tokens; at most {self.max_line_tokens:,} per sentence "
                                    "here (run the gecscore command line locally for longer ones)",
                                    f"{what}:{number}")

    def check_total(self, groups: Sequence[Sequence[str]]) -> None:
        total = sum(len(line) + 1 for lines in groups for line in lines)
        if total > self.max_chars:
            raise GecInputError(f"the request holds {total:,} characters; at most {self.max_chars:,} "
                                "(split the corpus, or run the gecscore command line locally)")

    def check_upload(self, path: str, what: str) -> None:
        try:
            size = os.path.getsize(path)
        except OSError:
            return  # reading it will say what is wrong
        if size > self.max_upload_bytes:
            raise GecInputError(f"the file has {size:,} bytes; uploads are limited to {self.max_upload_bytes:,}",
                                f"{what} ({Path(path).name})")


def split_lines(text: str | None) -> list[str]:
    """Lines of a pasted text box (a trailing newline does not add an empty sentence)."""
    if not text:
        return []
    lines = [line.rstrip("\r") for line in text.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def upload_path(upload) -> str | None:
    """The file path of a Gradio upload (a path string, or an object with ``.name``/``.path``)."""
    if upload is None:
        return None
    if isinstance(upload, (str, Path)):
        return str(upload)
    for attribute in ("path", "name"):
        value = getattr(upload, attribute, None)
        if isinstance(value, str):
            return value
    if isinstance(upload, dict) and isinstance(upload.get("path"), str):
        return upload["path"]
    raise GecInputError(f"cannot read the uploaded file {upload!r}")


def read_upload(upload, what: str, limits: RequestLimits | None = None) -> list[str]:
    """Lines of an uploaded UTF-8 text file; errors name ``what`` and the file (and line). A file
    larger than the limits allow is refused before it is read; the file is read by the one
    checked reader (:func:`gecscore.io.user_files.read_text`: a path that is not a regular file
    is refused unopened, a byte-order mark dropped, bytes that are not UTF-8 named by line)."""
    from gecscore.io.user_files import read_text

    path = upload_path(upload)
    (limits or RequestLimits.from_env()).check_upload(path, what)
    return split_lines(read_text(path, f"{what} ({Path(path).name})"))


def lines_of(text: str | None, upload, what: str, limits: RequestLimits | None = None) -> list[str]:
    """An uploaded file wins over the pasted text of the same field."""
    return read_upload(upload, what, limits) if upload is not None else split_lines(text)


def transpose_references(reference_sets: Sequence[Sequence[str]], n_sentences: int,
                         names: Sequence[str]) -> list[list[str]]:
    """Parallel reference sets (one list of lines per set) -> the references of each sentence."""
    for name, lines in zip(names, reference_sets):
        if len(lines) != n_sentences:
            raise GecInputError(f"{len(lines)} lines but the source has {n_sentences}", name)
    return [list(refs) for refs in zip(*reference_sets)] if reference_sets else []


def corpus_input(source_text: str | None, hypothesis_text: str | None,
                 reference_texts: Sequence[str | None], *, source_file=None, hypothesis_file=None,
                 reference_files: Sequence | None = None, m2_file=None,
                 needs_references: bool = True, limits: RequestLimits | None = None) -> CorpusInput:
    """Collect one request from pasted boxes and uploads, checking that the lines are parallel
    and within ``limits`` (default :meth:`RequestLimits.from_env`)."""
    limits = limits or RequestLimits.from_env()
    hypotheses = lines_of(hypothesis_text, hypothesis_file, "hypothesis", limits)
    limits.check_lines(hypotheses, "hypothesis")
    if not hypotheses:
        raise GecInputError("no hypothesis: paste or upload the system output, one sentence per line")
    if m2_file is not None:
        limits.check_total([hypotheses])
        path = upload_path(m2_file)
        limits.check_upload(path, "gold file")
        return CorpusInput([], hypotheses, [], path)
    sources = lines_of(source_text, source_file, "source", limits)
    limits.check_lines(sources, "source")
    if not sources:
        raise GecInputError("no source: paste or upload the source sentences, one per line"
                            + (" (or upload a gold M2 file)" if needs_references else ""))
    for number, line in enumerate(sources, start=1):
        if not line.strip():
            raise GecInputError("empty line (a source sentence needs at least one token)", f"source:{number}")
    if len(hypotheses) != len(sources):
        raise GecInputError(f"{len(hypotheses)} lines but the source has {len(sources)}", "hypothesis")
    if not needs_references:
        limits.check_total([sources, hypotheses])
        return CorpusInput(sources, hypotheses, [])
    sets, names = [], []
    for k, upload in enumerate(reference_files or ()):
        sets.append(read_upload(upload, f"reference file {k + 1}", limits))
        names.append(f"reference file {k + 1} ({Path(upload_path(upload)).name})")
    for k, text in enumerate(reference_texts):
        lines = split_lines(text)
        if lines:
            sets.append(lines)
            names.append(f"reference {k + 1}")
    if not sets:
        raise GecInputError("no reference: paste or upload at least one corrected reference "
                            "(or upload a gold M2 file)")
    for name, lines in zip(names, sets):
        limits.check_lines(lines, name)
    limits.check_total([sources, hypotheses, *sets])
    return CorpusInput(sources, hypotheses, transpose_references(sets, len(sources), names))


def score_request(metric, corpus: CorpusInput, limits: RequestLimits | None = None):
    """Score one request on the metric seam: gold edits from the uploaded M2 (or I-measure XML)
    file as given, else ERRANT on the references; the reference side of a pasted corpus is kept
    across requests (:data:`gecscore.metric.PREPARED`)."""
    return metric.score(prepare_request(metric, corpus, limits), corpus.hypotheses)


def prepare_request(metric, corpus: CorpusInput, limits: RequestLimits | None = None):
    """The request's reference side prepared for ``metric`` (:func:`score_request`'s), which the
    per-edit attribution view needs as well."""
    from gecscore.metric import PREPARED
    from gecscore.types import GoldCorpus

    if corpus.m2_path is None:
        prepared = PREPARED.get(metric, corpus.sources, corpus.references or None)
    else:
        if corpus.m2_path.lower().endswith(".xml"):
            from gecscore.io.ixml import read_ixml

            gold = GoldCorpus(tuple(read_ixml(corpus.m2_path)), "xml", Path(corpus.m2_path).name)
        else:
            from gecscore.io.m2 import read_m2

            gold = GoldCorpus(tuple(read_m2(corpus.m2_path)), "m2", Path(corpus.m2_path).name)
        limits = limits or RequestLimits.from_env()
        limits.check_lines([" ".join(sentence.source) for sentence in gold.sentences], "gold file")
        if len(gold) != len(corpus.hypotheses):
            raise GecInputError(f"{len(corpus.hypotheses)} lines but the gold file has {len(gold)} sentences",
                                "hypothesis")
        prepared = metric.prepare(gold)
    return prepared


def request_sources(corpus: CorpusInput, prepared) -> list[str]:
    """The request's sources as text: as pasted or uploaded, else (a gold file) the gold's
    source tokens joined by spaces."""
    return list(corpus.sources) if corpus.sources else [" ".join(g.source) for g in prepared.gold.sentences]
