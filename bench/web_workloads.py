"""W1-W5 in the site's Pyodide in headless Chromium, each against a hand-written NumPy floor.

A bench page served next to the built site starts a module worker that loads Pyodide and NumPy
from the site's ``pyodide/`` and unpacks the site's ``autograd_py`` wheel, as the playground's
worker does, but without the playground (no ``Session``, no step hooks): what is timed is the
library. The worker receives ``fw_torchlike.py``, ``problems.py``, ``floors.py``, ``timing.py``,
``floor_timing.py`` and ``least_graph.py`` from this checkout and runs :func:`floor_timing.measure`
row by row; right after each row, the same module times the same row in a CPython subprocess. The
ratio reported is autograd_py's median time over its floor's, both taken in the same Python; W4
and W1 are also timed on ``least_graph``, the least a graph-recording autograd does (under the table).

The page is served cross-origin isolated (COOP/COEP headers), as the playground runs after its
isolation reload: ``performance.now()``, hence ``time.perf_counter``, then has a 5 µs grain
instead of 100 µs (cProfile needs it), and the worker installs an interrupt buffer as the
playground's does (Pyodide then polls it while Python runs).

Usage::

    python web/build/build_site.py --out /tmp/dist
    PLAYGROUND_DIST=/tmp/dist python bench/web_workloads.py [--only W1,W4] [--repeats 21]
        [--min-time 0.1] [--profile W1,W4] [--no-cpython] [--json out.json]
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from playwright.sync_api import sync_playwright

import floor_timing
from web_load import CHROMIUM_ARGS, DIST, EXTRA, Handler, serve
from worker import MALLOC_TOP_PAD

HERE = Path(__file__).resolve().parent
SOURCES = ("problems.py", "fw_torchlike.py", "floors.py", "timing.py", "floor_timing.py", "least_graph.py")
LABELS = {"W1": "1000-op chain on 4 elements", "W2": "MLP 64×784→128→10 step",
          "W3-loop": "64×64 Jacobian, 64 VJPs", "W3-vec": "64×64 Jacobian, vectorized",
          "W4": "micrograd MLP, scalars", "W5": "2nd derivative, n=1000"}
TARGETS = {"W4": 6.0}  # issue 13: within 3x of the floor in the browser, W4 within 6x
DEFAULT_TARGET = 3.0

PAGE = b"""<!doctype html><meta charset="utf-8"><title>workloads</title>
<script type="module" src="__bench_wl.js"></script>"""
# window.bench(message) -> Promise of the worker's answer (a string), or a rejection with its error.
PAGE_JS = b"""
const worker = new Worker(new URL("./__bench_wl_worker.js", location.href), { type: "module" });
const waiting = new Map();
let next = 0;
worker.onmessage = (e) => {
  const { id, ok, value, error } = e.data;
  const { resolve, reject } = waiting.get(id);
  waiting.delete(id);
  if (ok) resolve(value); else reject(new Error(error));
};
window.bench = (message) => new Promise((resolve, reject) => {
  const id = next++;
  waiting.set(id, { resolve, reject });
  worker.postMessage({ id, ...message });
});
"""
# {files} writes the bench sources and answers the load's figures; {code} answers runPython's str.
WORKER_JS = b"""
const base = self.location.href;
let pyodide;
const ready = (async () => {
  const t = performance.now();
  const info = await (await fetch(new URL("./build-info.json", base))).json();
  const wheel = fetch(new URL(info.autograd_py_wheel, base)).then((r) => r.arrayBuffer());
  const { loadPyodide } = await import(new URL("./pyodide/pyodide.mjs", base).href);
  pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", base).href, packages: ["numpy"] });
  // As the playground's worker when isolated: Pyodide then polls this buffer while Python runs.
  if (self.crossOriginIsolated) pyodide.setInterruptBuffer(new Uint8Array(new SharedArrayBuffer(1)));
  pyodide.unpackArchive(await wheel, "wheel");
  // as the playground's worker, once loaded: its garbage collector's settings too
  pyodide.runPython("import autograd_py; from autograd_py.playground import collector; collector.settle()");
  return { load_ms: performance.now() - t, isolated: self.crossOriginIsolated, pyodide: pyodide.version,
           git_commit: info.git_commit, built_at: info.built_at };
})();
self.onmessage = async (e) => {
  const { id, files, code } = e.data;
  try {
    const info = await ready;
    if (files) {
      pyodide.FS.mkdirTree("/home/pyodide/bench");
      for (const [name, text] of Object.entries(files)) pyodide.FS.writeFile(`/home/pyodide/bench/${name}`, text);
      pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/bench')");
      self.postMessage({ id, ok: true, value: JSON.stringify(info) });
    } else {
      self.postMessage({ id, ok: true, value: String(pyodide.runPython(code)) });
    }
  } catch (err) {
    self.postMessage({ id, ok: false, error: String(err && err.message ? err.message : err) });
  }
};
"""
PAGES = {"/__bench_wl.html": (PAGE, "text/html"), "/__bench_wl.js": (PAGE_JS, "text/javascript"),
         "/__bench_wl_worker.js": (WORKER_JS, "text/javascript")}


class IsolatedHandler(Handler):
    """web_load's handler (site files plus its extra pages), every response cross-origin isolated."""

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


def serve_isolated(folder):
    """Serves ``folder`` and the bench pages on 127.0.0.1 with COOP/COEP; returns (server, url)."""
    EXTRA.update(PAGES)
    return serve(folder, IsolatedHandler)


class BrowserPython:
    """The bench page's worker: Python code in, the ``str`` of its last expression out."""

    def __init__(self, page):
        self.page = page

    def start(self):
        files = {name: (HERE / name).read_text(encoding="utf-8") for name in SOURCES}
        return json.loads(self.page.evaluate("files => window.bench({ files })", files))

    def call(self, expression):
        """Evaluates ``import floor_timing, json; json.dumps(<expression>)`` in Pyodide; returns its value."""
        return json.loads(self.page.evaluate("code => window.bench({ code })",
                                             f"import floor_timing, json\njson.dumps({expression})"))


def unpack_wheel(dist, folder):
    """Unpacks the site's autograd_py wheel into ``folder``: CPython then runs the library the browser runs.

    The wheel is built from the work tree at build time; other sessions may edit the checkout since.

    Returns:
        str: ``folder``.
    """
    info = json.loads((dist / "build-info.json").read_text(encoding="utf-8"))
    with zipfile.ZipFile(dist / info["autograd_py_wheel"]) as wheel:
        wheel.extractall(folder)
    return str(folder)


def differs_from_head(library):
    """The wheel's autograd_py sources that differ from the checkout's HEAD (uncommitted edits built in).

    Args:
        library (str): the unpacked wheel.

    Returns:
        list: paths, empty when the measured library is HEAD's.
    """
    listing = subprocess.run(["git", "ls-tree", "-r", "HEAD", "autograd_py"], cwd=HERE.parent, capture_output=True,
                             text=True, check=False).stdout
    committed = {line.split("\t")[1]: line.split()[2] for line in listing.splitlines()}
    built = {p.relative_to(library).as_posix(): p.read_bytes() for p in Path(library).rglob("autograd_py/**/*.py")}
    blob = {path: hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() for path, data in built.items()}
    return sorted(path for path in set(built) | set(committed) if blob.get(path) != committed.get(path))


def cpython(args):
    """Runs ``floor_timing.py`` with ``args`` in a fresh CPython, set up as bench/run.py's workers."""
    env = dict(os.environ, MALLOC_TOP_PAD_=str(MALLOC_TOP_PAD))
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        env[var] = "1"  # one thread, as in Pyodide and bench/run.py
    done = subprocess.run([sys.executable, str(HERE / "floor_timing.py"), *args], capture_output=True,
                          text=True, env=env, check=False)
    if done.returncode:
        raise RuntimeError(f"floor_timing.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)


def _ms(seconds):
    return f"{seconds * 1e3:.3f} ms" if seconds < 0.1 else f"{seconds * 1e3:.0f} ms"


def report(figures):
    """The Markdown table of a run (see :func:`main` for ``figures``).

    Returns:
        str: table, then the run's conditions and the Pyodide profiles, if any.
    """
    rows = figures["rows"]
    has_cpython = any("cpython" in r for r in rows)
    head = ["row", "what", "Pyodide: autograd_py", "floor", "ratio (best)", "target"]
    head += ["CPython: autograd_py", "floor", "ratio (best)"] if has_cpython else []
    head += ["check"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        web, target = r["pyodide"], TARGETS.get(r["row"], DEFAULT_TARGET)
        cells = [r["row"], LABELS[r["row"]], _ms(web["autograd_py"]["median"]), _ms(web["floor"]["median"]),
                 f"**{web['ratio']:.2f}×** ({web['ratio_best']:.2f}×)",
                 f"≤ {target:g}× {'met' if web['ratio'] <= target else 'missed'}"]
        if has_cpython:
            cp = r.get("cpython")
            cells += [_ms(cp["autograd_py"]["median"]), _ms(cp["floor"]["median"]),
                      f"{cp['ratio']:.2f}× ({cp['ratio_best']:.2f}×)"] if cp else ["", "", ""]
        oks = [web["ok"]] + ([r["cpython"]["ok"]] if r.get("cpython") else [])
        worst = max(max(side["errors"].values()) for side in (web, r.get("cpython")) if side)
        cells.append("ok" if all(oks) else f"WRONG ({worst:.1e})")
        lines.append("| " + " | ".join(cells) + " |")
    for r in rows:
        if "least_graph_ratio" in r["pyodide"]:
            web, cp = r["pyodide"], r.get("cpython")
            in_cpython = f"; CPython {cp['least_graph_ratio']:.2f}×" if cp and "least_graph_ratio" in cp else ""
            lines += ["", f"{r['row']}'s least graph (`least_graph.py`: the same workload code on an "
                      "autograd that only records and replays the graph, micrograd's values on a tape): "
                      f"{_ms(web['least_graph']['median'])}, **{web['least_graph_ratio']:.2f}×** the floor in "
                      f"Pyodide{in_cpython}; autograd_py is {web['autograd_py']['median'] / web['least_graph']['median']:.2f}× it."]
    env = figures["environment"]
    changed, head = env.get("wheel_differs_from_head"), env.get("head", "?")
    library = f"differs from HEAD {head} in {', '.join(changed)}" if changed else f"is HEAD {head}'s"
    cp_row = next((r for r in rows if "cpython" in r), None)
    lines += ["", f"Pyodide {env['pyodide']} (Python {rows[0]['pyodide']['python']}, NumPy "
              f"{rows[0]['pyodide']['numpy']}) in {env['browser']}, crossOriginIsolated {env['isolated']}; "
              f"site built at {env['built_at']}, its autograd_py {library}; "
              f"{'CPython ' + cp_row['cpython']['python'] + '; ' if cp_row else ''}"
              f"{env['repeats']} batches of ≥ {env['min_time']} s per side, taking turns: times are medians, "
              "ratios of the medians (in brackets, of the fastest batches); "
              f"load average {env['load_before']} → {env['load_after']}."]
    for p in figures.get("profiles", []):
        cp = {e["function"]: e for e in p["cpython"]["entries"]} if "cpython" in p else {}
        total = (f"; CPython {p['cpython']['total_ms']:.2f} ms, {p['cpython']['plain_ms']:.2f} ms without it"
                 if cp else "")
        lines += ["", f"Pyodide cProfile of autograd_py on {p['row']} ({p['calls']} calls; time per call "
                  f"under the profiler {p['total_ms']:.2f} ms, {p['plain_ms']:.2f} ms without it{total}), "
                  "by own time:", "",
                  "| function | calls per run | own ms per run | share | cumulative ms | CPython own ms, share |",
                  "|---|---|---|---|---|---|"]
        for e in p["entries"]:
            c = cp.get(e["function"])
            cpython_cell = f"{c['tottime_ms']:.3f}, {c['share']:.1%}" if c else ""
            lines.append(f"| `{e['function']}` | {e['ncalls']} | {e['tottime_ms']:.3f} | {e['share']:.1%} | "
                         f"{e['cumtime_ms']:.3f} | {cpython_cell} |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="comma-separated rows (W1, W2, W3-loop, W3-vec, W4, W5; W3 = both)")
    parser.add_argument("--repeats", type=int, default=21, help="batches per side and row")
    parser.add_argument("--min-time", type=float, default=0.1,
                        help="seconds per batch (short batches taking turns: a busy spell hits both sides)")
    parser.add_argument("--profile", default="", help="rows to profile in Pyodide with cProfile, e.g. W1,W4")
    parser.add_argument("--profile-calls", type=int, default=30)
    parser.add_argument("--top", type=int, default=15, help="profile entries to report")
    parser.add_argument("--no-cpython", action="store_true", help="skip the CPython ratios")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    wanted = [w.strip() for w in args.only.split(",") if w.strip()]
    rows = [r for r in floor_timing.ROWS if not wanted or r in wanted or floor_timing.ROWS[r] in wanted]
    if not (DIST / "build-info.json").is_file():
        sys.exit(f"{DIST} is not a built site: run `python web/build/build_site.py` (PLAYGROUND_DIST names it)")

    library = tempfile.TemporaryDirectory(prefix="web-workloads-")
    wheel_args = ["--library", unpack_wheel(DIST, library.name)]
    changed = differs_from_head(library.name)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE.parent, capture_output=True, text=True,
                          check=False).stdout.strip()
    if changed:
        print(f"warning: the site's wheel is not HEAD's autograd_py: {', '.join(changed)}", file=sys.stderr)
    server, url = serve_isolated(DIST)
    load_before = os.getloadavg()[0]
    results, profiles = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        page = browser.new_context().new_page()
        page.goto(url + "__bench_wl.html")
        python = BrowserPython(page)
        info = python.start()
        print(f"Pyodide {info['pyodide']} ready in {info['load_ms']:.0f} ms, isolated {info['isolated']}",
              file=sys.stderr)
        for row in rows:
            # Browser first, then CPython right after: both ratios of a row come from the same spell of load.
            entry = {"row": row, "pyodide": python.call(f"floor_timing.measure({row!r}, {args.repeats}, "
                                                        f"{args.min_time})")}
            if not args.no_cpython:
                entry["cpython"] = cpython(["--rows", row, "--repeats", str(args.repeats),
                                            "--min-time", str(args.min_time), *wheel_args])[0]
            results.append(entry)
            print(f"  {row:8} pyodide {entry['pyodide']['ratio']:.2f}x" +
                  (f"  cpython {entry['cpython']['ratio']:.2f}x" if "cpython" in entry else ""), file=sys.stderr)
        for row in filter(None, args.profile.split(",")):
            prof = python.call(f"floor_timing.profile({row!r}, {args.profile_calls}, {args.top})")
            if not args.no_cpython:
                # Every function, so that each of Pyodide's top entries finds its CPython figure.
                prof["cpython"] = cpython(["--profile", row, "--profile-calls", str(args.profile_calls),
                                           "--top", "100000", *wheel_args])[0]
            profiles.append(prof)
        version = browser.version
        browser.close()
    server.shutdown()
    library.cleanup()
    figures = {"rows": results, "profiles": profiles,
               "environment": {**info, "browser": f"Chromium {version}", "repeats": args.repeats,
                               "wheel_differs_from_head": changed, "head": head,
                               "min_time": args.min_time, "load_before": round(load_before, 2),
                               "load_after": round(os.getloadavg()[0], 2),
                               "measured_at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}}
    print(report(figures))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return figures


if __name__ == "__main__":
    main()
