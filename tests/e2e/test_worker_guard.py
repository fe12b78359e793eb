"""User code cannot break the page's worker: forged messages are not heard, and a worker that
ends itself, crashes or goes silent while a request waits is noticed and replaced, with a note."""

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


# Writing far outside WebAssembly memory is a fatal error of Pyodide itself: nothing can run in it
# any more, so the worker ends itself after reporting the error.
CRASH = "import ctypes\nctypes.memset(2**31 + 5, 0, 1000)\n"

# A callback scheduled by one run blocks the worker's event loop after that run has finished.
SPIN_LATER = """\
import js
from pyodide.ffi import create_proxy

def spin():
    while True:
        pass

js.setTimeout(create_proxy(spin), 300)
print("scheduled")
"""


def test_a_worker_that_dies_while_requests_wait_is_restarted(tab):
    tab.set_code("import time\ntime.sleep(1)\n" + CRASH)
    tab.testid("run").click()
    expect(tab.testid("status")).to_have_attribute("data-state", "running")
    tab.console_eval("6 * 7")  # waits behind the run, in the worker that is about to die
    out = tab.testid("output")
    expect(out).to_contain_text("memory access out of bounds", timeout=30_000)
    expect(out).to_contain_text("Python stopped (its worker crashed", timeout=10_000)
    tab.wait_ready()
    assert tab.get_code().endswith(CRASH)
    assert tab.run("import torch\nprint(torch.ones(2) * 3)")["stdout"] == "tensor([3., 3.])\n"


def test_a_worker_that_goes_silent_while_a_run_waits_is_restarted(tab):
    assert tab.run(SPIN_LATER)["stdout"] == "scheduled\n"
    tab.page.wait_for_timeout(600)  # the callback now spins in the worker
    result = tab.run("print('never printed')")
    assert result["error"]["type"] == "Restarted", result
    out = tab.testid("output")
    expect(out).to_contain_text("Python stopped answering")
    tab.wait_ready()
    assert tab.run("print('answered')")["stdout"] == "answered\n"
