"""Build samples (source, hypothesis, references) from M2 files or parallel text."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from gecscore.errors import GecInputError
from gecscore.io.m2 import read_m2
from gecscore.types import Gold, Sample, Target


def samples_from_m2(gold: Sequence[Gold], hypotheses: Sequence[Gold],
                    gold_name: str = "gold M2", hyp_name: str = "hypothesis M2") -> list[Sample]:
    """Samples whose hypothesis edits come from an M2 file (its first annotator)."""
    if len(gold) != len(hypotheses):
        raise GecInputError(f"{gold_name} has {len(gold)} sentences but {hyp_name} has {len(hypotheses)}")
    samples = []
    for index, (ref, hyp) in enumerate(zip(gold, hypotheses)):
        if ref.source != hyp.source:
            raise GecInputError(f"sentence {index + 1}: the source differs from {gold_name}'s "
                                f"(line {ref.line})", f"{hyp_name}:{hyp.line}")
        hypothesis = hyp.targets()[0]
        samples.append(Sample(ref.source, hypothesis, ref.targets(), index))
    return samples


def load_m2_samples(gold_path: str | Path, hyp_path: str | Path) -> list[Sample]:
    return samples_from_m2(read_m2(gold_path), read_m2(hyp_path), str(gold_path), str(hyp_path))


def check_parallel(sources: Sequence, predictions: Sequence, references: Sequence | None = None) -> None:
    """Validate parallel inputs: equal lengths, strings, non-empty sources."""
    if len(sources) != len(predictions):
        raise GecInputError(f"got {len(sources)} sources but {len(predictions)} predictions")
    if references is not None and len(references) != len(sources):
        raise GecInputError(f"got {len(sources)} sources but {len(references)} reference lists")
    for index, source in enumerate(sources):
        if not isinstance(source, str):
            raise GecInputError(f"source must be a string, got {type(source).__name__}", f"sources[{index}]")
        if not source.strip():
            raise GecInputError("empty source sentence", f"sources[{index}]")
    for index, prediction in enumerate(predictions):
        if not isinstance(prediction, str):
            raise GecInputError(f"prediction must be a string, got {type(prediction).__name__}",
                                f"predictions[{index}]")
    for index, refs in enumerate(references or ()):
        if isinstance(refs, str) or not len(refs):
            raise GecInputError("references must be a non-empty list of strings", f"references[{index}]")
        for k, ref in enumerate(refs):
            if not isinstance(ref, str):
                raise GecInputError(f"reference must be a string, got {type(ref).__name__}",
                                    f"references[{index}][{k}]")



def samples_from_text(sources: Sequence[str], predictions: Sequence[str],
                      references: Sequence[Sequence[str]], extractor=None) -> list[Sample]:
    """Samples from parallel text; hypothesis and reference edits are extracted by ERRANT.

    ``references[i]`` lists the references of sentence i.
    """
    from gecscore.extract.errant_edits import ErrantExtractor

    check_parallel(sources, predictions, references)
    extractor = extractor or ErrantExtractor()
    n_refs = [len(refs) for refs in references]
    flat_sources = [src for src, n in zip(sources, n_refs) for _ in range(n)]
    flat_refs = [ref for refs in references for ref in refs]
    extractor.parse([*sources, *predictions, *flat_refs])
    hyps = extractor.targets(sources, predictions, desc="hypothesis edits")
    refs = extractor.targets(flat_sources, flat_refs, desc="reference edits")
    samples, offset = [], 0
    for index, (source, hyp, n) in enumerate(zip(sources, hyps, n_refs)):
        targets = tuple(Target(r.tokens, r.edits, k) for k, r in enumerate(refs[offset:offset + n]))
        samples.append(Sample(tuple(source.split()), hyp, targets, index))
        offset += n
    return samples


def samples_from_m2_and_text(gold: Sequence[Gold], predictions: Sequence[str],
                             extractor=None, hyp_name: str = "predictions") -> list[Sample]:
    """Samples with gold edits from M2 and hypothesis edits extracted by ERRANT."""
    from gecscore.extract.errant_edits import ErrantExtractor

    if len(gold) != len(predictions):
        raise GecInputError(f"the gold M2 has {len(gold)} sentences but {hyp_name} has {len(predictions)}")
    for index, prediction in enumerate(predictions):
        if not isinstance(prediction, str):
            raise GecInputError(f"prediction must be a string, got {type(prediction).__name__}",
                                f"{hyp_name}[{index}]")
    extractor = extractor or ErrantExtractor()
    sources = [" ".join(sentence.source) for sentence in gold]
    hyps = extractor.targets(sources, predictions, desc="hypothesis edits")
    return [Sample(sentence.source, hyp, sentence.targets(), index)
            for index, (sentence, hyp) in enumerate(zip(gold, hyps))]
