"""Python's cyclic garbage collector, tuned for scoring a corpus.

Scoring builds many small, long-lived objects (a prepared gold, parses, chunk partitions,
cached candidates) and few reference cycles. With the default thresholds (700, 10, 10) the
collector walks that whole heap again and again: on CoNLL-2014, CLEME's and ERRANT's
configurations spent about two thirds of their CPU time in it (measured with
``gc.set_threshold``: 40 s of CPU for three systems' model-free configurations before, 26 s
after). :func:`fewer_collections` raises the first threshold, so young objects are examined
every 50,000 allocations instead of 700; cycles are still collected, later. Reference counting
frees everything else at once, as before, so no number changes: only when garbage is found.
"""
from __future__ import annotations

import gc

#: allocations between young-generation collections, and the two older generations' ratios
SCORING_THRESHOLDS = (50_000, 20, 100)


def fewer_collections() -> None:
    """Collect cycles less often in this process (the CLI and the leaderboard's workers)."""
    gc.set_threshold(*SCORING_THRESHOLDS)
