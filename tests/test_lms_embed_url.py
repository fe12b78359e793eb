"""The LMS iframe address (autograd_playground/lms.py): the form embed.html reads back.

The browser side (the frame shows the code, runs it, applies the options) is tested in
tests/e2e/test_teacher_sphinx.py; here, the token's format as README documents it.
"""

import base64
import json
import random
import subprocess
import sys
import zlib

import pytest

from autograd_playground.lms import embed_url, iframe_html, split_options_line

CODE = 'import torch\nx = torch.tensor(2.0, requires_grad=True)\n\t(x ** 2 < 5) & True  # 平方 __init__\n'


def decode(url):
    """README's recipe: json.loads(zlib.decompress(base64.urlsafe_b64decode(data + padding)))."""
    base, _, token = url.partition("#embed=")
    version, _, data = token.partition(".")
    assert version == "1" and "=" not in data
    return base, json.loads(zlib.decompress(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))))


def test_the_address_holds_the_code_and_options_exactly():
    base, state = decode(embed_url("https://example.org/course/playground/", CODE, show="grads", autorun=True,
                                   readonly=False, height=300, lang="zh", title="Chain rule"))
    assert base == "https://example.org/course/playground/embed.html"
    assert state == {"code": CODE, "autorun": True, "show": "grads", "height": "300", "lang": "zh",
                     "title": "Chain rule"}


def test_unknown_options_and_oversized_code_are_refused():
    with pytest.raises(ValueError, match="unknown option"):
        embed_url("https://x/playground", "print(1)", colour="red")
    noise = base64.b64encode(random.Random(0).randbytes(40_000)).decode()  # does not compress
    with pytest.raises(ValueError, match="the frame accepts 49152"):
        embed_url("https://x/playground", noise)


def test_the_options_line_is_read_as_a_marked_block_reads_it():
    code, options = split_options_line('  # autograd: show=none readonly height=200 title="A b" bogus=1\n  print(1)\n')
    assert code == "print(1)"
    assert options == {"show": "none", "readonly": True, "height": "200", "title": "A b"}
    assert split_options_line("print(2)\n") == ("print(2)", {})


def test_the_command_prints_an_iframe_to_paste(tmp_path):
    example = tmp_path / "example.py"
    example.write_text("# autograd: show=grads autorun\nprint('<&>')\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "autograd_playground.lms", "https://example.org/pg", str(example)],
                            capture_output=True, text=True, check=True)
    tag = result.stdout.strip()
    assert tag.startswith('<iframe src="https://example.org/pg/embed.html#embed=1.')
    assert 'sandbox="allow-scripts allow-same-origin"' in tag and 'height="520"' in tag
    url = tag.split('"')[1]
    assert decode(url)[1] == {"code": "print('<&>')", "autorun": True, "show": "grads"}
    assert iframe_html("https://example.org/pg", "print(1)").count("<iframe") == 1
