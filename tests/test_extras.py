"""Optional dependencies and models: a missing extra or an unreachable model is named at once."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gecscore.cli import main
from gecscore.errors import MissingModelError
from gecscore.extras import MissingExtraError, install_hint, require
from gecscore.models import hub

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
FILES = ["--src", str(EXAMPLES / "source.txt"), "--hyp", str(EXAMPLES / "hypothesis.txt"),
         "--ref", str(EXAMPLES / "reference0.txt")]


def test_require_names_the_extra_of_a_missing_module(monkeypatch):
    monkeypatch.setitem(sys.modules, "gradio", None)   # `import gradio` now raises ImportError
    with pytest.raises(MissingExtraError, match=r"gradio is not installed \(needed for the Spaces\): "
                                                r"pip install 'gecscore\[spaces\]'") as caught:
        require("gradio", "the Spaces")
    assert isinstance(caught.value, ImportError) and isinstance(caught.value, MissingModelError)
    assert install_hint("matplotlib.pyplot") == "pip install 'gecscore[plots]'"
    assert install_hint("torch") == "pip install 'gecscore[models]'"
    assert install_hint("left_pad") == "pip install left_pad"


def test_cli_without_torch_names_the_models_extra_and_exits_2(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "torch", None)
    assert main(["pt_m2", *FILES, "--quiet"]) == 2
    error = capsys.readouterr().err
    assert error.strip() == ("gecscore pt_m2: error: torch is not installed (needed for model weighting): "
                             "pip install 'gecscore[models]'")
    # the same metric without a model needs nothing of the extra
    assert main(["pt_m2", *FILES, "--scorer", "none", "--quiet"]) == 0


@pytest.fixture
def no_transformers_load(monkeypatch):
    """Loading must stop before transformers: it would retry an unreachable Hub for ~30 s."""
    transformers = pytest.importorskip("transformers", reason="transformers is not installed (the models extra: pip install -e '.[models]')")

    def refuse(*args, **kwargs):
        raise AssertionError("transformers was asked to load the model")
    for name in ("AutoConfig", "AutoModel", "AutoTokenizer"):
        monkeypatch.setattr(getattr(transformers, name), "from_pretrained", refuse)


def test_unreachable_model_fails_before_transformers_tries(monkeypatch, no_transformers_load):
    from gecscore.models.similarity import BertScoreF1

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")   # discard port: nothing listens
    scorer = BertScoreF1("no-such-org/no-such-model")
    with pytest.raises(MissingModelError, match=r"http://127\.0\.0\.1:9 is unreachable .*with model= "):
        scorer.layer()


def test_offline_mode_fails_without_any_request(monkeypatch, no_transformers_load):
    from gecscore.models.similarity import BertScoreF1

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr("httpx.head", lambda *a, **k: pytest.fail("a request was made offline"))
    with pytest.raises(MissingModelError, match="HF_HUB_OFFLINE is set"):
        BertScoreF1("no-such-org/no-such-model").layer()


def test_local_folders_and_cached_models_need_no_check(tmp_path, monkeypatch):
    monkeypatch.setattr("httpx.head", lambda *a, **k: pytest.fail("no request for a local folder"))
    assert hub.unreachable_reason(str(tmp_path)) is None
    monkeypatch.setattr(hub, "in_hf_cache", lambda repo: repo == "cached/model")
    assert hub.unreachable_reason("cached/model") is None
    assert not hub.hub_offline() or hub.unreachable_reason("other/model") is not None
