# Saved tensors tutorial, part 1: what grad_fn saved, and saved outputs are new tensor objects
import torch

a = torch.tensor([0.5, -1.0, 2.0, 3.0, -0.25], requires_grad=True)
b = torch.ones(5, requires_grad=True)
y = a * b
print(y.grad_fn._saved_self)
print(y.grad_fn._saved_other)
print(y.grad_fn._saved_self is a, y.grad_fn._saved_other is b)


def f(x):
    return x * x


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = f(f(f(x)))
node = y.grad_fn
while node is not None and node.name() != "torch::autograd::AccumulateGrad":
    print(node.name(), node._saved_self.grad_fn)
    node = node.next_functions[0][0]

y = torch.exp(a)
print(y.grad_fn._saved_result.equal(y))
print(y.grad_fn._saved_result is y)
print(y.grad_fn._saved_result)
print(sorted(n for n in dir(y.grad_fn) if n.startswith("_saved")))
print(sorted(n for n in dir(y.grad_fn) if n.startswith("_raw_saved")))
