"""``torch.optim.RMSprop``: steps scaled by a running average of squared gradients."""
import numpy as np

from .adam import _lerp
from .optimizer import Optimizer, fma, state_tensor, step_tensor, write_


class RMSprop(Optimizer):
    """RMSprop, with PyTorch's update rule::

        g = grad (negated if maximize) + weight_decay * param
        v = alpha * v + (1 - alpha) * g * g
        avg = sqrt(v) + eps               (centered: sqrt(v - m * m) + eps, m = lerp(m, g, 1 - alpha))
        buf = momentum * buf + g / avg, param -= lr * buf     (momentum > 0)
        param -= lr * g / avg                                   (otherwise)

    Args:
        params (iterable): parameters or parameter groups to optimize.
        lr (float, optional): learning rate. Defaults to 1e-2.
        alpha (float, optional): smoothing constant of the average. Defaults to 0.99.
        eps (float, optional): added to the denominator. Defaults to 1e-8.
        weight_decay (float, optional): L2 penalty. Defaults to 0.
        momentum (float, optional): momentum factor. Defaults to 0.
        centered (bool, optional): normalise by the gradient's estimated variance. Defaults to ``False``.
        maximize (bool, optional): ascend instead of descend. Defaults to ``False``.

    Example::

        >>> opt = torch.optim.RMSprop(net.parameters(), lr=0.01, alpha=0.9)
        >>> opt.zero_grad()
        >>> loss_fn(net(x), y).backward()
        >>> opt.step()
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach, maximize=maximize,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def _update(self, param, grad, group, state):
        p = param._data
        dt = p.dtype.type
        if not state:
            state["step"] = step_tensor()
            state["square_avg"] = state_tensor(np.zeros_like(p))
            if group["momentum"] > 0:
                state["momentum_buffer"] = state_tensor(np.zeros_like(p))
            if group["centered"]:
                state["grad_avg"] = state_tensor(np.zeros_like(p))
        step_t = state["step"]
        write_(step_t, step_t._data + 1)
        g = -grad if group["maximize"] else grad
        if group["weight_decay"] != 0:
            g = fma(p, group["weight_decay"], g)  # grad.add(param, alpha=weight_decay)
        alpha = group["alpha"]
        square_avg = state["square_avg"]
        # mul_(alpha).addcmul_(g, g, value=1 - alpha): the kernel fuses its multiply-add
        write_(square_avg, fma(dt(1 - alpha) * g, g, square_avg._data * dt(alpha)))
        if group["centered"]:
            grad_avg = state["grad_avg"]
            write_(grad_avg, _lerp(grad_avg._data, g, 1 - alpha))
            avg = np.sqrt(fma(-grad_avg._data, grad_avg._data, square_avg._data))  # addcmul(value=-1)
        else:
            avg = np.sqrt(square_avg._data)
        avg = avg + dt(group["eps"])
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]
            write_(buf, buf._data * dt(group["momentum"]) + g / avg)  # mul_(momentum).addcdiv_(g, avg)
            write_(param, fma(buf._data, -group["lr"], p))  # add_(buf, alpha=-lr)
        else:
            write_(param, p + dt(-group["lr"]) * g / avg)  # addcdiv_(g, avg, value=-lr)
