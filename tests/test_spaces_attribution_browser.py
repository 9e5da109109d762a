"""The per-edit colour view in a real browser: the CLEME2.0 and PT-M2 Spaces started as a Space
runs them, edit attribution turned on, the view switched to 'attribution'; each hypothesis edit
must be coloured green or red by the sign of its attribution. Screenshots go beside those of
tests/test_spaces_browser.py (``<name>_attribution.png``). Skipped without Chromium/Playwright."""
from __future__ import annotations

import re

import pytest

from test_spaces_browser import CHROMIUM, CHROMIUM_ARGS, RunningApp, _browser_or_skip, _open, _screenshot

GREEN, RED = "rgb(46, 139, 87)", "rgb(192, 57, 43)"


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    sync_playwright = _browser_or_skip()
    log_dir = tmp_path_factory.mktemp("space-logs")
    running = {name: RunningApp(name, log_dir) for name in ("cleme2", "pt_m2")}
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield chromium, running
            chromium.close()
    finally:
        for app in running.values():
            app.stop()


def _edits(page) -> list[tuple[str, str, float, str]]:
    spans = page.locator("#gec-view .gec-attr")
    out = []
    for i in range(spans.count()):
        span = spans.nth(i)
        background = span.evaluate("e => getComputedStyle(e).backgroundColor")
        out.append((span.locator("del").inner_text(), span.locator("ins").inner_text(),
                    float(span.get_attribute("data-attribution")), background))
    return out


def _rgb(background: str) -> str:
    """``rgba(r, g, b, a)`` -> ``rgb(r, g, b)``: the hue without the intensity."""
    numbers = re.findall(r"[\d.]+", background)
    return f"rgb({numbers[0]}, {numbers[1]}, {numbers[2]})"


@pytest.mark.parametrize("name", ["cleme2", "pt_m2"])
def test_edits_coloured_by_attribution(pair, name):
    browser, running = pair
    page = _open(browser, running[name])
    if name == "pt_m2":
        page.locator("#gec-scorer").get_by_label("none", exact=True).check()   # no model needed
    page.locator("#gec-attribution").get_by_label("shapley", exact=True).check()
    page.locator("#gec-example-0").click()            # childs->children (gold), for->at, +again
    page.wait_for_selector('#gec-result tr[data-key="score"]')
    assert page.locator("#gec-view .gec-attr").count() == 0       # labels view until asked
    page.locator("#gec-colour").get_by_label("attribution", exact=True).check()
    page.wait_for_selector("#gec-view .gec-attr")
    edits = _edits(page)
    pairs = [(before, after) for before, after, _, _ in edits]
    assert pairs == [("childs", "children"), ("for", "at"), ("∅", "again")]
    for _, _, value, background in edits:
        assert _rgb(background) == (GREEN if value > 0 else RED), (value, background)
    assert edits[0][2] > 0 and edits[1][2] < 0                    # the gold edit helps, the wrong one hurts
    alphas = [float(re.findall(r"[\d.]+", b)[3]) if b.startswith("rgba") else 1.0 for *_, b in edits]
    assert alphas[0] == 1.0 and all(a < 1.0 for a in alphas[1:])  # the largest magnitude is full colour
    total = sum(value for _, _, value, _ in edits)
    text = page.locator("#gec-view").inner_text()
    full = float(re.search(r"([\d.]+) with them", text).group(1))
    empty = float(re.search(r"([\d.]+) without the edits", text).group(1))
    assert total == pytest.approx(full - empty, abs=2e-3)           # Shapley efficiency, on screen
    _screenshot(page, f"{name}_attribution")
    page.locator("#gec-colour").get_by_label("labels", exact=True).check()
    page.wait_for_selector("#gec-view .gec-attr", state="detached")
    page.close()
