"""User code cannot break the page's worker: forged messages are not heard, and a worker that
ends itself is noticed and replaced, with a note."""

import pytest
from playwright.sync_api import expect

from playground_helpers import PlaygroundPage

FORGED = """\
import js
for kind in ("fatal", "status", "result"):
    msg = js.Object.new()
    msg.type = kind
    msg.id = 1
    msg.phase = "runtime"
    msg.message = "forged"
    js.postMessage(msg)
print("posted")
"""


@pytest.fixture()
def tab(browser, server_url):
    page = PlaygroundPage(browser, server_url).open()
    yield page
    page.close()


def test_a_forged_message_from_user_code_is_not_heard(tab):
    result = tab.run(FORGED)
    assert result["ok"], result["error"]
    tab.page.wait_for_timeout(500)
    assert tab.state() == "ready"
    assert "could not be loaded" not in tab.output_text()
    expect(tab.testid("run")).to_be_enabled()
    assert tab.run("print(6 * 7)")["stdout"] == "42\n"


def test_js_close_is_noticed_and_python_restarted(tab):
    result = tab.run("import js\njs.close()\nprint('closing')\n")
    assert result["stdout"] == "closing\n"
    out = tab.testid("output")
    expect(out).to_contain_text("Python stopped", timeout=10_000)
    tab.wait_ready()
    assert tab.run("import torch\nprint(torch.ones(2) * 2)")["stdout"] == "tensor([2., 2.])\n"
