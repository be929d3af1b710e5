"""funcgrad: composable automatic differentiation for NumPy code.

    import funcgrad as fg
    import funcgrad.numpy as fnp

    fg.grad(lambda x: fnp.sum(fnp.tanh(x) ** 2))(x)
"""
from . import numpy, tree_util
from .core import float0
from .transforms import custom_jvp, custom_vjp, grad, stop_gradient, value_and_grad, vjp
from .transforms import (checkpoint, checkpoint_name, checkpoint_policies, hessian, hvp, jacfwd,
                         jacrev, jit, jvp, linear_transpose, linearize, remat, vmap)
from .numpy import functional as _functional

_functional.vmap = vmap  # (numpy.vectorize batches with it; funcgrad.numpy cannot import it)
from . import test_util  # noqa: E402 -- uses the transforms above
from .debug import config, debug_nans
from .transforms.graph import make_graph

__version__ = "0.1.0"
