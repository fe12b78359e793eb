"""What the site plugins read and write in a built page's HTML (MkDocs and Sphinx alike)."""

from __future__ import annotations

import re

MARK = "autograd"
_CLASS_ATTR = re.compile(r"""\sclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""", re.IGNORECASE)
_ELEMENT = re.compile(r"<autograd-playground[\s>]", re.IGNORECASE)
_HEAD_END = re.compile(r"</head\s*>", re.IGNORECASE)
# Python-Markdown takes the unknown element for inline HTML and wraps each tag in a paragraph,
# which the browser closes before the <script type="text/x-python"> child: unwrap them.
_WRAPPED_TAG = re.compile(r"<p>\s*(</?autograd-playground(?:\s[^>]*)?>)\s*</p>", re.IGNORECASE)


def has_live_examples(html: str) -> bool:
    """True when the HTML has an element of class ``autograd`` or an <autograd-playground> element.

    Args:
        html: a page, or a fragment of one (a raw-HTML block).

    Returns:
        Whether the page needs embed.js.
    """
    if _ELEMENT.search(html):
        return True
    return any(MARK in "".join(filter(None, match.groups())).split() for match in _CLASS_ATTR.finditer(html))


def unwrap_elements(html: str) -> str:
    """Takes <autograd-playground> tags out of the <p> elements Python-Markdown put them in."""
    return _WRAPPED_TAG.sub(r"\1", html)


def script_tag(src: str) -> str:
    """The tag that loads ``src`` without holding back the page's first paint."""
    return f'<script src="{src}" async></script>\n'


def add_script(html: str, src: str) -> str:
    """Inserts ``<script src=... async>`` at the end of <head> (else at the end of the page)."""
    tag = script_tag(src)
    match = _HEAD_END.search(html)
    if match is None:
        return html + tag
    return html[:match.start()] + tag + html[match.start():]
