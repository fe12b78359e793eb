# Every form of Tensor.to, and when it returns the same tensor.
import torch

device = torch.device("cpu")
x = torch.tensor([[1, 2], [3, 4]])
print(x.to(device) is x, x.to("cpu") is x, x.cpu() is x)
print(x.to(torch.float32))
print(x.to(device, torch.float64))
print(x.to("cpu", dtype=torch.float16))
print(x.to(dtype=torch.float64, device=device))
print(x.to(torch.ones(1)))
print(x.to(torch.int64) is x, x.to(torch.int64, copy=True) is x)
w = torch.ones(2, requires_grad=True)
print(w.to(torch.float64))
print(w.to(device, non_blocking=True) is w)
try:
    x.to(torch.float64, "cpu")
except TypeError as e:
    print(str(e).splitlines()[0])
x.to(torch.ones(1), torch.int32)
