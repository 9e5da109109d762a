"""What a Space user pasted or uploaded, turned into parallel lists (or a gold M2 file).

Pasted text and uploaded files follow the CLI's conventions: one tokenised sentence per line,
references as parallel files (one box or file per reference set), or a gold M2 file instead
of source + references.
"""
from __future__ import annotations

from dataclasses import dataclass
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


def read_upload(upload, what: str) -> list[str]:
    """Lines of an uploaded UTF-8 text file; errors name ``what`` and the file."""
    path = upload_path(upload)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise GecInputError(f"not UTF-8 text ({error.reason} at byte {error.start})",
                            f"{what} ({Path(path).name})") from None
    return split_lines(text)


def lines_of(text: str | None, upload, what: str) -> list[str]:
    """An uploaded file wins over the pasted text of the same field."""
    return read_upload(upload, what) if upload is not None else split_lines(text)


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
                 needs_references: bool = True) -> CorpusInput:
    """Collect one request from pasted boxes and uploads, checking that the lines are parallel."""
    hypotheses = lines_of(hypothesis_text, hypothesis_file, "hypothesis")
    if not hypotheses:
        raise GecInputError("no hypothesis: paste or upload the system output, one sentence per line")
    if m2_file is not None:
        return CorpusInput([], hypotheses, [], upload_path(m2_file))
    sources = lines_of(source_text, source_file, "source")
    if not sources:
        raise GecInputError("no source: paste or upload the source sentences, one per line"
                            + (" (or upload a gold M2 file)" if needs_references else ""))
    for number, line in enumerate(sources, start=1):
        if not line.strip():
            raise GecInputError("empty line (a source sentence needs at least one token)", f"source:{number}")
    if len(hypotheses) != len(sources):
        raise GecInputError(f"{len(hypotheses)} lines but the source has {len(sources)}", "hypothesis")
    if not needs_references:
        return CorpusInput(sources, hypotheses, [])
    sets, names = [], []
    for k, upload in enumerate(reference_files or ()):
        sets.append(read_upload(upload, f"reference file {k + 1}"))
        names.append(f"reference file {k + 1} ({Path(upload_path(upload)).name})")
    for k, text in enumerate(reference_texts):
        lines = split_lines(text)
        if lines:
            sets.append(lines)
            names.append(f"reference {k + 1}")
    if not sets:
        raise GecInputError("no reference: paste or upload at least one corrected reference "
                            "(or upload a gold M2 file)")
    return CorpusInput(sources, hypotheses, transpose_references(sets, len(sources), names))


def score_request(metric, corpus: CorpusInput):
    """Score one request on the metric seam: gold edits from the uploaded M2 (or I-measure XML)
    file as given, else ERRANT on the references; the reference side of a pasted corpus is kept
    across requests (:data:`gecscore.metric.PREPARED`)."""
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
        if len(gold) != len(corpus.hypotheses):
            raise GecInputError(f"{len(corpus.hypotheses)} lines but the gold file has {len(gold)} sentences",
                                "hypothesis")
        prepared = metric.prepare(gold)
    return metric.score(prepared, corpus.hypotheses)
