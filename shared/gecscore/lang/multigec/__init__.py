"""The MultiGEC-2025 profile: ERRANT's alignment, English merger and English classifier over a
UD parse by an installed spaCy pipeline (:mod:`.profile`, :mod:`.classify`), and finding that
pipeline (:mod:`.pipeline`). Importing this package imports neither spaCy nor ERRANT."""
from __future__ import annotations


def spacy_pipeline_for(lang: str):
    """A loaded spaCy pipeline for ``lang``, or None (see :mod:`.pipeline`)."""
    from gecscore.lang.multigec.pipeline import spacy_pipeline_for as find

    return find(lang)


def __getattr__(name: str):
    if name in ("MultigecProfile", "MultigecExtractor", "RULES"):
        from gecscore.lang.multigec import profile

        return getattr(profile, name)
    raise AttributeError(name)


__all__ = ["MultigecProfile", "MultigecExtractor", "RULES", "spacy_pipeline_for"]
