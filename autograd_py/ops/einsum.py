"""``torch.einsum``, composed the way PyTorch composes it: each operand's repeated subscripts become
a ``diagonal``, every operand is permuted (and unsqueezed) onto one common subscript order, and
operands are reduced left to right, a pair with contracted subscripts by one ``bmm`` (a pair
without them by ``mul``). Built from differentiable Tensor methods, it has backward, forward mode
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
    sizes = {}
    aligned = [_align(x, labels, order, sizes, k) for k, (x, (labels, _)) in enumerate(zip(operands, parsed))]
    n_out = len(out)
    result = aligned[0]
    for k in range(1, len(aligned)):
        later = set()
        for labels, _ in parsed[k + 1:]:
            later.update(labels)
        sum_dims = [n_out + i for i, lb in enumerate(contracted) if lb not in later]
        result = _sumproduct_pair(result, aligned[k], sum_dims)
    if len(aligned) == 1:
        dims = [n_out + i for i in range(len(contracted)) if result.shape[n_out + i] != 1]
        result = result.sum(dims) if dims else result
    if result.dim() != n_out:
        result = result.view(*result.shape[:n_out]) if len(aligned) > 1 else result.reshape(
            *result.shape[:n_out])
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


def _align(x, labels, order, sizes, k):
    """``x`` with repeated labels taken as diagonals, permuted to ``order`` (size-1 where absent)."""
    labels = list(labels)
    seen = {}
    i = 0
    while i < len(labels):
        lb = labels[i]
        if lb in seen:
            j = seen[lb]
            if x.shape[i] != x.shape[j]:
                raise RuntimeError(f"einsum(): subscript {lb} is repeated for operand {k} but the sizes don't "
                                   f"match, {x.shape[i]} != {x.shape[j]}")
            x = x.diagonal(0, j, i).movedim(-1, j)
            labels.pop(i)
            continue
        seen[lb] = i
        i += 1
    for i, lb in enumerate(labels):
        size = x.shape[i]
        prev = sizes.get(lb)
        if prev is not None and size != prev and size != 1 and prev != 1:
            name = "..." if isinstance(lb, int) else lb
            raise RuntimeError(f"einsum(): subscript {name} has size {size} for operand {k} which does not "
                               f"broadcast with previously seen size {prev}")
        if prev is None or prev == 1:
            sizes[lb] = size
    perm = [labels.index(lb) for lb in order if lb in labels]
    x = x.permute(*perm)
    present = [lb for lb in order if lb in labels]
    for d, lb in enumerate(order):
        if lb not in present:
            x = x.unsqueeze(d)
    return x


def _sumproduct_pair(left, right, sum_dims):
    """``(left * right).sum(sum_dims, keepdim=True)`` by one ``bmm`` (operands of equal rank)."""
    if not sum_dims:
        return left * right
    nd = left.dim()
    lro, lo, ro, sums = [], [], [], []
    for d in range(nd):
        sl, sr = left.shape[d] != 1, right.shape[d] != 1
        if d in sum_dims:
            if sl and sr:
                sums.append(d)
            elif sl:
                left = left.sum(d, keepdim=True)
            elif sr:
                right = right.sum(d, keepdim=True)
        elif sl and sr:
            lro.append(d)
        elif sl:
            lo.append(d)
        elif sr:
            ro.append(d)
    ones = [d for d in range(nd) if d not in lro + lo + ro + sums]

    def size(x, dims):
        n = 1
        for d in dims:
            n *= x.shape[d]
        return n

    lro_size, lo_size, ro_size, sum_size = size(left, lro), size(left, lo), size(right, ro), size(left, sums)
    out_shape = [left.shape[d] for d in lro] + [left.shape[d] for d in lo] + [right.shape[d] for d in ro] + [1] * (
        len(sums) + len(ones))
    a = left.permute(*lro, *lo, *sums, *ro, *ones).reshape(lro_size, lo_size, sum_size)
    b = right.permute(*lro, *sums, *ro, *lo, *ones).reshape(lro_size, sum_size, ro_size)
    result = a.bmm(b).view(*out_shape)
    perm = lro + lo + ro + sums + ones
    inverse = [perm.index(d) for d in range(nd)]
    return result if inverse == list(range(nd)) else result.permute(*inverse)
