"""Finding an installed spaCy pipeline for a language (no download, ever).

:func:`installed_pipelines` lists the installed spaCy pipeline packages (the ``spacy_models``
entry points that every spaCy pipeline package declares, which is where
``spacy.util.get_installed_models()`` finds them) whose ``meta.json`` says ``"lang": <lang>``
(read from the package folder, without importing it). Neither spaCy nor the packages are
imported to list them: importing spaCy costs about 260 MB, which a language without a pipeline
(the free profile) should not pay. :func:`spacy_pipeline_for` loads the first one that
can serve ERRANT (it needs ``pos_`` from a tagger or morphologizer, ``lemma_`` and ``dep_`` from
a parser), smallest first: ``sm`` < ``md`` < ``lg`` < anything else (``trf`` needs torch), ties
by name, so the choice does not depend on installation order. ``ner`` is excluded (unused).

The language of a code with a subtag is its base (``pt-BR`` -> ``pt``). English and Chinese
have their own profiles and never come here.
"""
from __future__ import annotations

import importlib.util
import json
import warnings
from functools import lru_cache
from pathlib import Path

SIZES = ("sm", "md", "lg")
NEEDED = ("parser",)  # plus one of TAGGERS
TAGGERS = ("tagger", "morphologizer")


def _meta(package: str) -> dict:
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return {}
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(list(spec.submodule_search_locations)[0]) / "meta.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _rank(package: str) -> tuple[int, str]:
    for number, size in enumerate(SIZES):
        if f"_{size}" in package:
            return (number, package)
    return (len(SIZES), package)


def installed_pipelines(lang: str) -> list[str]:
    """Installed spaCy pipeline packages for ``lang`` with a parser and a tagger or
    morphologizer, in the order :func:`spacy_pipeline_for` tries them."""
    from importlib.metadata import entry_points

    base = lang.split("-")[0]
    found = []
    for package in sorted({entry.name for entry in entry_points(group="spacy_models")}):
        meta = _meta(package)
        pipeline = meta.get("pipeline") or []
        if meta.get("lang") == base and all(p in pipeline for p in NEEDED) and any(p in pipeline for p in TAGGERS):
            found.append(package)
    return sorted(found, key=_rank)


@lru_cache(maxsize=None)
def spacy_pipeline_for(lang: str):
    """A loaded spaCy pipeline for ``lang`` (one per language and process), or None when none
    is installed (or none loads: a warning says why)."""
    for package in installed_pipelines(lang):
        try:
            import spacy

            return spacy.load(package, exclude=["ner"])
        except Exception as error:  # a broken or incompatible package: try the next one
            warnings.warn(f"spaCy pipeline {package} for {lang} did not load ({error}); trying the next",
                          UserWarning, stacklevel=2)
    return None
