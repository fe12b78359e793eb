"""``torch.optim.Adam`` and ``AdamW``: adaptive moment estimation."""
import math

import numpy as np

from .optimizer import Optimizer, fma, state_tensor, step_tensor, write_


def _lerp(start, end, weight):
    """PyTorch's CPU lerp: ``start + w * (end - start)`` for small w, else ``end - (end - start) * (1 - w)``."""
    diff = end - start
    if abs(weight) < 0.5:
        return fma(diff, weight, start)
    return fma(diff, -(1 - weight), end)


class Adam(Optimizer):
    """Adam, with PyTorch's update rule::

        t += 1
        g = grad (negated if maximize) + weight_decay * param   (AdamW: param *= 1 - lr * weight_decay)
        m = lerp(m, g, 1 - beta1)
        v = beta2 * v + (1 - beta2) * g * g
        denom = sqrt(v) / sqrt(1 - beta2 ** t) + eps        (amsgrad: max of all v so far)
        param -= lr / (1 - beta1 ** t) * m / denom

    Args:
        params (iterable): parameters or parameter groups to optimize.
        lr (float, optional): learning rate. Defaults to 1e-3.
        betas (Tuple[float, float], optional): decay rates of the moment estimates. Defaults to (0.9, 0.999).
        eps (float, optional): added to the denominator. Defaults to 1e-8.
        weight_decay (float, optional): L2 penalty. Defaults to 0.
        amsgrad (bool, optional): use the AMSGrad variant. Defaults to ``False``.
        maximize (bool, optional): ascend instead of descend. Defaults to ``False``.
        decoupled_weight_decay (bool, optional): decay the weights directly (AdamW). Defaults to ``False``.
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable, differentiable=differentiable,
                        fused=fused, decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    def _update(self, param, grad, group, state):
        p = param._data
        dt = p.dtype.type
        if not state:
            state["step"] = step_tensor()
            state["exp_avg"] = state_tensor(np.zeros_like(p))
            state["exp_avg_sq"] = state_tensor(np.zeros_like(p))
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = state_tensor(np.zeros_like(p))
        beta1, beta2 = group["betas"]
        lr, wd = group["lr"], group["weight_decay"]
        g = -grad if group["maximize"] else grad
        step_t = state["step"]
        write_(step_t, step_t._data + 1)
        if wd != 0:
            if group["decoupled_weight_decay"]:
                write_(param, p * dt(1 - lr * wd))
            else:
                g = fma(p, wd, g)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        write_(exp_avg, _lerp(exp_avg._data, g, 1 - beta1))
        write_(exp_avg_sq, fma(dt(1 - beta2) * g, g, exp_avg_sq._data * dt(beta2)))
        step = float(step_t._data)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = math.sqrt(bias_correction2)
        second = exp_avg_sq._data
        if group["amsgrad"]:
            max_sq = state["max_exp_avg_sq"]
            write_(max_sq, np.maximum(max_sq._data, exp_avg_sq._data))
            second = max_sq._data
        denom = np.sqrt(second) / dt(bias_correction2_sqrt) + dt(group["eps"])
        write_(param, p + dt(-step_size) * exp_avg._data / denom)


class AdamW(Adam):
    """Adam with decoupled weight decay (``param *= 1 - lr * weight_decay`` before each step).

    Same arguments as :class:`Adam`, except ``weight_decay`` defaults to 1e-2.
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)
