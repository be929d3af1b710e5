"""compat.nn: PyTorch's torch.nn (Module, Parameter, the classic layers and losses,
functional, init, utils), built from compat's differentiable operations."""
from . import functional, init, utils
from .containers import ModuleDict, ModuleList, Sequential
from .conv import Conv1d, Conv2d
from .layers import (ELU, GELU, Dropout, Embedding, Flatten, Identity, LeakyReLU, Linear,
                     LogSoftmax, ReLU, SiLU, Sigmoid, Softmax, Softplus, Tanh)
from .loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, L1Loss, MSELoss,
                   NLLLoss, SmoothL1Loss)
from .module import Module
from .normalization import BatchNorm1d, LayerNorm
from .parameter import Parameter
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d

__all__ = [
    "functional", "init", "utils", "Module", "Parameter", "Identity", "Linear", "ReLU",
    "LeakyReLU", "ELU", "SiLU", "GELU", "Softplus", "Tanh", "Sigmoid", "Softmax",
    "LogSoftmax", "Flatten", "Dropout", "Embedding", "Conv1d", "Conv2d", "MaxPool2d",
    "AvgPool2d", "AdaptiveAvgPool2d", "BatchNorm1d", "LayerNorm", "Sequential",
    "ModuleList", "ModuleDict", "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "NLLLoss",
    "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss",
]
