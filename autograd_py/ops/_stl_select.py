"""GCC's ``std::partial_sort``, ``std::nth_element`` and ``std::sort``, step for step.

PyTorch's CPU ``topk`` selects with these (``aten/src/ATen/native/TopKImpl.h``), so which of
several tied values it returns, and the order of an unsorted result, are theirs. Only rows that
need it come here (ties, or ``sorted=False``); the rest are sorted by NumPy.
"""


def _lg(n):
    return n.bit_length() - 1


class _Row:
    """A list of ``(value, index)`` pairs and PyTorch's topk comparison on them."""

    def __init__(self, values, largest):
        self.a = [(v, i) for i, v in enumerate(values)]
        self.largest = largest

    def less(self, x, y):
        xv, yv = x[0], y[0]
        if self.largest:
            return (xv != xv and yv == yv) or xv > yv  # NaN counts as the largest
        return (xv == xv and yv != yv) or xv < yv

    # ------------------------------------------------------------------ heaps
    def push_heap(self, first, hole, top, value):
        a, less = self.a, self.less
        parent = (hole - 1) // 2
        while hole > top and less(a[first + parent], value):
            a[first + hole] = a[first + parent]
            hole = parent
            parent = (hole - 1) // 2
        a[first + hole] = value

    def adjust_heap(self, first, hole, length, value):
        a, less = self.a, self.less
        top = second = hole
        while second < (length - 1) // 2:
            second = 2 * (second + 1)
            if less(a[first + second], a[first + second - 1]):
                second -= 1
            a[first + hole] = a[first + second]
            hole = second
        if length % 2 == 0 and second == (length - 2) // 2:
            second = 2 * (second + 1)
            a[first + hole] = a[first + second - 1]
            hole = second - 1
        self.push_heap(first, hole, top, value)

    def make_heap(self, first, last):
        length = last - first
        if length < 2:
            return
        for parent in range((length - 2) // 2, -1, -1):
            self.adjust_heap(first, parent, length, self.a[first + parent])

    def pop_heap(self, first, last, result):
        a = self.a
        value = a[result]
        a[result] = a[first]
        self.adjust_heap(first, 0, last - first, value)

    def heap_select(self, first, middle, last):
        self.make_heap(first, middle)
        for i in range(middle, last):
            if self.less(self.a[i], self.a[first]):
                self.pop_heap(first, middle, i)

    def partial_sort(self, first, middle, last):
        self.heap_select(first, middle, last)
        while middle - first > 1:  # sort_heap
            middle -= 1
            self.pop_heap(first, middle, middle)

    # ------------------------------------------------------------------ quicksort pieces
    def insertion_sort(self, first, last):
        a, less = self.a, self.less
        for i in range(first + 1, last):
            if less(a[i], a[first]):
                value = a[i]
                a[first + 1:i + 1] = a[first:i]
                a[first] = value
            else:
                self.linear_insert(i)

    def linear_insert(self, last):
        a, less = self.a, self.less
        value = a[last]
        nxt = last - 1
        while less(value, a[nxt]):
            a[last] = a[nxt]
            last, nxt = nxt, nxt - 1
        a[last] = value

    def partition_pivot(self, first, last):
        a, less = self.a, self.less
        mid = first + (last - first) // 2
        x, y, z = first + 1, mid, last - 1
        if less(a[x], a[y]):
            pick = y if less(a[y], a[z]) else z if less(a[x], a[z]) else x
        else:
            pick = x if less(a[x], a[z]) else z if less(a[y], a[z]) else y
        a[first], a[pick] = a[pick], a[first]
        lo, hi, pivot = first + 1, last, a[first]
        while True:
            while less(a[lo], pivot):
                lo += 1
            hi -= 1
            while less(pivot, a[hi]):
                hi -= 1
            if not lo < hi:
                return lo
            a[lo], a[hi] = a[hi], a[lo]
            lo += 1

    def nth_element(self, first, nth, last):
        if first == last or nth == last:
            return
        depth = _lg(last - first) * 2
        while last - first > 3:
            if depth == 0:
                self.heap_select(first, nth + 1, last)
                self.a[first], self.a[nth] = self.a[nth], self.a[first]
                return
            depth -= 1
            cut = self.partition_pivot(first, last)
            if cut <= nth:
                first = cut
            else:
                last = cut
        self.insertion_sort(first, last)

    def sort(self, first, last):
        if first == last:
            return
        # introsort's recursion as a stack: the ranges are disjoint, so the order they are done in
        # does not change the result.
        stack = [(first, last, _lg(last - first) * 2)]
        while stack:
            lo, hi, depth = stack.pop()
            while hi - lo > 16:
                if depth == 0:
                    self.partial_sort(lo, hi, hi)
                    break
                depth -= 1
                cut = self.partition_pivot(lo, hi)
                stack.append((cut, hi, depth))
                hi = cut
        if last - first > 16:
            self.insertion_sort(first, first + 16)
            for i in range(first + 16, last):
                self.linear_insert(i)
        else:
            self.insertion_sort(first, last)


def topk_row(values, k, largest, sorted):
    """PyTorch's CPU topk of one row: the ``k`` positions it returns, in its order.

    Args:
        values (list): the row's values (Python floats or ints).
        k (int): how many to select (at least 1).
        largest (bool): select the largest values (else the smallest).
        sorted (bool): sort the selection.

    Returns:
        list of int: indices into ``values``.
    """
    row = _Row(values, largest)
    n = len(values)
    if k * 64 <= n:
        row.partial_sort(0, k, n)
    else:
        row.nth_element(0, k - 1, n)
        if sorted:
            row.sort(0, k - 1)
    return [i for _, i in row.a[:k]]
