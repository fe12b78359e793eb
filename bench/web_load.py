"""Measure the playground's load and run times in headless Chromium.

For each repetition a fresh browser context (a cold tab: empty HTTP cache, no
service worker) opens:

* a bare page whose module worker only loads Pyodide and NumPy from the same
  files, the floor the playground's Python-ready time is compared with. Its
  standard library is Pyodide's as released (sources only), while the site's
  also carries bytecode of what its start-up imports (``--bare-stdlib site``
  gives the bare page the site's copy, to see what the playground adds on top
  of the very same runtime);
* the playground: time to a usable editor, and to Python ready (Pyodide,
  NumPy and autograd_py installed, ``Session`` created). Both pages are timed
  by the wall clock from the moment they were asked to navigate, so the
  playground's one reload for cross-origin isolation (boot.js) counts.
  The server counts the requests of each file in each playground tab, up to
  its offline copy being complete (target: one per file).

Then, in the last playground page: a warm reload (service worker and HTTP
cache filled), the round trip of a small snippet through
``window.playground.run()`` (page -> worker -> Python -> page), median of
many, and a 10^5-line print flood, whose longest main-thread task is read from
a PerformanceObserver on long tasks (target: under 100 ms).

Usage::

    python web/build/build_site.py   # builds web/dist first
    python bench/web_load.py [--repeat 3] [--runs 30] [--json out.json]
"""

import argparse
import collections
import functools
import http.server
import json
import os
import statistics
import sys
import threading
import time
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
FLOOD = "for i in range(10**5):\n    print(i)\n"
# Files whose requests per tab are reported (substrings of their paths).
COUNTED = ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "pyodide/pyodide.asm.js",
           "pyodide/numpy-", "wheels/autograd_py-", "/worker.js", "/main.js", "/boot.js", "/")


def counted(name, path):
    return path == name if name == "/" else name in path

# Served from memory next to the site: a module worker that loads only Pyodide + NumPy.
BARE_PAGE = b"""<!doctype html><meta charset="utf-8"><title>bare</title>
<script type="module" src="__bench_bare.js"></script>"""
# Epoch milliseconds: when its worker was started, and when Python was ready; and the worker's
# own phases (ms), measured as the playground's worker measures its own.
BARE_MAIN = b"""
const started = performance.timeOrigin + performance.now();
const worker = new Worker(new URL("./__bench_worker.js" + location.search, location.href), { type: "module" });
window.bare = new Promise((resolve) => { worker.onmessage = (e) => resolve(
  { started, ready: performance.timeOrigin + performance.now(), ...e.data }); });
"""
BARE_WORKER = b"""
let t = performance.now();
const { loadPyodide } = await import(new URL("./pyodide/pyodide.mjs", self.location.href).href);
const stdlib = new URLSearchParams(self.location.search).get("stdlib");
const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", self.location.href).href,
  ...(stdlib ? { stdLibURL: new URL(stdlib, self.location.href).href } : {}) });
const runtime = performance.now() - t;
t = performance.now();
await pyodide.loadPackage("numpy", { messageCallback: () => {} });
pyodide.runPython("import numpy");
self.postMessage({ runtime, numpy: performance.now() - t });
"""
# The bare page is Pyodide as released: its standard library as sources only. The site's
# python_stdlib.zip also carries the bytecode of the modules its start-up imports
# (web/build/precompile_stdlib.mjs); `--bare-stdlib site` gives the bare page that copy instead,
# to see what the playground adds on top of the very same runtime.
STOCK_STDLIB = REPO / "web" / "node_modules" / "pyodide" / "python_stdlib.zip"
BARE_QUERY = {"stock": "?stdlib=__bench_stock_stdlib.zip", "site": ""}
# The bare page's files, served from memory next to the site (teacher_load.py writes them into its copy).
BARE_FILES = {
    "__bench_bare.html": (BARE_PAGE, "text/html"),
    "__bench_bare.js": (BARE_MAIN, "text/javascript"),
    "__bench_worker.js": (BARE_WORKER, "text/javascript"),
    "__bench_stock_stdlib.zip": (STOCK_STDLIB.read_bytes() if STOCK_STDLIB.is_file() else b"", "application/zip"),
}
EXTRA = {f"/{name}": file for name, file in BARE_FILES.items()}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".mjs": "text/javascript",
                      ".wasm": "application/wasm", ".json": "application/json"}
    counts = collections.Counter()  # path -> requests since the last clear()

    def do_GET(self):
        path = self.path.split("?")[0]
        self.counts[path] += 1
        if path in EXTRA:
            body, kind = EXTRA[path]
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


def serve(folder=DIST, handler=None):
    """Serves ``folder`` (the built site by default) and the bare page on 127.0.0.1; returns (server, url).

    ``handler``: a subclass of :class:`Handler` to serve with (say, one that adds headers).
    """
    server = QuietServer(("127.0.0.1", 0), functools.partial(handler or Handler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def wait_ready(page, timeout_ms=120_000):
    page.locator('[data-testid="status"][data-state="ready"]').wait_for(timeout=timeout_ms)


def epoch_of_mark(page, name):
    """Epoch milliseconds of the page's performance mark ``name``."""
    wait_ready(page)
    value = page.evaluate(f"performance.timeOrigin + (performance.getEntriesByName({name!r})[0]?.startTime ?? NaN)")
    if value != value:  # NaN
        raise RuntimeError(f"mark {name} missing")
    return value


def load_playground(page, url):
    """A cold tab: wall-clock times from the navigation request, and requests per file."""
    Handler.counts.clear()
    asked = time.time() * 1000
    page.goto(url)
    ready = epoch_of_mark(page, "playground:python-ready")
    editor = epoch_of_mark(page, "playground:editor-ready")
    worker = epoch_of_mark(page, "playground:worker-start")
    phases = page.evaluate("""() => Object.fromEntries(["runtime", "numpy", "autograd_py"].map(
        (p) => [p, performance.getEntriesByName(`playground:phase:${p}`)[0].detail.ms]))""")
    isolated = page.evaluate("crossOriginIsolated")
    # The first document's own start, kept by isolation.js when it reloaded the page.
    first = page.evaluate("Number(sessionStorage.getItem('autograd-playground:isolation-reload')) || null")
    reload_cost = page.evaluate("performance.timeOrigin") - first if first else 0.0
    page.locator('html[data-offline="ready"]').wait_for(timeout=120_000)
    requests = {name: sum(n for path, n in Handler.counts.items() if counted(name, path)) for name in COUNTED}
    return {"editor_ms": editor - asked, "python_ready_ms": ready - asked, "isolated": isolated,
            "worker_start_ms": worker - asked,
            "isolation_reload_ms": reload_cost, "requests": requests,
            **{f"phase_{name}_ms": ms for name, ms in phases.items()}}


def load_playground_after_reload(page):
    asked = time.time() * 1000
    page.reload()
    return {"python_ready_ms": epoch_of_mark(page, "playground:python-ready") - asked,
            "isolated": page.evaluate("crossOriginIsolated")}


def load_bare(context, url):
    """Milliseconds from the navigation request to Python ready in a bare page (embed_load.py uses it)."""
    return load_bare_timed(context, url)["python_ready_ms"]


def load_bare_timed(context, url, stdlib="stock"):
    """The bare page's Python-ready and worker-start times (from the navigation request), and its phases.

    ``stdlib``: the bare page's standard library, ``"stock"`` (Pyodide's as released) or ``"site"``.
    """
    page = context.new_page()
    asked = time.time() * 1000
    page.goto(url + "__bench_bare.html" + BARE_QUERY[stdlib])
    times = page.evaluate("window.bare")
    page.close()
    return {"python_ready_ms": times["ready"] - asked, "worker_start_ms": times["started"] - asked,
            "phase_runtime_ms": times["runtime"], "phase_numpy_ms": times["numpy"]}


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


def print_flood(page):
    """Longest main-thread task (PerformanceObserver, long tasks are >= 50 ms) while 10^5 lines print."""
    page.evaluate("code => window.playground.setCode(code)", FLOOD)
    return page.evaluate(
        """async () => {
            const tasks = [];
            const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries()));
            observer.observe({ type: "longtask" });
            const t = performance.now();
            const result = await window.playground.run();
            const runMs = performance.now() - t;
            // Let the output finish drawing before reading the observer.
            await new Promise((resolve) => setTimeout(resolve, 2000));
            observer.disconnect();
            const durations = tasks.map((task) => task.duration);
            return { ok: result.ok, run_ms: runMs, long_tasks: durations.length,
                     longest_task_ms: durations.length ? Math.max(...durations) : 0 };
        }""")


def summary(values):
    return {"median": round(statistics.median(values), 1), "min": round(min(values), 1),
            "max": round(max(values), 1), "n": len(values)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="cold loads of each page")
    parser.add_argument("--runs", type=int, default=30, help="snippet round trips")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--bare-stdlib", choices=sorted(BARE_QUERY), default="stock",
                        help="the bare page's standard library: Pyodide's as released (default), or the site's")
    args = parser.parse_args(argv)
    if not (DIST / "build-info.json").is_file():
        sys.exit("web/dist is not built: run `python web/build/build_site.py` first")

    server, url = serve()
    load_before = os.getloadavg()  # the machine's load: only a quiet machine gives figures that mean anything
    cold, bare = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        for i in range(args.repeat):
            # Taking turns in both orders: whatever the previous tab leaves running hits both.
            if i % 2 == 0:
                context = browser.new_context()
                bare.append(load_bare_timed(context, url, args.bare_stdlib))
                context.close()
            context = browser.new_context()
            page = context.new_page()
            cold.append(load_playground(page, url))
            if i < args.repeat - 1:
                context.close()
            if i % 2 == 1:
                context = browser.new_context()
                bare.append(load_bare_timed(context, url, args.bare_stdlib))
                context.close()
        warm = load_playground_after_reload(page)
        trips = run_round_trips(page, args.runs)
        flood = print_flood(page)
        context.close()
        browser.close()
    server.shutdown()

    ratios = [c["python_ready_ms"] / b["python_ready_ms"] for c, b in zip(cold, bare)]  # each tab against its partner
    requests = {name: sorted({c["requests"][name] for c in cold}) for name in COUNTED}
    figures = {
        "editor_usable_ms": summary([c["editor_ms"] for c in cold]),
        "python_ready_ms": summary([c["python_ready_ms"] for c in cold]),
        "bare_pyodide_numpy_ms": summary([b["python_ready_ms"] for b in bare]),
        "python_ready_vs_bare_ratio": {
            "of_medians": round(statistics.median(c["python_ready_ms"] for c in cold)
                                / statistics.median(b["python_ready_ms"] for b in bare), 3),
            "pairs": [round(r, 3) for r in ratios]},
        "isolation_reload_ms": summary([c["isolation_reload_ms"] for c in cold]),
        "cold_tabs_isolated": sum(c["isolated"] for c in cold),
        # Where the time goes, against the bare page: when the worker starts, and its phases.
        "worker_start_ms": summary([c["worker_start_ms"] for c in cold]),
        "bare_worker_start_ms": summary([b["worker_start_ms"] for b in bare]),
        **{key: summary([c[key] for c in cold]) for key in cold[0] if key.startswith("phase_")},
        **{f"bare_{key}": summary([b[key] for b in bare]) for key in bare[0] if key.startswith("phase_")},
        "requests_per_tab": requests,
        "python_ready_warm_reload_ms": round(warm["python_ready_ms"], 1),
        "warm_reload_isolated": warm["isolated"],
        "run_round_trip_ms": summary(trips),
        "print_flood_1e5_lines": {k: round(v, 1) if isinstance(v, float) else v for k, v in flood.items()},
    }
    overhead = figures["python_ready_ms"]["median"] - figures["bare_pyodide_numpy_ms"]["median"]
    figures["python_ready_overhead_vs_bare_ms"] = round(overhead, 1)
    figures["load_average_1min_before_after"] = [round(load_before[0], 2), round(os.getloadavg()[0], 2)]
    for key, value in figures.items():
        print(f"{key:34} {value}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return figures


if __name__ == "__main__":
    main()
