"""The reference sets of the CLEME2.0 paper's Table 1, all over the 1,312 CoNLL-2014 sources.

``conll14`` is the official gold, ``conll14-errant`` the same gold re-typed by ERRANT (what
the CLEME papers used), ``bn10gec`` BN-10GEC (10 annotators) and the four SN-8GEC sets (2
annotators each). Options:

- ``exclude_unchanged_refs``: drop references identical to the source (kept when every
  reference of the sentence is unchanged), as the paper's footnote does for E-/NE-Minimal;
- ``fill_missing_annotators``: an annotator without any line in a block made no change; add it
  as an unchanged reference (default on for BN-10GEC and SN-8GEC, whose M2 files omit such
  annotators; off for the official gold, whose blocks without annotator 1 mean "one annotator");
- ``reference_edits``: ``m2`` (edits as given) or ``errant`` (re-extract each reference's edits
  with ERRANT from its corrected text, as the CLEME2.0 paper did; the BN-10GEC and SN-8GEC
  files carry non-ERRANT spans and types). Default: ``errant`` for BN-10GEC and SN-8GEC,
  ``m2`` otherwise.

The SN-8GEC M2 files hold a few edits beyond the end of their sentence; these are dropped and
listed in :attr:`RefSet.notes`.
"""
from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterator, Sequence

from gecscore.errors import GecInputError
from gecscore.io.hypotheses import ExpectedLines
from gecscore.io.m2 import read_m2
from gecscore.types import GOLD_FORMATS, Gold, GoldCorpus
from gecscore.types import Sample, Target

REFERENCE_EDITS = ("m2", "errant")


@dataclass(frozen=True)
class RefSetInfo:
    name: str
    label: str
    path: str
    n_annotators: int | None = None
    reference_edits: str = "m2"
    ixml: str | None = None   # the I-measure XML gold of the same sentences


REFSETS = {info.name: info for info in (
    RefSetInfo("conll14", "CoNLL-2014", "conll14/official-2014.combined.m2", ixml="conll14/refsets/NUCLE.m2.ieval.xml"),
    RefSetInfo("conll14-errant", "CoNLL-2014", "conll14/conll14.errant.m2", ixml="conll14/refsets/NUCLE.m2.ieval.xml"),
    RefSetInfo("bn10gec", "BN-10GEC", "conll14/refsets/BN.m2", 10, "errant", "conll14/refsets/BN.m2.ieval.xml"),
    RefSetInfo("e-minimal", "E-Minimal", "conll14/refsets/EXPMIN.m2", 2, "errant",
               "conll14/refsets/EXPMIN.m2.ieval.xml"),
    RefSetInfo("e-fluency", "E-Fluency", "conll14/refsets/EXPFLUENCY.m2", 2, "errant",
               "conll14/refsets/EXPFLUENCY.m2.ieval.xml"),
    RefSetInfo("ne-minimal", "NE-Minimal", "conll14/refsets/TURKMIN.m2", 2, "errant",
               "conll14/refsets/TURKMIN.m2.ieval.xml"),
    RefSetInfo("ne-fluency", "NE-Fluency", "conll14/refsets/TURKFLUENCY.m2", 2, "errant",
               "conll14/refsets/TURKFLUENCY.m2.ieval.xml"),
)}
# The six columns of the CLEME2.0 paper's Table 1, in order (CoNLL-2014 = the ERRANT gold).
PAPER_REFSETS = ("conll14-errant", "bn10gec", "e-minimal", "e-fluency", "ne-minimal", "ne-fluency")


def data_root(data_dir: str | Path | None = None) -> Path:
    """The evaluation data folder (:func:`gecscore.benchdata.data_folder`: ``data_dir``, else
    ``$GEC_DATA``, else the per-user data folder), or a source checkout's ``shared/data`` when
    that is the only one there. Readers of named sets call :func:`gecscore.benchdata.require`,
    which also fetches and verifies them."""
    from gecscore.benchdata.layout import candidate_folders

    folders = candidate_folders(data_dir)
    root = next((f for f in folders if f.is_dir()), folders[0])
    if not root.is_dir():
        raise GecInputError("evaluation data folder not found: `gecscore data get NAME` fetches a named set "
                            "into it (`gecscore data list`)", str(root))
    return root


@dataclass(frozen=True)
class RefSet:
    """Gold sentences (source + each annotator's edits) shared by every system scored on them."""

    name: str
    sentences: tuple[Gold, ...]
    options: dict[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    ixml_path: Path | None = None             # I-measure XML gold of the full set, if any
    indices: tuple[int, ...] | None = None    # positions in the full set after subset()

    def __len__(self) -> int:
        return len(self.sentences)

    @property
    def sources(self) -> list[str]:
        return [" ".join(s.source) for s in self.sentences]

    def expected_lines(self) -> ExpectedLines:
        """What a system output file is checked against: the sources, and the ids when the set
        came from a parallel file (:mod:`gecscore.io.hypotheses`)."""
        ids = tuple(s.id for s in self.sentences) if self.options.get("gold") == "para" else None
        return ExpectedLines(tuple(self.sources), ids, f"the reference set {self.name}")

    def references(self) -> Iterator[tuple[Target, ...]]:
        for sentence in self.sentences:
            yield sentence.targets()

    def samples(self, hypotheses: Sequence[Target]) -> list[Sample]:
        if len(hypotheses) != len(self.sentences):
            raise GecInputError(f"{len(hypotheses)} hypotheses for the {len(self.sentences)} sentences of "
                                f"reference set {self.name}")
        return [Sample(s.source, hyp, s.targets(), i)
                for i, (s, hyp) in enumerate(zip(self.sentences, hypotheses))]

    def subset(self, indices: Sequence[int], name: str | None = None) -> "RefSet":
        """The sentences at ``indices`` (e.g. the SEEDA subset of CoNLL-2014)."""
        full = self.indices if self.indices is not None else range(len(self.sentences))
        return replace(self, name=name or f"{self.name}[{len(indices)}]",
                       sentences=tuple(self.sentences[i] for i in indices),
                       indices=tuple(full[i] for i in indices))

    def gold(self, gold_format: str = "m2") -> GoldCorpus:
        """The gold as the metric seam takes it, in the format the metric prepares from
        (``Metric.gold_format``): ``m2``, the edits from the M2 file, re-extracted by ERRANT, or
        extracted from a parallel file by a language profile; ``xml``, the I-measure XML gold
        of the same sentences (:meth:`xml_gold`)."""
        if gold_format not in GOLD_FORMATS:
            raise ValueError(f"unknown gold format {gold_format!r}; expected one of: {', '.join(GOLD_FORMATS)}")
        if gold_format == "xml":
            return GoldCorpus(tuple(self.xml_gold()), "xml", str(self.ixml_path))
        if self.options.get("gold") == "para":
            return GoldCorpus(self.sentences, self.options["origin"], self.name,
                              tuple((k[len("extracted_by."):], v) for k, v in self.options.items()
                                    if k.startswith("extracted_by.")))
        origin = "errant" if self.options.get("reference_edits") == "errant" else "m2"
        return GoldCorpus(self.sentences, origin, self.name)

    def xml_gold(self) -> list[Gold]:
        """The I-measure XML gold (*.ieval.xml) of these sentences, subset like the M2 gold."""
        from gecscore.io.ixml import read_ixml

        path = self.ixml_path
        if path is None:
            raise GecInputError(f"the I-measure needs an XML gold (*.ieval.xml) for reference set "
                                f"{self.name}; only the named reference sets have one")
        gold = read_ixml(path)
        if self.indices is not None:
            gold = [gold[i] for i in self.indices]
        if len(gold) != len(self):
            raise GecInputError(f"{len(gold)} XML gold sentences but {len(self)} M2 sentences", str(path))
        return gold

    def count_unchanged(self) -> int:
        return sum(1 for s in self.sentences for edits in s.annotations.values() if not edits)


def read_m2_lenient(path: str | Path) -> tuple[list[Gold], list[str]]:
    """Read an M2 file accepting edit spans past the sentence end (SN-8GEC has a few): they
    apply at the end (see ``read_m2(strict=False)``); each one is returned as a note."""
    path = Path(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sentences = read_m2(path, strict=False)
    return sentences, [str(w.message) for w in caught]


def fill_annotators(sentence: Gold, n_annotators: int) -> Gold:
    """Annotators 0..n-1 missing from the block become unchanged references."""
    annotations = {a: sentence.annotations.get(a, ()) for a in range(n_annotators)}
    extra = {a: e for a, e in sentence.annotations.items() if a not in annotations}
    return Gold(sentence.source, {**annotations, **extra}, sentence.line)


def exclude_unchanged(sentence: Gold) -> Gold:
    """Drop annotators without edits, unless all of them are without edits."""
    changed = {a: e for a, e in sentence.annotations.items() if e}
    return Gold(sentence.source, changed, sentence.line) if changed else sentence


def reextract_with_errant(sentences: Sequence[Gold], extractor=None) -> list[Gold]:
    """Each annotator's corrected sentence re-extracted into ERRANT edits."""
    from gecscore.lang.profiles import profile_for

    extractor = extractor or profile_for("en").new_extractor()
    pairs = [(i, a, " ".join(s.source), " ".join(Target.from_edits(s.source, edits).tokens))
             for i, s in enumerate(sentences) for a, edits in s.annotations.items()]
    targets = extractor.targets([p[2] for p in pairs], [p[3] for p in pairs], desc="reference edits (ERRANT)")
    annotations: list[dict[int, tuple]] = [{} for _ in sentences]
    for (i, a, _, _), target in zip(pairs, targets):
        annotations[i][a] = tuple(e for e in target.edits)
    return [Gold(s.source, annotations[i], s.line) for i, s in enumerate(sentences)]


def load_refset(name_or_path: str | Path, data_dir: str | Path | None = None, *,
                exclude_unchanged_refs: bool = False, reference_edits: str | None = None,
                fill_missing_annotators: bool | None = None, extractor=None) -> RefSet:
    """A named reference set (see :data:`REFSETS`) or an M2 file path."""
    info = REFSETS.get(str(name_or_path))
    if reference_edits is None:
        reference_edits = info.reference_edits if info is not None else "m2"
    if reference_edits not in REFERENCE_EDITS:
        raise GecInputError(f"unknown reference_edits {reference_edits!r}; expected m2 or errant")
    notes: list[str] = []
    ixml_path = None
    if info is not None:
        from gecscore.benchdata import require

        root = require([info.path, info.ixml], data_dir)
        path = (root / info.path).resolve()
        if info.ixml and (root / info.ixml).is_file():
            ixml_path = (root / info.ixml).resolve()
        sentences, notes = read_m2_lenient(path)
        name = info.name
    else:
        path = Path(name_or_path)
        if not os.path.lexists(path):   # a path that is there is read, or refused saying what it is (a FIFO ...)
            raise GecInputError(f"not a reference set name ({', '.join(REFSETS)}) nor an M2 file",
                                str(name_or_path))
        sentences = read_m2(path)
        name = path.name
    n_annotators = info.n_annotators if info is not None else None
    if fill_missing_annotators is None:
        fill_missing_annotators = n_annotators is not None
    if fill_missing_annotators:
        n = n_annotators or max((max(s.annotations, default=0) + 1 for s in sentences), default=1)
        sentences = [fill_annotators(s, n) for s in sentences]
    if reference_edits == "errant":
        sentences = reextract_with_errant(sentences, extractor)
    if exclude_unchanged_refs:
        sentences = [exclude_unchanged(s) for s in sentences]
    options = {"refset": name, "reference_edits": reference_edits,
               "fill_missing_annotators": str(bool(fill_missing_annotators)).lower(),
               "exclude_unchanged_refs": str(bool(exclude_unchanged_refs)).lower()}
    return RefSet(name, tuple(sentences), options, tuple(notes), ixml_path)


def refset_from_para(path: str | Path, lang: str = "en", tokenize: bool = False) -> RefSet:
    """A reference set from a parallel file (ChERRANT's format: ``id<TAB>source<TAB>reference
    ...``), its edits extracted by the language profile of ``lang`` (``zh``: ChERRANT's char
    level, ``没有错误`` and ``无法标注`` as ChERRANT reads them)."""
    from gecscore.io.para import read_para
    from gecscore.lang.profiles import gold_of, profile_for

    para = read_para(path)
    gold = gold_of(profile_for(lang), list(para.sources), [list(t) for t in para.targets], tokenize)
    options = {"gold": "para", "origin": gold.origin, "lang": lang,
               **{f"extracted_by.{k}": v for k, v in gold.extracted_by}}
    # each sentence keeps its id and line in the file: a parallel system output is matched by id
    sentences = tuple(replace(sentence, id=id_, line=line)
                      for sentence, id_, line in zip(gold.sentences, para.ids, para.lines))
    return RefSet(Path(path).name, sentences, options)
