"""compat.optim: PyTorch's torch.optim (SGD, Adam, AdamW, Adamax, NAdam, RAdam, RMSprop,
Adagrad, Adadelta, Rprop, ASGD, LBFGS, lr_scheduler) with its parameter groups, state_dict
format and update arithmetic."""
from . import lr_scheduler
from .algorithms import (ASGD, SGD, Adadelta, Adagrad, Adam, Adamax, AdamW, NAdam, RAdam,
                         RMSprop, Rprop)
from .lbfgs import LBFGS
from .optimizer import Optimizer

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "Adamax", "NAdam", "RAdam", "RMSprop",
           "Adagrad", "Adadelta", "Rprop", "ASGD", "LBFGS", "lr_scheduler"]
