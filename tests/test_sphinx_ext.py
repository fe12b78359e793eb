"""The Sphinx extension in real Sphinx builds (autograd_playground/sphinx.py).

A tiny course is built by `sphinx-build -W` with the default theme (alabaster) and with furo,
with myst-parser: a reST page and a MyST page with marked blocks, a raw-HTML page, and pages
without examples. A stand-in playground folder is copied (the e2e test
tests/e2e/test_teacher_sphinx.py builds with the real one). The output must hold the playground
once, load embed.js only where there are examples, and keep each block's code intact.
"""

import html
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("sphinx")
pytest.importorskip("myst_parser")
pytest.importorskip("furo")

from teacher_sample import CODE, OPTIONS  # noqa: E402
CONF = """\
project = "Autograd course"
extensions = ["myst_parser", "autograd_playground.sphinx"]
html_theme = {theme!r}
autograd_playground_site = {playground!r}
"""
INDEX = """\
Autograd course
===============

.. toctree::

   lessons/rest
   lessons/myst
   lessons/raw
   lessons/plain

.. code-block:: python

   print("not live: no mark")
"""
RAW_CODE = "import torch\nprint(torch.ones(2) < 2)\n"
RAW = f"""\
Raw HTML
========

.. raw:: html

   <pre class="autograd" data-readonly><code>{html.escape(RAW_CODE, quote=False).replace(chr(10), chr(10) + "   ")}</code></pre>
"""
PLAIN = "# No examples\n\n```python\nprint('a listing, not live')\n```\n"
LIVE_PAGES = ("lessons/rest.html", "lessons/myst.html", "lessons/raw.html")
PLAIN_PAGES = ("index.html", "lessons/plain.html", "genindex.html", "search.html")


def rest_page():
    body = textwrap.indent(f"{OPTIONS}\n{CODE}", "   ")
    return f"reST\n====\n\nProse.\n\n.. code-block:: python\n   :class: autograd\n\n{body}\nMore prose.\n"


def myst_page():
    return (f"# MyST\n\n```{{code-block}} python\n:class: autograd\n{OPTIONS}\n{CODE}```\n\n"
            f"A Jupyter Book cell:\n\n```{{code-cell}} python\n:class: autograd\nprint(1 + 1)\n```\n")


def write_course(root: Path, theme: str, playground: Path) -> Path:
    (root / "lessons").mkdir(parents=True)
    (root / "conf.py").write_text(CONF.format(theme=theme, playground=str(playground)), encoding="utf-8")
    (root / "index.rst").write_text(INDEX, encoding="utf-8")
    (root / "lessons" / "rest.rst").write_text(rest_page(), encoding="utf-8")
    (root / "lessons" / "myst.md").write_text(myst_page(), encoding="utf-8")
    (root / "lessons" / "raw.rst").write_text(RAW, encoding="utf-8")
    (root / "lessons" / "plain.md").write_text(PLAIN, encoding="utf-8")
    return root


def sphinx_build(root: Path, *extra) -> subprocess.CompletedProcess:
    # Run from the course folder, as a teacher would (the repository root is not on the path).
    return subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "-b", "html", *extra, ".", "_build/html"],
                          cwd=root, capture_output=True, text=True)


def blocks(page: str) -> list[str]:
    """The text of each marked block's <pre>, as a browser's textContent gives it."""
    found = re.findall(r'class="[^"]*\bautograd\b[^"]*"[^>]*>(?:<div class="highlight">)?<pre>(.*?)</pre>', page, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", text)) for text in found]


@pytest.fixture(scope="module")
def playground(tmp_path_factory):
    folder = tmp_path_factory.mktemp("playground")
    for name in ("embed.js", "embed.html", "build-info.json", "sw.js"):
        (folder / name).write_text(f"/* {name} */\n", encoding="utf-8")
    (folder / "pyodide").mkdir()
    (folder / "pyodide" / "pyodide.js").write_text("/* runtime */\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module", params=["alabaster", "furo"])
def site(request, playground, tmp_path_factory):
    root = write_course(tmp_path_factory.mktemp(f"course-{request.param}"), request.param, playground)
    result = sphinx_build(root)
    assert result.returncode == 0, result.stderr
    return root, root / "_build" / "html"


def test_the_playground_is_copied_into_the_output_once(site, playground):
    _, out = site
    for name in ("embed.js", "embed.html", "build-info.json", "sw.js", "pyodide/pyodide.js"):
        assert (out / "playground" / name).read_bytes() == (playground / name).read_bytes()
    assert [p.relative_to(out).as_posix() for p in out.rglob("build-info.json")] == ["playground/build-info.json"]
    assert len(list(out.rglob("pyodide.js"))) == 1


def test_embed_js_is_loaded_only_by_pages_with_marked_blocks(site):
    _, out = site
    tags = ['<script src="../playground/embed.js" async></script>',
            '<script src="../autograd-course-offline.js" async></script>']
    for name in LIVE_PAGES:
        page = (out / name).read_text(encoding="utf-8")
        for tag in tags:
            assert page.count(tag) == 1, (name, tag)
            assert page.index(tag) < page.index("</head>")
    for name in PLAIN_PAGES:
        page = (out / name).read_text(encoding="utf-8")
        assert "embed.js" not in page and "autograd-course-offline" not in page, name


def test_marked_blocks_keep_their_code(site):
    _, out = site
    # docutils expands a reST page's tabs to spaces (8 columns of the file, whose lines the
    # directive indents by 3) as it reads the file; MyST keeps them.
    drawn = re.sub(r"(?m)^   ", "", textwrap.indent(CODE, "   ").expandtabs(8))
    assert blocks((out / "lessons/rest.html").read_text(encoding="utf-8")) == [f"{OPTIONS}\n{drawn}"]
    assert blocks((out / "lessons/myst.html").read_text(encoding="utf-8")) == [f"{OPTIONS}\n{CODE}", "print(1 + 1)\n"]
    raw = (out / "lessons/raw.html").read_text(encoding="utf-8")
    match = re.search(r'<pre class="autograd" data-readonly><code>(.*?)</code></pre>', raw, re.S)
    assert html.unescape(match.group(1)).replace("\n   ", "\n") == RAW_CODE
    # The unmarked listing stays a plain listing.
    assert 'class="highlight-python notranslate"' in (out / "index.html").read_text(encoding="utf-8")


def test_the_course_worker_keeps_every_page_and_embed_js_only_of_the_playground(site):
    _, out = site
    worker = (out / "autograd-course-sw.js").read_text(encoding="utf-8")
    manifest = json.loads(re.search(r"const MANIFEST = (\{.*?\});", worker).group(1))
    files = manifest["files"]
    assert manifest["playground"] == "playground" and re.fullmatch(r"[0-9a-f]{16}", manifest["version"])
    for name in (*LIVE_PAGES, *PLAIN_PAGES, "playground/embed.js", "searchindex.js"):
        assert name in files, name
    assert not [name for name in files if name.startswith("playground/") and name != "playground/embed.js"]
    assert "autograd-course-sw.js" not in files and not [name for name in files if name.startswith(".")]
    # The page's script registers the playground's own worker first, then the course's.
    script = (out / "autograd-course-offline.js").read_text(encoding="utf-8")
    assert 'const PLAYGROUND = "playground";' in script and "__" not in script


def test_a_rebuild_leaves_the_copied_playground_alone(site):
    root, out = site
    stamp = (out / "playground" / "embed.js").stat().st_mtime_ns
    (root / "lessons" / "plain.md").write_text(PLAIN + "\nEdited.\n", encoding="utf-8")
    result = sphinx_build(root)
    assert result.returncode == 0, result.stderr
    assert (out / "playground" / "embed.js").stat().st_mtime_ns == stamp
    assert "Edited." in (out / "lessons/plain.html").read_text(encoding="utf-8")


def test_a_missing_playground_build_fails_the_build_with_a_hint(tmp_path):
    root = write_course(tmp_path, "alabaster", tmp_path / "nowhere")
    result = sphinx_build(root)
    assert result.returncode != 0
    assert "is not a built playground" in result.stderr and "build_site.py" in result.stderr


def test_other_builders_copy_nothing(tmp_path, playground):
    root = write_course(tmp_path, "alabaster", playground)
    result = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "-b", "text", ".", "_build/text"],
                            cwd=root, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert not (root / "_build" / "text" / "playground").exists()
    assert "x ** Square(2).p" in (root / "_build" / "text" / "lessons" / "rest.txt").read_text(encoding="utf-8")


def test_the_example_course_is_current_and_builds(tmp_path, playground):
    """docs/teachers/sphinx-course: 8 stops in English and 8 in Chinese, one live example each."""
    repo = Path(__file__).resolve().parents[1]
    check = subprocess.run([sys.executable, "docs/teachers/make_courses.py", "--check"], cwd=repo,
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    course = repo / "docs" / "teachers" / "sphinx-course"
    result = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "-b", "html", ".", str(tmp_path / "out")],
                            cwd=course, capture_output=True, text=True,
                            env={"PATH": "/usr/bin:/bin", "AUTOGRAD_PLAYGROUND_SITE": str(playground)})
    assert result.returncode == 0, result.stderr
    out = tmp_path / "out"
    for lang in ("en", "zh"):
        stops = sorted((out / lang).glob("0*.html"))
        assert len(stops) == 8
        for page in stops:
            text = page.read_text(encoding="utf-8")
            assert text.count('<script src="../playground/embed.js" async></script>') == 1, page
            assert len(blocks(text)) == 1, page
        assert "embed.js" not in (out / lang / "index.html").read_text(encoding="utf-8")
    zh = blocks((out / "zh" / "01-graph.html").read_text(encoding="utf-8"))[0]
    assert zh.startswith("# autograd: show=graph,grads lang=zh autorun\nimport torch\n") and "叶子节点" in zh


def test_a_jupyter_book_cell_tagged_autograd_marks_its_listing_only():
    # MyST-NB draws a cell as container(tag_<tag>) > container(cell_input) > literal_block, then
    # the outputs' listings; Jupyter Book 1 itself is tested by hand (it pins Sphinx < 8).
    from docutils import nodes

    from autograd_playground.sphinx import has_marked_blocks, mark_tagged_cells

    def cell(*classes):
        return nodes.container("", nodes.container("", nodes.literal_block("print(1)", "print(1)"),
                                                   classes=["cell_input"]),
                               nodes.container("", nodes.literal_block("1", "1"), classes=["cell_output"]),
                               classes=["cell", *classes])

    doctree = nodes.document(None, None)
    doctree += [cell("tag_autograd"), cell("tag_hide-input")]
    assert not has_marked_blocks(doctree)
    mark_tagged_cells(None, doctree, "lesson")
    listings = list(doctree.findall(nodes.literal_block))
    assert [listing["classes"] for listing in listings] == [["autograd"], [], [], []]
    assert has_marked_blocks(doctree)
