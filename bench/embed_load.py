"""Measure what embedding playground examples costs a course page, in headless Chromium.

Two targets of the embed issue, each measured in a fresh browser context per
repetition (so a cold HTTP cache and a new shared Python runtime):

* first paint: a host page with the first ``KEEP`` ``<autograd-playground>``
  elements of ``examples/course.html`` against the same page with those
  examples as static ``<pre>`` code listings (what a page without embeds shows)
  and no ``embed.js`` tag; first-contentful-paint, with
  DOMContentLoaded and load for context. Once at a normal viewport, where only
  the examples near the top become frames at load, and once at a tall one,
  where several do (the worst case). The two pages alternate.
* first Run: the host page opened at its first example (``#graph``); as soon
  as that example's frame has its ``window.playground``, ``run()`` is called,
  and the time from the host's navigation start until the result is on screen
  is compared with web_load.py's bare Pyodide + NumPy load.

Usage::

    python web/build/build_site.py   # builds web/dist first
    python bench/embed_load.py [--repeat N] [--json out.json]
"""

import argparse
import html
import json
import os
import re
import sys
import time
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from web_load import CHROMIUM_ARGS, DIST, EXTRA, load_bare, serve, summary

KEEP = 5
PAINT_REPEAT = 9
RUN_REPEAT = 5
PAINT_TARGET = 1.10
RUN_TARGET = 1.15
VIEWPORTS = {"normal": {"width": 1280, "height": 800}, "tall": {"width": 1280, "height": 3000}}
# Next to course.html, so its relative ../embed.js and course.css resolve as on the real page.
WITH_EMBEDS = "examples/__bench_with_embeds.html"
WITHOUT_EMBEDS = "examples/__bench_without_embeds.html"
FIRST_EXAMPLE = "#graph"
EMBED_TAG = re.compile(r'[ \t]*<script src="\.\./embed\.js"[^>]*></script>\n?')
ELEMENT = re.compile(r"[ \t]*<autograd-playground\b.*?</autograd-playground>\n?", re.S)
CODE = re.compile(r'<script type="text/x-python">(.*?)</script>', re.S)

PAINT_JS = """async () => {
    const paint = () => performance.getEntriesByName("first-contentful-paint")[0];
    const nav = () => performance.getEntriesByType("navigation")[0];
    const start = performance.now();
    while ((!paint() || !nav().loadEventEnd) && performance.now() - start < 30000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (!paint()) throw new Error("no first-contentful-paint entry");
    // Frames are made by an IntersectionObserver after layout: give it a moment to say how many.
    await new Promise((resolve) => setTimeout(resolve, 300));
    return {
        fcp_ms: paint().startTime,
        dcl_ms: nav().domContentLoadedEventEnd,
        load_ms: nav().loadEventEnd,
        frames: [...document.querySelectorAll("autograd-playground")].filter((el) => el.frame).length,
    };
}"""

RUN_JS = """async () => {
    while (!window.playground) await new Promise((resolve) => setTimeout(resolve, 5));
    const asked = performance.timeOrigin + performance.now();
    const result = await window.playground.run();
    const answered = performance.timeOrigin + performance.now();
    const ready = performance.getEntriesByName("playground:python-ready")[0];
    return {
        asked, answered, ok: result && result.ok, stdout: result ? result.stdout : "",
        output: document.getElementById("output").textContent,
        python_ready: ready ? performance.timeOrigin + ready.startTime : null,
    };
}"""


def host_pages(html, keep=KEEP):
    """The two host pages of the first-paint comparison, made from course.html.

    Args:
        html: the built ``examples/course.html``.
        keep: how many ``<autograd-playground>`` elements the page with embeds keeps (the first ones).

    Returns:
        ``(with_embeds, without_embeds)``: the page with its first ``keep`` examples, and the same
        page with those examples as static ``<pre>`` listings and no ``embed.js`` tag.

    Example::

        >>> with_embeds, without = host_pages(Path("web/dist/examples/course.html").read_text())
    """
    elements = list(ELEMENT.finditer(html))
    if len(elements) < keep or len(EMBED_TAG.findall(html)) != 1:
        raise RuntimeError(f"course.html changed shape: {len(elements)} examples, "
                           f"{len(EMBED_TAG.findall(html))} embed.js tags")
    cut = elements[keep].start() if len(elements) > keep else None
    with_embeds = html if cut is None else html[:cut] + ELEMENT.sub("", html[cut:])
    # Without embeds a teacher would still show the code: each example becomes a static listing.
    without_embeds = EMBED_TAG.sub("", ELEMENT.sub(static_listing, with_embeds))
    return with_embeds, without_embeds


def static_listing(match):
    """An ``<autograd-playground>`` element as the plain ``<pre>`` a page without embeds would have."""
    code = CODE.search(match.group(0))
    return f"<pre><code>{html.escape(code.group(1).strip(chr(10)))}</code></pre>\n" if code else ""


def publish_host_pages():
    """Serves the two host pages from memory with web_load.py's server."""
    with_embeds, without_embeds = host_pages((DIST / "examples" / "course.html").read_text(encoding="utf-8"))
    EXTRA[f"/{WITH_EMBEDS}"] = (with_embeds.encode(), "text/html")
    EXTRA[f"/{WITHOUT_EMBEDS}"] = (without_embeds.encode(), "text/html")


def first_paint(browser, url, viewport):
    """First paint, DOMContentLoaded and load of one cold page load (ms from navigation start)."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(url, wait_until="load")
    figures = page.evaluate(PAINT_JS)
    context.close()
    return figures


def first_run_frame(page, timeout_s=60):
    """The first example's frame, as soon as it exists."""
    iframe = page.locator("autograd-playground >> nth=0 >> iframe")
    iframe.wait_for(state="attached", timeout=timeout_s * 1000)
    return iframe.element_handle().content_frame()


def evaluate_in_new_frame(frame, script, timeout_s=120):
    """frame.evaluate, retried while the frame is still leaving its initial about:blank."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return frame.evaluate(script)
        except PlaywrightError as err:
            navigating = "context was destroyed" in str(err) or "navigat" in str(err)
            if not navigating or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def first_run(browser, url):
    """One cold load of the host page at its first example, until that example's first Run answers.

    Returns:
        ms from the host's navigation start to: the frame's ``run()`` call (``asked_ms``), the frame's
        Python-ready mark (``python_ready_ms``), and the run's output in the frame (``answered_ms``); and
        how many examples had become frames by then (``frames``).
    """
    context = browser.new_context(viewport=VIEWPORTS["normal"])
    page = context.new_page()
    page.goto(url + FIRST_EXAMPLE, wait_until="commit")
    origin = page.evaluate("performance.timeOrigin")
    run = evaluate_in_new_frame(first_run_frame(page), RUN_JS)
    frames = page.evaluate('[...document.querySelectorAll("autograd-playground")].filter((el) => el.frame).length')
    context.close()
    if not run["ok"] or not run["stdout"].strip() or run["stdout"].strip() not in run["output"]:
        raise RuntimeError(f"the first Run did not show its output: {run}")
    if run["python_ready"] is None:
        raise RuntimeError("the frame has no playground:python-ready mark")
    return {"asked_ms": run["asked"] - origin, "python_ready_ms": run["python_ready"] - origin,
            "answered_ms": run["answered"] - origin, "frames": frames}


def measure_first_paint(browser, url, repeat):
    """Alternates the pages with and without embeds, ``repeat`` cold loads each, per viewport."""
    figures = {}
    for name, viewport in VIEWPORTS.items():
        loads = {"with_embeds": [], "without_embeds": []}
        for i in range(repeat):
            order = list(loads) if i % 2 == 0 else list(reversed(loads))
            for variant in order:
                page = WITH_EMBEDS if variant == "with_embeds" else WITHOUT_EMBEDS
                loads[variant].append(first_paint(browser, url + page, viewport))
        figures[name] = {
            "viewport": f"{viewport['width']}x{viewport['height']}",
            **{variant: {key: summary([load[key] for load in runs]) for key in runs[0]}
               for variant, runs in loads.items()},
        }
        figures[name]["fcp_ratio"] = ratio(figures[name]["with_embeds"]["fcp_ms"],
                                           figures[name]["without_embeds"]["fcp_ms"])
    return figures


def measure_first_run(browser, url, repeat):
    """Alternates a bare Pyodide + NumPy load and a first Run in an embed, ``repeat`` cold loads each."""
    bare, runs = [], []
    for i in range(repeat):
        for kind in (("bare", "embed") if i % 2 == 0 else ("embed", "bare")):
            if kind == "bare":
                context = browser.new_context()
                bare.append(load_bare(context, url))
                context.close()
            else:
                runs.append(first_run(browser, url + WITH_EMBEDS))
    figures = {"bare_pyodide_numpy_ms": summary(bare),
               **{f"embed_{key}": summary([run[key] for run in runs]) for key in runs[0]}}
    figures["ratio"] = ratio(figures["embed_answered_ms"], figures["bare_pyodide_numpy_ms"])
    return figures


def ratio(a, b):
    return round(a["median"] / b["median"], 3)


def verdict(value, target):
    return f"{'met' if value <= target else 'NOT met'} ({value:.3f} vs <= {target:.2f})"


def report(figures):
    """The medians and the two verdicts as a small markdown table."""
    rows = ["| measure | with embeds | without / bare | ratio |", "|---|---:|---:|---:|"]
    for name, paint in figures["first_paint"].items():
        a, b = paint["with_embeds"], paint["without_embeds"]
        rows.append(f"| first contentful paint, {paint['viewport']} ({a['frames']['median']:.0f} frames at load)"
                    f" | {a['fcp_ms']['median']} ms | {b['fcp_ms']['median']} ms | {paint['fcp_ratio']:.2f} |")
        for key, label in (("dcl_ms", "DOMContentLoaded"), ("load_ms", "load")):
            rows.append(f"| {label}, {paint['viewport']} | {a[key]['median']} ms | {b[key]['median']} ms"
                        f" | {a[key]['median'] / b[key]['median']:.2f} |")
    run = figures["first_run"]
    rows.append(f"| first Run answered in an embed vs bare Pyodide+NumPy | {run['embed_answered_ms']['median']} ms"
                f" | {run['bare_pyodide_numpy_ms']['median']} ms | {run['ratio']:.2f} |")
    rows.append(f"| (embed: run() called at / Python ready at) | {run['embed_asked_ms']['median']} ms / "
                f"{run['embed_python_ready_ms']['median']} ms | | |")
    worst_paint = max(paint["fcp_ratio"] for paint in figures["first_paint"].values())
    lines = ["\n".join(rows), "",
             f"Target 1, first paint with {figures['embeds_kept']} embeds within 10%: normal viewport "
             f"{verdict(figures['first_paint']['normal']['fcp_ratio'], PAINT_TARGET)}; worst "
             f"{verdict(worst_paint, PAINT_TARGET)}",
             f"Target 2, first Run within 1.15x of a bare load: {verdict(run['ratio'], RUN_TARGET)}",
             f"(1-min load average {figures['load_average_1min']['start']} at start, "
             f"{figures['load_average_1min']['end']} at end, on {os.cpu_count()} cores)"]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=None,
                        help=f"cold loads per measurement (default {PAINT_REPEAT} for first paint, "
                             f"{RUN_REPEAT} for first Run)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    if not (DIST / "build-info.json").is_file() or not (DIST / "examples" / "course.html").is_file():
        sys.exit("web/dist is not built: run `python web/build/build_site.py` first")
    publish_host_pages()
    # The machine is shared: the figures mean more with how busy it was.
    load_before = os.getloadavg()[0]

    server, url = serve()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        # The browser's first page pays for starting its renderer machinery: not part of either page.
        for page in (WITHOUT_EMBEDS, WITH_EMBEDS):
            first_paint(browser, url + page, VIEWPORTS["normal"])
        paint = measure_first_paint(browser, url, args.repeat or PAINT_REPEAT)
        run = measure_first_run(browser, url, args.repeat or RUN_REPEAT)
        browser.close()
    server.shutdown()

    figures = {"embeds_kept": KEEP, "first_paint": paint, "first_run": run,
               "load_average_1min": {"start": round(load_before, 2), "end": round(os.getloadavg()[0], 2)}}
    figures["verdicts"] = {
        "first_paint_within_10pct": all(p["fcp_ratio"] <= PAINT_TARGET for p in paint.values()),
        "first_paint_within_10pct_normal_viewport": paint["normal"]["fcp_ratio"] <= PAINT_TARGET,
        "first_run_within_1_15x": run["ratio"] <= RUN_TARGET,
    }
    print(report(figures))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return figures


if __name__ == "__main__":
    main()
