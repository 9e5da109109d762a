"""ChERRANT's character-level edit types (``modules/classifier.py``, char mode).

At character level ChERRANT types an edit by its operation only (the word level's POS and
spelling subtypes need LTP): a transposition ``T<n>`` is ``W`` (word order), a deletion ``D`` is
``R`` (redundant), an insertion ``I`` is ``M`` (missing), a substitution ``S`` is ``S``.
"""
from __future__ import annotations

from gecscore.lang.zh.align import Step

TYPES = {"T": "W", "D": "R", "I": "M", "S": "S"}
NOOP = "noop"
NOT_ANNOTATABLE = "NA"


def classify(edit: Step) -> str:
    """The char-level type of a merged edit (its op's first letter decides)."""
    return TYPES[edit[0][0]]
