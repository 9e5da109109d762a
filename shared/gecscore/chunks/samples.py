"""CLEME samples from M2 bundles: gold edits and hypothesis edits both given as M2 files (the
CLEME reference code's input)."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from gecscore.errors import GecInputError
from gecscore.io.m2 import read_m2
from gecscore.types import Gold, Sample


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


def samples_from_m2_and_text(gold: Sequence[Gold], predictions: Sequence[str], extractor=None,
                             hyp_name: str = "predictions") -> list[Sample]:
    """Samples with gold edits from M2 and the hypotheses' ERRANT edits (text, tokenised)."""
    from gecscore import inputs
    from gecscore.io.text import check_line_count
    from gecscore.lang.profiles import profile_for

    predictions = inputs.strings(predictions, hyp_name)
    check_line_count(hyp_name, predictions, len(gold), "the gold M2")
    inputs.warn_if_untokenised(predictions, "predictions", False)   # scored as given
    extractor = extractor or profile_for("en").extractor
    hypotheses = extractor.targets([" ".join(g.source) for g in gold], predictions, desc="hypothesis edits")
    return [Sample(g.source, hyp, g.targets(), index) for index, (g, hyp) in enumerate(zip(gold, hypotheses))]
