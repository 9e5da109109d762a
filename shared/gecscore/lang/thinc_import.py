"""thinc imported without torch, for a worker process that loads no torch-backed spaCy pipeline.

Language-neutral (what makes it safe is the caller's knowledge of what the process will run:
:mod:`gecscore.leaderboard.processes` calls it in the workers of an English run)."""
from __future__ import annotations

import importlib
import sys


def import_thinc_without_torch() -> bool:
    """Import thinc (spaCy's machine-learning library) with torch hidden from it, for a
    process of ours that will load no spaCy pipeline but English ERRANT's en_core_web_sm (a
    leaderboard worker of a run whose configurations are all English: the caller decides;
    never a library user's process, which may load a transformer pipeline later). True when
    it did; nothing happens when thinc or torch is already imported.

    thinc imports torch when it is imported, to offer its PyTorch wrappers (the same cost
    with TensorFlow: explosion/thinc#894): 2.5 s of the 3.9 s ``import spacy`` took on this
    project's 2-core machine, for en_core_web_sm, whose layers are thinc's own (no torch
    wrapper). Hidden, thinc takes torch to be absent (``thinc.compat.has_torch`` False) for
    the rest of the process; torch itself still imports for whatever asks for it later (a
    model-backed metric calls it directly, not through thinc). The annotations do not depend
    on it: thinc computes with the same ops (``tests/test_spacy_model.py``)."""
    if "thinc" in sys.modules or "torch" in sys.modules:
        return False
    sys.modules["torch"] = None   # "import torch" raises ImportError while this entry is here
    try:
        importlib.import_module("thinc.compat")
    finally:
        if sys.modules.get("torch", 0) is None:
            del sys.modules["torch"]
    return True
