"""Suite-wide rules. ``heavy`` tests (a whole benchmark where the default run checks a sample,
or a cluster scoring CoNLL-2014) run with ``GECSCORE_HEAVY=1`` (``make test-all``): ``make
test`` stays inside CI's 15 minutes on a busy 2-core machine, and the skip line says how to run
them."""
from __future__ import annotations

import os
import tempfile

import pytest

from budget import HEAVY

# the persistent cache (gecscore.cache) of this test session: never the user's own, and fresh
# each run, so that every test computes what it checks at least once (subprocesses inherit it)
os.environ["GECSCORE_CACHE_DIR"] = tempfile.mkdtemp(prefix="gecscore-test-cache-")
os.environ.pop("GECSCORE_NO_CACHE", None)
# tests never reach the internet: a named evaluation set absent from GEC_DATA is not fetched
# (gecscore.benchdata; its own tests serve the files from 127.0.0.1 and lift this)
os.environ["GECSCORE_OFFLINE"] = "1"


def pytest_collection_modifyitems(config, items) -> None:
    if HEAVY:
        return
    skip = pytest.mark.skip(reason="heavy: a whole benchmark beyond the default run's sample "
                                   "(GECSCORE_HEAVY=1, or make test-all)")
    for item in items:
        if "heavy" in item.keywords:
            item.add_marker(skip)
