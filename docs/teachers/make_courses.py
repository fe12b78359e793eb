"""Writes the example courses (MkDocs and Sphinx, English and 简体中文) from the playground's content.

The English pages are the eight stops of web/examples/course.html (its prose, examples and
"Try" notes, with each example's attributes as a `# autograd:` options line); the Chinese pages
are the same eight lessons from web/src/app/lessons.json (title, explanation, code with Chinese
comments, and the output the lesson expects). Each course is written as a teacher would write it
by hand: MkDocs pages with ```python {.autograd}``` blocks, Sphinx pages in MyST with
`:class: autograd`. The written files are committed; tests check they are current.

    python docs/teachers/make_courses.py          # (re)writes mkdocs-course/ and sphinx-course/
    python docs/teachers/make_courses.py --check  # exits 1 when a written file is out of date
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
COURSE_HTML = REPO / "web" / "examples" / "course.html"
LESSONS_JSON = REPO / "web" / "src" / "app" / "lessons.json"
# course.html's stops and the lessons they come from.
STOPS = {"graph": "graph", "non-leaf": "nonleaf-grad", "accumulate": "accumulate", "retain-graph": "retain-graph",
         "non-scalar": "non-scalar", "autograd-grad": "autograd-grad", "detach": "detach", "legacy": "legacy"}
TITLE = {"en": "Autograd, hands-on — a short course", "zh": "动手学 autograd —— 短课程"}
ZH_LEDE = ("八个小站，走一遍 PyTorch 的自动求导。本页每个例子都是活的：按“运行”，读输出，看计算图和梯度，"
           "再改代码重跑。一切都在你的浏览器里运行，不向任何地方发送数据。")
ZH_EXPECT = "运行后应看到："
INLINE = {"code": "`", "em": "*", "strong": "**"}


class _Course(HTMLParser):
    """Reads course.html's lede and sections into plain data, with inline markup as Markdown."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lede = ""
        self.sections = []  # {"id", "title", "blocks": [("p", text) | ("example", attrs, code)]}
        self._text = None  # the paragraph or heading being read
        self._where = None
        self._attrs = None
        self._in_code_example = False
        self._skip = 0  # inside <aside>, <nav>, <footer>

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("aside", "nav", "footer"):
            self._skip += 1
        if self._skip:
            return
        if tag == "section":
            self.sections.append({"id": attrs["id"], "title": "", "blocks": []})
        elif tag in ("h2", "p") and (self.sections or "lede" in attrs.get("class", "")):
            self._text, self._where = [], tag
        elif tag == "autograd-playground":
            self._attrs = attrs
        elif tag == "script" and self._attrs is not None:
            self._in_code_example, self._text = True, []
        elif self._text is not None and tag in INLINE:
            self._text.append(INLINE[tag])
        elif self._text is not None and tag == "br":
            self._text.append(" ")

    def handle_endtag(self, tag):
        if tag in ("aside", "nav", "footer"):
            self._skip -= 1
        if self._skip or self._text is None:
            return
        if self._in_code_example and tag == "script":
            code = "".join(self._text)
            self.sections[-1]["blocks"].append(("example", self._attrs, dedent(code)))
            self._in_code_example, self._text, self._attrs = False, None, None
        elif tag in INLINE and not self._in_code_example:
            self._text.append(INLINE[tag])
        elif tag == self._where:
            text = re.sub(r"\s+", " ", "".join(self._text)).strip()
            if not self.sections:
                self.lede = text
            elif tag == "h2":
                self.sections[-1]["title"] = re.sub(r"^\d+\.\s*", "", text)
            else:
                self.sections[-1]["blocks"].append(("p", text))
            self._text = self._where = None

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)


def dedent(code: str) -> str:
    lines = code.strip("\n").split("\n")
    cut = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
    return "\n".join(line[cut:] for line in lines) + "\n"


def options_line(attrs: dict, lang: str | None) -> str:
    """The `# autograd:` line for an <autograd-playground>'s attributes (lang forced when given)."""
    words = []
    for name in ("show", "height", "lang", "title"):
        value = lang if name == "lang" and lang else attrs.get(name)
        if value:
            words.append(f'{name}="{value}"' if " " in value else f"{name}={value}")
    words += [flag for flag in ("autorun", "readonly") if flag in attrs]
    return f"# autograd: {' '.join(words)}" if words else ""


def marked_block(tool: str, code: str, options: str) -> str:
    body = f"{options}\n{code}" if options else code
    if tool == "mkdocs":
        return f"```python {{.autograd}}\n{body}```\n"
    return f"```{{code-block}} python\n:class: autograd\n{body}```\n"


def english_pages(course: _Course, tool: str) -> dict[str, str]:
    pages = {}
    for number, section in enumerate(course.sections, 1):
        parts = [f"# {number}. {section['title']}\n"]
        for block in section["blocks"]:
            if block[0] == "p":
                parts.append(block[1] + "\n")
            else:
                parts.append(marked_block(tool, block[2], options_line(block[1], None)))
        pages[f"en/{number:02d}-{section['id']}.md"] = "\n".join(parts)
    return pages


def chinese_pages(course: _Course, lessons: dict, tool: str) -> dict[str, str]:
    pages = {}
    for number, section in enumerate(course.sections, 1):
        lesson = lessons[STOPS[section["id"]]]
        attrs = next(block[1] for block in section["blocks"] if block[0] == "example")
        code = "\n".join(lesson["code_zh"]).strip("\n") + "\n"
        expected = "\n".join(lesson["expect"]["stdout"])
        error = lesson["expect"]["error"]
        if error:  # the lesson ends with an error on purpose; the traceback's last line starts so
            expected += f"\n{error['type']}: {error['message_prefix']}…"
        pages[f"zh/{number:02d}-{section['id']}.md"] = "\n".join([
            f"# {number}. {lesson['title']['zh']}\n", lesson["explain"]["zh"] + "\n",
            marked_block(tool, code, options_line(attrs, "zh")), f"{ZH_EXPECT}\n",
            f"```text\n{expected}\n```\n"])
    return pages


def index_pages(course: _Course, pages: dict, tool: str) -> dict[str, str]:
    out = {}
    for lang, lede in (("en", course.lede), ("zh", ZH_LEDE)):
        names = sorted(name for name in pages if name.startswith(f"{lang}/"))
        if tool == "mkdocs":
            links = "\n".join(f"1. [{pages[name].splitlines()[0][2:].split('. ', 1)[1]}]({name.split('/')[1]})"
                              for name in names)
            out[f"{lang}/index.md"] = f"# {TITLE[lang]}\n\n{lede}\n\n{links}\n"
        else:
            entries = "\n".join(name.split("/")[1][:-3] for name in names)
            out[f"{lang}/index.md"] = (f"# {TITLE[lang]}\n\n{lede}\n\n```{{toctree}}\n:maxdepth: 1\n\n"
                                       f"{entries}\n```\n")
    home = (f"# {TITLE['en']}\n\n"
            "- [English](en/index.md)\n"
            "- [简体中文](zh/index.md)\n")
    if tool == "sphinx":
        home += "\n```{toctree}\n:hidden:\n\nen/index\nzh/index\n```\n"
    out["index.md"] = home
    return out


MKDOCS_YML = """\
# The example course for MkDocs with Material (made by docs/teachers/make_courses.py).
# Build: pip install mkdocs-material autograd_py[mkdocs] (a wheel with the playground), then `mkdocs build`.
site_name: "Autograd, hands-on"
theme: {name: material}
markdown_extensions: [attr_list, md_in_html, pymdownx.highlight, pymdownx.superfences]
plugins: [search, autograd-playground]
"""
CONF_PY = '''\
# The example course for Sphinx with MyST and furo (made by docs/teachers/make_courses.py).
# Build: pip install sphinx furo myst-parser autograd_py (a wheel with the playground),
# then `sphinx-build -b html . _build/html`.
project = "Autograd, hands-on"
extensions = ["myst_parser", "autograd_playground.sphinx"]
html_theme = "furo"
html_title = "Autograd, hands-on"
exclude_patterns = ["_build"]
'''


def nav(pages: dict) -> str:
    lines = ["nav:", "  - Home: index.md"]
    for lang, label in (("en", "English"), ("zh", "简体中文")):
        lines.append(f"  - {label}:")
        for name in [f"{lang}/index.md"] + sorted(n for n in pages if n.startswith(f"{lang}/0")):
            title = pages[name].splitlines()[0][2:].replace("`", "")  # nav titles are plain text
            lines.append(f"    - {json.dumps(title, ensure_ascii=False)}: {name}")
    return "\n".join(lines) + "\n"


def courses() -> dict[Path, str]:
    """Every file of both courses: path -> text."""
    course = _Course()
    course.feed(COURSE_HTML.read_text(encoding="utf-8"))
    lessons = {lesson["id"]: lesson for lesson in json.loads(LESSONS_JSON.read_text(encoding="utf-8"))["lessons"]}
    files = {}
    for tool, folder, docs in (("mkdocs", HERE / "mkdocs-course", "docs"), ("sphinx", HERE / "sphinx-course", "")):
        pages = {**english_pages(course, tool), **chinese_pages(course, lessons, tool)}
        pages.update(index_pages(course, pages, tool))
        for name, text in pages.items():
            files[folder / docs / name] = text
        if tool == "mkdocs":
            files[folder / "mkdocs.yml"] = MKDOCS_YML + nav(pages)
        else:
            files[folder / "conf.py"] = CONF_PY
    return files


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only report files that are out of date")
    args = parser.parse_args(argv)
    stale = []
    for path, text in courses().items():
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path.relative_to(REPO).as_posix())
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print("out of date (run python docs/teachers/make_courses.py):", *stale, sep="\n  ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
