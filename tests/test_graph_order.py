"""The graph views' crossing reduction (web/src/views/graph_order.js) against dagre's own order
phase, in Node: the same order on every node, the dummies of long edges included, and so the same
places for every node and edge, on one micrograd step's graph, a forward-mode lesson's view
(forward_layout.js) and random graphs.

graph_order.js redoes dagre's order phase on arrays (dagre's took 84 ms of a warm layout of a
micrograd step) and promises dagre's drawing by taking dagre's choices in dagre's order; a dagre
upgrade that changes them shows up here.
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


# Lays each graph out twice, in place()'s settings and with its ranker (graph_rank.js, or
# longest-path past SIMPLEX_LIMIT nodes): with dagre's order phase and with graph_order.js's. Each
# run keeps the rank and order of every node of the layered graph (dummies by position: their
# names come from a counter dagre shares between layouts) and the places dagre gives the nodes
# and edges. Prints the names of the graphs where anything differs.
CHECK = """
import fs from "node:fs";
import dagre from "@dagrejs/dagre";
import { layoutForward } from "./src/views/forward_layout.js";
import { layoutGraph } from "./src/views/graph_layout.js";
import { orderLayers } from "./src/views/graph_order.js";
import { networkSimplexRanks } from "./src/views/graph_rank.js";
import { VIEW_STRINGS } from "./src/views/i18n_views.js";

function places(items, edges, ours, clusters = []) {
  const g = new dagre.graphlib.Graph({ multigraph: true, compound: clusters.length > 0 });
  const ranker = items.length > 450 ? "longest-path" : networkSimplexRanks;
  g.setGraph({ rankdir: "TB", nodesep: 22, ranksep: 30, edgesep: 12, marginx: 20, marginy: 20, ranker });
  for (const item of items) g.setNode(item.id, { width: item.width, height: item.height });
  for (const e of edges) g.setEdge(e.from, e.to, { weight: e.kind === "detached" ? 1 : 2, minlen: 1 }, e.id);
  for (const [child, parent] of clusters) g.setParent(child, parent);
  const layered = [];
  let orderer = "dagre";
  dagre.layout(g, { customOrder: (lg, dagreOrder) => {
    if (ours) orderer = orderLayers(lg, dagreOrder);
    else dagreOrder(lg);
    for (const v of lg.nodes()) layered.push(lg.node(v).dummy ? "" : v, lg.node(v).rank, lg.node(v).order);
  } });
  return { orderer, places: JSON.stringify([layered, items.map((item) => g.node(item.id)),
    edges.map((e) => g.edge({ v: e.from, w: e.to, name: e.id }).points), g.graph().width, g.graph().height]) };
}

let seed = 11;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
// Random graphs of 1 to 200 nodes, and three past SIMPLEX_LIMIT: acyclic or not (dagre reverses an
// edge of each cycle), sparse ones in several pieces, edges over many ranks, parallel edges (up to
// three), detached ones (weight 1), ids that look like integers (graphlib lists those first).
function randomGraph(c) {
  const n = c % 40 === 39 ? 460 + Math.floor(random() * 100) : 1 + Math.floor(random() ** 2 * 200);
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

const graph = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const laid = layoutGraph(graph, VIEW_STRINGS.en);
const forward = layoutForward(JSON.parse(fs.readFileSync(process.argv[2], "utf8")), VIEW_STRINGS.en);
const cases = [["micrograd", { items: laid.nodes, edges: laid.edges }],
  ["forward", { items: forward.nodes, edges: forward.edges }]];
for (let c = 0; c < 120; c++) cases.push([`random ${c}`, randomGraph(c)]);
const orderers = new Set();
const differ = cases.filter(([, { items, edges }]) => {
  const theirs = places(items, edges, false);
  const ours = places(items, edges, true);
  orderers.add(ours.orderer);
  return theirs.places !== ours.places;
}).map(([name]) => name);
// A graph with a cluster goes to dagre's own order, and is drawn as dagre draws it.
const { items, edges } = randomGraph(3);
const cluster = [...items.slice(0, 5).map((item) => [item.id, "cluster"]), ["cluster", "outer"]];
items.push({ id: "cluster", width: 10, height: 10 }, { id: "outer", width: 10, height: 10 });
const clustered = [places(items, edges, false, cluster), places(items, edges, true, cluster)];
console.log(JSON.stringify({ cases: cases.length, nodes: laid.nodes.length, orderer: laid.orderer,
  orderers: [...orderers], differ, clustered: [clustered[1].orderer, clustered[0].places === clustered[1].places] }));
"""


def test_graph_order_orders_every_node_as_dagres_order_phase_does(tmp_path, session_run):
    result = session_run(page_programs.MICROGRAD_STEP)
    forward = session_run(page_programs.FORWARD_LESSON)
    assert result["error"] is None and forward["error"] is None and forward["forward"]
    graph_json, forward_json = tmp_path / "micrograd.json", tmp_path / "forward.json"
    graph_json.write_text(json.dumps(result["graph"]))
    forward_json.write_text(json.dumps(forward["forward"]))
    out = subprocess.run(["node", "--input-type=module", "-e", CHECK, str(graph_json), str(forward_json)], cwd=WEB,
                         capture_output=True, text=True, timeout=300, check=True)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report == {"cases": 122, "nodes": 348, "orderer": "graph_order", "orderers": ["graph_order"],
                      "differ": [], "clustered": ["dagre", True]}
