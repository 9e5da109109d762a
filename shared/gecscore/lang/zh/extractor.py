"""Chinese character-level edits exactly as ChERRANT's ``parallel_to_m2.py -g char`` finds them.

ChERRANT's annotator (``modules/annotator.py``) handles one (source, target) pair so:

* target ``没有错误`` ("no error") or equal to the source (as strings): a ``noop``;
* target ``无法标注`` ("cannot be annotated"): ``NA``, an edit-less marker that the scorer
  treats specially (:mod:`gecscore.m2.cherrant_compare`);
* otherwise every cheapest alignment (:func:`gecscore.lang.zh.align.paths`, all of them with the
  default ``-s all``) is merged (:mod:`.merge`); each *distinct* edit list, in order of first
  appearance, is one alignment ``T<k>-A<a>`` of the M2 output, typed by :mod:`.classify`.

:meth:`ZhCharExtractor.edits` returns the first alignment (``A0``: applying it to the source
gives the target); :meth:`ZhCharExtractor.annotate` returns all of them, which ChERRANT's
scorer pools under one annotator (see :mod:`gecscore.m2.cherrant_compare`). Texts given to the
extractor are char tokens joined by single spaces (:meth:`ZhCharExtractor.tokenize`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

from gecscore.lru import LruCache
from gecscore.lang.zh import align, resources
from gecscore.lang.zh.classify import NOOP, NOT_ANNOTATABLE, classify
from gecscore.lang.zh.merge import merge
from gecscore.lang.zh.tokenize import MISSING, tokenize as tokenize_text
from gecscore.progress import bar
from gecscore.types import Edit, Target, Tokens

NO_ERROR = "没有错误"
CANNOT_ANNOTATE = "无法标注"
STRATEGIES = ("all", "first")
MAX_PAIRS = 200_000
# A pair with more cheapest alignments than this is refused rather than enumerated for hours
# (ChERRANT would enumerate them all; the most in MuCGEC dev references and example
# predictions is 32).
MAX_ALIGNMENTS = 1_000_000


@dataclass(frozen=True, slots=True)
class ZhAnnotation:
    """ChERRANT's annotation of one (source, target) pair.

    ``kind``: ``"edits"``, ``"noop"`` or ``"NA"``. ``alignments``: the distinct edit lists
    (``T<k>-A0``, ``T<k>-A1``, ...) in ChERRANT's order; one empty list for noop and NA.
    ``target``: the target tokens (the source's for a noop or NA: neither corrects anything).
    """

    kind: str
    target: Tokens
    alignments: tuple[tuple[Edit, ...], ...]

    @property
    def edits(self) -> tuple[Edit, ...]:
        return self.alignments[0]


def _edit(step: align.Step, tgt: Sequence[str]) -> Edit:
    kind = classify(step)
    correction = () if kind == "R" else tuple(tgt[step[3]:step[4]])
    return Edit(step[1], step[2], correction, kind, step[3], step[4])


def annotate_tokens(src: Tokens, tgt: Tokens, strategy: str = "all",
                    max_alignments: int = MAX_ALIGNMENTS) -> ZhAnnotation:
    """ChERRANT's annotation of two token sequences (not cached; see the module docstring)."""
    tgt_str = "".join(tgt)
    if tgt_str == NO_ERROR or "".join(src) == tgt_str:
        return ZhAnnotation(NOOP, src, ((),))
    if tgt_str == CANNOT_ANNOTATE:
        return ZhAnnotation(NOT_ANNOTATABLE, src, ((),))
    table = align.fill(src, tgt)
    seen: dict[tuple, None] = {}
    for number, path in enumerate(align.paths(table)):
        if number >= max_alignments:
            from gecscore.errors import GecInputError

            raise GecInputError(f"more than {max_alignments} equally cheap alignments of "
                                f"{''.join(src)!r} and {tgt_str!r}")
        seen.setdefault(merge(path, src, tgt))
        if strategy == "first":
            break
    return ZhAnnotation("edits", tgt, tuple(tuple(_edit(step, tgt) for step in edits) for edits in seen))


def _check_chars(tokens: Tokens, what: str, text: str) -> None:
    """Refuse text that is not char-tokenised (a raw sentence would silently align as one token)."""
    for token in tokens:
        if len(token) > 1 and token != MISSING and "".join(tokens) not in (NO_ERROR, CANNOT_ANNOTATE):
            from gecscore.errors import GecInputError

            raise GecInputError(f"the {what} {text[:40]!r} is not tokenised into characters (token "
                                f"{token!r}); pass it through ZhCharExtractor.tokenize / tokenize_targets")


class ZhCharExtractor:
    """ChERRANT's char-level edits between texts tokenised by :meth:`tokenize` (characters joined
    by single spaces), cached per pair like :class:`~gecscore.lang.en.extractor.ErrantExtractor`.

    ``strategy``: ``"all"`` (ChERRANT's default ``-s all``: every distinct cheapest alignment) or
    ``"first"``. ``simplified``: targets are converted to simplified Chinese (OpenCC ``t2s``) by
    :meth:`tokenize_targets`, as ChERRANT does unless ``--no_simplified``.
    """

    def __init__(self, *, strategy: str = "all", simplified: bool = True, progress: bool = True,
                 max_pairs: int = MAX_PAIRS):
        from gecscore.errors import GecOptionError

        if strategy not in STRATEGIES:
            raise GecOptionError("strategy", f"unknown strategy {strategy!r}; expected one of: "
                                 f"{', '.join(STRATEGIES)}")
        self.strategy = strategy
        self.simplified = simplified
        self.progress = progress
        self._cache: LruCache = LruCache(max_pairs)

    def facts(self) -> tuple[tuple[str, str], ...]:
        """Signature facts: the extractor, its options and the resources' and libraries' versions."""
        return (("extractor", "cherrant-char"), ("alignments", self.strategy),
                ("t2s", "yes" if self.simplified else "no"), *resources.versions())

    def tokenize(self, texts: Iterable[str]) -> list[str]:
        """Sources: whitespace removed, one token per character (``[缺失成分]`` one token)."""
        return [" ".join(tokenize_text(text)) for text in texts]

    def tokenize_targets(self, texts: Iterable[str]) -> list[str]:
        """Targets (references, predictions): as :meth:`tokenize`, after OpenCC ``t2s`` when
        ``simplified`` (ChERRANT converts targets, never sources)."""
        return [" ".join(tokenize_text(text, target=True, simplified=self.simplified)) for text in texts]

    def parse(self, sentences: Iterable[str]) -> None:
        """Nothing to parse at character level (kept for the ErrantExtractor interface)."""

    def annotate(self, source: str, target: str) -> ZhAnnotation:
        """The full annotation (kind and every distinct alignment) of a tokenised pair."""
        key = (source, target)
        found = self._cache.get_fresh(key)
        if found is None:
            src, tgt = tuple(source.split()), tuple(target.split())
            _check_chars(src, "source", source)
            _check_chars(tgt, "target", target)
            found = annotate_tokens(src, tgt, self.strategy)
            self._cache.put(key, found)
        return found

    def edits(self, source: str, target: str) -> tuple[Edit, ...]:
        """The edits of ChERRANT's first alignment (``A0``); () for a noop or NA target."""
        return self.annotate(source, target).edits

    def targets(self, sources: Sequence[str], targets: Sequence[str],
                desc: str = "extracting edits") -> list[Target]:
        """One :class:`Target` per pair: the target tokens and the ``A0`` edits."""
        pairs = bar(zip(sources, targets), total=len(sources), desc=desc, requested=self.progress, minimum=500)
        out = []
        for source, target in pairs:
            annotation = self.annotate(source, target)
            out.append(Target(annotation.target, annotation.edits))
        return out


@lru_cache(maxsize=1)
def shared_zh_extractor() -> ZhCharExtractor:
    """One char-level extractor per process, so every metric and call reuses its cache."""
    return ZhCharExtractor(progress=False)
