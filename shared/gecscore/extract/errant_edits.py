"""ERRANT edit extraction with parse caching and batched, optionally parallel, parsing.

Each distinct sentence is parsed once per extractor: in a leaderboard the sources and
references are shared by all systems, and many hypothesis sentences equal their source.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from tqdm.auto import tqdm

from gecscore.extract.spacy_model import load_spacy_model
from gecscore.types import Edit, Target


class ErrantExtractor:
    """Extract ERRANT edits between whitespace-tokenised sentences.

    ``n_process`` > 1 parses with spaCy's multiprocessing (worth it for thousands of
    sentences); ``tokenize=True`` runs spaCy's tokenizer on raw text first.
    """

    def __init__(self, nlp=None, *, n_process: int = 1, batch_size: int = 256,
                 progress: bool = True):
        import errant

        self.nlp = nlp if nlp is not None else load_spacy_model()
        self.annotator = errant.load("en", self.nlp)
        self.n_process = n_process
        self.batch_size = batch_size
        self.progress = progress
        self._docs: dict[str, object] = {}

    def tokenize(self, texts: Iterable[str]) -> list[str]:
        """spaCy tokenisation of raw text, joined by single spaces."""
        return [" ".join(tok.text for tok in self.nlp.tokenizer(text) if not tok.is_space) for text in texts]

    def parse(self, sentences: Iterable[str]) -> None:
        """Parse (and cache) every sentence not parsed yet."""
        from spacy.tokens import Doc

        todo = list(dict.fromkeys(s for s in sentences if s not in self._docs))
        if not todo:
            return
        docs = (Doc(self.nlp.vocab, s.split()) for s in todo)
        parsed = self.nlp.pipe(docs, batch_size=self.batch_size, n_process=self.n_process)
        for sentence, doc in zip(todo, tqdm(parsed, total=len(todo), desc="parsing (spaCy)",
                                            disable=not self.progress or len(todo) < 500, leave=False)):
            self._docs[sentence] = doc

    def edits(self, source: str, target: str) -> tuple[Edit, ...]:
        """ERRANT edits from ``source`` to ``target`` (both whitespace-tokenised)."""
        if source.split() == target.split():
            return ()
        self.parse((source, target))
        found = self.annotator.annotate(self._docs[source], self._docs[target])
        return tuple(Edit(e.o_start, e.o_end, tuple(e.c_str.split()), e.type, e.c_start, e.c_end)
                     for e in found)

    def targets(self, sources: Sequence[str], targets: Sequence[str],
                desc: str = "extracting edits") -> list[Target]:
        """One :class:`Target` per (source, target) pair, parsing all sentences in one batch."""
        self.parse(s for pair in zip(sources, targets) if pair[0].split() != pair[1].split() for s in pair)
        pairs = tqdm(zip(sources, targets), total=len(sources), desc=desc,
                     disable=not self.progress or len(sources) < 500, leave=False)
        return [Target(tuple(tgt.split()), self.edits(src, tgt)) for src, tgt in pairs]
