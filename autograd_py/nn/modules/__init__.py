"""The layer classes of ``torch.nn``."""
from .activation import ELU, GELU, LeakyReLU, LogSoftmax, ReLU, SiLU, Sigmoid, Softmax, Softplus, Tanh
from .activation import (CELU, GLU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh, LogSigmoid, Mish, PReLU, ReLU6,
                         SELU, Softmax2d, Softmin, Softshrink, Softsign, Tanhshrink, Threshold)
from .conv import Conv1d, Conv2d
from .container import ModuleDict, ModuleList, Sequential
from .dropout import Dropout
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .normalization import GroupNorm, LayerNorm, RMSNorm
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .param_containers import ParameterDict, ParameterList
from .linear import Flatten, Identity, Linear
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss, SmoothL1Loss
from .module import Module
from .pooling import AdaptiveAvgPool1d, AdaptiveAvgPool2d, AvgPool1d, AvgPool2d, MaxPool1d, MaxPool2d
from .sparse import Embedding

__all__ = ["Module", "Sequential", "ModuleList", "ModuleDict", "Linear", "Identity", "Flatten", "ReLU",
           "LeakyReLU", "ELU", "GELU", "SiLU", "Softplus", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "Dropout",
           "Embedding", "MSELoss", "L1Loss", "SmoothL1Loss", "CrossEntropyLoss", "NLLLoss", "BCELoss",
           "BCEWithLogitsLoss", "Conv1d", "Conv2d", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d",
           "MaxPool1d", "AvgPool1d", "AdaptiveAvgPool1d"]
_ACTIVATIONS_MORE = ["ReLU6", "Hardtanh", "LogSigmoid", "SELU", "CELU", "Mish", "Softsign", "Hardswish", "Hardsigmoid",
                     "Softmin", "Tanhshrink", "Softshrink", "Hardshrink", "Threshold", "GLU", "PReLU", "Softmax2d"]
__all__ += _ACTIVATIONS_MORE
_NORMALIZATION = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "RMSNorm", "GroupNorm",
                  "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]
__all__ += _NORMALIZATION
_PARAM_CONTAINERS = ["ParameterList", "ParameterDict"]
__all__ += _PARAM_CONTAINERS
