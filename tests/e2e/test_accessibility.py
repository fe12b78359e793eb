"""axe-core (from npm, web/node_modules/axe-core) finds no accessibility violation on the main
page: before and after a run, with each tab open, in both languages."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"

RUN_AXE = """async () => {
  const result = await axe.run(document);
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}"""


def violations(page):
    if not page.evaluate("typeof axe !== 'undefined'"):
        # Evaluated through the DevTools protocol, which the page's CSP does not govern.
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    return page.evaluate(RUN_AXE)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_main_page_has_no_axe_violations(playground, lang):
    if not AXE.is_file():
        pytest.fail("axe-core is missing: run `npm ci --prefix web`", pytrace=False)
    page = playground.page
    page.locator(f'[data-lang="{lang}"]').click()
    try:
        playground.testid("lessons").select_option("retain-graph")  # ends in an error: alert shown
        assert violations(page) == [], "before a run"
        playground.click_run()
        for tab in ("grads", "backward", "steps"):
            playground.testid(f"tab-{tab}").click()
            expect(playground.testid(tab)).to_be_visible()
            assert violations(page) == [], f"after a run, {tab} tab"
    finally:
        playground.testid("tab-grads").click()
        page.locator('[data-lang="en"]').click()
