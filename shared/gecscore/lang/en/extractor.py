"""ERRANT edit extraction with parse and edit caches and batched, optionally parallel, parsing.

Each distinct sentence is parsed once per extractor and each distinct (source, target) pair
is aligned once: in a leaderboard or a training loop the sources and references are shared by
every system and every call, and many hypothesis sentences equal their source. Both caches
are bounded (least recently used out), so a long training run does not grow without limit.

Across processes: the edits of a whole corpus (:meth:`ErrantExtractor.targets` on at least
:data:`PERSIST_MIN_PAIRS` pairs: a system output, a set of references) are kept in the
persistent cache (:mod:`gecscore.cache`), keyed by every sentence, ERRANT's, spaCy's and the
model's versions, the alignment options and the source of the code that extracts them: a known
benchmark's parses cost nothing the second time, in any process.
"""
from __future__ import annotations

import os
from functools import lru_cache
from typing import Iterable, Sequence


from gecscore.lang.en.parsing import run_pipeline
from gecscore.lang.en.spacy_model import load_spacy_model
from gecscore.lru import LruCache
from gecscore.progress import bar
from gecscore.types import Edit, Target

PERSIST_MIN_PAIRS = 100   # smaller calls (a training step's batch) stay in memory only
CACHE_NAMESPACE = "errant-targets"
MAX_DOCS = 50_000
MAX_PAIRS = 200_000
# "compiled": the exact numba re-implementation of ERRANT's alignment (gecscore.lang.en.alignment);
# "errant": ERRANT's own pure-Python alignment, kept for comparison. Identical edits either way.
ALIGNMENTS = ("compiled", "errant")
ALIGNMENT_ENV = "GECSCORE_ERRANT_ALIGNMENT"


class ErrantExtractor:
    """Extract ERRANT edits between whitespace-tokenised sentences.

    ``n_process`` > 1 parses with spaCy's multiprocessing (worth it for thousands of
    sentences); :meth:`tokenize` runs spaCy's tokenizer on raw text. ``alignment`` chooses the
    compiled alignment (default) or ERRANT's own (also through ``$GECSCORE_ERRANT_ALIGNMENT``);
    ``max_cells`` bounds one pair's alignment table (None: no limit).
    """

    def __init__(self, nlp=None, *, n_process: int = 1, batch_size: int = 256,
                 progress: bool = True, max_docs: int = MAX_DOCS, max_pairs: int = MAX_PAIRS,
                 alignment: str | None = None, max_cells: int | None = None):
        import errant

        from gecscore.lang.en.alignment import DEFAULT_MAX_CELLS

        alignment = alignment or os.environ.get(ALIGNMENT_ENV) or ALIGNMENTS[0]
        if alignment not in ALIGNMENTS:
            raise ValueError(f"unknown alignment {alignment!r}; expected one of: {', '.join(ALIGNMENTS)}")
        self.alignment = alignment
        self.max_cells = max_cells if max_cells is not None else DEFAULT_MAX_CELLS

        self.nlp = nlp if nlp is not None else load_spacy_model()
        self.annotator = errant.load("en", self.nlp)
        self.n_process = n_process
        self.batch_size = batch_size
        self.progress = progress
        self._docs: LruCache = LruCache(max_docs)
        self._edits: LruCache = LruCache(max_pairs)

    def facts(self) -> tuple[tuple[str, str], ...]:
        """What the signature records of this extractor: ERRANT's and the spaCy model's versions."""
        return errant_facts(self.nlp)

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
        if self.n_process == 1:   # two components sped up, the same docs (gecscore.lang.en.parsing)
            parsed = run_pipeline(self.nlp, docs, self.batch_size)
        else:
            parsed = self.nlp.pipe(docs, batch_size=self.batch_size, n_process=self.n_process)
        for sentence, doc in zip(todo, bar(parsed, total=len(todo), desc="parsing (spaCy)",
                                           requested=self.progress, minimum=500)):
            self._docs.put(sentence, doc)

    def _doc(self, sentence: str):
        doc = self._docs.get_fresh(sentence)
        if doc is None:
            self.parse((sentence,))
            doc = self._docs[sentence]
        return doc

    def edits(self, source: str, target: str) -> tuple[Edit, ...]:
        """ERRANT edits from ``source`` to ``target`` (both whitespace-tokenised)."""
        if source.split() == target.split():
            return ()
        key = (source, target)
        found = self._edits.get_fresh(key)
        if found is None:
            if self.alignment == "compiled":
                from gecscore.lang.en.alignment import annotate

                annotated = annotate(self.annotator, self._doc(source), self._doc(target), max_cells=self.max_cells)
            else:
                annotated = self.annotator.annotate(self._doc(source), self._doc(target))
            found = tuple(Edit(e.o_start, e.o_end, tuple(e.c_str.split()), e.type, e.c_start, e.c_end)
                          for e in annotated)
            self._edits.put(key, found)
        return found

    def targets(self, sources: Sequence[str], targets: Sequence[str],
                desc: str = "extracting edits") -> list[Target]:
        """One :class:`Target` per (source, target) pair, parsing all new sentences in one batch
        (a corpus seen before, by any process, comes from the persistent cache)."""
        from gecscore.cache import default_store

        store = default_store() if len(sources) >= PERSIST_MIN_PAIRS else None
        key = self.corpus_key(sources, targets) if store is not None else ""
        if store is not None:
            found = store.get(CACHE_NAMESPACE, key)
            if found is not None:
                if _answers(found, targets):
                    return found
                store.discard(CACHE_NAMESPACE, key)
        self.parse(s for pair in zip(sources, targets)
                   if pair[0].split() != pair[1].split() and pair not in self._edits for s in pair)
        pairs = bar(zip(sources, targets), total=len(sources), desc=desc, requested=self.progress, minimum=500)
        out = [Target(tuple(tgt.split()), self.edits(src, tgt)) for src, tgt in pairs]
        if store is not None:
            store.put(CACHE_NAMESPACE, key, out)
        return out

    def corpus_key(self, sources: Sequence[str], targets: Sequence[str]) -> str:
        """The persistent cache's key of a corpus's edits: its pairs, the options, and every
        code path the edits go through, derived rather than listed: the source of the whole
        gecscore package (the extractor, the alignment, how the model is loaded) and of the
        ERRANT package (its merger and classifier), the loaded spaCy pipeline (components run
        and disabled, config, model files) and the installed versions
        (:mod:`gecscore.cache.keys`)."""
        from gecscore.cache.keys import (KeyBuilder, environment_digest, package_digest, pipeline_digest,
                                         source_digest)

        return (KeyBuilder(CACHE_NAMESPACE)
                .facts(self.facts())
                .facts((("alignment", self.alignment), ("max_cells", str(self.max_cells)),
                        ("code", package_digest()), ("errant-code", source_digest("errant")),
                        ("annotator", f"{type(self.annotator).__module__}.{type(self.annotator).__qualname__}"),
                        ("pipeline", pipeline_digest(self.nlp)), ("environment", environment_digest())))
                .texts("sources", sources).texts("targets", targets).digest())


def _answers(found: object, targets: Sequence[str]) -> bool:
    """Whether a stored value is the edits of these very targets: a list of one
    :class:`Target` per pair, each with the target's tokens."""
    return (isinstance(found, list) and len(found) == len(targets)
            and all(isinstance(t, Target) and t.tokens == tuple(text.split()) for t, text in zip(found, targets)))


def errant_facts(nlp) -> tuple[tuple[str, str], ...]:
    import errant

    meta = nlp.meta
    return (("errant", errant.__version__), ("spacy", f"{meta.get('lang', 'en')}_{meta.get('name', '?')}-"
                                                       f"{meta.get('version', '?')}"))


@lru_cache(maxsize=1)
def shared_extractor() -> ErrantExtractor:
    """One ERRANT extractor per process, so every metric and call reuses its caches."""
    return ErrantExtractor(progress=False)
