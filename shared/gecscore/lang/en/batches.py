"""A stream of spaCy docs annotated a batch at a time, by the pipeline components we speed up
(:mod:`gecscore.lang.en.attribute_rules`, :mod:`gecscore.lang.en.lemma_memo`)."""
from __future__ import annotations

from typing import Callable, Iterable, Iterator


def in_batches(docs: Iterable, batch_size: int, annotate: Callable[[list], list]) -> Iterator:
    """``annotate`` applied to the stream a batch of ``batch_size`` docs at a time (spaCy's
    ``minibatch``; one doc at a time below 1), its docs yielded as each batch is done."""
    from spacy.util import minibatch

    for batch in minibatch(docs, max(1, batch_size)):
        yield from annotate(batch)
