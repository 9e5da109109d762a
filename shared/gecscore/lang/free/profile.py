"""The model-free language profile: :class:`FreeProfile` (``name = "free"``, rules ``free-1``).

For a language without a parser: text is tokenised by :mod:`.tokenize`, each (source, target)
pair aligned by :mod:`.align` (ERRANT's alignment, parse-free substitution cost), merged by
:mod:`.merge` (ERRANT's rule merger without its parse-based rules) and typed by :mod:`.classify`.
The gold of parallel text takes annotator ``k`` = reference ``k`` (as the ERRANT profile);
predictions are tokenised the same way and their edits taken against the tokenised sources.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from gecscore import inputs
from gecscore.lang.free import align as align_mod
from gecscore.lang.free.cache import BoundedCache
from gecscore.lang.free.classify import classify
from gecscore.lang.free.merge import STRATEGIES, merge
from gecscore.lang.free.tokenize import tokenize as tokenize_text, whitespace_tokens
from gecscore.types import Edit, Gold, GoldCorpus, Target, Tokens

RULES = "free-1"   # the version of the tokenise/align/merge/classify rules (bump on any change)
ORIGIN = "free"    # GoldCorpus.origin of a gold built by this profile
MAX_PAIRS = 200_000


def edits_of(src: Tokens, tgt: Tokens, strategy: str = "rules",
             max_cells: int | None = align_mod.DEFAULT_MAX_CELLS) -> tuple[Edit, ...]:
    """The typed edits turning ``src`` into ``tgt`` (both token tuples), target spans placed."""
    if src == tgt:
        return ()
    steps = align_mod.align(src, tgt, max_cells=max_cells)
    out = []
    for op, s0, s1, t0, t1 in merge(steps, src, tgt, strategy):
        correction = tuple(tgt[t0:t1])
        out.append(Edit(s0, s1, correction, classify(op, src[s0:s1], correction), t0, t1))
    return tuple(out)


class FreeExtractor:
    """Tokenisation and cached edit extraction of the free profile (one cache entry a pair)."""

    def __init__(self, *, strategy: str = "rules", max_pairs: int = MAX_PAIRS,
                 max_cells: int | None = align_mod.DEFAULT_MAX_CELLS):
        if strategy not in STRATEGIES:
            from gecscore.errors import GecOptionError

            raise GecOptionError("merge", f"unknown strategy {strategy!r}; expected one of: {', '.join(STRATEGIES)}")
        self.strategy = strategy
        self.max_cells = max_cells
        self._cache = BoundedCache(max_pairs)

    def tokens(self, lines: Sequence[str], tokenize: bool, what: str) -> list[Tokens]:
        """Each line's tokens: :func:`.tokenize.tokenize` when ``tokenize``, else whitespace
        tokens (continuous scripts cut into characters), warning when the text looks untokenised."""
        if tokenize:
            return [tokenize_text(line) for line in lines]
        inputs.warn_if_untokenised(lines, what, tokenize)
        return [whitespace_tokens(line) for line in lines]

    def edits(self, src: Tokens, tgt: Tokens) -> tuple[Edit, ...]:
        key = (src, tgt)
        found = self._cache.get_fresh(key)
        if found is None:
            found = edits_of(src, tgt, self.strategy, self.max_cells)
            self._cache.put(key, found)
        return found

    def targets(self, sources: Iterable[Tokens], targets: Iterable[Tokens]) -> list[Target]:
        return [Target(tuple(tgt), self.edits(tuple(src), tuple(tgt))) for src, tgt in zip(sources, targets)]


class FreeProfile:
    """Any language, no model: see the module docstring. ``lang`` is recorded, never used to
    change the rules (they are the same for every language)."""

    name = "free"

    def __init__(self, lang: str, *, strategy: str = "rules"):
        self.lang = lang
        self.extractor = FreeExtractor(strategy=strategy)

    def __repr__(self) -> str:
        return f"FreeProfile({self.lang!r})"

    def facts(self) -> tuple[tuple[str, str], ...]:
        facts = (("profile", RULES),)
        if self.extractor.strategy != "rules":
            facts += (("merge", self.extractor.strategy),)
        return facts

    def gold(self, sources: Sequence[str], references: Sequence[Sequence[str]], tokenize: bool) -> GoldCorpus:
        src_tokens = self.extractor.tokens(sources, tokenize, "sources")
        flat = [ref for refs in references for ref in refs]
        ref_tokens = iter(self.extractor.tokens(flat, tokenize, "references"))
        sentences = []
        for number, (src, refs) in enumerate(zip(src_tokens, references), start=1):
            annotations = {k: self.extractor.edits(src, next(ref_tokens)) for k in range(len(refs))}
            sentences.append(Gold(src, annotations, 0, str(number)))
        return GoldCorpus(tuple(sentences), ORIGIN)

    def predictions(self, predictions: Sequence[str], tokenize: bool) -> list[str]:
        return [" ".join(tokens) for tokens in self.extractor.tokens(predictions, tokenize, "predictions")]

    def hypothesis_targets(self, sources: Sequence[str], predictions: Sequence[str]) -> list[Target]:
        return self.extractor.targets((whitespace_tokens(s) for s in sources),
                                      (whitespace_tokens(p) for p in predictions))
