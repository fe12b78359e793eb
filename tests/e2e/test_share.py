"""Share links: the "Copy link" button and opening ``#share=`` links.

Tokens are made two ways: by the page (``playground.shareLink()``) and here
in Python with zlib + base64url, the format README documents, so each side
checks the other. Loading Pyodide is the slow part, so a fresh context is
used only where a clean profile is the point; the broken-link and draft cases
follow ``hashchange`` in one page that was itself opened with a broken link.
"""

import base64
import json
import os
import re
import zlib

import pytest
from playwright.sync_api import expect

from playground_helpers import LESSONS, REPO, PlaygroundPage, assert_in_order

SHARE_JS = (REPO / "web" / "src" / "share" / "share.js").read_text(encoding="utf-8")


def _limit(name):
    """A size limit as share.js defines it (a product of integers)."""
    match = re.search(rf"export const {name} = ([\d *]+);", SHARE_JS)
    assert match, f"{name} not found in share.js"
    value = 1
    for factor in match.group(1).split("*"):
        value *= int(factor)
    return value


MAX_TOKEN_CHARS = _limit("MAX_TOKEN_CHARS")
MAX_STATE_BYTES = _limit("MAX_STATE_BYTES")
KEPT_KEY = "autograd-playground:kept-drafts:v1"

UNICODE_CODE = (
    "# 反向传播 ∂L/∂x — ünïcödé ✓ 🎓\n"
    "import torch\n"
    "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)  # 叶子节点\n"
    "loss = (x ** 2).sum()\n"
    "loss.backward()\n"
    "print('梯度 ✓', x.grad)\n"
)
DEFAULT = LESSONS[0]
OTHER = LESSONS[2]


def b64url(raw):
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def make_token(state, level=9):
    """A share token made independently of the page: "1." + base64url(zlib(JSON))."""
    data = state if isinstance(state, bytes) else json.dumps(state, ensure_ascii=False).encode("utf-8")
    return "1." + b64url(zlib.compress(data, level))


def read_token(link):
    """The state inside a share link, decoded in Python."""
    token = link.split("#share=", 1)[1]
    version, payload = token.split(".", 1)
    assert version == "1"
    raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    return json.loads(zlib.decompress(raw).decode("utf-8"))


def location(page):
    return page.evaluate("[location.href, location.hash]")


def open_hash(tab, hash_):
    """A same-document navigation to ``hash_`` (fires hashchange, no reload)."""
    tab.page.evaluate("h => { location.hash = h; }", hash_)


def ensure_ready(tab):
    tab.wait_ready()


def dismiss_notice(tab):
    notice = tab.testid("share-notice")
    if notice.is_visible():
        notice.get_by_test_id("share-dismiss").click()
    expect(notice).to_be_hidden()


# ---- a clean profile opening a link -----------------------------------------


def test_share_link_round_trips_code_lesson_and_language(browser, server_url):
    maker = PlaygroundPage(browser, server_url)
    try:
        maker.page.goto(server_url)  # Python need not be ready to make a link
        maker.testid("lessons").select_option(OTHER["id"])
        maker.page.locator('[data-lang="zh"]').click()
        maker.set_code(UNICODE_CODE)
        link = maker.page.evaluate("window.playground.shareLink()")
    finally:
        maker.close()
    assert link.startswith(server_url + "#share=1.")
    assert read_token(link) == {"code": UNICODE_CODE, "lesson": OTHER["id"], "lang": "zh"}

    tab = PlaygroundPage(browser, link)  # a fresh context: nothing saved
    try:
        page = tab.page
        page.goto(link)
        expect(tab.testid("share-notice")).to_be_visible()
        assert tab.get_code() == UNICODE_CODE
        expect(tab.testid("lessons")).to_have_value(OTHER["id"])
        expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
        expect(tab.testid("run")).to_contain_text("运行")
        assert location(page) == [server_url, ""]  # the hash is gone
        notice = tab.testid("share-notice")
        expect(notice).to_have_attribute("data-kind", "opened")
        expect(notice).to_contain_text(OTHER["title"]["zh"])
        expect(notice).to_contain_text("尚未运行")
        expect(notice.get_by_test_id("share-back")).to_have_count(0)  # nothing of the user's was replaced

        tab.wait_ready()
        page.wait_for_timeout(500)  # a run started on its own would have printed by now
        assert tab.output_text().strip() == ""
        expect(page.locator("#run-info")).to_be_empty()
        expect(tab.testid("status")).to_have_attribute("data-state", "ready")

        output = tab.click_run()
        assert "梯度 ✓ tensor([2., 4., 6.])" in output
        # The shared code is now this lesson's draft: a reload keeps it and opens no link again.
        page.reload()
        assert tab.get_code() == UNICODE_CODE
        expect(tab.testid("lessons")).to_have_value(OTHER["id"])
        expect(tab.testid("share-notice")).to_be_hidden()
    finally:
        tab.close()


# ---- broken links -------------------------------------------------------------

def lesson_state(lesson_id="graph", code="print('hello from a link')\n", lang="en"):
    return {"code": code, "lesson": lesson_id, "lang": lang}


HALF_TOKEN = make_token(lesson_state(code=UNICODE_CODE * 4))
HALF_TOKEN = HALF_TOKEN[: len(HALF_TOKEN) // 2]


@pytest.fixture(scope="module")
def tab(browser, server_url):
    """One page of a fresh profile, first opened with a link cut in half."""
    tab = PlaygroundPage(browser, server_url)
    tab.page.goto(server_url + "#share=" + HALF_TOKEN)
    tab.wait_ready()
    yield tab
    tab.close()


def expect_default_lesson_and_working_run(tab):
    expect(tab.testid("lessons")).to_have_value(DEFAULT["id"])
    assert tab.get_code() == "\n".join(DEFAULT["code"]) + "\n"
    assert_in_order(tab.click_run(), DEFAULT["expect"]["stdout"])


def test_link_cut_in_half_at_load_opens_the_default_lesson(tab, server_url):
    notice = tab.testid("share-notice")
    expect(notice).to_be_visible()
    expect(notice).to_have_attribute("role", "alert")
    expect(notice).to_have_attribute("data-reason", "truncated")
    expect(notice).to_contain_text("incomplete")
    expect(notice).to_contain_text("default lesson was opened")
    assert location(tab.page) == [server_url, ""]
    expect_default_lesson_and_working_run(tab)
    dismiss_notice(tab)


BOMB = make_token(b'{"code": "' + b" " * (MAX_STATE_BYTES * 40) + b'"}')
_valid = make_token(lesson_state(code=UNICODE_CODE * 4))
DAMAGED = _valid[: len(_valid) // 2] + ("A" if _valid[len(_valid) // 2] != "A" else "B") + _valid[len(_valid) // 2 + 1:]

BROKEN = {
    "not-base64url": ("1.%%%", "malformed", "damaged"),
    "damaged-byte": (DAMAGED, "malformed", "damaged"),
    "cut-in-half": (HALF_TOKEN, "truncated", "incomplete"),
    "one-char-cut": (_valid[:-1], "truncated", "incomplete"),
    "too-many-chars": ("1." + "A" * (MAX_TOKEN_CHARS - 1), "too-large", f"{MAX_TOKEN_CHARS} characters"),
    "inflates-too-far": (BOMB, "expands", "not a valid share link: its data expands beyond the 256 KiB limit"),
    "unknown-version": ("9.xxx", "unsupported", "another version"),
    "no-version": ("eJyrVkrOT0lVslJSVnja3_t0wsQnexY8m7RW4VFHk48", "malformed", "damaged"),
    "not-an-object": (make_token([1, 2, 3]), "malformed", "damaged"),
    "not-json": (make_token(b"print(1)"), "malformed", "damaged"),
    "no-code": (make_token({"lesson": "graph", "code": 42}), "malformed", "damaged"),
    "empty": ("", "malformed", "damaged"),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_broken_link_says_why_and_opens_the_default_lesson(tab, server_url, name):
    token, reason, words = BROKEN[name]
    assert len(BOMB) < MAX_TOKEN_CHARS  # the bomb passes the length check and must be caught inflating
    ensure_ready(tab)
    dismiss_notice(tab)
    tab.testid("lessons").select_option(OTHER["id"])
    open_hash(tab, "#share=" + token)
    notice = tab.testid("share-notice")
    expect(notice).to_have_attribute("data-reason", reason)
    expect(notice).to_have_attribute("role", "alert")
    expect(notice).to_contain_text(words)
    expect(notice).to_contain_text("The default lesson was opened instead.")
    assert location(tab.page) == [server_url, ""]
    expect_default_lesson_and_working_run(tab)
    notice.get_by_test_id("share-dismiss").click()
    expect(notice).to_be_hidden()


def test_broken_link_message_speaks_the_ui_language(tab):
    ensure_ready(tab)
    dismiss_notice(tab)
    tab.page.locator('[data-lang="zh"]').click()
    try:
        open_hash(tab, "#share=9.xxx")
        notice = tab.testid("share-notice")
        expect(notice).to_have_attribute("data-reason", "unsupported")
        expect(notice).to_contain_text("另一个版本")
        expect(notice).to_contain_text("已改为打开默认课程")
        tab.page.locator('[data-lang="en"]').click()  # an open notice follows the language
        expect(notice).to_contain_text("another version")
    finally:
        tab.page.locator('[data-lang="en"]').click()
        dismiss_notice(tab)


def test_a_zip_bomb_link_is_called_invalid_not_too_large_in_both_languages(tab):
    ensure_ready(tab)
    dismiss_notice(tab)
    tab.page.locator('[data-lang="zh"]').click()
    try:
        open_hash(tab, "#share=" + BOMB)
        notice = tab.testid("share-notice")
        expect(notice).to_have_attribute("data-reason", "expands")
        expect(notice).to_contain_text("不是一个有效的分享链接")
        expect(notice).to_contain_text("解压后超过了 256 KiB")
        expect(notice).not_to_contain_text("太大")
        tab.page.locator('[data-lang="en"]').click()
        expect(notice).to_contain_text("expands beyond the 256 KiB limit")
        expect(notice).not_to_contain_text("too large")
    finally:
        tab.page.locator('[data-lang="en"]').click()
        dismiss_notice(tab)


def test_a_hash_that_is_no_share_is_ignored(tab, server_url):
    ensure_ready(tab)
    dismiss_notice(tab)
    tab.testid("lessons").select_option(OTHER["id"])
    code = tab.get_code()
    open_hash(tab, "#foo")
    tab.page.wait_for_timeout(300)
    expect(tab.testid("share-notice")).to_be_hidden()
    expect(tab.testid("lessons")).to_have_value(OTHER["id"])
    assert tab.get_code() == code
    assert location(tab.page) == [server_url + "#foo", "#foo"]


def test_a_token_of_exactly_the_limit_opens(tab):
    # Stored deflate blocks make the token's length predictable: 2 + ceil(4 * (n + 11) / 3).
    frame = json.dumps(lesson_state(OTHER["id"], code="")).encode()
    target_raw = (MAX_TOKEN_CHARS - 2) * 3 // 4
    code = "#" * (target_raw - 11 - len(frame))
    token = make_token(lesson_state(OTHER["id"], code=code), level=0)
    assert len(token) == MAX_TOKEN_CHARS
    ensure_ready(tab)
    dismiss_notice(tab)
    tab.testid("lessons").select_option(DEFAULT["id"])
    open_hash(tab, "#share=" + token)
    expect(tab.testid("share-notice")).to_have_attribute("data-kind", "opened")
    expect(tab.testid("lessons")).to_have_value(OTHER["id"])
    assert tab.get_code() == code
    tab.page.locator("#restore").click()  # leave no draft behind for the other tests


# ---- the user's own code -------------------------------------------------------


def test_own_draft_survives_a_link_and_comes_back(tab):
    ensure_ready(tab)
    dismiss_notice(tab)
    page = tab.page
    tab.testid("lessons").select_option(OTHER["id"])
    own = "# my own work on this lesson\nprint('mine')\n"
    tab.set_code(own)
    shared = "# from a friend\nprint('theirs')\n"
    open_hash(tab, "#share=" + make_token(lesson_state(OTHER["id"], code=shared)))
    notice = tab.testid("share-notice")
    expect(notice).to_have_attribute("data-kind", "opened")
    expect(notice).to_contain_text("Your own code for this lesson is kept.")
    assert tab.get_code() == shared
    # Kept across a reload, where the notice offers it again.
    page.reload()
    assert tab.get_code() == shared
    expect(notice).to_have_attribute("data-kind", "kept")
    back = notice.get_by_test_id("share-back")
    expect(back).to_have_text("Back to my code")
    back.click()
    assert tab.get_code() == own
    expect(notice).to_be_hidden()
    assert page.evaluate("k => localStorage.getItem(k)", KEPT_KEY) is None
    # A second link over an untouched first one still keeps the user's code, not the first link's.
    open_hash(tab, "#share=" + make_token(lesson_state(OTHER["id"], code=shared)))
    expect(notice).to_have_attribute("data-kind", "opened")
    dismiss_notice(tab)
    open_hash(tab, "#share=" + make_token(lesson_state(OTHER["id"], code="print('third')\n")))
    expect(notice.get_by_test_id("share-back")).to_be_visible()
    assert tab.get_code() == "print('third')\n"
    notice.get_by_test_id("share-back").click()
    assert tab.get_code() == own
    tab.page.locator("#restore").click()
    ensure_ready(tab)


# ---- copying --------------------------------------------------------------------


def copy_tab(browser, server_url, init_script=None, grant=True):
    tab = PlaygroundPage(browser, server_url)
    if grant:
        tab.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server_url.rstrip("/"))
    if init_script:
        tab.context.add_init_script(init_script)
    tab.page.goto(server_url)
    tab.set_code(UNICODE_CODE)
    return tab


def test_copy_link_puts_the_share_link_on_the_clipboard(browser, server_url):
    tab = copy_tab(browser, server_url)
    try:
        tab.testid("copy-link").click()
        expect(tab.testid("share-feedback")).to_have_text("Link copied")
        copied = tab.page.evaluate("navigator.clipboard.readText()")
        assert copied == tab.page.evaluate("window.playground.shareLink()")
        assert read_token(copied) == {"code": UNICODE_CODE, "lesson": DEFAULT["id"], "lang": "en"}
        expect(tab.testid("share-link-field")).to_be_hidden()
    finally:
        tab.close()


REFUSE_CLIPBOARD = """
navigator.clipboard.writeText = () => Promise.reject(new DOMException("Write permission denied.", "NotAllowedError"));
"""
NO_CLIPBOARD = "Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });"


@pytest.mark.parametrize("init_script", [REFUSE_CLIPBOARD, NO_CLIPBOARD], ids=["refused", "unavailable"])
def test_copy_link_falls_back_to_a_selected_field(browser, server_url, init_script):
    tab = copy_tab(browser, server_url, init_script, grant=False)
    try:
        tab.testid("copy-link").click()
        field = tab.testid("share-link-field")
        expect(field).to_be_visible()
        expect(field).to_be_focused()
        link = tab.page.evaluate("window.playground.shareLink()")
        expect(field).to_have_value(link)
        selected = tab.page.evaluate(
            "(() => { const f = document.activeElement; return [f.selectionStart, f.selectionEnd]; })()")
        assert selected == [0, len(link)]
        expect(tab.testid("share-feedback")).to_have_text("Copy this link:")
        assert field.get_attribute("readonly") is not None
    finally:
        tab.close()


def test_code_too_long_for_a_link_says_so(browser, server_url):
    tab = copy_tab(browser, server_url)
    try:
        # Incompressible text, so the token passes the limit long before the state does.
        noise = base64.b64encode(os.urandom(MAX_TOKEN_CHARS)).decode()
        tab.set_code(noise)
        tab.testid("copy-link").click()
        feedback = tab.testid("share-feedback")
        expect(feedback).to_contain_text("too long for a link")
        expect(feedback).to_have_attribute("data-ok", "false")
        expect(tab.testid("share-link-field")).to_be_hidden()
        reason = tab.page.evaluate("window.playground.shareLink().then(() => 'made', (e) => e.reason)")
        assert reason == "too-large"
    finally:
        tab.close()
