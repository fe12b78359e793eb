"""Small float32 matrix products added in the order PyTorch's CPU build adds them.

PyTorch hands ``mm`` to MKL's sgemm, which for many small products (``nn.Linear`` with a few
inputs or outputs, and the gradients of such layers) adds the rounded products ``a[i, k] * b[k, j]``
one after another over ``k``, with no fused multiply-add. NumPy's OpenBLAS blocks and fuses those
sums, so a last digit differs in 20-90% of such products, which ``loss.item()`` shows after one
training step. Which shapes MKL adds that way depends on the operands' layouts (row-major ``C``
or a transposed, column-major ``F`` view): measured against torch 2.13's x86 build (AVX512) on
1-150 rows, 1-16 columns and inner sizes 2-64, these agree bit for bit:

- any layout, an inner size of at most 3 and fewer than 16 columns;
- ``C @ C``: 2-4 or 8 columns, or one row; ``F @ C`` (a layer's weight gradient): 1-4 or 8
  columns, or one row; ``F @ F``: 2 rows or more and fewer than 16 columns; ``C @ F`` (a layer's
  forward, ``x @ W.t()``): 2 or 3 columns and an inner size of at most 5, or one column and 4.

Other products keep NumPy's (MKL's vector kernels have their own order), as do float64 and
products too large to spell out (the ``M * K * N`` terms are formed at once).

Example::

    >>> a = np.array([[0.1, 0.2, 0.3]], np.float32)
    >>> b = np.ones((3, 2), np.float32)
    >>> product(a, b).tolist() == [[np.float32(np.float32(0.1 + np.float32(0.2)) + np.float32(0.3))] * 2]
    True
"""
import numpy as np

_F32 = np.dtype(np.float32)
_LARGEST = 1 << 16  # terms formed at once: M * K * N values


def _layout(x):
    """'C' for rows laid out one after another, 'F' for a transposed view (columns contiguous)."""
    return "C" if x.strides[1] == x.itemsize or x.shape[1] == 1 else "F"


def _sequential(m, k, n, layouts):
    if k <= 3 and n < 16:
        return True
    if layouts == "CC":
        return n in (2, 3, 4, 8) or m == 1
    if layouts == "FC":
        return n in (1, 2, 3, 4, 8) or m == 1
    if layouts == "FF":
        return m >= 2 and n < 16
    return k <= (4 if n == 1 else 5) and n <= 3  # C @ F


def product(a, b):
    """``a @ b`` for 2-D arrays, small float32 ones in sgemm's order.

    Args:
        a (ndarray): shape (M, K).
        b (ndarray): shape (K, N).

    Returns:
        ndarray: shape (M, N), ``a @ b``.
    """
    m, k = a.shape
    n = b.shape[1]
    if (a.dtype is not _F32 and a.dtype != _F32) or b.dtype != _F32 or k < 2 or m * k * n > _LARGEST \
            or not _sequential(m, k, n, _layout(a) + _layout(b)):
        return a @ b
    terms = a[:, :, None] * b[None, :, :]  # each product rounded to float32, as sgemm's
    return np.ascontiguousarray(np.add.accumulate(terms, axis=1)[:, -1, :])
