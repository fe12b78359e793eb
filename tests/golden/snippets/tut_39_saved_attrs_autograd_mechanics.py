# "Autograd mechanics": saved tensors, _raw_saved_* hooks, and accessing them after backward
import torch

torch.manual_seed(0)
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))  # True
print(x is y.grad_fn._saved_self)  # True
print(y.grad_fn._saved_exponent)

x = torch.randn(5, requires_grad=True)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))  # True
print(y is y.grad_fn._saved_result)  # False


def pack_hook(t):
    print("pack", t.shape)
    return t


def unpack_hook(t):
    print("unpack", t.shape)
    return t


x = torch.randn(5, requires_grad=True)
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
print(type(y.grad_fn._raw_saved_self).__name__)
y.sum().backward()
print(torch.allclose(x.grad, 2 * x))

z = torch.mm(torch.randn(2, 3, requires_grad=True), torch.randn(3, 2))
print(z.grad_fn._saved_self_sym_sizes, z.grad_fn._saved_mat2.shape)
z.sum().backward()
print(y.grad_fn._saved_self)
