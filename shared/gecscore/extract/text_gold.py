"""Gold from plain-text references for the metrics that read text only (GREEN, GLEU): no
language model, no edit extraction."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from gecscore import inputs
from gecscore.types import Edit, Gold, GoldCorpus


def text_gold(sources: Any, references: Any, split: Callable[[str], Sequence[str]] = str.split) -> GoldCorpus:
    """The gold of parallel text for a metric that reads text only (GREEN, GLEU: no ERRANT):
    annotator k of a sentence is its k-th reference, recorded as one whole-sentence edit
    (type ``TEXT``; the corpus's origin ``text``), or as no edit where the reference's tokens
    equal the source's. ``split`` cuts a line into tokens: ``str.split`` (any whitespace) by
    default; GLEU passes :func:`gecscore.strings.ascii_tokens`, the official script's cut."""
    sources, _, references = inputs.parallel(sources, None, references)
    sentences = []
    for number, (source, refs) in enumerate(zip(sources, references), start=1):
        src = tuple(split(source))
        annotations = {}
        for k, ref in enumerate(refs):
            tokens = tuple(split(ref))
            annotations[k] = () if tokens == src else (Edit(0, len(src), tokens, "TEXT"),)
        sentences.append(Gold(src, annotations, 0, str(number)))
    return GoldCorpus(tuple(sentences), "text")
