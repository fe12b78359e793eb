# trace's gradient is PyTorch's trace_backward: zeros(n*m).index_fill_(0, diagonal, grad).view(n, m),
# so a create_graph gradient shows ViewBackward0 -> IndexFillBackward1 and version 2; its second
# derivatives and tangents (forward-over-reverse) go through that node.
import torch

fwAD = torch.autograd.forward_ad
def names(fn):
    return type(fn).__name__, [type(f[0]).__name__ if f[0] else None for f in fn.next_functions]
for shape in [(3, 4), (4, 3), (2, 2), (1, 1), (0, 3)]:
    v7 = torch.arange(float(shape[0] * shape[1])).reshape(shape).requires_grad_()
    v8 = torch.trace(v7)
    g, = torch.autograd.grad(v8, [v7])
    print(shape, g.tolist(), g._version, g.requires_grad, g.is_contiguous())
    g, = torch.autograd.grad((v8 * v8).sum(), [v7], create_graph=True)
    print(g.tolist(), g._version, names(g.grad_fn), names(g.grad_fn.next_functions[0][0]))
    h, = torch.autograd.grad((g * g).sum(), [v7])
    print(h.tolist())
    v7.grad = None
    (v8 * 2).backward(); print(v7.grad.tolist(), v7.grad._version)
    with fwAD.dual_level():
        d = fwAD.make_dual(v7, torch.ones(shape))
        g, = torch.autograd.grad((torch.trace(d) ** 2), [v7], create_graph=True)
        t = fwAD.unpack_dual(g).tangent
        print("fwd", None if t is None else (t.tolist(), t.requires_grad))
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
print(torch.func.grad(torch.trace)(x), torch.func.jacrev(torch.trace)(x), torch.func.hessian(lambda a: torch.trace(a) ** 2)(x).shape)
print(torch.autograd.functional.jacobian(torch.trace, x))
