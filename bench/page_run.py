"""What a learner waits for after Run, in the real page: the run, its views and the first paint.

Not a timed test: it prints the figures. Each built site given is served and opened in its own
tab of one Chromium; the tabs take turns running each program (``page_programs.PROGRAMS``) through
``window.playground.run()``, and each Run is timed in the page from the call to the second
animation frame after it resolved (the result shown: output, graph, timeline, gradient table).
The page's own ``duration_ms`` (Python running the code, with the timeline's recording) is kept
beside it, so what the views cost shows as the difference. The first Run of each program in a tab
is shown apart: the runs after it are of a graph the page has drawn before (the graph view then
reuses its places, ``graph_layout.js``), as when a learner runs the same code again.

Usage::

    python web/build/build_site.py --out /tmp/dist-a     # (at one commit)
    python web/build/build_site.py --out /tmp/dist-b     # (at another)
    python bench/page_run.py /tmp/dist-a /tmp/dist-b [--only micrograd,W2] [--rounds 5] [--json out.json]

With no site given, ``web/dist`` (or ``PLAYGROUND_DIST``) is measured alone.
"""
import argparse
import json
import os
import re
import statistics
from pathlib import Path

from page_programs import PROGRAMS

REPO = Path(__file__).resolve().parents[1]
_DURATION = re.compile(r"(\d+) (?:ms|毫秒)")  # the run summary's figure: the page's duration_ms
# From the call to the second animation frame after the result: everything it changed is painted.
TIMED_RUN = """async (code) => {
  window.playground.setCode(code);
  const start = performance.now();
  const result = await window.playground.run();
  const shown = performance.now();
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const info = document.querySelector('#run-info').textContent;
  return { ok: result.ok, error: result.error, shown_ms: shown - start, painted_ms: performance.now() - start, info };
}"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="*", type=Path, help="built sites (default: web/dist)")
    parser.add_argument("--only", default="micrograd,W2", help=f"programs, of {', '.join(PROGRAMS)}")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    sites = args.sites or [Path(os.environ.get("PLAYGROUND_DIST") or REPO / "web" / "dist")]

    from playwright.sync_api import expect, sync_playwright

    from web_load import CHROMIUM_ARGS, serve  # the same server and browser as the load bench

    servers, report = [], {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            pages = []
            for site in sites:
                server, url = serve(site)
                servers.append(server)
                page = browser.new_page(viewport={"width": 1400, "height": 860})
                page.goto(url)
                expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=120_000)
                pages.append(page)
            for name in args.only.split(","):
                runs = {str(site): [] for site in sites}
                first = {}
                for i in range(args.rounds + 1):  # the first round warms up
                    order = list(zip(sites, pages))
                    for site, page in (order if i % 2 else order[::-1]):
                        timed = page.evaluate(TIMED_RUN, PROGRAMS[name])
                        if not timed["ok"]:
                            raise RuntimeError(f"{name} failed in {site}: {timed['error']}")
                        if i:
                            runs[str(site)].append(timed)
                        else:
                            first[str(site)] = timed
                report[name] = {"runs": runs, "first": first}
            browser.close()
    finally:
        for server in servers:
            server.shutdown()

    print("| program | site | first Run to painted | again: Run to painted, median (min-max) | of which Python's run |")
    print("|---|---|---|---|---|")
    for name, measured in report.items():
        for site, timed in measured["runs"].items():
            painted = sorted(t["painted_ms"] for t in timed)
            python = [float(m.group(1)) for t in timed if (m := _DURATION.search(t["info"]))]
            python_text = f"{statistics.median(python):.0f} ms" if python else "?"
            print(f"| {name} | {site} | {measured['first'][site]['painted_ms']:.0f} ms "
                  f"| {statistics.median(painted):.0f} ms ({painted[0]:.0f}-{painted[-1]:.0f}) | {python_text} |")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
