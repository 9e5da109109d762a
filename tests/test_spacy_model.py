"""The English spaCy model as gecscore loads it: its CPU matrix products through numpy's BLAS
(thinc's ``NumpyOps(use_blis=False)``), with the annotations ERRANT reads equal to the model
loaded as spaCy loads it (blis)."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

spacy = pytest.importorskip("spacy", reason="spaCy is not installed (a base requirement: pip install -e .)")
from spacy.attrs import DEP, HEAD, LEMMA, MORPH, POS, TAG  # noqa: E402
from spacy.tokens import Doc  # noqa: E402
from thinc.api import NumpyOps, get_current_ops, use_ops  # noqa: E402

from datapaths import GEC_DATA  # noqa: E402
from gecscore.lang.en import spacy_model  # noqa: E402
from gecscore.lang.en.parsing import run_pipeline  # noqa: E402

ANNOTATIONS = [TAG, POS, MORPH, LEMMA, DEP, HEAD]


def _package():
    for name in spacy_model.MODEL_PACKAGES:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    pytest.skip("no English spaCy model installed")


@pytest.fixture(scope="module")
def models(english_nlp):
    return english_nlp, _package().load(disable=["ner"])


def _ops(nlp):
    return {(type(node.ops).__name__, node.ops.use_blis) for _, component in nlp.pipeline
            if getattr(component, "model", None) is not None for node in component.model.walk()
            if node.name != "linear"}   # the parser's output layer: spaCy computes it in C through blis either way


def test_ours_multiplies_through_numpy_and_spacys_through_blis(models):
    ours, spacys = models
    assert _ops(ours) == {("NumpyOps", False)}
    assert _ops(spacys) == {("NumpyOps", True)}
    assert get_current_ops().use_blis   # the process's default is left as it was


def test_another_backend_is_left_alone():
    class OtherOps(NumpyOps):
        name = "other"

    with use_ops("numpy"):
        from thinc.api import set_current_ops

        set_current_ops(OtherOps())
        with spacy_model._numpy_blas():
            assert type(get_current_ops()) is OtherOps


def _sentences() -> list[str]:
    path = GEC_DATA / "conll14" / "systems"
    lines = [line for name in ("INPUT", "CAMB", "IPN")
             for line in (path / f"{name}.txt").read_text(encoding="utf-8").splitlines()[:300]]
    return list(dict.fromkeys(lines))


@pytest.mark.realdata("conll14/systems/INPUT.txt", "conll14/systems/CAMB.txt", "conll14/systems/IPN.txt")
def test_the_annotations_equal_spacys(models):
    ours, spacys = models
    sentences = _sentences()
    a = [d.to_array(ANNOTATIONS) for d in run_pipeline(ours, (Doc(ours.vocab, s.split()) for s in sentences), 256)]
    b = [d.to_array(ANNOTATIONS) for d in spacys.pipe(Doc(spacys.vocab, s.split()) for s in sentences)]
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
