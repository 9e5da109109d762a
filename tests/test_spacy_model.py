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


_WITHOUT_TORCH = """
import sys, json
from gecscore.lang import thinc_import
from gecscore.lang.en import spacy_model
hidden = thinc_import.import_thinc_without_torch()
import thinc.compat
from spacy.tokens import Doc
nlp = spacy_model.load_spacy_model()
docs = [Doc(nlp.vocab, s.split()) for s in json.loads(sys.argv[1])]
arrays = [d.to_array(["TAG", "POS", "MORPH", "LEMMA", "DEP", "HEAD"]).tolist() for d in nlp.pipe(docs)]
torch_after_load = "torch" in sys.modules
try:
    import torch
    imports = True
except ImportError:
    imports = False
print(json.dumps({"hidden": hidden, "has_torch": thinc.compat.has_torch, "torch_after_load": torch_after_load,
                  "imports": imports, "again": thinc_import.import_thinc_without_torch(), "arrays": arrays}))
"""


def test_thinc_without_torch_loads_the_same_model_and_leaves_torch_importable(models):
    """A leaderboard worker imports thinc with torch hidden (thinc would import it, 2.5 s, for
    wrappers en_core_web_sm does not use): in a fresh process the model loads without torch,
    its annotations equal those of this process (where thinc saw torch, when installed), and
    torch still imports afterwards; a second call, thinc being imported, does nothing."""
    import json
    import subprocess
    import sys

    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed: nothing to hide")
    ours, _ = models
    sentences = ["This are a sentences with error .", "He go to school yesterday and buyed two book .",
                 "The the cat sat on mat , it's owner did n't mind .", "Mr. Smith 's 3 dogs were barking loudly !"]
    done = subprocess.run([sys.executable, "-c", _WITHOUT_TORCH, json.dumps(sentences)], capture_output=True,
                          text=True, check=True)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["hidden"] and not out["has_torch"] and not out["torch_after_load"]
    assert out["imports"] and not out["again"]
    expected = [d.to_array(ANNOTATIONS).tolist() for d in ours.pipe(Doc(ours.vocab, s.split()) for s in sentences)]
    assert out["arrays"] == expected
