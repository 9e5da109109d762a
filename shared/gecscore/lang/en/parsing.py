"""spaCy's pipeline over a stream of docs, as ``nlp.pipe`` runs it in one process, with two of
its components sped up and their annotations unchanged: the attribute ruler's matches found by
column tests (:mod:`gecscore.lang.en.attribute_rules`) and the rule lemmatizer's answers kept
by (word, POS, morphology) (:mod:`gecscore.lang.en.lemma_memo`). Any other component, or one
of those whose speed-up does not apply, runs as spaCy runs it."""
from __future__ import annotations

from typing import Iterable, Iterator

from gecscore.lang.en.attribute_rules import compile_rules
from gecscore.lang.en.lemma_memo import remembered_lemmas


def run_pipeline(nlp, docs: Iterable, batch_size: int) -> Iterator:
    """``nlp.pipe(docs, batch_size=batch_size)`` in one process: each component's ``pipe`` over
    the stream, in the pipeline's order."""
    from spacy.pipeline import AttributeRuler

    stream = iter(docs)
    for _name, component in nlp.pipeline:
        compiled = compile_rules(component) if isinstance(component, AttributeRuler) else None
        lemmas = remembered_lemmas(component)
        if compiled is not None:
            stream = compiled.pipe(stream, batch_size)
        elif lemmas is not None:
            stream = lemmas.pipe(stream, batch_size)
        elif hasattr(component, "pipe"):
            stream = component.pipe(stream, batch_size=batch_size)
        else:
            stream = map(component, stream)
    return stream
