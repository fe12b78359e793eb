import torch

# var/std warn when the reduction factor (input numel / output numel, 0 for an empty input) is
# not above the correction, also with correction 0.
e = torch.tensor([], dtype=torch.float64, requires_grad=True)
print(e.unsqueeze(-1).var(-1, unbiased=False))
print(torch.ones(3, 0).std(0, correction=0))
print(torch.ones(0, 3).var(0, correction=0))
print(torch.ones(3, 1).var(1, correction=0))
print(torch.ones(1).var())

# cat's backward gives an empty 1-D input at::zeros (a zero_(), version 1); the second gradient
# is then added into it in place (version 2).
g, = torch.autograd.grad(torch.cat([e, e]).sum(), [e])
print(g, g._version)
g, = torch.autograd.grad(torch.cat([e, e])[..., -1:].var(-1, unbiased=False), [e])
print(g, g._version)
x = torch.zeros(2, requires_grad=True)
g, = torch.autograd.grad(torch.cat([e.float(), x, x]).sum(), [x])
print(g, g._version)
