"""Shared helpers of the browser tests: the lessons and a driver for one page."""

import json
from pathlib import Path

from playwright.sync_api import expect

REPO = Path(__file__).resolve().parents[2]
LOAD_TIMEOUT_MS = 90_000
LESSONS = json.loads((REPO / "web" / "src" / "app" / "lessons.json").read_text(encoding="utf-8"))["lessons"]


def assert_in_order(text, expected):
    """Each expected snippet occurs in ``text``, after the previous one."""
    position = 0
    for snippet in expected:
        found = text.find(snippet, position)
        assert found >= 0, f"{snippet!r} not found (in order) in the output:\n{text}"
        position = found + len(snippet)


class PlaygroundPage:
    """One loaded playground tab, with everything it requested and logged."""

    def __init__(self, browser, url, **context_options):
        """``context_options`` go to ``browser.new_context``, e.g. ``service_workers="block"``."""
        self.url = url
        self.context = browser.new_context(viewport={"width": 1400, "height": 860}, locale="en-US",
                                           **context_options)
        self.requests = []
        self.dialogs = []
        self.console = []
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.page = self.context.new_page()
        self.page.on("console", lambda msg: self._log(f"[console.{msg.type}] {msg.text}"))
        self.page.on("pageerror", lambda err: self._log(f"[pageerror] {err}"))
        self.page.on("dialog", self._on_dialog)
        self.page.on("worker", lambda worker: worker.on(
            "console", lambda msg: self._log(f"[worker.{msg.type}] {msg.text}")))

    def _log(self, line):
        self.console.append(line)
        print(line)

    def _on_dialog(self, dialog):
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def open(self):
        self.page.goto(self.url)
        self.wait_ready()
        return self

    def wait_ready(self, timeout=LOAD_TIMEOUT_MS):
        # Locator waits, not wait_for_function: the page's CSP forbids the
        # string evaluation that wait_for_function relies on.
        status = self.testid("status")
        expect(status).not_to_have_attribute("data-state", "loading", timeout=timeout)
        if status.get_attribute("data-state") == "error":
            raise AssertionError("the playground failed to load Python:\n" + self.output_text())
        expect(status).to_have_attribute("data-state", "ready")

    def testid(self, name):
        return self.page.get_by_test_id(name)

    def state(self):
        return self.testid("status").get_attribute("data-state")

    def settled(self):
        """Waits until the page will not reload for cross-origin isolation (isolation.js)."""
        expect(self.page.locator("html[data-isolation]:not([data-isolation=pending])")).to_have_count(1)

    def set_code(self, code):
        self.settled()
        self.page.evaluate("code => window.playground.setCode(code)", code)

    def get_code(self):
        self.settled()
        return self.page.evaluate("window.playground.getCode()")

    def run(self, code=None):
        """Runs through the page API; returns {ok, stdout, error}."""
        self.settled()
        if code is not None:
            self.set_code(code)
        return self.page.evaluate("window.playground.run()")

    def choose_lesson(self, lesson_id):
        """Opens a lesson with its original code, whatever earlier tests on this shared tab left:
        the lesson already chosen (choosing it again changes nothing) or a draft saved for it."""
        select = self.testid("lessons")
        if select.input_value() == lesson_id:
            select.select_option(next(lesson["id"] for lesson in LESSONS if lesson["id"] != lesson_id))
        select.select_option(lesson_id)
        self.page.locator("#restore").click()

    def click_run(self, timeout=60_000):
        """Clicks Run and waits until the run's summary is shown; returns the output text."""
        run_info = self.page.locator("#run-info")
        self.page.evaluate("document.querySelector('#run-info').textContent = ''")
        self.testid("run").click()
        expect(run_info).not_to_be_empty(timeout=timeout)
        expect(self.testid("status")).to_have_attribute("data-state", "ready")
        return self.output_text()

    def output_text(self):
        return self.testid("output").inner_text()

    def console_eval(self, src):
        box = self.testid("console-input")
        box.fill(src)
        box.press("Enter")

    def close(self):
        self.context.close()
