"""Fixtures shared by the unit tests."""
import sys

import pytest

from autograd_py.playground import Session


@pytest.fixture
def session_run():
    """``Session().run`` for the test, then ``sys.modules``' torch entries as they were: a session
    maps ``import torch`` to autograd_py, and the real-torch tests that run later in this process
    (``test_inplace_fast_path``'s parity cases) would otherwise import torch's lazily loaded modules
    a second time (``torch._inductor.test_operators`` then fails to register)."""
    saved = {k: v for k, v in sys.modules.items() if k == "torch" or k.startswith("torch.")}
    try:
        yield lambda code: Session().run(code)
    finally:
        for k in [k for k in sys.modules if k == "torch" or k.startswith("torch.")]:
            del sys.modules[k]
        sys.modules.update(saved)
