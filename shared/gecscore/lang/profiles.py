"""Language profiles: how a language's text becomes tokens and edits, one implementation each.

Every metric with text input reads text through the profile its ``lang`` option names
(:func:`profile_for`): the gold of parallel text (:meth:`LanguageProfile.gold`), predictions
as tokens compared with the sources (:meth:`LanguageProfile.predictions`) and the predictions'
edits (:meth:`LanguageProfile.hypothesis_targets`). A profile is tokenise, align, merge,
classify (ERRANT's steps), and its :meth:`~LanguageProfile.facts` go into the signature.

* ``en``: ERRANT (English, spaCy parse), exactly as ``errant_parallel`` (:mod:`gecscore.lang.en`).
* ``zh``: ChERRANT at character level (:mod:`gecscore.lang.zh.profile`): characters are tokens, targets
  simplified (t2s), ``没有错误`` / ``无法标注`` handled as ChERRANT does. ``zh-word`` (LTP
  words) is refused: its models come from a hub.
* any other code: the MultiGEC-2025 profile (ERRANT's merge and classification over a UD parse)
  when a spaCy pipeline for the language is installed, else the model-free profile (offline
  tokeniser, alignment, merging, operation types), see :mod:`gecscore.lang.free` and
  :mod:`gecscore.lang.multigec`.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol, Sequence, runtime_checkable

from gecscore.errors import GecInputError
from gecscore.types import Gold, GoldCorpus, Target

Facts = tuple[tuple[str, str], ...]


# The languages a Space offers in its language choice (any code works through the library and
# the CLI; these are the ones with an exact or tested profile).
OFFERED_LANGS = ("en", "zh")


@runtime_checkable
class LanguageProfile(Protocol):
    """How one language's text becomes tokens and edits."""

    name: str

    def facts(self) -> Facts:
        """What the signature records: the profile and the versions of what it used."""

    def gold(self, sources: Sequence[str], references: Sequence[Sequence[str]], tokenize: bool) -> GoldCorpus:
        """The gold of checked parallel text: annotator k of a sentence is its k-th reference."""

    def predictions(self, predictions: Sequence[str], tokenize: bool) -> list[str]:
        """The predictions as tokens (joined by single spaces) comparable with the gold's sources."""

    def hypothesis_targets(self, sources: Sequence[str], predictions: Sequence[str]) -> list[Target]:
        """The edits of tokenised ``predictions`` against the gold's tokenised ``sources``."""


def check_lang(lang: str) -> str:
    """``lang`` if it names a language profile, else a GecOptionError saying why not (the
    option's own check: :class:`gecscore.options.LanguageOptions`)."""
    from gecscore.options import LanguageOptions, check_value, fields_of

    return check_value("lang", lang, next(f for f in fields_of(LanguageOptions)).metadata)


@lru_cache(maxsize=None)
def profile_for(lang: str) -> LanguageProfile:
    """The profile of language ``lang`` (one object per process: its caches are shared)."""
    language = check_lang(lang)
    if language != lang:   # zh-CN: the one profile object of zh
        return profile_for(language)
    if lang == "en":
        from gecscore.lang.en.profile import ErrantProfile

        return ErrantProfile()
    if lang == "zh":
        from gecscore.lang.zh.profile import ZhCharProfile

        return ZhCharProfile()
    from gecscore.lang.multigec import spacy_pipeline_for

    pipeline = spacy_pipeline_for(lang)
    if pipeline is not None:
        from gecscore.lang.multigec import MultigecProfile

        return MultigecProfile(lang, pipeline)
    from gecscore.lang.free import FreeProfile

    return FreeProfile(lang)


def gold_of(profile: LanguageProfile, sources: Any, references: Any, tokenize: bool) -> GoldCorpus:
    """The gold of raw parallel text through ``profile``, the input checked first."""
    from gecscore import inputs

    if references is None:
        raise GecInputError("reference edits need references (one list of corrected sentences, or one "
                            "string, per source)")
    import dataclasses

    sources, _, references = inputs.parallel(sources, None, references)
    gold = profile.gold(sources, references, tokenize)
    return gold if gold.extracted_by else dataclasses.replace(gold, extracted_by=profile.facts())


def sentence_of(source: Sequence[str], edits_by_annotator: dict[int, tuple], number: int) -> Gold:
    """A gold sentence (for profiles building their gold annotator by annotator)."""
    return Gold(tuple(source), edits_by_annotator, 0, str(number))
