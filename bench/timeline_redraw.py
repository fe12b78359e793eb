"""Moving the timeline slider redraws a 200-node graph (issue 12's target: under 50 ms in Chromium).

Not a timed test: it prints the figures. The page runs a straight-line snippet whose graph has
about 200 nodes (one line per layer, so every step adds nodes), then moves the slider over every
step, each time dispatching the slider's ``input`` event and measuring

- ``graph``: the graph view's own redraw (``playground:timeline-graph``: which nodes and edges
  show, freed saved tensors), JavaScript only;
- ``handler``: the whole ``input`` handler (the state at the step folded from the timeline, the
  editor's step line, the graph; the gradient table follows in the next frame);
- ``layout``: the handler plus the style and layout it caused (forced at once);
- ``frame``: from the event to the second animation frame after it (everything painted, the
  gradient table too).

Usage::

    python web/build/build_site.py --out /tmp/dist-x
    PLAYGROUND_DIST=/tmp/dist-x python bench/timeline_redraw.py [--layers 48] [--rounds 3] [--json out.json]
"""

import argparse
import json
import os
import statistics
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DIST = Path(os.environ.get("PLAYGROUND_DIST") or REPO / "web" / "dist")


def snippet(layers):
    """``layers`` lines of ``h_i = (h_{i-1} * w + b).tanh()``: 4 drawn nodes per line."""
    lines = ["import torch",
             "x = torch.ones(4, requires_grad=True)",
             "w = torch.full((4,), 0.5, requires_grad=True)",
             "b = torch.full((4,), 0.1, requires_grad=True)",
             "h0 = x"]
    lines += [f"h{i} = (h{i - 1} * w + b).tanh()" for i in range(1, layers + 1)]
    lines += [f"loss = h{layers}.sum()", "loss.backward()"]
    return "\n".join(lines) + "\n"


MEASURE = """async (rounds) => {
  const slider = document.querySelector('[data-testid="timeline"]');
  const svg = document.querySelector('[data-testid="graph"] svg');
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const idle = () => new Promise((resolve) => setTimeout(resolve, 30));
  const max = Number(slider.max);
  const out = { graph: [], handler: [], layout: [], frame: [] };
  for (let round = 0; round < rounds; round += 1) {
    for (let i = 1; i <= max; i += 1) {
      await frame();
      await idle();  // as a real input event comes: between frames, the layout clean
      performance.clearMeasures("playground:timeline-graph");
      const t0 = performance.now();
      slider.value = String(i);
      slider.dispatchEvent(new Event("input", { bubbles: true }));
      const t1 = performance.now();
      svg.getBoundingClientRect();  // the graph's style and layout, now
      const t2 = performance.now();
      await frame();
      await frame();
      out.graph.push(performance.getEntriesByName("playground:timeline-graph").at(-1).duration);
      out.handler.push(t1 - t0);
      out.layout.push(t2 - t0);
      out.frame.push(performance.now() - t0);
    }
  }
  return { steps: max, ...out };
}"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=48)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    from playwright.sync_api import expect, sync_playwright

    from web_load import CHROMIUM_ARGS, serve  # the same server and browser as the load bench

    server, url = serve()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 860})
            page.goto(url)
            expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=120_000)
            page.evaluate("code => window.playground.setCode(code)", snippet(args.layers))
            result = page.evaluate("window.playground.run()")
            assert result["ok"], result
            nodes = page.locator('[data-testid="graph"] g.node').count()
            figures = page.evaluate(MEASURE, args.rounds)
            browser.close()
    finally:
        server.shutdown()

    def summary(values):
        ordered = sorted(values)
        return {"median_ms": round(statistics.median(ordered), 2),
                "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 2), "max_ms": round(ordered[-1], 2)}

    keys = ("graph", "handler", "layout", "frame")
    report = {"nodes": nodes, "steps": figures["steps"], "moves": len(figures["handler"]),
              **{key: summary(figures[key]) for key in keys}, "target_ms": 50}
    print(f"timeline redraw, {nodes}-node graph, {report['steps']} steps, {report['moves']} slider moves")
    for key in keys:
        s = report[key]
        print(f"  {key:8s} median {s['median_ms']:6.2f} ms   p95 {s['p95_ms']:6.2f} ms   max {s['max_ms']:6.2f} ms")
    print(f"  target: under {report['target_ms']} ms per move")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
