# _saved_* after backward: tensors are freed (error), the other arguments stay readable
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
w = torch.tensor([[0.5], [1.0], [-1.0]], requires_grad=True)
p = x.pow(2)
s = p.sum(dim=1, keepdim=True)
m = x.mean(-1)
y = (s * torch.mm(x, w)).sum() + m.sum() + torch.add(x, x, alpha=-2).sum()
print(p.grad_fn._saved_exponent, s.grad_fn._saved_dim, s.grad_fn._saved_keepdim, s.grad_fn._saved_self_sym_sizes)
print(m.grad_fn._saved_dim, m.grad_fn._saved_self_sym_numel)
mm = y.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0].next_functions[1][0]
print(mm.name(), mm._saved_mat2_sym_sizes, mm._saved_self_sym_strides, mm._saved_mat2.shape)
add = y.grad_fn.next_functions[1][0].next_functions[0][0]
print(add.name(), add._saved_alpha)
y.backward()
print(p.grad_fn._saved_exponent, s.grad_fn._saved_dim, add._saved_alpha, mm._saved_mat2_sym_sizes)
print(x.grad)
print(p.grad_fn._saved_self)
