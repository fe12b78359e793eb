# save_on_cpu: pack returns (device, tensor); a module wrapper that saves its tensors on the CPU
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0]))

    def forward(self, x):
        with torch.autograd.graph.save_on_cpu(pin_memory=True):
            return self.w * x


x = torch.tensor([0.5, 0.5, 1.0, 2.0, -1.0])
model = Model()
out = model(x)
print(out.grad_fn._raw_saved_other.data)
print(out.grad_fn._saved_other)
print(out.grad_fn._saved_self)
loss = out.sum()
loss.backward()
print(model.w.grad)

with torch.autograd.graph.save_on_cpu():
    y = model.w.exp()
device, saved = y.grad_fn._raw_saved_result.data
print(device, saved, saved.grad_fn)
print(y.grad_fn._saved_result)
print(type(torch.autograd.graph.save_on_cpu()).__mro__[1])
