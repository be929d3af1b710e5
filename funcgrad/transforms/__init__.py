"""Composable transforms over functions written with funcgrad.numpy."""
from .checkpoint import checkpoint, checkpoint_name, checkpoint_policies, remat
from .custom import custom_jvp, custom_vjp
from .forward import jvp
from .jacobians import hessian, hvp, jacfwd, jacrev
from .jit import jit
from .linear import linear_transpose, linearize
from .reverse import grad, value_and_grad, vjp
from .stop_gradient import stop_gradient
from .vmap import vmap
