"""Measure the playground's load and run times in headless Chromium.

For each repetition a fresh browser context (so a cold HTTP cache) opens:

* the playground: time to a usable editor, and to Python ready (Pyodide,
  NumPy and autograd_py installed, ``Session`` created), both measured from
  navigation start with the page's own ``performance`` marks;
* a bare page whose module worker only loads Pyodide and NumPy from the same
  files, the floor the playground's Python-ready time is compared with.

Then, in the last playground page, the round trip of a small snippet through
``window.playground.run()`` (page -> worker -> Python -> page), median of many.
A warm reload (HTTP cache filled) is measured too.

Usage::

    python web/build/build_site.py   # builds web/dist first
    python bench/web_load.py [--repeat 3] [--runs 30] [--json out.json]
"""

import argparse
import functools
import http.server
import json
import os
import statistics
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[1]
DIST = Path(os.environ.get("PLAYGROUND_DIST") or REPO / "web" / "dist")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SNIPPET = (
    "import torch\n"
    "x = torch.ones(2, 3, requires_grad=True)\n"
    "(x * x).sum().backward()\n"
    "print(x.grad)\n"
)

# Served from memory next to the site: a module worker that loads only Pyodide + NumPy.
BARE_PAGE = b"""<!doctype html><meta charset="utf-8"><title>bare</title>
<script type="module" src="__bench_bare.js"></script>"""
BARE_MAIN = b"""
const worker = new Worker(new URL("./__bench_worker.js", location.href), { type: "module" });
window.bare = new Promise((resolve) => { worker.onmessage = (e) => resolve(performance.now()); });
"""
BARE_WORKER = b"""
const { loadPyodide } = await import(new URL("./pyodide/pyodide.mjs", self.location.href).href);
const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", self.location.href).href });
await pyodide.loadPackage("numpy", { messageCallback: () => {} });
pyodide.runPython("import numpy");
self.postMessage("ready");
"""
EXTRA = {
    "/__bench_bare.html": (BARE_PAGE, "text/html"),
    "/__bench_bare.js": (BARE_MAIN, "text/javascript"),
    "/__bench_worker.js": (BARE_WORKER, "text/javascript"),
}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".mjs": "text/javascript",
                      ".wasm": "application/wasm", ".json": "application/json"}

    def do_GET(self):
        if self.path in EXTRA:
            body, kind = EXTRA[self.path]
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, *args):
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A closed context aborts downloads (e.g. the spare worker's); not an error here.
        if not isinstance(sys.exc_info()[1], (ConnectionError, BrokenPipeError)):
            super().handle_error(request, client_address)


def serve():
    server = QuietServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(DIST)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def mark(page, name, timeout_ms=120_000):
    """Milliseconds from navigation start to the page's performance mark ``name``."""
    page.locator(f'[data-testid="status"]:not([data-state="loading"])').wait_for(timeout=timeout_ms)
    value = page.evaluate(f"performance.getEntriesByName({name!r})[0]?.startTime ?? null")
    if value is None:
        raise RuntimeError(f"mark {name} missing; page state: "
                           f"{page.get_by_test_id('status').get_attribute('data-state')}")
    return value


def load_playground(page, url):
    page.goto(url)
    python_ready = mark(page, "playground:python-ready")
    phases = page.evaluate("""() => Object.fromEntries(["runtime", "numpy", "autograd_py"].map(
        (p) => [p, performance.getEntriesByName(`playground:phase:${p}`)[0].detail.ms]))""")
    return {"editor_ms": mark(page, "playground:editor-ready"), "python_ready_ms": python_ready,
            **{f"phase_{name}_ms": ms for name, ms in phases.items()}}


def load_playground_after_reload(page, url):
    page.reload()
    return {"editor_ms": mark(page, "playground:editor-ready"),
            "python_ready_ms": mark(page, "playground:python-ready")}


def load_bare(context, url):
    page = context.new_page()
    page.goto(url + "__bench_bare.html")
    ms = page.evaluate("window.bare")
    page.close()
    return ms


def run_round_trips(page, runs):
    page.evaluate("code => window.playground.setCode(code)", SNIPPET)
    times = page.evaluate(
        """async (runs) => {
            const times = [];
            for (let i = 0; i < runs; i++) {
                const t = performance.now();
                const result = await window.playground.run();
                if (!result.ok) throw new Error(JSON.stringify(result.error));
                times.push(performance.now() - t);
            }
            return times;
        }""",
        runs,
    )
    return times


def summary(values):
    return {"median": round(statistics.median(values), 1), "min": round(min(values), 1),
            "max": round(max(values), 1), "n": len(values)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="cold loads of each page")
    parser.add_argument("--runs", type=int, default=30, help="snippet round trips")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    if not (DIST / "build-info.json").is_file():
        sys.exit("web/dist is not built: run `python web/build/build_site.py` first")

    server, url = serve()
    cold, bare = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        for _ in range(args.repeat):
            context = browser.new_context()
            bare.append(load_bare(context, url))
            context.close()
            context = browser.new_context()
            page = context.new_page()
            cold.append(load_playground(page, url))
            if _ < args.repeat - 1:
                context.close()
        warm = load_playground_after_reload(page, url)
        # Let the background spare worker finish loading, so it does not share the CPU.
        page.wait_for_timeout(12_000)
        trips = run_round_trips(page, args.runs)
        context.close()
        browser.close()
    server.shutdown()

    figures = {
        "editor_usable_ms": summary([c["editor_ms"] for c in cold]),
        "python_ready_ms": summary([c["python_ready_ms"] for c in cold]),
        "bare_pyodide_numpy_ms": summary(bare),
        **{key: summary([c[key] for c in cold]) for key in cold[0] if key.startswith("phase_")},
        "python_ready_warm_reload_ms": round(warm["python_ready_ms"], 1),
        "run_round_trip_ms": summary(trips),
    }
    overhead = figures["python_ready_ms"]["median"] - figures["bare_pyodide_numpy_ms"]["median"]
    figures["python_ready_overhead_vs_bare_ms"] = round(overhead, 1)
    for key, value in figures.items():
        print(f"{key:34} {value}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return figures


if __name__ == "__main__":
    main()
