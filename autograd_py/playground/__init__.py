"""The playground's Python half: what the browser page's worker calls, tested in CPython.

``session`` is the bridge (a notebook-like namespace answering plain JSON); ``output``,
``globals``, ``backward`` and ``views`` serve it, and ``graph`` and ``trace`` export the autograd
graph and a backward pass for the views. The torch-like library below never imports this package.
"""
from .session import Session

__all__ = ["Session"]
