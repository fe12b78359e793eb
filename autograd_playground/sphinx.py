"""Sphinx extension: live autograd examples in Sphinx and Jupyter Book 1 course notes.

``conf.py``::

    extensions = ["autograd_playground.sphinx"]     # with "myst_parser" for Markdown pages

Jupyter Book 1 (``_config.yml``)::

    sphinx:
      extra_extensions: [autograd_playground.sphinx]

A page marks a code block as a live example with the class ``autograd``; its first line may hold
the options (``# autograd: show=grads autorun readonly height=300 lang=zh``)::

    .. code-block:: python
       :class: autograd

       import torch

or in MyST::

    ```{code-block} python
    :class: autograd
    import torch
    ```

The extension copies the built playground into the output under ``playground/`` (same origin,
no CDN), adds ``<script src=".../playground/embed.js" async>`` to the pages that have a marked
block, a ``.. raw:: html`` marked block or an ``<autograd-playground>`` element, and to no other
page, and puts a small service worker at the output's root so the course opens offline after the
first visit (course_offline.py). ``embed.js`` turns the blocks into examples in the browser;
readers without JavaScript, and printing, keep the highlighted listing. In Jupyter Book 1
(MyST-NB), a ``code-cell`` tagged ``autograd`` (``:tags: [autograd]``) is a marked block too;
where no other extension defines ``code-cell``, it is a ``code-block`` here, so notes written for
Jupyter Book build unchanged with plain Sphinx.

Options (``conf.py``): ``autograd_playground_dir`` (default ``"playground"``) and
``autograd_playground_site`` (a build of ``web/build/build_site.py`` to copy instead of the
packaged one; also the ``AUTOGRAD_PLAYGROUND_SITE`` environment variable).
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx.directives.code import CodeBlock
from sphinx.errors import ExtensionError
from sphinx.util import logging
from sphinx.util.docutils import is_directive_registered

from . import copy_playground, site_dir
from .course_offline import SCRIPT, write_course_worker
from .html import MARK, has_live_examples, script_tag

logger = logging.getLogger(__name__)
HTML_FORMATS = ("html", "dirhtml")  # the builders whose output a browser opens


def has_marked_blocks(doctree: nodes.Node) -> bool:
    """True when the page has an element of class ``autograd`` or raw HTML with a live example.

    Args:
        doctree: the page's resolved document tree.

    Returns:
        Whether the page needs embed.js.
    """
    for node in doctree.findall(nodes.Element):
        if MARK in node.get("classes", ()):
            return True
        if isinstance(node, nodes.raw) and "html" in node.get("format", "").split() and has_live_examples(node.astext()):
            return True
    return False


def mark_tagged_cells(app, doctree, docname):
    """MyST-NB (Jupyter Book 1) cells tagged ``autograd``: their code listing is the marked block.

    A cell's tags become classes ``tag_<name>`` on its container, around the input listing and
    the outputs; only the listing is the example.
    """
    for cell in list(doctree.findall(nodes.container)):
        if f"tag_{MARK}" in cell.get("classes", ()):
            listing = next(iter(cell.findall(nodes.literal_block)), None)
            if listing is not None and MARK not in listing["classes"]:
                listing["classes"].append(MARK)


def _playground(app) -> str:
    return app.config.autograd_playground_dir.strip("/") or "playground"


def _html_build(app) -> bool:
    return app.builder.name in HTML_FORMATS


def _find_playground(app):
    if not _html_build(app):
        return
    try:
        app.autograd_playground_source = site_dir(app.config.autograd_playground_site or None)
    except FileNotFoundError as exc:
        raise ExtensionError(f"autograd_playground: {exc}") from exc
    # Copied before the pages are written, so the builder finds embed.js where the pages point.
    destination = Path(app.outdir) / _playground(app)
    if copy_playground(app.autograd_playground_source, destination):
        logger.info("autograd_playground: copied the playground into %s", destination)


def _add_scripts(app, pagename, templatename, context, doctree):
    if doctree is None or not _html_build(app) or not has_marked_blocks(doctree):
        return
    pathto = context["pathto"]
    # In the page's <head> as plain tags: Sphinx's basic layout, which themes build on, prints
    # `metatags` there, and unlike add_js_file a tag may point outside _static/.
    tags = script_tag(pathto(f"{_playground(app)}/embed.js", 1)) + script_tag(pathto(SCRIPT, 1))
    context["metatags"] = context.get("metatags", "") + tags


def _write_course_worker(app, exception):
    if exception is None and _html_build(app):
        write_course_worker(app.outdir, _playground(app))


def _code_cell_as_code_block(app, config):
    # MyST-NB's code-cell runs the code in a kernel at build time; without it, a code-cell is a
    # listing like a code-block (MyST reads its ":class:" option the same way).
    if "myst_nb" not in config.extensions and not is_directive_registered("code-cell"):
        app.add_directive("code-cell", CodeBlock)


def setup(app):
    app.add_config_value("autograd_playground_dir", "playground", "html", types=[str])
    app.add_config_value("autograd_playground_site", "", "html", types=[str])
    app.connect("config-inited", _code_cell_as_code_block)
    app.connect("builder-inited", _find_playground)
    app.connect("doctree-resolved", mark_tagged_cells)
    app.connect("html-page-context", _add_scripts)
    app.connect("build-finished", _write_course_worker)
    return {"version": "0.1.0", "parallel_read_safe": True, "parallel_write_safe": True}
