"""The worker's result messages carry Python's answer as JSON text, which the page's and the
embeds' clients read with ``failed_result.readResult`` (web/src/runtime/failed_result.js), in Node.

The text crosses postMessage as a string, far cheaper than the structured clone of the parsed
object; what the clients then hold must be the object the worker used to post, and a text that
does not parse must still answer the request (an InternalError result), never leave it waiting.
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from autograd_py.playground.session import _dumps

WEB = Path(__file__).resolve().parents[1] / "web"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node missing (scripts/test.sh installs it)")

READ = """
import { failedResult, readResult } from "./src/runtime/failed_result.js";
const messages = JSON.parse(process.argv[1]);
const failed = failedResult(7, "Restarted", "gone");
const out = messages.map(readResult);
out.push(readResult(failed) === failed);
console.log(JSON.stringify(out));
"""


def read_results(messages):
    done = subprocess.run(["node", "--input-type=module", "-e", READ, json.dumps(messages)], cwd=WEB,
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def test_a_result_text_reads_as_the_object_the_worker_posted_before():
    answer = {"ok": True, "stdout": "tensor([27.])\n", "stderr": "", "error": None, "duration_ms": 3,
              "graph": {"nodes": [{"id": "f1", "value": float("nan")}], "edges": []}}
    text = _dumps(answer)  # what Session.run_json hands the worker: NaN becomes a string
    good, bad, passed_through = read_results([{"id": 4, "type": "result", "json": text},
                                              {"id": 5, "type": "result", "json": '{"ok": true, "stdout": '}])
    assert good == {**json.loads(text), "id": 4, "type": "result"}
    assert good["graph"]["nodes"][0]["value"] == "nan"
    # a text that does not parse still answers its request, as a failure of the runtime
    assert bad["id"] == 5 and bad["type"] == "result" and bad["ok"] is False
    assert bad["error"]["type"] == "InternalError" and "could not be read" in bad["error"]["message"]
    assert passed_through is True  # failedResult's objects (a restart, a send failure) are results already
