"""The address of one live example, for an LMS page (Canvas, Moodle) that allows an iframe only.

An LMS editor keeps an ``<iframe>`` but strips scripts, so the example goes in the frame's
address: ``<playground>/embed.html#embed=1.<data>``, where ``<data>`` is the example's options
``{"code", "show", "autorun", "readonly", "height", "lang", "title"}`` as UTF-8 JSON, compressed
with zlib and written in base64url without padding (the form ``embed.js`` makes for its frames,
web/src/share/share.js). From the command line::

    python -m autograd_playground.lms https://example.org/course/playground/ example.py

prints the ``<iframe>`` to paste; the file's first line may hold the options as in a marked block
(``# autograd: show=grads autorun readonly height=300 lang=zh title="Chain rule"``).
"""

from __future__ import annotations

import argparse
import base64
import html
import json
import re
import shlex
import sys
import textwrap
import zlib

FORMAT_VERSION = 1
MAX_TOKEN_CHARS = 48 * 1024  # what the frame accepts (share.js)
FLAGS = ("autorun", "readonly")
VALUES = ("show", "height", "lang", "title")
_OPTIONS_LINE = re.compile(r"^[ \t]*#[ \t]*autograd:(.*)$")


def split_options_line(text: str) -> tuple[str, dict]:
    """Splits a first line ``# autograd: ...`` off the code, as marked blocks do (marked_blocks.js).

    Args:
        text: the example's code, maybe with an options line first.

    Returns:
        (code, options): flags as True, values as strings; unknown names are left out.
    """
    code = textwrap.dedent(text.replace("\r\n", "\n").replace("\r", "\n")).strip("\n")
    first, _, rest = code.partition("\n")
    match = _OPTIONS_LINE.match(first)
    if not match:
        return code, {}
    options = {}
    for word in shlex.split(match.group(1)):
        name, has_value, value = word.partition("=")
        name = name.lower()
        if name in FLAGS:
            options[name] = True
        elif name in VALUES and has_value:
            options[name] = value
    return textwrap.dedent(rest).strip("\n"), options


def embed_token(code: str, **options) -> str:
    """The ``1.<data>`` part of an embed address.

    Args:
        code: the example's code.
        **options: show ("graph,grads", "graph", "grads" or "none"), autorun, readonly,
            height (CSS px), lang ("en" or "zh"), title.

    Returns:
        The token.

    Raises:
        ValueError: for an unknown option, or when the code makes a token the frame refuses.
    """
    unknown = set(options) - set(FLAGS) - set(VALUES)
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(sorted(unknown))}; known: {', '.join(FLAGS + VALUES)}")
    state = {"code": code}
    state.update({name: bool(options[name]) for name in FLAGS if options.get(name)})
    state.update({name: str(options[name]) for name in VALUES if options.get(name) is not None})
    data = zlib.compress(json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), 9)
    token = f"{FORMAT_VERSION}.{base64.urlsafe_b64encode(data).decode('ascii').rstrip('=')}"
    if len(token) > MAX_TOKEN_CHARS:
        raise ValueError(f"the example makes a {len(token)}-character address; the frame accepts {MAX_TOKEN_CHARS}")
    return token


def embed_url(playground: str, code: str, **options) -> str:
    """The address of ``embed.html`` showing one example.

    Args:
        playground: the playground's address, e.g. ``https://example.org/course/playground/``.
        code: the example's code.
        **options: as for :func:`embed_token`.

    Returns:
        ``<playground>/embed.html#embed=1.<data>``.

    Example::

        >>> embed_url("https://example.org/playground", "print(1)", show="none")
        'https://example.org/playground/embed.html#embed=1.eNqrVkrOT0lVslIqKMrMK9Ew1FTSUSrOyC8HiuTl56Uq1QIAsG0KZA'
    """
    return f"{playground.rstrip('/')}/embed.html#embed={embed_token(code, **options)}"


def iframe_html(playground: str, code: str, *, frame_height: int = 520, **options) -> str:
    """The ``<iframe>`` an LMS page holds: :func:`embed_url` with the embed's sandbox.

    Args:
        playground: the playground's address.
        code: the example's code.
        frame_height: the frame's height in px (an LMS page cannot follow the example's size).
        **options: as for :func:`embed_token`.

    Returns:
        One line of HTML.
    """
    title = options.get("title") or "PyTorch autograd example"
    return (f'<iframe src="{html.escape(embed_url(playground, code, **options))}" title="{html.escape(title)}" '
            f'width="100%" height="{int(frame_height)}" style="border:0" '
            f'sandbox="allow-scripts allow-same-origin" loading="lazy"></iframe>')


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograd_playground.lms",
                                     description="Prints the <iframe> (or, with --url, the address) of one live example.")
    parser.add_argument("playground", help="the playground's address, e.g. https://example.org/course/playground/")
    parser.add_argument("file", help="the example's code ('-' reads standard input)")
    parser.add_argument("--url", action="store_true", help="print the address only")
    parser.add_argument("--frame-height", type=int, default=520)
    args = parser.parse_args(argv)
    text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    code, options = split_options_line(text)
    if args.url:
        print(embed_url(args.playground, code, **options))
    else:
        print(iframe_html(args.playground, code, frame_height=args.frame_height, **options))
    return 0


if __name__ == "__main__":
    sys.exit(main())
