"""What the MkDocs plugin costs a course page, in headless Chromium (issue 14's benchmark).

A real MkDocs + Material build of one page with ten marked blocks (the English example course's
code, with prose between), made twice: with the autograd-playground plugin (the blocks become
live examples) and without it (the same highlighted listings, no script). Each repetition is a
cold load in a fresh browser context; the two builds alternate.

* first contentful paint of the page with the plugin against the page without it (target: within
  1.05x);
* the first Run: the page with the plugin opened, its first example's ``run()`` called as soon as
  its frame has ``window.playground``, timed from the page's navigation start until the output is
  there, against web_load.py's bare Pyodide + NumPy load from the same copy of the playground
  (target: within 1.15x).

Usage::

    python web/build/build_site.py --out /tmp/dist
    PLAYGROUND_DIST=/tmp/dist python bench/teacher_load.py [--repeat N] [--json out.json]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from embed_load import RUN_JS, evaluate_in_new_frame, first_paint, first_run_frame, ratio, verdict
from web_load import BARE_FILES, CHROMIUM_ARGS, DIST, load_bare, serve, summary

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "docs" / "teachers"))
from make_courses import COURSE_HTML, _Course  # noqa: E402

BLOCKS = 10
PAINT_REPEAT = 9
RUN_REPEAT = 5
PAINT_TARGET = 1.05
RUN_TARGET = 1.15
VIEWPORT = {"width": 1280, "height": 800}
MKDOCS_YML = """\
site_name: Bench course
theme: {name: material}
markdown_extensions: [attr_list, md_in_html, pymdownx.highlight, pymdownx.superfences]
plugins: %s
"""


def page_with_blocks(count=BLOCKS):
    """A course page of ``count`` marked blocks, the course's examples in turn, prose between."""
    course = _Course()
    course.feed(COURSE_HTML.read_text(encoding="utf-8"))
    examples = [block[2] for section in course.sections for block in section["blocks"] if block[0] == "example"]
    parts = ["# Ten live examples\n"]
    for i in range(count):
        section = course.sections[i % len(course.sections)]
        prose = next(block[1] for block in section["blocks"] if block[0] == "p")
        parts.append(f"## {i + 1}. {section['title']}\n\n{prose}\n\n```python {{.autograd}}\n"
                     f"{examples[i % len(examples)]}```\n")
    return "\n".join(parts)


def build(root, plugins):
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(MKDOCS_YML % plugins, encoding="utf-8")
    (root / "docs" / "index.md").write_text(page_with_blocks(), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=root, check=True,
                   env={**os.environ, "AUTOGRAD_PLAYGROUND_SITE": str(DIST), "NO_MKDOCS_2_WARNING": "1"})
    return root / "site"


def first_run(browser, url):
    """ms from the page's navigation start until its first example's first Run has answered."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(url, wait_until="commit")
    origin = page.evaluate("performance.timeOrigin")
    run = evaluate_in_new_frame(first_run_frame(page), RUN_JS)
    context.close()
    if not run["ok"] or run["stdout"].strip() not in run["output"]:
        raise RuntimeError(f"the first Run did not show its output: {run}")
    return run["answered"] - origin


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=None)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        sites = {"with_plugin": build(root / "with", "[search, autograd-playground]"),
                 "without_plugin": build(root / "without", "[search]")}
        # The bare page sits in the copied playground, so it loads the very same Pyodide files.
        playground = sites["with_plugin"] / "playground"
        for name, (body, _) in BARE_FILES.items():
            (playground / name).write_bytes(body)
        server, url = serve(root)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            for name in sites:  # the browser's first page pays for starting its renderer
                first_paint(browser, f"{url}{name.split('_')[0]}/site/", VIEWPORT)
            paints = {name: [] for name in sites}
            for i in range(args.repeat or PAINT_REPEAT):
                for name in (list(sites) if i % 2 == 0 else list(reversed(sites))):
                    paints[name].append(first_paint(browser, f"{url}{name.split('_')[0]}/site/", VIEWPORT))
            bare, runs = [], []
            for i in range(args.repeat or RUN_REPEAT):
                for kind in (("bare", "run") if i % 2 == 0 else ("run", "bare")):
                    if kind == "bare":
                        context = browser.new_context()
                        bare.append(load_bare(context, f"{url}with/site/playground/"))
                        context.close()
                    else:
                        runs.append(first_run(browser, f"{url}with/site/"))
            browser.close()
        server.shutdown()
    figures = {name: {key: summary([load[key] for load in loads]) for key in loads[0]} for name, loads in paints.items()}
    figures["fcp_ratio"] = ratio(figures["with_plugin"]["fcp_ms"], figures["without_plugin"]["fcp_ms"])
    figures["first_run"] = {"embed_answered_ms": summary(runs), "bare_pyodide_numpy_ms": summary(bare)}
    figures["first_run"]["ratio"] = ratio(figures["first_run"]["embed_answered_ms"],
                                          figures["first_run"]["bare_pyodide_numpy_ms"])
    figures["load_average_1min"] = {"start": round(load_before, 2), "end": round(os.getloadavg()[0], 2)}
    w, wo, run = figures["with_plugin"], figures["without_plugin"], figures["first_run"]
    print("| measure | with plugin | without / bare | ratio |\n|---|---:|---:|---:|")
    print(f"| first contentful paint, {BLOCKS} marked blocks, 1280x800 | {w['fcp_ms']['median']} ms"
          f" | {wo['fcp_ms']['median']} ms | {figures['fcp_ratio']:.3f} |")
    print(f"| load event | {w['load_ms']['median']} ms | {wo['load_ms']['median']} ms"
          f" | {w['load_ms']['median'] / wo['load_ms']['median']:.2f} |")
    print(f"| first Run answered vs bare Pyodide+NumPy | {run['embed_answered_ms']['median']} ms"
          f" | {run['bare_pyodide_numpy_ms']['median']} ms | {run['ratio']:.3f} |")
    print(f"\nFirst paint within {PAINT_TARGET}x: {verdict(figures['fcp_ratio'], PAINT_TARGET)}")
    print(f"First Run within {RUN_TARGET}x of a bare load: {verdict(run['ratio'], RUN_TARGET)}")
    print(f"(1-min load average {figures['load_average_1min']['start']} at start, "
          f"{figures['load_average_1min']['end']} at end, on {os.cpu_count()} cores)")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return figures


if __name__ == "__main__":
    main()
