import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
ops = {
    "x + 1": x + 1, "x + y": x + y, "x - y": x - y, "2 - x": 2 - x,
    "x * 2": x * 2, "x * y": x * y, "x / 2": x / 2, "x / y": x / y,
    "1 / x": 1 / x, "x ** 2": x ** 2, "x ** y": x ** y, "2 ** x": 2 ** x,
    "-x": -x, "x.exp()": x.exp(), "x.log()": x.log(), "x.sqrt()": x.sqrt(),
    "x.sin()": x.sin(), "x.cos()": x.cos(), "x.abs()": x.abs(),
}
for src, t in ops.items():
    print(f"{src:10s}", type(t.grad_fn).__name__, t.grad_fn.name())
