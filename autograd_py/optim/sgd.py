"""``torch.optim.SGD``: stochastic gradient descent with optional momentum and Nesterov."""
import numpy as np

from .optimizer import Optimizer, fma, state_tensor, write_


class SGD(Optimizer):
    """Stochastic gradient descent, with PyTorch's update rule::

        g = grad (negated if maximize) + weight_decay * param
        buf = g (first step) or momentum * buf + (1 - dampening) * g
        g = g + momentum * buf (nesterov) or buf (momentum != 0)
        param -= lr * g

    Args:
        params (iterable): parameters or parameter groups to optimize.
        lr (float, optional): learning rate. Defaults to 1e-3.
        momentum (float, optional): momentum factor. Defaults to 0.
        dampening (float, optional): dampening of the momentum. Defaults to 0.
        weight_decay (float, optional): L2 penalty. Defaults to 0.
        nesterov (bool, optional): Nesterov momentum. Defaults to ``False``.
        maximize (bool, optional): ascend instead of descend. Defaults to ``False``.

    Example::

        >>> opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        >>> opt.zero_grad()
        >>> loss_fn(model(x), y).backward()
        >>> opt.step()
    """

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach, differentiable=differentiable,
                        fused=fused)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def _update(self, param, grad, group, state):
        p = param._data
        g = -grad if group["maximize"] else grad
        if group["weight_decay"] != 0:
            g = fma(p, group["weight_decay"], g)
        momentum = group["momentum"]
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = state_tensor(np.array(g, dtype=p.dtype))
            else:
                write_(buf, fma(g, 1 - group["dampening"], buf._data * p.dtype.type(momentum)))
            g = fma(buf._data, momentum, g) if group["nesterov"] else buf._data
        write_(param, fma(g, -group["lr"], p))
