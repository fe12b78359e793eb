"""MkDocs plugin: live autograd examples in a course site, with one line of set-up.

``mkdocs.yml``::

    markdown_extensions: [attr_list, pymdownx.highlight, pymdownx.superfences]
    plugins: [search, autograd-playground]

A page then marks a fenced block as a live example::

    ```python {.autograd}
    # autograd: show=grads autorun
    import torch
    ...
    ```

The plugin copies the built playground into the site under ``playground/``
(same origin, offline-capable, no CDN) and adds ``<script src=".../embed.js"
async>`` to the pages that have a marked block or an ``<autograd-playground>``
element, and to no other page; it also takes that element's tags out of the paragraphs
Python-Markdown wraps them in (which would lose its code). The blocks themselves are left as the
highlighter drew them: ``embed.js`` turns them into examples in the browser,
and readers without JavaScript, or printing, keep the listing.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from mkdocs.config import config_options
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.utils import get_relative_url

from . import site_dir

MARK = "autograd"
_CLASS_ATTR = re.compile(r"""\sclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""", re.IGNORECASE)
_ELEMENT = re.compile(r"<autograd-playground[\s>]", re.IGNORECASE)
_HEAD_END = re.compile(r"</head\s*>", re.IGNORECASE)
# Python-Markdown takes the unknown element for inline HTML and wraps each tag in a paragraph,
# which the browser closes before the <script type="text/x-python"> child: unwrap them.
_WRAPPED_TAG = re.compile(r"<p>\s*(</?autograd-playground(?:\s[^>]*)?>)\s*</p>", re.IGNORECASE)


def has_live_examples(html: str) -> bool:
    """True when the page has a block of class ``autograd`` or an <autograd-playground> element.

    Args:
        html: the page as written to the site.

    Returns:
        Whether the page needs embed.js.
    """
    if _ELEMENT.search(html):
        return True
    return any(MARK in "".join(filter(None, match.groups())).split() for match in _CLASS_ATTR.finditer(html))


def unwrap_elements(html: str) -> str:
    """Takes <autograd-playground> tags out of the <p> elements Python-Markdown put them in."""
    return _WRAPPED_TAG.sub(r"\1", html)


def add_script(html: str, src: str) -> str:
    """Inserts ``<script src=... async>`` at the end of <head> (else at the end of the page)."""
    tag = f'<script src="{src}" async></script>\n'
    match = _HEAD_END.search(html)
    if match is None:
        return html + tag
    return html[:match.start()] + tag + html[match.start():]


class AutogradPlaygroundPlugin(BasePlugin):
    """Copies the playground into the site and loads embed.js where a page has live examples.

    Options (``mkdocs.yml``)::

        plugins:
          - autograd-playground:
              playground_dir: playground   # where the playground goes in the site
              playground_site: ""          # a build to copy instead of the packaged one
    """

    config_scheme = (
        ("playground_dir", config_options.Type(str, default="playground")),
        ("playground_site", config_options.Type(str, default="")),
    )

    def on_config(self, config):
        try:
            self.source = site_dir(self.config["playground_site"] or None)
        except FileNotFoundError as exc:
            raise PluginError(f"autograd-playground: {exc}") from exc
        self.target = self.config["playground_dir"].strip("/") or "playground"
        return config

    def on_post_page(self, output, page, config):
        if not has_live_examples(output):
            return output
        output = unwrap_elements(output)
        return add_script(output, get_relative_url(f"{self.target}/embed.js", page.url))

    def on_post_build(self, config):
        destination = Path(config["site_dir"]) / self.target
        if destination.exists():
            shutil.rmtree(destination)
        shutil.copytree(self.source, destination)
