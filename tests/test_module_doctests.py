"""Every evaluate module's docstring examples run as doctests with their expected output, as
evaluate's own test suite runs them (``doctest.testmod`` on the loaded module, offline)."""
from __future__ import annotations

import doctest
import sys
import types

import pytest

evaluate = pytest.importorskip("evaluate", reason="evaluate is not installed (a base requirement: pip install -e .)")

from datapaths import REPO, offline_hub
from gecscore.registry import module_names

MODULES = tuple(module_names())
pytestmark = pytest.mark.usefixtures("offline_hub")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_pass(name):
    metric = evaluate.load(str(REPO / "metrics" / name))
    module = sys.modules[type(metric).__module__]
    local = types.SimpleNamespace(load=lambda path, **kw: evaluate.load(str(REPO / "metrics" / path), **kw))
    results = doctest.testmod(module, extraglobs={"evaluate": local}, raise_on_error=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert results.attempted > 0, f"{name}: no doctest examples found"
    assert results.failed == 0, f"{name}: {results.failed} of {results.attempted} examples failed"
