"""Course-site integrations of the autograd playground.

``autograd_playground.site_dir()`` is the built playground shipped as package
data (``autograd_playground/site/``, made by ``web/build/build_site.py --out
autograd_playground/site`` before the wheel is built). The MkDocs plugin
(``plugins: [autograd-playground]``) copies it into a course site and loads
``embed.js`` on the pages that have live examples.
"""

from pathlib import Path

SITE = Path(__file__).resolve().parent / "site"


def site_dir(override=None):
    """The built playground to copy into a course site.

    Args:
        override: a folder built by ``web/build/build_site.py``, used instead of
            the packaged one (a plugin option, or ``AUTOGRAD_PLAYGROUND_SITE``).

    Returns:
        Path of the folder, which holds ``embed.js`` and ``build-info.json``.

    Raises:
        FileNotFoundError: when the folder is not a playground build.
    """
    import os

    folder = Path(override or os.environ.get("AUTOGRAD_PLAYGROUND_SITE") or SITE)
    missing = [name for name in ("embed.js", "embed.html", "build-info.json") if not (folder / name).is_file()]
    if missing:
        raise FileNotFoundError(
            f"{folder} is not a built playground (missing {', '.join(missing)}); build it with "
            "`python web/build/build_site.py --out autograd_playground/site` before installing, "
            "or point the plugin's `playground_site` option at a build")
    return folder
