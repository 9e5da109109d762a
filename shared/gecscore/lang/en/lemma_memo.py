"""spaCy's rule lemmatizer, each distinct (word, POS, morphology) lemmatised once.

spaCy's ``Lemmatizer`` in "rule" mode keeps its answers by ``(orth, pos, morph)``, but not the
answer for a base form (``is_base_form``: a singular noun, an infinitive ...), which it works
out again at every token (reading the morphology into a dict): on CoNLL-2014's 7,471 sentences
it was 2-3 s of ERRANT's parse. The lemma it gives is a function of that key: ``rule_lemmatize``
reads the token's text, its POS and, through the English ``is_base_form``, its morphology, and
the lookup tables, which do not change. So :class:`RememberedLemmas` asks spaCy's own
``lemmatize`` once per key and writes every token's lemma from the answers, by columns
(``Doc.to_array`` / ``Doc.from_array``).

Where that argument does not hold it is not used (:func:`remembered_lemmas` returns None): a
lemmatizer of another class (another language's ``is_base_form`` may read more) or another
mode. A token without a POS goes through ``lemmatize`` itself (spaCy warns for it each time).
The first doc of a stream goes through the lemmatizer's own ``__call__``, which checks its
tables.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator


@dataclass(frozen=True)
class RememberedLemmas:
    """A rule lemmatizer (``lemmatizer``) with its answers kept by (orth, pos, morph)."""

    lemmatizer: Any
    lemmas: dict[tuple[int, int, int], int] = field(default_factory=dict)   # key -> lemma's string id

    def pipe(self, docs: Iterable, batch_size: int) -> Iterator:
        from spacy.attrs import LEMMA, MORPH, ORTH, POS

        first = True
        for doc in docs:
            if first:   # spaCy's own call: it validates its tables (and raises as spaCy would)
                first = False
                yield self.lemmatizer(doc)
                continue
            if len(doc):
                columns = doc.to_array([ORTH, POS, MORPH, LEMMA])
                lemmas = columns[:, 3].copy()
                overwrite = self.lemmatizer.overwrite
                for i, (orth, pos, morph, lemma) in enumerate(columns.tolist()):
                    if overwrite or lemma == 0:
                        lemmas[i] = self._lemma(doc, i, (orth, pos, morph))
                doc.from_array([LEMMA], lemmas)
            yield doc

    def _lemma(self, doc, i: int, key: tuple[int, int, int]) -> int:
        found = self.lemmas.get(key)
        if found is None:
            token = doc[i]
            found = doc.vocab.strings.add(self.lemmatizer.lemmatize(token)[0])
            if key[1] != 0:   # no POS: asked every time, as spaCy does (it warns)
                self.lemmas[key] = found
        return found


_MEMOS: "weakref.WeakKeyDictionary[Any, RememberedLemmas]" = weakref.WeakKeyDictionary()


def remembered_lemmas(component) -> RememberedLemmas | None:
    """The memo of spaCy's base or English rule lemmatizer (one per lemmatizer, kept while it
    lives: a leaderboard parses system after system), else None."""
    from spacy.lang.en.lemmatizer import EnglishLemmatizer
    from spacy.pipeline import Lemmatizer

    if type(component) not in (Lemmatizer, EnglishLemmatizer) or component.mode != "rule":
        return None
    memo = _MEMOS.get(component)
    if memo is None:
        memo = _MEMOS[component] = RememberedLemmas(component)
    return memo
