# Which slices record SliceBackward0: a lone slice always does; in a tuple, a slice from 0 (or none)
# to the end or past it with step 1 records nothing (x[..., :] is AliasBackward0), while ``-n:``
# and explicit steps are recorded even when they keep everything.
import torch

x = torch.ones(3, 2, requires_grad=True)
for key in ["x[..., :100]", "x[..., -2:]", "x[..., 0:2]", "x[..., :-0]", "x[..., 0:-1]", "x[..., -100:]",
            "x[:, 0:2:1]", "x[0:3, :]", "x[..., None, :]", "x[..., 0:2:2]", "x[0:4,]", "x[:]", "x[-3:, :]",
            "x[...]", "x[:, 1:][0]"]:
    y = eval(key)
    print(key, type(y.grad_fn).__name__, [type(f).__name__ for f, _ in y.grad_fn.next_functions], tuple(y.shape))
