"""``torch.einsum``, composed the way PyTorch composes it: each operand's repeated subscripts become
a ``diagonal``, every operand is unsqueezed and permuted onto one common subscript order, and
operands are reduced left to right, a pair with contracted subscripts by one ``bmm`` (a pair
without them by ``mul``), so ``grad_fn`` chains match PyTorch's. Built from differentiable Tensor methods, it has backward, forward mode
and vmap through them.
"""
import string

_LETTERS = string.ascii_uppercase + string.ascii_lowercase


def _parse_operand(sub, x, k):
    """The labels of one operand's subscripts, ``...`` expanded to negative labels (right-aligned)."""
    nd = x.dim()
    if "..." in sub:
        head, tail = sub.split("...", 1)
        n_ell = nd - len(head) - len(tail)
        if n_ell < 0:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(head) + len(tail)}) is "
                               f"more than the number of dimensions ({nd}) for operand {k}")
        return list(head) + [-(n_ell - i) for i in range(n_ell)] + list(tail), n_ell
    if len(sub) != nd:
        raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(sub)}) does not match the "
                           f"number of dimensions ({nd}) for operand {k} and no ellipsis was given")
    return list(sub), 0


def _check_letters(text):
    for c in text.replace("...", ""):
        if c not in _LETTERS:
            raise RuntimeError(f"einsum(): invalid subscript given at index {text.index(c)} in the equation "
                               f"string, subscripts must be in [a-zA-Z]")


def _label_order(label):
    return (0, label) if isinstance(label, int) else (1, _LETTERS.index(label))


def einsum(equation, *operands):
    """Sums the products of the operands' elements along the dims the equation names.

    Args:
        equation (str): subscripts per operand, separated by commas, then optionally ``->`` and
            the output's subscripts (by default, the subscripts used once, in alphabetical order).
        operands (Tensors): the operands (or one list of them).

    Returns:
        Tensor: the result.

    Example::

        >>> torch.einsum('ij,jk->ik', torch.ones(2, 3), torch.ones(3, 4)).shape
        torch.Size([2, 4])
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    subs = lhs.split(",")
    if len(subs) != len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation"
                         if len(operands) > len(subs) else
                         "einsum(): fewer operands were provided than specified in the equation")
    _check_letters(eq.replace("->", "").replace(",", ""))
    parsed = [_parse_operand(s, x, k) for k, (s, x) in enumerate(zip(subs, operands))]
    n_ell = max(n for _, n in parsed)
    counts = {}
    for labels, _ in parsed:
        for lb in labels:
            counts[lb] = counts.get(lb, 0) + 1
    if arrow:
        out = _parse_output(rhs, n_ell, counts)
    else:
        out = [-(n_ell - i) for i in range(n_ell)] + sorted(
            (lb for lb, c in counts.items() if c == 1 and not isinstance(lb, int)), key=_label_order)
    contracted = sorted((lb for lb in counts if lb not in out), key=_label_order)
    order = out + contracted
    position = {lb: i for i, lb in enumerate(order)}
    sizes, dim_counts = {}, [0] * len(order)
    ops = [_align(x, labels, position, sizes, dim_counts, k)
           for k, (x, (labels, _)) in enumerate(zip(operands, parsed))]
    n_out = len(out)
    # Left to right, as PyTorch without a path: a contracted dim is summed as soon as only one
    # operand still has it (dim_counts), in the pair's bmm or by a sum beforehand.
    while len(ops) > 1:
        a, b = ops.pop(0), ops.pop(0)
        sum_dims, a_sums, b_sums = [], [], []
        for d in range(n_out, len(order)):
            if a.shape[d] != 1 and b.shape[d] != 1:
                dim_counts[d] -= 1
                if dim_counts[d] == 1:
                    sum_dims.append(d)
                    dim_counts[d] = 0
            elif dim_counts[d] == 1:
                if a.shape[d] != 1:
                    a_sums.append(d)
                    dim_counts[d] = 0
                elif b.shape[d] != 1:
                    b_sums.append(d)
                    dim_counts[d] = 0
        if a_sums:
            a = a.sum(a_sums, keepdim=True)
        if b_sums:
            b = b.sum(b_sums, keepdim=True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))
    result = ops[0]
    if len(order) > n_out:
        if len(operands) > 1:  # every contracted dim has size 1 by now: a view drops them
            return result.view(*result.shape[:n_out])
        return result.sum(list(range(n_out, len(order))))
    return result


def _parse_output(rhs, n_ell, counts):
    out = []
    if "..." in rhs:
        head, tail = rhs.split("...", 1)
        text = head + tail
        out = list(head) + [-(n_ell - i) for i in range(n_ell)] + list(tail)
    else:
        text = rhs
        out = list(rhs)
    for c in text:
        if text.count(c) > 1:
            raise RuntimeError(f"einsum(): output subscript {c} appears more than once in the output")
        if c not in counts:
            raise RuntimeError(f"einsum(): output subscript {c} does not appear in the equation for any input "
                               "operand")
    return out


def _align(x, labels, position, sizes, dim_counts, k):
    """``x`` with repeated labels taken as diagonals, size-1 dims added for absent labels, and
    permuted onto the common order (``position``); counts the operands whose dim is not 1."""
    permutation = [-1] * len(position)
    dim = 0
    for lb in labels:
        p = position[lb]
        if permutation[p] != -1:  # a repeated label: its diagonal
            prev = permutation[p]
            if x.shape[dim] != x.shape[prev]:
                raise RuntimeError(f"einsum(): subscript {lb} is repeated for operand {k} but the sizes don't "
                                   f"match, {x.shape[dim]} != {x.shape[prev]}")
            x = x.diagonal(0, prev, dim).movedim(-1, prev)
            continue
        size = x.shape[dim]
        if size != 1:
            prev = sizes.get(lb, 1)
            if prev != 1 and prev != size:
                if isinstance(lb, int):
                    raise RuntimeError(f"einsum(): dimension {dim} covered by ellipsis in operand {k}has size "
                                       f"{size} which does not broadcast with previously seen ellipsis with size "
                                       f"{prev} for the respective dimension")
                raise RuntimeError(f"einsum(): subscript {lb} has size {size} for operand {k} which does not "
                                   f"broadcast with previously seen size {prev}")
            sizes[lb] = size
            dim_counts[p] += 1
        permutation[p] = dim
        dim += 1
    for p, val in enumerate(permutation):
        if val == -1:
            x = x.unsqueeze(dim)
            permutation[p] = dim
            dim += 1
    return x.permute(*permutation)


def _sumproduct_pair(left, right, sum_dims):
    """``(left * right).sum(sum_dims, keepdim=True)`` by one ``bmm`` (operands of equal rank), as
    PyTorch's sumproduct_pair: permute, reshape, bmm, view, permute back."""
    if not sum_dims:
        return left * right
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for d in range(left.dim()):
        sl, sr = left.shape[d] != 1, right.shape[d] != 1
        if d in sum_dims:
            if sl and sr:
                sum_size *= left.shape[d]
            elif sl:
                left = left.sum(d, keepdim=True)
            elif sr:
                right = right.sum(d, keepdim=True)
        elif sl and sr:
            lro.append(d)
            lro_size *= left.shape[d]
        elif sl:
            lo.append(d)
            lo_size *= left.shape[d]
        else:
            ro.append(d)
            ro_size *= right.shape[d]
    if lo and ro and lo[0] > ro[-1]:
        # PyTorch 2.13 multiplies the other way round when every dim only the right operand has
        # comes before every dim only the left has: bmm(right, left) keeps the output's dim order
        left, right, lo, ro, lo_size, ro_size = right, left, ro, lo, ro_size, lo_size
    out_size = [left.shape[d] for d in lro] + [left.shape[d] for d in lo] + [1] * len(sum_dims) + [
        right.shape[d] for d in ro]
    order = lro + lo + sum_dims + ro
    inverse = [order.index(d) for d in range(len(order))]
    a = left.permute(*order).reshape(lro_size, lo_size, sum_size)
    b = right.permute(*lro, *sum_dims, *ro, *lo).reshape(lro_size, sum_size, ro_size)
    return a.bmm(b).view(*out_size).permute(*inverse)
