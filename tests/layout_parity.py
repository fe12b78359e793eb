"""What test_graph_rank and test_graph_order share: the graphs on which the views' own layout
phases (web/src/views/graph_rank.js, graph_order.js) must give dagre's own results, in Node.

The cases are the graph view's layout of one micrograd training step (348 nodes, 518 edges), a
forward-mode lesson's view (forward_layout.js) and random graphs. ``check`` runs a test's Node
script after ``CASES_JS``, which defines, before the script's own code:

- ``cases``: ``[name, {items, edges}]`` of the two views, in the form ``place()`` lays out;
- ``laid``: the graph view's own layout of the micrograd step (``layoutGraph``'s answer);
- ``randomGraph(c, big)``: random graph number ``c`` (of the script's ``seed``): acyclic or not
  (dagre reverses an edge of each cycle), sparse ones in several pieces, edges over many ranks,
  parallel edges (up to three), detached ones (weight 1), ids that look like integers (graphlib
  lists those first); one in 40 has 460-560 nodes, past the views' SIMPLEX_LIMIT, when ``big``.
"""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
WEB = REPO / "web"
sys.path.insert(0, str(REPO / "bench"))
import page_programs  # noqa: E402  (the learners' programs; the graphs the layouts are checked on)

needs_node = pytest.mark.skipif(
    not (WEB / "node_modules" / "@dagrejs" / "dagre").is_dir() or shutil.which("node") is None,
    reason="web/node_modules missing (scripts/test.sh runs npm ci)")

CASES_JS = """
import fs from "node:fs";
import dagre from "@dagrejs/dagre";
import { layoutForward } from "./src/views/forward_layout.js";
import { layoutGraph } from "./src/views/graph_layout.js";
import { VIEW_STRINGS } from "./src/views/i18n_views.js";

const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
function randomGraph(c, big) {
  const n = big && c % 40 === 39 ? 460 + Math.floor(random() * 100) : 1 + Math.floor(random() ** 2 * 200);
  const id = (i) => (c % 3 === 2 ? String((i * 7919) % 10007) : `n${i}`);
  const items = Array.from({ length: n }, (_, i) => ({ id: id(i), width: 64 + Math.floor(random() * 120),
    height: random() < 0.5 ? 30 : 44 }));
  const edges = [];
  for (let k = Math.floor(n * (0.3 + random() * 1.7)); k > 0; k--) {
    let [a, b] = [Math.floor(random() * n), Math.floor(random() * n)];
    if (a === b) continue;
    if (c % 3 !== 1 && a < b) [a, b] = [b, a];
    const copies = random() < 0.1 ? 2 + Math.floor(random() * 2) : 1;
    for (let i = 0; i < copies; i++) {
      edges.push({ id: `e${edges.length}`, from: items[a].id, to: items[b].id, kind: random() < 0.1 ? "detached" : "next" });
    }
  }
  return { items, edges };
}

const laid = layoutGraph(JSON.parse(fs.readFileSync(process.argv[1], "utf8")), VIEW_STRINGS.en);
const forward = layoutForward(JSON.parse(fs.readFileSync(process.argv[2], "utf8")), VIEW_STRINGS.en);
const cases = [["micrograd", { items: laid.nodes, edges: laid.edges }],
  ["forward", { items: forward.nodes, edges: forward.edges }]];
"""


def check(script, tmp_path, session_run, timeout):
    """Runs ``CASES_JS`` and then ``script`` in Node on the two views' graphs; returns the JSON the
    script prints last."""
    result = session_run(page_programs.MICROGRAD_STEP)
    forward = session_run(page_programs.FORWARD_LESSON)
    assert result["error"] is None and forward["error"] is None and forward["forward"]
    graph_json, forward_json = tmp_path / "micrograd.json", tmp_path / "forward.json"
    graph_json.write_text(json.dumps(result["graph"]))
    forward_json.write_text(json.dumps(forward["forward"]))
    out = subprocess.run(["node", "--input-type=module", "-e", CASES_JS + script, str(graph_json),
                          str(forward_json)], cwd=WEB, capture_output=True, text=True, timeout=timeout, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])
