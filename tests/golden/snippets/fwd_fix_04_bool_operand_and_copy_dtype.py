# A bool or integer operand of maximum/minimum/clamp has a zero tangent in the result's dtype; copy_
# into a tensor without a tangent keeps the source tangent's dtype unless it is broadcast.
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([[2.39, 2.9], [-2.09, -1.15]], dtype=torch.float64, requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([[-1.0, -1.5], [1.91, 0.94]], dtype=torch.float64))
    mask = ~(d > 0)
    print("minimum", fwAD.unpack_dual(mask.minimum(d)).tangent)
    print("maximum", fwAD.unpack_dual(torch.maximum(d, mask)).tangent)
    print("clamp_min", fwAD.unpack_dual(d.clamp_min(mask)).tangent)
    print("clamp(max=int)", fwAD.unpack_dual(torch.clamp(d, max=torch.tensor([1, 0]))).tangent)
    s0 = fwAD.make_dual(torch.tensor(0.5, dtype=torch.float64), torch.tensor(-2.72, dtype=torch.float64))
    s3 = fwAD.make_dual(torch.zeros(3), torch.full((3,), 2.0))
    for name, dest, src in [("float32 <- 0-dim float64", torch.zeros(3), s0),
                            ("float64 <- float32", torch.zeros(3, dtype=torch.float64), s3),
                            ("float32 <- float64 same size", torch.zeros(3), s3.double()),
                            ("dual float64 <- float32", fwAD.make_dual(torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)), s3),
                            ("empty float32 <- 0-dim float64", torch.zeros(0), s0)]:
        dest.copy_(src)
        t = fwAD.unpack_dual(dest).tangent
        print(name, t, t.dtype)
