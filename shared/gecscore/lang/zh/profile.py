"""The ``zh`` language profile: ChERRANT at character level (:mod:`gecscore.lang.zh`)."""
from __future__ import annotations

from typing import Sequence

from gecscore.types import GoldCorpus, Target

Facts = tuple[tuple[str, str], ...]


class ZhCharProfile:
    """Chinese at character level, exactly as ChERRANT's ``-g char`` (``tokenize`` has no
    effect: text is always split into characters, whitespace dropped)."""

    name = "cherrant-char"

    def _extractor(self):
        from gecscore.lang.zh.extractor import shared_zh_extractor

        return shared_zh_extractor()

    def facts(self) -> Facts:
        return self._extractor().facts()

    def gold(self, sources: Sequence[str], references: Sequence[Sequence[str]], tokenize: bool) -> GoldCorpus:
        from gecscore.lang.zh.corpus import gold_from_text

        return gold_from_text(list(sources), [list(r) for r in references], extractor=self._extractor()).corpus

    def predictions(self, predictions: Sequence[str], tokenize: bool) -> list[str]:
        return self._extractor().tokenize_targets(predictions)

    def hypothesis_targets(self, sources: Sequence[str], predictions: Sequence[str]) -> list[Target]:
        return self._extractor().targets(list(sources), list(predictions), desc="hypothesis edits")
