"""compat.autograd: Variable, Function, backward, grad, gradcheck and gradgradcheck, and the
`functional` module (vjp, jvp, jacobian, hessian, vhp, hvp), as in torch.autograd."""
from .._grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from .._graph import backward, grad
from . import functional
from .anomaly import detect_anomaly, is_anomaly_enabled, set_detect_anomaly
from .function import Function, FunctionCtx
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .variable import Variable

__all__ = ["Variable", "Function", "FunctionCtx", "backward", "grad", "no_grad", "enable_grad",
           "set_grad_enabled", "inference_mode", "detect_anomaly", "set_detect_anomaly",
           "is_anomaly_enabled", "gradcheck", "gradgradcheck", "GradcheckError"]
