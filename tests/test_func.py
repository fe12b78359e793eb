"""torch.func beyond the golden snippets (tests/golden/snippets/func_*.py): levels left clean,
composition, outer autograd through the transforms, pytree specs, values recorded from torch 2.13."""
import numpy as np
import pytest

import autograd_py as torch
from autograd_py import forward_mode
from autograd_py.autograd import forward_ad as fwAD
from autograd_py.func import (functional_call, grad, grad_and_value, hessian, jacfwd, jacrev, jvp, linearize,
                              vjp)
from autograd_py.func._pytree import tree_flatten, tree_unflatten, treespec_pprint

X = [0.3, -1.2, 2.0]


def close(t, expected, tol=1e-4):
    np.testing.assert_allclose(np.asarray(t._data, dtype=float), np.asarray(expected, dtype=float),
                               rtol=tol, atol=tol)


def f(x):
    return (x.sin() * x.exp()).sum()


def test_pytree_specs_print_as_torch():
    # repr(TreeSpec) and treespec_pprint from torch 2.13's torch.utils._pytree
    cases = [((1, 2), "TreeSpec(tuple, None, [*,\n  *])", "(*, *)"),
             ([1, (2, 3)], "TreeSpec(list, None, [*,\n  TreeSpec(tuple, None, [*,\n    *])])", "[*, (*, *)]"),
             ({"a": 1, "b": [2]}, "TreeSpec(dict, ['a', 'b'], [*,\n  TreeSpec(list, None, [*])])", "{'a': *, 'b': [*]}"),
             (1, "*", "*"), ((1,), "TreeSpec(tuple, None, [*])", "(*,)"), ((), "TreeSpec(tuple, None, [])", "()"),
             (None, "*", "*")]
    for tree, spec_repr, pprint in cases:
        leaves, spec = tree_flatten(tree)
        assert repr(spec) == spec_repr and treespec_pprint(spec) == pprint
        assert tree_unflatten(leaves, spec) == tree


def test_compositions_agree_with_the_closed_form():
    x = torch.tensor(X)
    diag = 2 * np.cos(X) * np.exp(X)  # d²/dx² of sin(x)·exp(x)
    for h in (hessian(f), jacfwd(jacrev(f)), jacrev(jacrev(f)), jacfwd(jacfwd(f)), jacrev(jacfwd(f)),
              jacrev(grad(f)), jacfwd(grad(f))):
        out = h(x)
        close(out, np.diag(diag))
        assert out.grad_fn is None and not out.requires_grad
    v = torch.tensor([1., 0., -1.])
    close(jvp(grad(f), (x,), (v,))[1], [2.5791, 0.0, 6.1499])  # torch 2.13
    close(vjp(grad(f), x)[1](v)[0], [2.5791, 0.0, 6.1499])
    close(grad(lambda x: jvp(f, (x,), (v,))[1])(x), [2.5791, 0.0, 6.1499])
    s = torch.tensor(0.7)
    close(grad(grad(grad(lambda t: t ** 4)))(s), 24 * 0.7)


def test_forward_over_reverse_sees_saved_outputs_tangents():
    # exp saves its output; its tangent must reach backward (torch 2.13: [1.3499, 0, -7.3891])
    x = torch.tensor(X)
    with fwAD.dual_level():
        xd = fwAD.make_dual(x.clone().requires_grad_(), torch.tensor([1., 0., -1.]))
        g, = torch.autograd.grad(xd.exp().sum(), xd, create_graph=True)
        close(fwAD.unpack_dual(g).tangent, [1.3499, 0.0, -7.3891])


def test_outer_autograd_flows_through_the_transforms():
    c = torch.tensor([1., 2., 3.], requires_grad=True)
    _, fn = vjp(torch.exp, torch.tensor(X))
    r = fn(c)[0]
    assert r.requires_grad
    r.sum().backward()
    close(c.grad, [1.3499, 0.3012, 7.3891])
    y = torch.tensor([1., 2., 3.], requires_grad=True)
    g = grad(lambda x: (x ** 2 * y).sum())(torch.tensor([0.5, 0.5, 0.5]))
    g.sum().backward()
    close(y.grad, [1., 1., 1.])
    w = torch.tensor(X, requires_grad=True)
    gw, value = grad_and_value(lambda w: (w ** 3).sum())(w)
    assert type(gw.grad_fn).__name__ == "MulBackward0"
    gw.sum().backward()
    close(w.grad, 6 * np.array(X))


def test_levels_are_left_clean_even_when_func_raises():
    x = torch.tensor(X)

    def bad(x):
        raise ValueError("boom")
    for transform in (grad(bad), jacrev(bad), jacfwd(bad), lambda x: jvp(bad, (x,), (x,)), lambda x: vjp(bad, x)):
        with pytest.raises(ValueError, match="boom"):
            transform(x)
        assert forward_mode.levels == []
    out, t = jvp(torch.sin, (x,), (torch.ones(3),))
    assert out._fw_grads is None or not out._fw_grads
    assert x._fw_grads is None and not x.requires_grad and x.grad is None


def test_linearize_reruns_the_same_jvp():
    x = torch.tensor([[0.1, 0.2], [0.3, 0.4]])
    out, jvp_fn = linearize(lambda x: x.sin() * x, x)
    close(out, np.sin(x._data) * x._data)
    v = torch.tensor([[1., 0.], [2., -1.]])
    close(jvp_fn(v), (np.cos(x._data) * x._data + np.sin(x._data)) * v._data)


def test_functional_call_restores_the_module_after_an_error():
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(torch.tensor(2.))

        def forward(self, x):
            if x.sum() > 100:
                raise ValueError("too big")
            return self.w * x
    m = M()
    with pytest.raises(ValueError, match="too big"):
        functional_call(m, {"w": torch.tensor(5.)}, (torch.tensor(1000.),))
    assert m.w.item() == 2.0 and m.w.requires_grad and type(m._parameters["w"]).__name__ == "Parameter"
    close(functional_call(m, {"w": torch.tensor(5.)}, torch.tensor(3.)), 15.0)

