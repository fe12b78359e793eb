"""The MkDocs plugin in a real MkDocs + Material build (autograd_playground/mkdocs_plugin.py).

A tiny course with a fenced block marked `{.autograd}`, a raw-HTML marked block and a page
without examples is built by the `mkdocs` command, with a stand-in playground folder (the
e2e test tests/e2e/test_teacher_blocks.py builds with the real one). The site must hold the
playground, load embed.js only where there are examples, and keep each block's code intact.
"""

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mkdocs")
pytest.importorskip("material")

from autograd_playground.mkdocs_plugin import add_script, has_live_examples  # noqa: E402

from teacher_sample import CODE, OPTIONS  # noqa: E402
# Python-Markdown expands every tab of the page (tab_length 4) before any extension sees it, so
# MkDocs draws, and a reader copies, spaces: the live example holds what the listing shows.
DRAWN = CODE.expandtabs(4)

MKDOCS_YML = """\
site_name: Autograd course
theme: {name: material}
markdown_extensions: [attr_list, md_in_html, pymdownx.highlight, pymdownx.superfences]
plugins:
  - autograd-playground:
      playground_site: %s
"""


def fenced_page():
    return f"# Live\n\nSome prose.\n\n```python {{.autograd}}\n{OPTIONS}\n{CODE}```\n\nMore prose.\n"


def html_page():
    return (f'# Raw HTML\n\n<pre class="autograd"><code>{html.escape(OPTIONS)}\n'
            f"{html.escape(CODE, quote=False)}</code></pre>\n\nAfter.\n")


ELEMENT_PAGE = """# The element

<autograd-playground show="grads" autorun>
<script type="text/x-python">
import torch
print(torch.ones(2) < 2)
</script>
</autograd-playground>
"""


def write_course(root: Path, playground: Path) -> Path:
    """Writes mkdocs.yml and docs/ under root; returns the folder to run mkdocs in."""
    docs = root / "docs"
    (docs / "lessons").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(MKDOCS_YML % playground, encoding="utf-8")
    (docs / "index.md").write_text("# Home\n\n```python\nprint('not live')\n```\n", encoding="utf-8")
    (docs / "lessons" / "fenced.md").write_text(fenced_page(), encoding="utf-8")
    (docs / "lessons" / "raw.md").write_text(html_page(), encoding="utf-8")
    (docs / "lessons" / "element.md").write_text(ELEMENT_PAGE, encoding="utf-8")
    return root


def mkdocs_build(root: Path) -> Path:
    # Run from the course folder: the repository root's stale *.egg-info must not hide the
    # installed package's entry point.
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q"], cwd=root,
                            capture_output=True, text=True, env={"NO_MKDOCS_2_WARNING": "1",
                                                                 "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    return root / "site"


def block_text(page: str) -> str:
    """The text of the page's one marked block's <code>, as a browser's textContent gives it."""
    match = re.search(r'class="[^"]*\bautograd\b[^"]*".*?<code[^>]*>(.*?)</code>', page, re.S)
    assert match, "no marked block in the page"
    return html.unescape(re.sub(r"<[^>]+>", "", match.group(1)))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    playground = tmp_path_factory.mktemp("playground")
    for name in ("embed.js", "embed.html", "build-info.json"):
        (playground / name).write_text(f"/* {name} */\n", encoding="utf-8")
    (playground / "pyodide").mkdir()
    (playground / "pyodide" / "pyodide.js").write_text("/* runtime */\n", encoding="utf-8")
    return mkdocs_build(write_course(tmp_path_factory.mktemp("course"), playground)), playground


def test_the_playground_is_copied_into_the_site(site):
    out, playground = site
    for name in ("embed.js", "embed.html", "build-info.json", "pyodide/pyodide.js"):
        assert (out / "playground" / name).read_bytes() == (playground / name).read_bytes()


def test_embed_js_is_loaded_only_by_pages_with_marked_blocks(site):
    out, _ = site
    script = '<script src="../../playground/embed.js" async></script>'
    for page in ("lessons/fenced/index.html", "lessons/raw/index.html", "lessons/element/index.html"):
        text = (out / page).read_text(encoding="utf-8")
        assert text.count(script) == 1, page
        assert text.index(script) < text.index("</head>")
    assert "embed.js" not in (out / "index.html").read_text(encoding="utf-8")


def test_marked_blocks_keep_their_code_and_mark(site):
    out, _ = site
    fenced = (out / "lessons/fenced/index.html").read_text(encoding="utf-8")
    assert 'class="autograd highlight"' in fenced
    raw = (out / "lessons/raw/index.html").read_text(encoding="utf-8")
    assert '<pre class="autograd">' in raw
    for page in (fenced, raw):
        assert block_text(page) == f"{OPTIONS}\n{DRAWN}"


def test_the_element_form_keeps_its_code_inside_it(site):
    out, _ = site
    page = (out / "lessons/element/index.html").read_text(encoding="utf-8")
    # Python-Markdown put each tag in a <p>; the browser would then close the element early.
    assert re.search(r'<autograd-playground show="grads" autorun>\s*<script type="text/x-python">\s*'
                     r"import torch\nprint\(torch.ones\(2\) < 2\)\s*</script>\s*</autograd-playground>", page)
    assert "<p><autograd-playground" not in page and "<p></autograd-playground>" not in page


def test_a_missing_playground_build_fails_the_build_with_a_hint(tmp_path):
    root = write_course(tmp_path, tmp_path / "nowhere")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=root,
                            capture_output=True, text=True)
    assert result.returncode != 0
    assert "is not a built playground" in result.stderr and "build_site.py" in result.stderr


def test_page_detection_and_script_placement():
    assert has_live_examples('<div class="x autograd highlight">')
    assert has_live_examples("<pre class='autograd'>")
    assert has_live_examples("<p>\n<autograd-playground show=grads>")
    assert not has_live_examples('<div class="autograd-note">autograd</div><code>autograd</code>')
    assert add_script("<html><head><title>t</title></HEAD><body>", "p/embed.js") == (
        '<html><head><title>t</title><script src="p/embed.js" async></script>\n</HEAD><body>')


def test_the_example_course_builds(tmp_path, site):
    """docs/teachers/mkdocs-course: 8 stops in English and 8 in Chinese, one live example each."""
    _, playground = site
    course = Path(__file__).resolve().parents[1] / "docs" / "teachers" / "mkdocs-course"
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "out")],
                            cwd=course, capture_output=True, text=True,
                            env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin",
                                 "AUTOGRAD_PLAYGROUND_SITE": str(playground)})
    assert result.returncode == 0, result.stderr
    out = tmp_path / "out"
    for lang in ("en", "zh"):
        stops = sorted((out / lang).glob("0*/index.html"))
        assert len(stops) == 8
        for page in stops:
            text = page.read_text(encoding="utf-8")
            assert text.count('<script src="../../playground/embed.js" async></script>') == 1, page
            assert text.count('class="autograd highlight"') == 1, page
        assert "embed.js" not in (out / lang / "index.html").read_text(encoding="utf-8")
    assert "叶子节点" in block_text((out / "zh" / "01-graph" / "index.html").read_text(encoding="utf-8"))


def test_with_instant_navigation_every_page_loads_embed_js(tmp_path, site):
    # Material swaps the page without loading its scripts: embed.js must be there from any page.
    _, playground = site
    root = write_course(tmp_path, playground)
    config = (root / "mkdocs.yml").read_text(encoding="utf-8")
    (root / "mkdocs.yml").write_text(config.replace("theme: {name: material}",
                                                    "theme: {name: material, features: [navigation.instant]}"),
                                     encoding="utf-8")
    out = mkdocs_build(root)
    assert out.joinpath("index.html").read_text(encoding="utf-8").count(
        '<script src="playground/embed.js" async></script>') == 1
    fenced = (out / "lessons/fenced/index.html").read_text(encoding="utf-8")
    assert fenced.count('<script src="../../playground/embed.js" async></script>') == 1
