"""Costs of the "See autograd" views (not a timed test; prints a table).

1. Layout + SVG render of a 500-node graph in Chromium (target < 300 ms): the page runs a
   snippet whose graph has 500 nodes, and the graph view's own ``performance`` measures
   (``playground:graph-layout``, ``playground:graph-render``, which includes the layout) are read.
2. ``graph.export`` of a 2,000-node graph in CPython (target < 50 ms).
3. Tracing: one backward pass with no engine listener, inside ``trace.record`` and under the
   playground's ``PassRecorder`` (the session's listener), and a whole ``Session.run`` of a
   training loop against plain ``exec`` (target: no listener costs nothing; tracing < 10%
   is only asked of the no-listener path, which is what every non-playground user runs).

Usage::

    python web/build/build_site.py      # the browser part needs web/dist
    python bench/graph_layout.py [--repeat 7] [--no-browser] [--json out.json]
"""

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import autograd_py as T  # noqa: E402
from autograd_py import engine  # noqa: E402
from autograd_py.playground import graph, trace  # noqa: E402
from autograd_py.playground import Session  # noqa: E402
from autograd_py.playground.views import PassRecorder  # noqa: E402

DIST = Path(os.environ.get("PLAYGROUND_DIST") or REPO / "web" / "dist")


def layered_net(layers, torch=T):
    """A chain of ``h = tanh(h * w + b)`` layers: 5 autograd nodes per layer (with branching)."""
    x = torch.ones(4, requires_grad=True)
    h = x
    params = []
    for _ in range(layers):
        w = torch.full((4,), 0.5, requires_grad=True)
        b = torch.full((4,), 0.1, requires_grad=True)
        params += [w, b]
        h = (h * w + b).tanh()
    return x, params, h.sum()


BROWSER_SNIPPET = """\
import torch
import autograd_py.playground.session as playground
playground.GRAPH_BUDGET = 600  # draw all 500 nodes: no chain folding
x = torch.ones(4, requires_grad=True)
h = x
for _ in range({layers}):
    w = torch.full((4,), 0.5, requires_grad=True)
    b = torch.full((4,), 0.1, requires_grad=True)
    h = (h * w + b).tanh()
loss = h.sum()
"""


def median_ms(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def bench_browser(repeat):
    from playwright.sync_api import expect, sync_playwright

    from web_load import CHROMIUM_ARGS, serve  # the same server and browser as the load bench

    server, url = serve()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 860})
            page.goto(url)
            expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=120_000)
            layouts, renders, nodes = [], [], 0
            for _ in range(repeat):
                page.evaluate("performance.clearMeasures()")
                page.evaluate("code => window.playground.setCode(code)", BROWSER_SNIPPET.format(layers=99))
                result = page.evaluate("window.playground.run()")
                assert result["ok"], result
                page.wait_for_timeout(50)
                nodes = page.locator('[data-testid="graph"] g.node').count()
                layouts.append(page.evaluate(
                    "performance.getEntriesByName('playground:graph-layout').at(-1).duration"))
                renders.append(page.evaluate(
                    "performance.getEntriesByName('playground:graph-render').at(-1).duration"))
            browser.close()
    finally:
        server.shutdown()
    return {"nodes": nodes, "layout_ms": statistics.median(layouts), "render_ms": statistics.median(renders)}


def bench_export(repeat):
    x, params, loss = layered_net(398)  # 398 * 5 + 2 = 1,992 autograd nodes, plus 3 named tensors
    namespace = {"x": x, "loss": loss, "first_w": params[0]}
    g = graph.export(namespace, budget=2000)
    assert g["truncated"] is None, g["truncated"]
    ms = median_ms(lambda: graph.export(namespace, budget=2000), repeat)
    return {"nodes": len(g["nodes"]), "export_ms": ms}


def bench_trace(repeat):
    def one_pass(wrap):
        x, params, loss = layered_net(40)
        start = time.perf_counter()
        with wrap():
            loss.backward()
        return (time.perf_counter() - start) * 1000

    class NoListener:
        def __enter__(self):
            assert engine._listener[0] is None

        def __exit__(self, *exc):
            return False

    class Recorder:
        def __enter__(self):
            self.previous = engine.set_listener(PassRecorder())

        def __exit__(self, *exc):
            engine.set_listener(self.previous)
            return False

    modes = {"no listener": NoListener, "trace.record": trace.record, "PassRecorder": Recorder}
    samples = {name: [] for name in modes}
    for _ in range(max(15, repeat * 3)):  # interleaved, so machine noise hits every mode alike
        for name, wrap in modes.items():
            samples[name].append(one_pass(wrap))
    out = {f"{name} ms": statistics.median(values) for name, values in samples.items()}

    loop = ("import torch\ntorch.manual_seed(0)\nW1 = torch.randn(8, 16, requires_grad=True)\n"
            "W2 = torch.randn(16, 4, requires_grad=True)\nx = torch.randn(32, 8)\n"
            "for i in range(200):\n    y = ((x @ W1).tanh() @ W2).sigmoid()\n"
            "    loss = ((y - 0.5) ** 2).mean()\n    loss.backward()\n")
    session = Session()
    plain, traced = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        exec(loop.replace("import torch\n", ""), {"torch": T})
        plain.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        assert session.run(loop)["ok"]
        traced.append((time.perf_counter() - start) * 1000)
    out["training loop, plain exec ms"] = statistics.median(plain)
    out["training loop, Session.run ms"] = statistics.median(traced)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    results = {"export": bench_export(args.repeat * 3), "trace": bench_trace(args.repeat)}
    if not args.no_browser:
        results["browser"] = bench_browser(args.repeat)
    rows = []
    if "browser" in results:
        b = results["browser"]
        rows.append((f"layout of a {b['nodes']}-node graph (Chromium)", f"{b['layout_ms']:.0f} ms", ""))
        rows.append((f"layout + SVG render, {b['nodes']} nodes", f"{b['render_ms']:.0f} ms", "< 300 ms"))
    e = results["export"]
    rows.append((f"graph.export, {e['nodes']} nodes (CPython)", f"{e['export_ms']:.1f} ms", "< 50 ms"))
    tr = results["trace"]
    base = tr["no listener ms"]
    for name in ("no listener", "trace.record", "PassRecorder"):
        value = tr[f"{name} ms"]
        rows.append((f"backward, 200-node graph, {name}", f"{value:.2f} ms", f"{value / base - 1:+.0%}"))
    plain, run = tr["training loop, plain exec ms"], tr["training loop, Session.run ms"]
    rows.append(("200-step training loop, plain exec", f"{plain:.0f} ms", ""))
    rows.append(("same loop in Session.run (steps, history)", f"{run:.0f} ms", f"{run / plain - 1:+.0%}"))
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'median':>10}  note")
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>10}  {note}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
