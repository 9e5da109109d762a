"""English gold from plain-text references: each reference is one annotator, its edits extracted
by ERRANT (:func:`gold_from_text`); the hypotheses' edits the same way (:func:`hypothesis_targets`).
The metrics that read text only take their gold from :mod:`gecscore.extract.text_gold`."""
from __future__ import annotations

from typing import Any, Sequence

from gecscore import inputs
from gecscore.errors import GecInputError
from gecscore.lang.en.extractor import ErrantExtractor, shared_extractor
from gecscore.types import Gold, GoldCorpus, Target


def tokenized(lines: Sequence[str], tokenize: bool, what: str, extractor: ErrantExtractor | None = None
              ) -> list[str]:
    """``lines`` tokenised by spaCy when ``tokenize``; else as given, with a warning when they
    look untokenised."""
    if tokenize:
        return (extractor or shared_extractor()).tokenize(lines)
    inputs.warn_if_untokenised(lines, what, tokenize)
    return list(lines)


def gold_from_text(sources: Any, references: Any, *, tokenize: bool = False,
                   extractor: ErrantExtractor | None = None) -> GoldCorpus:
    """The gold of parallel text: ``references[i]`` lists sentence i's references (or is one
    string); annotator k of a sentence is its k-th reference, edits by ERRANT."""
    if references is None:
        raise GecInputError("reference edits need references (one list of corrected sentences, or one "
                            "string, per source)")
    sources, _, references = inputs.parallel(sources, None, references)
    extractor = extractor or shared_extractor()
    sources = tokenized(sources, tokenize, "sources", extractor)
    references = [tokenized(refs, tokenize, "references", extractor) for refs in references]
    flat_sources = [src for src, refs in zip(sources, references) for _ in refs]
    flat_refs = [ref for refs in references for ref in refs]
    extractor.parse([*sources, *flat_refs])
    targets = extractor.targets(flat_sources, flat_refs, desc="reference edits")
    sentences, offset = [], 0
    for number, (source, refs) in enumerate(zip(sources, references), start=1):
        annotations = {k: t.edits for k, t in enumerate(targets[offset:offset + len(refs)])}
        offset += len(refs)
        sentences.append(Gold(tuple(source.split()), annotations, 0, str(number)))
    return GoldCorpus(tuple(sentences), "errant")


def hypothesis_targets(sources: Sequence[str], predictions: Sequence[str], *, tokenize: bool = False,
                       extractor: ErrantExtractor | None = None) -> list[Target]:
    """The hypotheses' ERRANT edits against their (tokenised) sources."""
    extractor = extractor or shared_extractor()
    predictions = tokenized(predictions, tokenize, "predictions", extractor)
    return extractor.targets(sources, predictions, desc="hypothesis edits")
