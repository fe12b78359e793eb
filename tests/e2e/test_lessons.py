"""Every lesson runs in the real page (Pyodide + autograd_py) and shows its numbers."""

import pytest
from playwright.sync_api import expect

from playground_helpers import LESSONS, assert_in_order


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson["id"] for lesson in LESSONS])
def test_lesson_runs_and_shows_its_numbers(playground, lesson):
    page = playground.page
    page.get_by_test_id("lessons").select_option(lesson["id"])
    expected_code = "\n".join(lesson["code"]) + "\n"
    assert playground.get_code() == expected_code
    assert lesson["title"]["en"] in page.locator(".explain").inner_text()

    output = playground.click_run()
    run_info = page.locator("#run-info")
    expect_ = lesson["expect"]
    assert_in_order(output, expect_["stdout"])
    warnings = page.locator('[data-testid="output"] .out-warning').all_inner_texts()
    assert_in_order("".join(warnings), expect_["stderr"])
    errors = page.locator('[data-testid="output"] .out-error').all_inner_texts()
    if expect_["error"] is None:
        assert errors == [], errors
        assert run_info.get_attribute("data-ok") == "true"
    else:
        error = expect_["error"]
        assert len(errors) == 1
        assert f"{error['type']}: {error['message_prefix']}" in errors[0]
        # The failing line is marked in the editor: every such lesson fails on its last line.
        marked = page.locator(".cm-error-line")
        expect(marked).to_have_count(1)
        assert marked.inner_text().strip() == lesson["code"][-1].strip()
