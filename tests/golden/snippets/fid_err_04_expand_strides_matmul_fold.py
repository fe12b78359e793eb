import torch


def attempt(name, f):
    try:
        print(name, f())
    except Exception as e:
        print(name, type(e).__name__, e)


# expand keeps the stride of a dim whose size it keeps (size 1 included); only grown dims get 0.
v = torch.ones(2, 1, 3).unsqueeze(0).expand(2, 2, 1, 3)
print(v.stride(), v[-1].stride(), torch.ones(1, 1, 3).expand(2, 2, 1, 3).stride())
print(torch.ones(3, 1).expand(3, 4).stride(), torch.ones(1).expand(5).stride())
# matmul folds a >=3-D operand into one mm when its batch dims need no copy (mm's message on a
# mismatch), else runs bmm (bmm's message).
attempt("indexed expand", lambda: v[-1] @ torch.ones(5, 1))
attempt("expanded", lambda: torch.ones(1, 1, 3).expand(2, 2, 1, 3) @ torch.ones(5, 1))
attempt("transposed", lambda: torch.ones(2, 3, 1).transpose(1, 2) @ torch.ones(5, 1))
attempt("contiguous", lambda: torch.ones(2, 2, 1, 3) @ torch.ones(5, 1))
