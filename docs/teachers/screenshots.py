"""Takes the teacher's guide's screenshots (docs/teachers/screenshots/*.png) from real builds.

Builds the example courses with MkDocs and Sphinx (and, given ``--jupyter-book``, a small
Jupyter Book 1 book) around a playground build, serves each over HTTP, and photographs a page
once its first live example has run; also an LMS page holding an iframe from
``autograd_playground.lms``.

    python web/build/build_site.py --out /tmp/dist
    python docs/teachers/screenshots.py --playground /tmp/dist [--jupyter-book /venv/bin/jupyter-book]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

HERE = Path(__file__).resolve().parent
OUT = HERE / "screenshots"
RUN_TIMEOUT_MS = 120_000
JB_CONFIG = """\
title: Autograd, hands-on
execute:
  execute_notebooks: "off"
sphinx:
  extra_extensions: [autograd_playground.sphinx]
"""
JB_TOC = "format: jb-book\nroot: intro\nchapters:\n- file: lesson\n"
JB_LESSON = """\
---
jupytext:
  text_representation: {extension: .md, format_name: myst}
kernelspec: {display_name: Python 3, language: python, name: python3}
---
# Gradients add up

`backward()` adds into `.grad`; clear it with `zero_()` before the next step.

```{code-cell} ipython3
:tags: [autograd]
# autograd: show=grads autorun
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
for step in range(3):
    (x * x).sum().backward()
    print(step, x.grad)
```
"""
LMS_CODE = "import torch\nx = torch.tensor(3.0, requires_grad=True)\ny = x ** 3\ny.backward()\nprint(x.grad)  # 3x² = 27"


def serve(folder: Path) -> str:
    quiet = type("Quiet", (http.server.SimpleHTTPRequestHandler,), {"log_message": lambda self, *args: None})
    handler = functools.partial(quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/"


def run(command, cwd, playground):
    env = {**os.environ, "AUTOGRAD_PLAYGROUND_SITE": str(playground), "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run(command, cwd=cwd, env=env, check=True)


def builds(playground: Path, work: Path, jupyter_book: str | None) -> dict[str, Path]:
    sites = {}
    run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(work / "mkdocs")], HERE / "mkdocs-course", playground)
    sites["mkdocs"] = work / "mkdocs"
    run([sys.executable, "-m", "sphinx", "-q", "-b", "html", ".", str(work / "sphinx")], HERE / "sphinx-course", playground)
    sites["sphinx"] = work / "sphinx"
    if jupyter_book:
        book = work / "book"
        book.mkdir()
        (book / "_config.yml").write_text(JB_CONFIG, encoding="utf-8")
        (book / "_toc.yml").write_text(JB_TOC, encoding="utf-8")
        (book / "intro.md").write_text("# Autograd, hands-on\n\nA Jupyter Book 1 course.\n", encoding="utf-8")
        (book / "lesson.md").write_text(JB_LESSON, encoding="utf-8")
        run([jupyter_book, "build", "-q", "."], book, playground)
        sites["jupyter-book"] = book / "_build" / "html"
    return sites


def shoot(page, url, name, *, lms=False):
    page.goto(url)
    frame = page.frame_locator("iframe" if lms else "autograd-playground >> nth=0 >> iframe")
    expect(frame.locator("#run")).to_be_enabled(timeout=RUN_TIMEOUT_MS)
    if not frame.locator("#output").inner_text().strip():
        page.wait_for_timeout(500)  # an autorun example may be about to start
    if not frame.locator("#output").inner_text().strip():
        frame.locator("#run").click()
    expect(frame.locator("#output")).not_to_be_empty(timeout=RUN_TIMEOUT_MS)
    expect(frame.locator("#status")).to_have_attribute("data-state", "ready", timeout=RUN_TIMEOUT_MS)
    page.wait_for_timeout(800)  # the graph's layout settles
    target = page.locator("iframe" if lms else "autograd-playground").first
    # Some of the page's prose above the example, below a sticky header.
    target.evaluate("el => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 170)")
    page.wait_for_timeout(300)
    page.screenshot(path=str(OUT / f"{name}.png"))
    print("wrote", OUT / f"{name}.png")


def main(argv=None) -> int:
    from autograd_playground.lms import iframe_html

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--playground", required=True, help="a folder built by web/build/build_site.py")
    parser.add_argument("--jupyter-book", help="a Jupyter Book 1 `jupyter-book` command (it pins Sphinx < 8: use a venv)")
    args = parser.parse_args(argv)
    playground = Path(args.playground).resolve()
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        sites = builds(playground, work, args.jupyter_book)
        urls = {tool: serve(folder) for tool, folder in sites.items()}
        lms = work / "lms"
        lms.mkdir()
        (lms / "quiz.html").write_text(
            "<!doctype html><meta charset=utf-8><title>Week 3 quiz</title>"
            "<body style='font:16px system-ui;margin:24px;max-width:980px'>"
            "<h1>Week 3 · The chain rule</h1><p>Predict <code>x.grad</code>, then press Run.</p>"
            + iframe_html(f"{urls['sphinx']}playground/", LMS_CODE, frame_height=560, show="graph"),
            encoding="utf-8")
        lms_url = serve(lms)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            context = browser.new_context(viewport={"width": 1200, "height": 860}, locale="en-US",
                                          service_workers="block")
            page = context.new_page()
            shoot(page, f"{urls['mkdocs']}en/01-graph/", "mkdocs-material")
            shoot(page, f"{urls['sphinx']}zh/03-accumulate.html", "sphinx-furo-zh")
            if "jupyter-book" in urls:
                shoot(page, f"{urls['jupyter-book']}lesson.html", "jupyter-book-1")
            shoot(page, f"{lms_url}quiz.html", "lms-iframe", lms=True)
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
