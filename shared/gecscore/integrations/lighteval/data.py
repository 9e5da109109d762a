"""The GEC corpora of the LightEval tasks, read from local files only.

LightEval loads a task's rows with ``datasets.load_dataset(hf_repo, hf_subset)``; it has no hook
for a custom reader. A local folder of JSON lines is something ``load_dataset`` reads without a
network, so each corpus is written once as ``test.jsonl`` into a cache folder named after a
digest of its text, and the task's ``hf_repo`` points there. The rows keep the corpus order in
``index``: LightEval shuffles the documents it evaluates, and the metrics put them back in this
order before scoring (GLEU's reference sampling depends on it).
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from gecscore.errors import GecInputError
from gecscore.io.text import check_line_count, read_lines
from gecscore.user_folders import cache_home

SPLIT = "test"


@dataclass(frozen=True)
class GecCorpus:
    """Sources and, per source, its reference corrections (one or more), in corpus order;
    ``gold_m2``: the M2 file they were read from, if any (its edits can be scored directly)."""

    name: str
    sources: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    gold_m2: str = ""

    def __post_init__(self) -> None:
        if len(self.sources) != len(self.references):
            raise GecInputError(f"{self.name}: {len(self.sources)} sources but "
                                f"{len(self.references)} reference lists")
        if not self.sources:
            raise GecInputError(f"{self.name}: no sentences")

    def __len__(self) -> int:
        return len(self.sources)

    def rows(self) -> list[dict]:
        return [{"index": i, "source": s, "references": list(r)}
                for i, (s, r) in enumerate(zip(self.sources, self.references))]

    def digest(self) -> str:
        h = hashlib.blake2b(digest_size=12)
        for row in self.rows():
            h.update(json.dumps(row, ensure_ascii=False).encode("utf-8") + b"\n")
        return h.hexdigest()


def data_root(*paths: str) -> Path:
    """The evaluation data folder holding ``paths`` (:func:`gecscore.benchdata.require`:
    ``$GEC_DATA``, else the per-user data folder; the named sets fetched on first use)."""
    from gecscore.benchdata import require

    return require(paths)


def conll14(root: Path | None = None, m2_name: str = "official-2014.combined.m2") -> GecCorpus:
    """CoNLL-2014 test: the M2 gold's ``S`` lines and each annotator's corrected sentence (the
    source itself where a sentence has no annotation)."""
    from gecscore.io.m2 import read_m2

    path = (root or data_root(f"conll14/{m2_name}")) / "conll14" / m2_name
    gold = read_m2(path)
    return GecCorpus("conll14", tuple(" ".join(g.source) for g in gold),
                     tuple(tuple(" ".join(t.tokens) for t in g.targets()) for g in gold), str(path))


def jfleg(root: Path | None = None, split: str = "test") -> GecCorpus:
    """JFLEG ``{split}.src`` with its four references ``{split}.ref0`` .. ``ref3``."""
    folder = (root or data_root(f"jfleg/{split}.src")) / "jfleg"
    return from_files(folder / f"{split}.src", [folder / f"{split}.ref{k}" for k in range(4)],
                      name=f"jfleg_{split}")


def from_files(source: str | Path, references: Sequence[str | Path], name: str = "files") -> GecCorpus:
    """A source file and one or more reference files, one sentence per line, line i of each
    file for sentence i."""
    if not references:
        raise GecInputError(f"{name}: at least one reference file is needed")
    sources = read_lines(source, allow_empty=False)
    columns = [check_line_count(path, read_lines(path), len(sources), str(source)) for path in references]
    return GecCorpus(name, tuple(sources), tuple(zip(*columns)))


def cache_root() -> Path:
    """``$XDG_CACHE_HOME/gecscore/lighteval``, else ``~/.cache/gecscore/lighteval``; with neither
    (no home folder) one clear error."""
    base = cache_home()
    if base is None:
        raise GecInputError("no folder for the LightEval task files: no home folder (HOME unset and no passwd "
                            "entry) and no absolute $XDG_CACHE_HOME; set XDG_CACHE_HOME")
    return base / "gecscore" / "lighteval"


def materialize(corpus: GecCorpus, root: Path | None = None) -> Path:
    """The folder holding ``corpus`` as ``test.jsonl`` (written once per distinct text; a
    temporary file is renamed into place so that concurrent runs never read half a file)."""
    folder = (root or cache_root()) / f"{corpus.name}-{corpus.digest()}"
    target = folder / f"{SPLIT}.jsonl"
    if not target.exists():
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{SPLIT}.{os.getpid()}.tmp"
        with tmp.open("w", encoding="utf-8") as out:
            for row in corpus.rows():
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
        tmp.replace(target)
    return folder
