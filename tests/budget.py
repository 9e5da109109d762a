"""How much of a benchmark a test checks: a sample in ``make test`` (CI's 15 minutes on a busy
2-core machine), all of it with ``GECSCORE_HEAVY=1`` (``make test-all``)."""
from __future__ import annotations

import os

HEAVY = os.environ.get("GECSCORE_HEAVY") == "1"


def examples(default: int, heavy: int) -> int:
    """Property-test examples: ``default`` in make test, ``heavy`` in make test-all."""
    return heavy if HEAVY else default
