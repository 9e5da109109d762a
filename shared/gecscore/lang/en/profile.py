"""The ``en`` language profile: ERRANT over spaCy parses (:mod:`gecscore.lang.en`)."""
from __future__ import annotations

from typing import Sequence

from gecscore.lang.en.extractor import ErrantExtractor, shared_extractor
from gecscore.types import GoldCorpus, Target

Facts = tuple[tuple[str, str], ...]


class ErrantProfile:
    """English: ERRANT over spaCy parses (text whitespace-tokenised, or by spaCy with tokenize).

    Every call goes through the process's one extractor (:attr:`extractor`), so every metric
    shares its parse and edit caches; :meth:`new_extractor` gives a caller its own."""

    name = "errant"

    @property
    def extractor(self) -> ErrantExtractor:
        """The process's shared ERRANT extractor (its caches reused by every metric and call)."""
        return shared_extractor()

    def new_extractor(self, **options) -> ErrantExtractor:
        """A separate extractor with its own caches (``options``: :class:`ErrantExtractor`'s)."""
        return ErrantExtractor(**options)

    def facts(self) -> Facts:
        return self.extractor.facts()

    def gold(self, sources: Sequence[str], references: Sequence[Sequence[str]], tokenize: bool) -> GoldCorpus:
        from gecscore.lang.en.gold import gold_from_text

        return gold_from_text(sources, references, tokenize=tokenize, extractor=self.extractor)

    def predictions(self, predictions: Sequence[str], tokenize: bool) -> list[str]:
        """The predictions as given, or tokenised by spaCy with ``tokenize`` (only then is the
        spaCy model loaded: GLEU, M2 and the I-measure read whitespace tokens without it)."""
        from gecscore.lang.en.gold import tokenized

        return tokenized(predictions, tokenize, "predictions", self.extractor if tokenize else None)

    def hypothesis_targets(self, sources: Sequence[str], predictions: Sequence[str]) -> list[Target]:
        return self.extractor.targets(sources, predictions, desc="hypothesis edits")
