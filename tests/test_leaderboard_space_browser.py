"""The leaderboard Space in a real browser: `spaces/leaderboard/app.py` run as a Space runs it (on
127.0.0.1, the SEEDA board with four configurations, so that its first start stays short), driven
by headless Chromium. A published output uploaded under another name gets that system's row, cell
for cell; a wrong line count shows one message naming the counts and the likely cause; two users
at once (two browser contexts) never see each other's upload. Saves a screenshot to
build/screenshots/leaderboard.png (or $GEC_SCREENSHOTS); docs/screenshots/leaderboard_space.png is
the reviewed copy. Needs Chromium and Playwright (scripts/install_browser.sh) and the SEEDA data
(GEC_DATA); skipped without them."""
from __future__ import annotations

import os
import shutil

import pytest

from datapaths import GEC_DATA
from test_spaces_browser import CHROMIUM, CHROMIUM_ARGS, RunningApp, _browser_or_skip, _screenshot

pytestmark = pytest.mark.realdata("seeda/outputs/subset", "seeda/human", "conll14/official-2014.combined.m2",
                                  "conll14/conll14.errant.m2")
SUBSET = GEC_DATA / "seeda" / "outputs" / "subset"
CONFIGS = "m2-corpus errant-corpus cleme2-corpus-dep green-sentence"
START_TIMEOUT = 240   # a cold persistent cache: the 15 published outputs scored once
RUN_TIMEOUT = 120


@pytest.fixture(scope="module")
def space(tmp_path_factory):
    """The running Space and a Chromium, for the module."""
    sync_playwright = _browser_or_skip()
    settings = {"GECSCORE_LEADERBOARD_BENCHMARKS": "seeda,jfleg", "GECSCORE_LEADERBOARD_CONFIGS": CONFIGS,
                "GEC_DATA": str(GEC_DATA)}
    saved = {key: os.environ.get(key) for key in settings}
    os.environ.update(settings)
    try:
        app = RunningApp("leaderboard", tmp_path_factory.mktemp("space-logs"))
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    try:
        app.wait(START_TIMEOUT)
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield chromium, app
            chromium.close()
    finally:
        app.stop()


def _open(browser, app, context=None):
    page = context.new_page() if context is not None else browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(START_TIMEOUT * 1000)
    page.goto(app.url)
    page.wait_for_selector('#gec-lb-table tr[data-system="BART"]')   # the published board, prepared once
    page.set_default_timeout(RUN_TIMEOUT * 1000)
    return page


def _upload(page, path, name: str) -> None:
    page.locator("#gec-lb-file input[type=file]").set_input_files(str(path))
    page.locator("#gec-lb-name input, #gec-lb-name textarea").first.fill(name)
    page.locator("#gec-lb-run").click()


def _wait_full(page, name: str) -> None:
    page.wait_for_selector(f'#gec-lb-table tr[data-system="{name}"]')
    page.wait_for_function("document.querySelector('#gec-lb-status')?.innerText.includes('full result in')")


def _row(page, system: str) -> list[str]:
    return page.locator(f'#gec-lb-table tr[data-system="{system}"] td[data-config]').all_inner_texts()


def test_a_published_output_under_another_name_gets_that_systems_row(space, tmp_path):
    browser, app = space
    page = _open(browser, app)
    mine = tmp_path / "my_output.txt"
    shutil.copyfile(SUBSET / "BART.txt", mine)
    _upload(page, mine, "my-BART")
    _wait_full(page, "my-BART")
    row, bart = _row(page, "my-BART"), _row(page, "BART")
    assert len(row) == 4 and row == bart   # score and significance cluster, every configuration
    assert "(yours)" in page.locator('#gec-lb-table tr[data-system="my-BART"]').inner_text()
    ranks = page.locator('#gec-lb-table tr[data-row="rank"] td').all_inner_texts()
    assert len(ranks) == 4 and all(text.endswith("of 16") for text in ranks)
    assert page.locator("#gec-lb-ranks circle").count() == 4
    assert page.locator('#gec-lb-intervals circle[data-system="my-BART"]').count() == 1
    assert page.locator("#gec-lb-per-type tr[data-type]").count() > 5
    assert page.locator('#gec-lb-trust tr[data-config]').count() == 4
    downloads = page.locator("#gec-lb-downloads").inner_text().replace("\n", "")
    assert "seeda_my-BART_leaderboard.json" in downloads and "seeda_my-BART_cells.csv" in downloads
    _screenshot(page, "leaderboard")
    page.close()


def test_a_wrong_line_count_shows_one_clear_message(space):
    browser, app = space
    page = _open(browser, app)
    page.get_by_role("tab", name="Paste lines").click()
    page.locator("#gec-lb-paste textarea").fill("One sentence .\nTwo sentences .\nThree .\n")
    page.locator("#gec-lb-run").click()
    page.wait_for_selector("#gec-lb-status .gec-note-error")
    message = page.locator("#gec-lb-status").inner_text()
    assert "3 lines but the reference set conll14[391] has 391" in message
    assert "likely cause: fewer lines than sentences" in message
    assert page.locator('#gec-lb-table tr[data-system="BART"]').count() == 1   # the board is still there
    page.close()


def test_two_users_at_once_never_see_each_others_upload(space, tmp_path):
    browser, app = space
    first, second = (browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in range(2))
    pages = [_open(browser, app, first), _open(browser, app, second)]
    for page, (system, name) in zip(pages, (("T5", "first-users-system"), ("PIE", "second-users-system"))):
        path = tmp_path / f"{name}.txt"
        shutil.copyfile(SUBSET / f"{system}.txt", path)
        _upload(page, path, name)   # the second waits in the queue while the first is scored
    for page, name in zip(pages, ("first-users-system", "second-users-system")):
        _wait_full(page, name)
    for page, mine, theirs in ((pages[0], "first-users-system", "second-users-system"),
                                (pages[1], "second-users-system", "first-users-system")):
        assert page.locator(f'#gec-lb-table tr[data-system="{mine}"]').count() == 1
        assert theirs not in page.content()
    pages[0].locator("#gec-lb-plot-config input").first.click()   # a redraw reads the session's own result
    pages[0].get_by_role("option", name="m2-corpus").click()
    pages[0].wait_for_selector('#gec-lb-intervals[data-config="m2-corpus"] circle[data-system="first-users-system"]')
    assert "second-users-system" not in pages[0].content()
    first.close()
    second.close()
