"""``torch.autograd``: backward, grad, Function, functional, gradcheck and the legacy Variable."""
from ..grad_mode import (detect_anomaly, enable_grad, inference_mode, is_anomaly_enabled, no_grad,
                         set_detect_anomaly, set_grad_enabled)
from . import forward_ad, functional, graph
from .api import backward, grad
from .function import Function, FunctionCtx, InplaceFunction, once_differentiable
from .gradcheck import gradcheck, gradgradcheck
from .variable import Variable

__all__ = ["Variable", "Function", "FunctionCtx", "InplaceFunction", "backward", "grad", "functional",
           "gradcheck", "gradgradcheck", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "set_detect_anomaly", "detect_anomaly", "is_anomaly_enabled", "once_differentiable", "graph",
           "forward_ad"]
