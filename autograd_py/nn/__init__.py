"""``torch.nn``: modules, parameters, ``functional``, ``init`` and ``utils``.

Example::

    >>> model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
    >>> loss = nn.MSELoss()(model(torch.ones(3, 2)), torch.zeros(3, 1))
    >>> loss.backward()
"""
from . import functional, init, parameter, utils
from .modules import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, Dropout, ELU, Embedding, Flatten, GELU,
                      Identity, L1Loss, LeakyReLU, Linear, LogSoftmax, Module, ModuleDict, ModuleList, MSELoss,
                      NLLLoss, ReLU, Sequential, SiLU, Sigmoid, SmoothL1Loss, Softmax, Softplus, Tanh)
from .modules import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AvgPool1d, AvgPool2d, Conv1d, Conv2d, MaxPool1d,
                      MaxPool2d)
from .modules import (CELU, GLU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh, LogSigmoid, Mish, PReLU, ReLU6, SELU,
                      Softmax2d, Softmin, Softshrink, Softsign, Tanhshrink, Threshold)
from .parameter import Parameter
from .parallel import DataParallel
from .modules import BatchNorm1d, BatchNorm2d, BatchNorm3d, LayerNorm, ParameterDict, ParameterList, RMSNorm
from .modules import GroupNorm, InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from . import parallel

__all__ = ["Parameter", "functional", "init", "utils", "Module", "Sequential", "ModuleList", "ModuleDict",
           "Linear", "Identity", "Flatten", "Embedding", "ReLU", "LeakyReLU", "ELU", "GELU", "SiLU", "Softplus",
           "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "Dropout", "MSELoss", "L1Loss", "SmoothL1Loss",
           "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "Conv1d", "Conv2d", "MaxPool2d", "AvgPool2d",
           "AdaptiveAvgPool2d", "DataParallel", "parallel", "MaxPool1d", "AvgPool1d", "AdaptiveAvgPool1d"]
__all__ += modules._ACTIVATIONS_MORE
__all__ += modules._NORMALIZATION + modules._PARAM_CONTAINERS
