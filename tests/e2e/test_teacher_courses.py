"""The example courses (docs/teachers/) built and run in the browser: every stop's example works.

The Sphinx course's Chinese stops must print what their lessons expect (web/src/app/lessons.json);
the MkDocs course's English stops must hold course.html's examples exactly and run them (stop 4
ends with its RuntimeError on purpose). A first tab stays on the course, so its one Python
(a SharedWorker) serves every page the second tab visits.
"""

import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from conftest import _serve
from playground_helpers import REPO, assert_in_order

RUN_TIMEOUT_MS = 90_000
COURSES = REPO / "docs" / "teachers"
sys.path.insert(0, str(COURSES))
from make_courses import LESSONS_JSON, STOPS, _Course  # noqa: E402


def build(tool, site_dir, out):
    folder = COURSES / f"{tool}-course"
    command = ([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)] if tool == "mkdocs" else
               [sys.executable, "-m", "sphinx", "-q", "-W", "-b", "html", ".", str(out)])
    result = subprocess.run(command, cwd=folder, capture_output=True, text=True,
                            env={"PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1",
                                 "AUTOGRAD_PLAYGROUND_SITE": str(site_dir)})
    assert result.returncode == 0, result.stderr
    return out


def course():
    parsed = _Course()
    parsed.feed((REPO / "web" / "examples" / "course.html").read_text(encoding="utf-8"))
    return parsed


def run_first_example(page, url):
    """Opens a stop, runs its example (or lets autorun do it); returns (code, output)."""
    page.goto(url)
    frame = page.frame_locator("autograd-playground >> nth=0 >> iframe")
    expect(frame.locator("#run")).to_be_enabled(timeout=RUN_TIMEOUT_MS)
    page.wait_for_timeout(300)  # an autorun example starts at once
    if not frame.locator("#output").inner_text().strip():
        frame.locator("#run").click()
    expect(frame.locator("#output")).not_to_be_empty(timeout=RUN_TIMEOUT_MS)
    expect(frame.locator("#status")).to_have_attribute("data-state", "ready", timeout=RUN_TIMEOUT_MS)
    code = frame.locator("body").evaluate("() => window.playground.getCode()")
    return code, frame.locator("#output").inner_text()


@pytest.fixture()
def tabs(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US", service_workers="block")
    yield context.new_page(), context.new_page()
    context.close()


def test_the_sphinx_course_chinese_stops_print_what_their_lessons_expect(site_dir, tmp_path, tabs):
    import json

    out = build("sphinx", site_dir, tmp_path / "sphinx")
    server = _serve(out, isolated=False)
    base = f"http://127.0.0.1:{server.server_address[1]}/zh/"
    lessons = {lesson["id"]: lesson for lesson in json.loads(LESSONS_JSON.read_text(encoding="utf-8"))["lessons"]}
    keeper, page = tabs
    stops = sorted(path.name for path in (out / "zh").glob("0*.html"))
    assert len(stops) == 8
    run_first_example(keeper, base + stops[0])
    for name in stops:
        lesson = lessons[STOPS[re.sub(r"^\d+-|\.html$", "", name)]]
        code, output = run_first_example(page, base + name)
        assert code == "\n".join(lesson["code_zh"]).strip("\n"), name
        expected = list(lesson["expect"]["stdout"])
        if lesson["expect"]["error"]:
            expected.append(f"{lesson['expect']['error']['type']}: {lesson['expect']['error']['message_prefix']}")
        assert_in_order(output, expected)
    server.shutdown()


def test_the_mkdocs_course_english_stops_hold_course_html_examples_and_run(site_dir, tmp_path, tabs):
    out = build("mkdocs", site_dir, tmp_path / "mkdocs")
    server = _serve(out, isolated=False)
    base = f"http://127.0.0.1:{server.server_address[1]}/en/"
    sections = course().sections
    keeper, page = tabs
    run_first_example(keeper, f"{base}01-{sections[0]['id']}/")
    for number, section in enumerate(sections, 1):
        example = next(block[2] for block in section["blocks"] if block[0] == "example")
        code, output = run_first_example(page, f"{base}{number:02d}-{section['id']}/")
        assert code == example.rstrip("\n"), section["id"]
        failed = "Traceback" in output or "Error:" in output
        assert failed == (section["id"] == "retain-graph"), (section["id"], output)
    server.shutdown()
