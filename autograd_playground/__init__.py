"""Course-site integrations of the autograd playground.

``autograd_playground.site_dir()`` is the built playground shipped as package
data (``autograd_playground/site/``, made by ``web/build/build_site.py --out
autograd_playground/site`` before the wheel is built). The MkDocs plugin
(``plugins: [autograd-playground]``) and the Sphinx extension
(``extensions = ["autograd_playground.sphinx"]``) copy it into a course site and load
``embed.js`` on the pages that have live examples; ``autograd_playground.lms`` makes the
iframe address an LMS page can hold.
"""

import shutil
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


def copy_playground(source, destination):
    """Copies the built playground to ``destination``, replacing an older copy.

    A copy of the same build (same ``build-info.json``) is left alone, so a rebuild of the course
    does not copy Pyodide again.

    Args:
        source: a folder accepted by :func:`site_dir`.
        destination: the folder in the course's output (made if missing).

    Returns:
        True when the files were copied, False when the copy there was already this build.
    """
    source, destination = Path(source), Path(destination)
    stamp = destination / "build-info.json"
    if stamp.is_file() and stamp.read_bytes() == (source / "build-info.json").read_bytes():
        return False
    if destination.exists():
        shutil.rmtree(destination)
    shutil.copytree(source, destination)
    return True
