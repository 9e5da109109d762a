"""Suite-wide rules. ``heavy`` tests (a whole benchmark where the default run checks a sample,
or a cluster scoring CoNLL-2014) run with ``GECSCORE_HEAVY=1`` (``make test-all``): ``make
test`` stays inside CI's 15 minutes on a busy 2-core machine, and the skip line says how to run
them."""
from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from budget import HEAVY
from datapaths import GEC_DATA

# the persistent cache (gecscore.cache) of this test session: never the user's own, and fresh
# each run, so that every test computes what it checks at least once (subprocesses inherit it);
# removed when the session ends
_SESSION_CACHE = tempfile.mkdtemp(prefix="gecscore-test-cache-")
os.environ["GECSCORE_CACHE_DIR"] = _SESSION_CACHE
os.environ.pop("GECSCORE_NO_CACHE", None)
# tests never reach the internet: a named evaluation set absent from GEC_DATA is not fetched
# (gecscore.benchdata; its own tests serve the files from 127.0.0.1 and lift this)
os.environ["GECSCORE_OFFLINE"] = "1"


def pytest_unconfigure(config) -> None:
    shutil.rmtree(_SESSION_CACHE, ignore_errors=True)


@pytest.fixture(scope="session")
def english_nlp():
    """gecscore's English spaCy pipeline (the test skips without the model)."""
    from english_pipeline import english_nlp as load

    return load()


def _missing_data(item) -> str | None:
    """What a ``realdata`` test lacks: the files its marker names (relative to GEC_DATA), or
    the GEC_DATA folder itself for a marker naming none; None when it has it all."""
    marker = item.get_closest_marker("realdata")
    if marker is None:
        return None
    needed = [GEC_DATA / relative for relative in marker.args] or [GEC_DATA]
    missing = [str(path) for path in needed if not path.exists()]
    return ", ".join(missing) or None


def pytest_collection_modifyitems(config, items) -> None:
    """Skip, with a reason, ``realdata`` tests whose data is absent (before any hypothesis
    strategy or fixture reads it) and, unless GECSCORE_HEAVY=1, ``heavy`` tests."""
    for item in items:
        missing = _missing_data(item)
        if missing:
            item.add_marker(pytest.mark.skip(reason=f"evaluation data not found: {missing} (set GEC_DATA; "
                                                    f"gecscore data get)"))
    if HEAVY:
        return
    skip = pytest.mark.skip(reason="heavy: a whole benchmark beyond the default run's sample "
                                   "(GECSCORE_HEAVY=1, or make test-all)")
    for item in items:
        if "heavy" in item.keywords:
            item.add_marker(skip)
