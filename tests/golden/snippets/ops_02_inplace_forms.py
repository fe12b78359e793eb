# In-place forms of out-of-place ops: atan2_, frac_, addmv_, tan_, trunc_, square_, ... record the
# out-of-place op's node on the written tensor, bump its version, and keep its tangent.
import torch

fwAD = torch.autograd.forward_ad
base = torch.tensor([[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]])
other = torch.tensor([[1.0, 2.0, -1.0], [0.5, -3.0, 2.0]])
cases = [
    ("atan2_", lambda t: t.atan2_(other)), ("arctan2_", lambda t: t.arctan2_(other)), ("frac_", lambda t: t.frac_()),
    ("tan_", lambda t: t.tan_()), ("trunc_", lambda t: t.trunc_()), ("square_", lambda t: t.square_()),
    ("sgn_", lambda t: t.sgn_()), ("log1p_", lambda t: t.add_(2).log1p_()), ("negative_", lambda t: t.negative_()),
    ("clip_", lambda t: t.clip_(-1, 1)), ("divide_", lambda t: t.divide_(other)),
    ("multiply_", lambda t: t.multiply_(other)), ("subtract_", lambda t: t.subtract_(other, alpha=2)),
    ("true_divide_", lambda t: t.true_divide_(2)), ("fmod_", lambda t: t.fmod_(0.5)),
    ("remainder_", lambda t: t.remainder_(0.75)), ("cumsum_", lambda t: t.cumsum_(1)),
    ("cumprod_", lambda t: t.cumprod_(0)), ("swapaxes_", lambda t: t.swapaxes_(0, 1)),
    ("addmv_", lambda t: t[0].addmv_(other.t(), torch.tensor([1.0, -2.0]), beta=0.5)),
]
for name, f in cases:
    leaf = base.clone().requires_grad_()
    t = leaf * 1
    out = f(t)
    print(name, out, out.grad_fn.name(), t._version)
    out.sum().backward()
    print(" ", leaf.grad)
    with fwAD.dual_level():
        d = fwAD.make_dual(base.clone(), torch.ones(2, 3))
        f(d)
        print("  fwd", fwAD.unpack_dual(d).tangent)
for fn in (lambda: torch.tensor([1, 2]).atan2_(torch.tensor([1., 2.])), lambda: torch.tensor([1., 2.]).addmv_(torch.ones(3, 3), torch.ones(3)),
           lambda: torch.tensor([1, 2]).frac_(), lambda: base.clone().requires_grad_().tan_()):
    try:
        fn()
    except Exception as err:
        print(type(err).__name__, err)
