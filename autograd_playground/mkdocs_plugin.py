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
(same origin, no CDN) and adds ``<script src=".../embed.js"
async>`` to the pages that have a marked block or an ``<autograd-playground>``
element, and to no other page (to every page with Material's ``navigation.instant``), with the
small script that saves the course for offline reading
(course_offline.py); it also takes that element's tags out of the paragraphs
Python-Markdown wraps them in (which would lose its code). The blocks themselves are left as the
highlighter drew them: ``embed.js`` turns them into examples in the browser,
and readers without JavaScript, or printing, keep the listing.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config import config_options
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.utils import get_relative_url

from . import copy_playground, site_dir
from .course_offline import SCRIPT, write_course_worker
from .html import add_script, has_live_examples, unwrap_elements  # noqa: F401 (the plugin's API)


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
        # Material's instant navigation swaps pages without loading their scripts: then every page
        # loads embed.js, which upgrades the blocks of each page it is swapped to.
        instant = "navigation.instant" in (config["theme"].get("features") or [])
        if not instant and not has_live_examples(output):
            return output
        output = add_script(unwrap_elements(output), get_relative_url(f"{self.target}/embed.js", page.url))
        return add_script(output, get_relative_url(SCRIPT, page.url))

    def on_post_build(self, config):
        copy_playground(self.source, Path(config["site_dir"]) / self.target)
        write_course_worker(config["site_dir"], self.target)
