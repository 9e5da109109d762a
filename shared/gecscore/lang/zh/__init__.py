"""Chinese GEC at character level, exactly as ChERRANT (MuCGEC's scorer) extracts and scores it.

One small module per step: :mod:`.tokenize` (characters), :mod:`.align` (ChERRANT's alignment,
compiled), :mod:`.merge`, :mod:`.classify`, :mod:`.extractor` (the ERRANT-like extractor),
:mod:`.m2` (char-level M2 as ``parallel_to_m2.py`` writes it), :mod:`.compare` (ChERRANT's
``compare_m2_for_evaluation.py``) and :mod:`.corpus` (gold and hypotheses from parallel files).
Word level needs LTP's segmenter and models and is out of scope (:func:`check_granularity`).
"""
from __future__ import annotations

from gecscore.errors import GecOptionError

GRANULARITIES = ("char",)


def check_granularity(granularity: str) -> str:
    """``char``, or a :class:`GecOptionError` explaining why word level is not offered."""
    if granularity == "char":
        return granularity
    if granularity == "word":
        raise GecOptionError("granularity", "Chinese word-level evaluation (ChERRANT -g word) is out of "
                             "scope: it segments and POS-tags with LTP 4.1 and its pretrained model, "
                             "whose output decides the edits; gecscore offers the character level "
                             "(MuCGEC's official metric) only")
    raise GecOptionError("granularity", f"unknown granularity {granularity!r}; expected 'char'")
