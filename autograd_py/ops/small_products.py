"""Small float32 matrix products added in the order PyTorch's CPU build adds them.

PyTorch hands ``mm`` to MKL's sgemm, which for many small products (``nn.Linear`` with a few
inputs or outputs, and the gradients of such layers) adds the rounded products ``a[i, k] * b[k, j]``
one after another over ``k``, with no fused multiply-add. NumPy's OpenBLAS fuses them, so a last
digit differs in 20-90% of such products, which ``loss.item()`` shows after one training step.
Which shapes MKL adds that way depends on the operands' layouts (row-major ``C`` or a transposed,
column-major ``F`` view). Measured against torch 2.13's x86 build (AVX512) on 1-150 rows, 1-48
columns and inner sizes 2-200, these agree bit for bit:

- ``C @ C`` and ``F @ C`` (a layer's weight gradient): one row, or 2-4 or 8 columns; 5-11
  columns and an inner size of at most 5; one column (``F @ C``; ``C @ C`` up to an inner size
  of 4); 12 columns or more in at most 3 rows and an inner size of at most 5;
- ``F @ F``: 2 rows or more and fewer than 12 columns, or at most 3 rows; one row up to an inner
  size of 3;
- ``C @ F`` (a layer's forward, ``x @ W.t()``): an inner size of at most 4 (one column), 6 (2 or
  3 columns) or 3 (more columns, fewer than 12 or in at most 3 rows).

A matrix times a vector (``mv``, hence ``matmul`` of a 2-D and a 1-D tensor, as in d2l's
``synthetic_data``) goes to MKL's sgemv, which adds the same way when the matrix is column-major
(a transposed view: it adds column after column) with 2 rows or more, or when the inner size is
at most 4, or at most 11 in at most 3 rows (measured on 1-1000 rows and inner sizes 1-1000).

Elsewhere MKL's vector kernels add the terms with fused multiply-adds, one after another, as
NumPy's OpenBLAS does (12 columns or more in 5 rows or more: those agree as they are), or in an
order of their own. Those keep NumPy's product, as do float64 and products too large to spell out
(the ``M * K * N`` terms are formed at once). Pyodide's NumPy has no BLAS: its product adds the
rounded terms, so there the fused multiply-adds are spelled out (``_fp.fma32``, one per term), and
the browser prints the digits CPython does (against torch, for the shapes outside the region above,
this order agrees in 254 of 536 cases and OpenBLAS's in 247).

Example::

    >>> a = np.array([[0.1, 0.2, 0.3]], np.float32)
    >>> b = np.ones((3, 2), np.float32)
    >>> product(a, b).tolist() == [[np.float32(np.float32(0.1 + np.float32(0.2)) + np.float32(0.3))] * 2]
    True
"""
import sys

import numpy as np

from .._fp import fma32, half_way32

_F32 = np.dtype(np.float32)
_NO_BLAS = sys.platform == "emscripten"  # Pyodide: NumPy's own loops add rounded products
_LARGEST = 1 << 16  # terms formed at once: M * K * N values


def _layout(x):
    """'C' for rows laid out one after another, 'F' for a transposed view (columns contiguous)."""
    return "C" if x.strides[1] == x.itemsize or x.shape[1] == 1 else "F"


def _sequential(m, k, n, layouts):
    """Whether MKL adds this product's terms one after another (measured; see the module's note)."""
    if layouts in ("CC", "FC"):
        if m == 1 or n in (2, 3, 4, 8):
            return True
        if n == 1:
            return layouts == "FC" or k <= 4
        if n < 12:
            return k <= 5
        return m <= 3 and k <= 5
    if layouts == "FF":
        return k <= 3 if m == 1 else n < 12 or m <= 3
    # C @ F, a layer's forward x @ W.t()
    if n == 1:
        return k <= 4
    if n <= 3:
        return k <= 6
    return k <= 3 and (n < 12 or m <= 3)


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
    if (a.dtype is not _F32 and a.dtype != _F32) or b.dtype != _F32 or k < 2 or m * k * n > _LARGEST:
        return by_rows(a, b) if _NO_BLAS and n >= _ROWS_FROM[0] and m * k * n >= _ROWS_FROM[1] else a @ b
    if not _sequential(m, k, n, _layout(a) + _layout(b)):
        return fused_in_turn(a, b) if _NO_BLAS else a @ b
    terms = a[:, :, None] * b[None, :, :]  # each product rounded to float32, as sgemm's
    return np.ascontiguousarray(np.add.accumulate(terms, axis=1)[:, -1, :])


def batched_product(a, b):
    """``np.matmul(a, b)`` for arrays of 3 dims or more, float32 ones matrix by matrix as
    ``product`` adds them: PyTorch's ``bmm`` gives each matrix of a batch ``mm``'s bits.

    Args:
        a (ndarray): shape (..., M, K).
        b (ndarray): shape (..., K, N), batch dims broadcasting with ``a``'s.

    Returns:
        ndarray: shape (..., M, N).
    """
    if a.dtype != _F32 or b.dtype != _F32 or a.ndim < 2 or b.ndim < 2 or a.shape[-1] != b.shape[-2]:
        return np.matmul(a, b)
    m, k = a.shape[-2:]
    n = b.shape[-1]
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    if not all(batch) or not _NO_BLAS and (k < 2 or m * k * n > _LARGEST) or not (m and n):
        return np.matmul(a, b)  # (each matrix NumPy's BLAS product, as ``product`` gives it)
    a, b = np.broadcast_to(a, batch + (m, k)), np.broadcast_to(b, batch + (k, n))
    first = (0,) * len(batch)
    if not _NO_BLAS and not _sequential(m, k, n, _layout(a[first]) + _layout(b[first])):
        return np.matmul(a, b)  # (every matrix has the first one's layout)
    out = np.empty(batch + (m, n), _F32)
    for i in np.ndindex(*batch):
        out[i] = product(a[i], b[i])
    return out


# Where ``by_rows`` beats Pyodide's ``a @ b`` (columns, terms): 1.2x at 64x64x64, 2.2x at W2's
# 64x784 @ 784x128, 2x at 1x784 @ 784x128; slower with fewer than ~48 columns (0.7x at 16)
_ROWS_FROM = (64, 100_000)


def by_rows(a, b):
    """``a @ b`` as Pyodide's NumPy adds it, faster: there (no BLAS) its matmul loop takes each
    output's terms ``a[i, k] * b[k, j]`` one after another over ``k``, rounded, walking a column of
    ``b`` for each; einsum's ``ij,jk->ik`` over a ``b`` whose rows are contiguous adds the same
    terms in the same order (row ``k`` of ``b`` scaled by ``a[i, k]`` into row ``i``), along rows.
    The same bits (NaN, infinities, signed zeros and subnormals included; checked in Pyodide on
    random shapes and layouts, ``tests/e2e/test_goldens_in_pyodide.py``), 1.2-2.7x faster on
    products of 10^5 terms and more with 64 columns or more; ``a @ b`` otherwise.

    Args:
        a (ndarray): shape (M, K), floating.
        b (ndarray): shape (K, N).

    Returns:
        ndarray: shape (M, N), C-ordered, ``a @ b``'s bits in Pyodide.
    """
    if a.dtype != b.dtype or a.dtype.kind != "f" or a.dtype.itemsize not in (4, 8):
        return a @ b  # (a mixed or other dtype: as NumPy promotes it)
    # Both C-ordered: einsum's iterator may reorder or reverse the axes of other layouts, which
    # would change the order of the terms (a copy costs ~1% of such a product there)
    return np.einsum("ij,jk->ik", np.ascontiguousarray(a), np.ascontiguousarray(b))


def fused_in_turn(a, b):
    """``a @ b`` for float32 as a BLAS kernel with fused multiply-adds adds it: each output takes
    ``a[i, k] * b[k, j]`` one after another over ``k``, each rounded once with the sum so far.

    A term's exact product (float32 products are exact in float64) plus the sum so far, rounded
    to float64 then to float32, is that sum rounded once unless the float64 value lies half-way
    between two float32. So the steps run that way, two NumPy calls each (a few hundred steps in
    Pyodide), and one look at all of them afterwards finds the first step at such a tie, from which
    they run again through ``fma32``, which rounds those exactly.
    """
    k_all = a.shape[1]
    if k_all < 2:
        return np.ascontiguousarray(a @ b)  # one product, rounded once
    terms = a.astype(np.float64).T[:, :, None] * b.astype(np.float64)[:, None, :]  # (K, M, N), exact
    sums = np.empty_like(terms)  # each step's float64 sum
    outs = np.empty(terms.shape, _F32)  # the sum after each step
    outs[0] = terms[0]
    for k in range(1, k_all):
        np.add(terms[k], outs[k - 1], out=sums[k])
        outs[k] = sums[k]
    ties = half_way32(sums[1:]).reshape(k_all - 1, -1).any(axis=1)
    if ties.any():
        first = int(ties.argmax()) + 1
        out = outs[first - 1]
        for k in range(first, k_all):
            out = fma32(terms[k], 1.0, out)
        return np.ascontiguousarray(out, dtype=_F32)
    return np.ascontiguousarray(outs[-1])


def _gemv_sequential(m, k, layout):
    """Whether MKL's sgemv adds this product's terms one after another (measured; module's note)."""
    return layout == "F" and m >= 2 or k <= 4 or m <= 3 and k <= 11


def vector_product(a, v):
    """``a @ v`` for a 2-D ``a`` and a 1-D ``v``, small float32 ones in sgemv's order.

    Args:
        a (ndarray): shape (M, K).
        v (ndarray): shape (K,).

    Returns:
        ndarray: shape (M,), ``a @ v``.
    """
    m, k = a.shape
    if (a.dtype is not _F32 and a.dtype != _F32) or v.dtype != _F32 or k < 2 or m * k > _LARGEST \
            or not _gemv_sequential(m, k, _layout(a)):
        return a @ v
    return np.ascontiguousarray(np.add.accumulate(a * v, axis=1)[:, -1])  # rounded products, added in turn
