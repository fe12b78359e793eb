"""The graph views' ranker (web/src/views/graph_rank.js) against dagre's own network simplex, in
Node: the same places for every node and edge on one micrograd step's graph, a forward-mode
lesson's view (forward_layout.js) and random graphs.

graph_rank.js redoes dagre's network simplex on arrays (dagre's took 0.6-0.8 s of the first
layout of a micrograd step) and promises dagre's drawing by taking dagre's choices in dagre's
order; a dagre upgrade that changes them shows up here.
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

pytestmark = pytest.mark.skipif(
    not (WEB / "node_modules" / "@dagrejs" / "dagre").is_dir() or shutil.which("node") is None,
    reason="web/node_modules missing (scripts/test.sh runs npm ci)")


# Lays each graph out twice, with dagre's ranker and with graph_rank.js's, in place()'s settings;
# prints the names of the graphs whose places differ.
CHECK = """
import fs from "node:fs";
import dagre from "@dagrejs/dagre";
import { layoutForward } from "./src/views/forward_layout.js";
import { layoutGraph } from "./src/views/graph_layout.js";
import { networkSimplexRanks } from "./src/views/graph_rank.js";
import { VIEW_STRINGS } from "./src/views/i18n_views.js";

function places(items, edges, ranker) {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "TB", nodesep: 22, ranksep: 30, edgesep: 12, marginx: 20, marginy: 20, ranker });
  for (const item of items) g.setNode(item.id, { width: item.width, height: item.height });
  for (const e of edges) g.setEdge(e.from, e.to, { weight: e.kind === "detached" ? 1 : 2, minlen: 1 }, e.id);
  dagre.layout(g);
  return JSON.stringify([items.map((item) => g.node(item.id)),
    edges.map((e) => g.edge({ v: e.from, w: e.to, name: e.id }).points), g.graph().width, g.graph().height]);
}

let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
// Random graphs: acyclic or not, parallel and detached edges, ids that look like integers
// (graphlib lists those first).
function randomGraph(c) {
  const n = 1 + Math.floor(random() ** 2 * 120);
  const id = (i) => (c % 3 === 2 ? String((i * 7919) % 10007) : `n${i}`);
  const items = Array.from({ length: n }, (_, i) => ({ id: id(i), width: 64 + Math.floor(random() * 120),
    height: random() < 0.5 ? 30 : 44 }));
  const edges = [];
  for (let k = Math.floor(n * (0.5 + random() * 1.5)); k > 0; k--) {
    let [a, b] = [Math.floor(random() * n), Math.floor(random() * n)];
    if (a === b) continue;
    if (c % 3 !== 1 && a < b) [a, b] = [b, a];
    const copies = random() < 0.05 ? 2 : 1;
    for (let i = 0; i < copies; i++) {
      edges.push({ id: `e${edges.length}`, from: items[a].id, to: items[b].id, kind: random() < 0.1 ? "detached" : "next" });
    }
  }
  return { items, edges };
}

const graph = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const laid = layoutGraph(graph, VIEW_STRINGS.en);
const forward = layoutForward(JSON.parse(fs.readFileSync(process.argv[2], "utf8")), VIEW_STRINGS.en);
const cases = [["micrograd", { items: laid.nodes, edges: laid.edges }],
  ["forward", { items: forward.nodes, edges: forward.edges }]];
for (let c = 0; c < 60; c++) cases.push([`random ${c}`, randomGraph(c)]);
const differ = cases.filter(([, { items, edges }]) =>
  places(items, edges, "network-simplex") !== places(items, edges, networkSimplexRanks)).map(([name]) => name);
console.log(JSON.stringify({ cases: cases.length, nodes: laid.nodes.length, forward: forward.nodes.length, differ }));
"""


def test_graph_rank_places_every_node_where_dagres_network_simplex_does(tmp_path, session_run):
    result = session_run(page_programs.MICROGRAD_STEP)
    forward = session_run(page_programs.FORWARD_LESSON)
    assert result["error"] is None and forward["error"] is None and forward["forward"]
    graph_json, forward_json = tmp_path / "micrograd.json", tmp_path / "forward.json"
    graph_json.write_text(json.dumps(result["graph"]))
    forward_json.write_text(json.dumps(forward["forward"]))
    out = subprocess.run(["node", "--input-type=module", "-e", CHECK, str(graph_json), str(forward_json)], cwd=WEB,
                         capture_output=True, text=True, timeout=120, check=True)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["forward"] > 10
    assert report == {"cases": 62, "nodes": 348, "forward": report["forward"], "differ": []}
