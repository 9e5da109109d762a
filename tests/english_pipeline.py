"""The English spaCy pipeline as gecscore loads it, for the tests of its parse: loaded once
(or the test skipped without the model), and docs taken through its components up to one."""
from __future__ import annotations

from typing import Sequence

import pytest


def english_nlp():
    """gecscore's English pipeline, or the calling test skipped when no model is installed."""
    from gecscore.errors import MissingModelError
    from gecscore.lang.en.spacy_model import load_spacy_model

    try:
        return load_spacy_model()
    except MissingModelError as exc:  # pragma: no cover
        pytest.skip(str(exc))


def docs_before(nlp, sentences: Sequence[str], component: str) -> list:
    """Whitespace-tokenised ``sentences`` through the components before ``component`` (its input)."""
    from spacy.tokens import Doc

    names = [name for name, _ in nlp.pipeline]
    with nlp.select_pipes(enable=names[:names.index(component)]):
        return list(nlp.pipe(Doc(nlp.vocab, s.split()) for s in sentences))
