"""``torch.optim.Adagrad``: steps scaled by the sum of all squared gradients so far."""
import numpy as np

from .optimizer import Optimizer, fma, state_tensor, step_tensor, write_


class Adagrad(Optimizer):
    """Adagrad, with PyTorch's update rule::

        t += 1
        g = grad (negated if maximize) + weight_decay * param
        lr_t = lr / (1 + (t - 1) * lr_decay)
        s = s + g * g                      (s starts at initial_accumulator_value)
        param -= lr_t * g / (sqrt(s) + eps)

    Args:
        params (iterable): parameters or parameter groups to optimize.
        lr (float, optional): learning rate. Defaults to 1e-2.
        lr_decay (float, optional): learning rate decay. Defaults to 0.
        weight_decay (float, optional): L2 penalty. Defaults to 0.
        initial_accumulator_value (float, optional): the sum's starting value. Defaults to 0.
        eps (float, optional): added to the denominator. Defaults to 1e-10.
        maximize (bool, optional): ascend instead of descend. Defaults to ``False``.

    Example::

        >>> opt = torch.optim.Adagrad(net.parameters(), lr=0.1)
        >>> opt.zero_grad()
        >>> loss_fn(net(x), y).backward()
        >>> opt.step()
    """

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        for group in self.param_groups:  # PyTorch makes each parameter's state here, not at its first step
            for p in group["params"]:
                self._init_state(p, self.state[p], group)

    @staticmethod
    def _init_state(param, state, group):
        state["step"] = step_tensor()
        state["sum"] = state_tensor(np.full_like(param._data, group["initial_accumulator_value"]))

    def _update(self, param, grad, group, state):
        p = param._data
        dt = p.dtype.type
        if not state:  # a parameter of a group added since
            self._init_state(param, state, group)
        step_t = state["step"]
        write_(step_t, step_t._data + 1)
        g = -grad if group["maximize"] else grad
        if group["weight_decay"] != 0:
            g = fma(p, group["weight_decay"], g)  # grad.add(param, alpha=weight_decay)
        clr = group["lr"] / (1 + (float(step_t._data) - 1) * group["lr_decay"])
        total = state["sum"]
        write_(total, fma(g, g, total._data))  # addcmul_(g, g, value=1)
        std = np.sqrt(total._data) + dt(group["eps"])
        write_(param, p + dt(-clr) * g / std)  # addcdiv_(g, std, value=-clr)
