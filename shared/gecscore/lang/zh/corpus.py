"""Chinese char-level gold and hypotheses from ChERRANT's parallel files, and ChERRANT's score.

* :func:`gold_from_para` / :func:`gold_from_text`: a :class:`ZhGold`, i.e. the
  :class:`~gecscore.types.GoldCorpus` every metric reads (origin ``cherrant``; annotator ``k`` =
  target ``k`` with the edits of its first alignment ``A0``; a ``没有错误`` target is an
  annotator without edits; a ``无法标注`` target is *not* an annotator, so a sentence whose only
  target is ``无法标注`` has none) plus ChERRANT's full annotations (every alignment, NA markers)
  for the exact ChERRANT score;
* :func:`hypothesis_targets`: the predictions' :class:`~gecscore.types.Target` (``A0`` edits);
(ChERRANT's score of these annotations: :mod:`gecscore.m2.cherrant_compare`).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from gecscore.errors import GecInputError
from gecscore.lang.zh.classify import NOT_ANNOTATABLE
from gecscore.lang.zh.extractor import ZhAnnotation, ZhCharExtractor, shared_zh_extractor
from gecscore.types import Gold, GoldCorpus, Target

from gecscore.lang.zh.m2 import ORIGIN


@dataclass(frozen=True)
class ZhGold:
    """The char-level gold of a corpus: ``corpus`` for the metrics, ``annotations`` (per
    sentence, per target) for ChERRANT's exact scorer, ``ids`` from the file (or 1, 2, ...)."""

    corpus: GoldCorpus
    annotations: tuple[tuple[ZhAnnotation, ...], ...]
    ids: tuple[str, ...]

    @property
    def sources(self) -> list[str]:
        """The tokenised sources (characters joined by spaces)."""
        return self.corpus.sources


def _gold(sources: Sequence[str], references: Sequence[Sequence[str]], ids: Sequence[str],
          lines: Sequence[int], path: str, extractor: ZhCharExtractor) -> ZhGold:
    tokenized = extractor.tokenize(sources)
    sentences, annotations = [], []
    for source, refs, id_, line in zip(tokenized, references, ids, lines):
        anns = tuple(extractor.annotate(source, ref) for ref in extractor.tokenize_targets(refs))
        edits = {k: a.edits for k, a in enumerate(anns) if a.kind != NOT_ANNOTATABLE}
        sentences.append(Gold(tuple(source.split()), edits, line, id_))
        annotations.append(anns)
    return ZhGold(GoldCorpus(tuple(sentences), ORIGIN, path), tuple(annotations), tuple(ids))


def gold_from_para(path: str | Path, *, extractor: ZhCharExtractor | None = None) -> ZhGold:
    """The gold of a ChERRANT parallel file (``id \\t source \\t ref1 \\t ref2 ...``)."""
    from gecscore.io.para import read_para

    para = read_para(path)
    return _gold(para.sources, para.targets, para.ids, para.lines, str(path),
                 extractor or shared_zh_extractor())


def gold_from_text(sources: Sequence[str], references: Sequence[Sequence[str] | str], *,
                   extractor: ZhCharExtractor | None = None) -> ZhGold:
    """The gold of raw sources and references (``references[i]``: sentence i's references, or
    one string)."""
    if len(sources) != len(references):
        raise GecInputError(f"{len(sources)} sources but {len(references)} reference lists")
    refs = [(r,) if isinstance(r, str) else tuple(r) for r in references]
    for number, group in enumerate(refs, start=1):
        if not group:
            raise GecInputError("no reference", f"sentence {number}")
    ids = [str(n) for n in range(1, len(sources) + 1)]
    return _gold(sources, refs, ids, [0] * len(sources), "", extractor or shared_zh_extractor())


def hypothesis_targets(sources: Sequence[str], predictions: Sequence[str], *,
                       extractor: ZhCharExtractor | None = None) -> list[Target]:
    """The predictions' targets (``A0`` edits) against ``sources`` tokenised by
    :meth:`ZhCharExtractor.tokenize` (e.g. :attr:`ZhGold.sources`). Predictions are raw text:
    whitespace removed and simplified (t2s) as ChERRANT does."""
    extractor = extractor or shared_zh_extractor()
    if len(sources) != len(predictions):
        raise GecInputError(f"{len(sources)} sources but {len(predictions)} predictions")
    return extractor.targets(list(sources), extractor.tokenize_targets(predictions), desc="hypothesis edits")


def hypothesis_annotations(sources: Sequence[str], predictions: Sequence[Sequence[str] | str], *,
                           extractor: ZhCharExtractor | None = None) -> list[tuple[ZhAnnotation, ...]]:
    """ChERRANT's annotations of each source's prediction(s) (raw text; sources tokenised)."""
    extractor = extractor or shared_zh_extractor()
    out = []
    for source, preds in zip(sources, predictions):
        preds = (preds,) if isinstance(preds, str) else tuple(preds)
        out.append(tuple(extractor.annotate(source, p) for p in extractor.tokenize_targets(preds)))
    return out
