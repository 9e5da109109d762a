"""The MultiGEC-2025 profile: ERRANT's alignment, merge and classification over a UD parse.

MultiGEC-2025 (the shared task on multilingual GEC, NLP4CALL 2025) scored every language with
an ERRANT fork that kept ERRANT's English merger and classifier and fed them UDPipe's UD
parses. :class:`MultigecProfile` does the same with an installed spaCy pipeline for the
language (:func:`~gecscore.lang.multigec.pipeline.spacy_pipeline_for`), whose UD ``pos_``,
``lemma_``, ``morph`` and ``dep_`` stand in for UDPipe's:

* tokens: whitespace tokens as given (``tokenize=False``, a warning when the text looks
  untokenised), or the pipeline's tokenizer (``tokenize=True``);
* alignment: ERRANT's, exactly (the compiled :class:`gecscore.lang.en.alignment.CompiledAlignment`:
  lemma, UPOS and character costs, all read from the parse);
* merge: ERRANT's English rule merger (``errant.en.merger``) unchanged: it reads UPOS, lower
  forms and ``tag_ == "POS"`` (never true in a UD parse);
* classification: ERRANT's English classifier over the UD parse (:mod:`.classify`).

The gold's origin is ``multigec``; the signature records the profile (``multigec-1``), ERRANT's
version and the pipeline's name and version.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from gecscore.lang.en.extractor import MAX_DOCS, MAX_PAIRS, ErrantExtractor, errant_facts
from gecscore.lang.free.cache import BoundedCache
from gecscore.types import GoldCorpus, Target

RULES = "multigec-1"
ORIGIN = "multigec"


def multigec_annotator(nlp):
    """An ``errant.Annotator`` for ``nlp``'s language with ERRANT's English merger and the
    UD-reading copy of its English classifier (``errant.load`` accepts English only)."""
    import errant
    import errant.en.merger as merger

    from gecscore.lang.multigec.classify import ud_classifier

    return errant.Annotator(nlp.lang, nlp, merger, ud_classifier(nlp))


class MultigecExtractor(ErrantExtractor):
    """:class:`~gecscore.lang.en.extractor.ErrantExtractor` (parse and edit caches, compiled
    alignment) with the MultiGEC annotator instead of English ERRANT's."""

    def __init__(self, nlp, *, progress: bool = False, max_docs: int = MAX_DOCS, max_pairs: int = MAX_PAIRS,
                 alignment: str = "compiled", max_cells: int | None = None):
        from gecscore.lang.en.alignment import DEFAULT_MAX_CELLS

        # ErrantExtractor.__init__ would call errant.load("en", nlp), which sets the English
        # classifier's module-level nlp: the English profile's state. Set the fields here.
        self.alignment = alignment
        self.max_cells = max_cells if max_cells is not None else DEFAULT_MAX_CELLS
        self.nlp = nlp
        self.annotator = multigec_annotator(nlp)
        self.n_process = 1
        self.batch_size = 256
        self.progress = progress
        self._docs = BoundedCache(max_docs)
        self._edits = BoundedCache(max_pairs)


class MultigecProfile:
    """ERRANT over a UD parse by a spaCy pipeline of language ``lang`` (see the module docstring)."""

    name = "multigec"

    def __init__(self, lang: str, nlp):
        self.lang = lang
        self.nlp = nlp
        self.extractor = MultigecExtractor(nlp)

    def __repr__(self) -> str:
        return f"MultigecProfile({self.lang!r}, {self.nlp.meta.get('lang')}_{self.nlp.meta.get('name')})"

    def facts(self) -> tuple[tuple[str, str], ...]:
        return (("profile", RULES),) + errant_facts(self.nlp)

    def gold(self, sources: Sequence[str], references: Sequence[Sequence[str]], tokenize: bool) -> GoldCorpus:
        from gecscore.lang.en.gold import gold_from_text

        corpus = gold_from_text(list(sources), [list(r) for r in references], tokenize=tokenize,
                                extractor=self.extractor)
        return replace(corpus, origin=ORIGIN)

    def predictions(self, predictions: Sequence[str], tokenize: bool) -> list[str]:
        from gecscore.lang.en.gold import tokenized

        return tokenized(predictions, tokenize, "predictions", self.extractor)

    def hypothesis_targets(self, sources: Sequence[str], predictions: Sequence[str]) -> list[Target]:
        return self.extractor.targets(sources, predictions, desc="hypothesis edits")
