# reshape is a view (ViewBackward0) of a contiguous tensor, PyTorch's _reshape_alias (ReshapeAliasBackward0)
# of a non-contiguous one whose strides allow a view, else a copy (UnsafeViewBackward0).
import torch
x = torch.ones(2,3,requires_grad=True)
cases = ['x.reshape(6)','x.flatten()','x.t().reshape(6)','x[:, :2].reshape(4)','x[:, :1].reshape(2)','x[:, :1].flatten()','x.t()[:1].reshape(2)','x.unsqueeze(1).flatten()','x[0].reshape(3)','x[:,0].reshape(2)','x[:, ::2].reshape(4)','x.expand(2,2,3).reshape(12)','x[:1].reshape(3)','x.t().flatten(0,0)','x[:,1:].reshape(2,2)','x.t()[:, :1].reshape(3)','x.view(2,3,1)[:, :, :1].reshape(6)','x[:, :1].view(2)', 'x[:, 1:].reshape_as(torch.ones(2,2))', 'x[:, :0].reshape(0)', 'torch.ones(0, 3, requires_grad=True)[:, :1].reshape(0)']
for c in cases:
    y = eval(c); print(c, type(y.grad_fn).__name__)
    g, = torch.autograd.grad(y.sum(), x) if y.requires_grad and y.numel() else (None,)
    print(c, None if g is None else g.tolist())
