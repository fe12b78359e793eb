import torch

# CopyBackwards hands src grad.to(src's dtype); the engine then sums it to src's shape.
def names(g):
    fn = g.grad_fn
    return fn and (fn.name(), [f and f.name() for f, _ in fn.next_functions])

for src_dtype, dst_dtype, src_shape in ((torch.float32, torch.float64, ()), (torch.float64, torch.float32, (2,)),
                                        (torch.float32, torch.float32, ()), (torch.float64, torch.float32, (2, 2))):
    src = torch.full(src_shape, -1.98, dtype=src_dtype, requires_grad=True)
    dst = torch.tensor([[-0.54, 2.92], [1.17, -1.7]], dtype=dst_dtype).abs()
    dst.copy_(src)
    g, = torch.autograd.grad((dst * dst).sum(), [src], create_graph=True)
    print(g.dtype, tuple(g.shape), names(g))
    print(torch.autograd.grad(g.sum(), [src])[0])
