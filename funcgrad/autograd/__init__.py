"""HIPS autograd's API on funcgrad: a script ports by changing ``import autograd...`` to
``import funcgrad.autograd...``.

    import funcgrad.autograd.numpy as np
    from funcgrad.autograd import grad, elementwise_grad, jacobian

``funcgrad.autograd.numpy`` and ``funcgrad.autograd.scipy`` (with their submodules) are
``funcgrad.numpy`` and ``funcgrad.scipy`` themselves; the differential operators keep
autograd's names and signatures (``grad(fun, argnum=0)``, ``make_vjp`` returning
``(vjp, ans)``, ...). docs/coming-from.md lists where behaviour differs.
"""
from . import _aliases

_aliases.install()

from .builtins import dict, isinstance, list, tuple, type  # noqa: E402
from .differential_operators import (  # noqa: E402
    checkpoint, deriv, elementwise_grad, grad, grad_and_aux, grad_named, hessian,
    hessian_tensor_product, hessian_vector_product, holomorphic_grad, jacobian, make_ggnvp,
    make_hvp, make_jvp, make_vjp, multigrad_dict, tensor_jacobian_product, value_and_grad,
    vector_jacobian_product)
from .extend import primitive  # noqa: E402

__all__ = ["checkpoint", "deriv", "dict", "elementwise_grad", "grad", "grad_and_aux",
           "grad_named", "hessian", "hessian_tensor_product", "hessian_vector_product",
           "holomorphic_grad", "isinstance", "jacobian", "list", "make_ggnvp", "make_hvp",
           "make_jvp", "make_vjp", "multigrad_dict", "primitive", "tensor_jacobian_product",
           "tuple", "type", "value_and_grad", "vector_jacobian_product"]
