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

Each new key is spaCy's own ``rule_lemmatize`` run on the lemmatizer with one difference in
what it reads (:class:`_IndexedAsSets`): the ``lemma_index`` table's word lists as sets.
``rule_lemmatize`` only asks ``form in index`` of them, the same answer from a set, where a
list is searched word by word: 0.26 ms a key, 1.2 s of a process's first parse of CoNLL-2014's
systems (4,510 keys), now 0.1 s. The model's own tables are not touched.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterable, Iterator

from gecscore.lang.en.batches import in_batches


@dataclass(frozen=True)
class RememberedLemmas:
    """A rule lemmatizer (``lemmatizer``) with its answers kept by (orth, pos, morph)."""

    lemmatizer: Any
    lemmas: dict[tuple[int, int, int], int] = field(default_factory=dict)   # key -> lemma's string id

    def pipe(self, docs: Iterable, batch_size: int) -> Iterator:
        """The lemmatizer over a stream of docs, a batch at a time: the first doc through its
        own ``__call__``, then each batch's tokens by their keys (:meth:`_annotate`)."""
        stream = iter(docs)
        for doc in stream:   # spaCy's own call: it validates its tables (and raises as spaCy would)
            yield self.lemmatizer(doc)
            break
        yield from in_batches(stream, batch_size, self._annotate)

    def _annotate(self, batch: list) -> list:
        """Every token of the batch that needs a lemma (all with ``overwrite``, else those
        without one) gets its key's: a key not seen yet is asked at its first token in stream
        order; a token without a POS is asked itself, every time."""
        import numpy as np
        from spacy.attrs import LEMMA, MORPH, ORTH, POS

        docs = [doc for doc in batch if len(doc)]
        if not docs:
            return batch
        columns = np.concatenate([doc.to_array([ORTH, POS, MORPH, LEMMA]).reshape(len(doc), 4) for doc in docs])
        lengths = np.array([len(doc) for doc in docs])
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        lemmas = columns[:, 3].copy()
        need = np.ones(len(columns), dtype=bool) if self.lemmatizer.overwrite else lemmas == 0
        where = np.flatnonzero(need)
        owner = np.repeat(np.arange(len(docs)), lengths)[where]
        doc_of, at = owner.tolist(), (where - starts[owner]).tolist()
        memo = self.lemmas
        answers = []
        for key, d, i in zip(zip(*columns[where, :3].T.tolist()), doc_of, at):
            found = memo.get(key)
            answers.append(found if found is not None else self._lemma(docs[d], i, key))
        lemmas[where] = np.fromiter(answers, dtype=lemmas.dtype, count=len(answers))
        for doc, start, length in zip(docs, starts.tolist(), lengths.tolist()):
            doc.from_array([LEMMA], lemmas[start:start + length])
        return batch

    def _lemma(self, doc, i: int, key: tuple[int, int, int]) -> int:
        """Token ``doc[i]``'s lemma (its key ``key``): spaCy's ``rule_lemmatize`` with the
        index as sets, kept unless the token has no POS."""
        token = doc[i]
        found = doc.vocab.strings.add(type(self.lemmatizer).rule_lemmatize(self._indexed, token)[0])
        if key[1] != 0:   # no POS: asked every time, as spaCy does (it warns)
            self.lemmas[key] = found
        return found

    @cached_property
    def _indexed(self) -> "_IndexedAsSets":
        """The lemmatizer as ``rule_lemmatize`` reads it, its index as sets (built on first use)."""
        return _IndexedAsSets(self.lemmatizer, _SetIndex(self.lemmatizer.lookups))


class _SetIndex:
    """A lemmatizer's lookups as ``rule_lemmatize`` reads them (``get_table``), the
    ``lemma_index`` table's word lists as frozensets (built once); other tables as they are."""

    def __init__(self, lookups):
        from spacy.lookups import Table

        self.lookups = lookups
        self.index = None
        if lookups.has_table("lemma_index"):
            table = lookups.get_table("lemma_index")
            self.index = Table(table.name)   # looked up as the table is: a string key by its hash
            for key, words in table.items():
                self.index[key] = frozenset(words)

    def get_table(self, name: str, default=None):
        if name == "lemma_index" and self.index is not None:
            return self.index
        return self.lookups.get_table(name, default)


@dataclass(frozen=True)
class _IndexedAsSets:
    """The lemmatizer as ``rule_lemmatize`` reads it (its cache, ``is_base_form``, ...), but
    its ``lookups`` through :class:`_SetIndex`."""

    lemmatizer: Any
    lookups: _SetIndex

    def __getattr__(self, name: str):
        return getattr(self.lemmatizer, name)


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
