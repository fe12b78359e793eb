import torch

w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
out = w * 2
try:
    out.backward()
except RuntimeError as e:
    print(type(e).__name__, e)
out.sum().backward()
print(w.grad)
