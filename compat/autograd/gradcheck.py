"""gradcheck and gradgradcheck, as in torch.autograd: a function's derivatives checked
against central finite differences.

The Jacobians are laid out as PyTorch's, one per (input, output) pair with a row per input
element and a column per output element, and the failures are PyTorch's GradcheckError
with its messages. compat has no sparse or strided tensors and no forward mode, so the
options for those (masked, gen_non_contig_grad_outputs) have nothing to do, and the checks
that need them (check_forward_ad, check_batched_grad, ...) refuse to run, as do complex
inputs and outputs (whose Wirtinger derivatives PyTorch checks). fast_mode
runs the full check (the same verdict, with every Jacobian entry computed).
"""
import warnings

import numpy as np

from .._dtypes import complex128, float64
from .._factories import empty_like, from_numpy
from .._graph import grad
from .._tensor import Tensor

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """A derivative differs from its finite-difference estimate (or backward misbehaves)."""


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False,
              check_forward_ad=False, check_backward_ad=True, fast_mode=False, masked=None):
    """True if the gradients of ``func`` at ``inputs`` (those tensors with requires_grad)
    match finite differences: ``|analytical - numerical| <= atol + rtol * |numerical|``.
    A mismatch raises GradcheckError, or returns False with ``raise_exception=False``.
    Inputs should be float64: float32 differences at eps=1e-6 are mostly rounding."""
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError("Expected at least one of check_forward_ad or check_backward_ad "
                             "to be True")
    _refuse("gradcheck", check_forward_ad=check_forward_ad, check_batched_grad=check_batched_grad,
            check_batched_forward_grad=check_batched_forward_grad)
    try:
        _check(func, _as_tuple(inputs), eps, atol, rtol, nondet_tol, check_grad_dtypes)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False,
                  masked=False):
    """gradcheck of the gradient: checks the derivatives of
    ``(inputs, grad_outputs) -> autograd.grad(func(*inputs), inputs, grad_outputs)``.
    Without ``grad_outputs``, random ones in [-1, 1) are drawn (requiring grad)."""
    _refuse("gradgradcheck", check_fwd_over_rev=check_fwd_over_rev,
            check_batched_grad=check_batched_grad)
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        grad_outputs = tuple(empty_like(o).uniform_(-1, 1).requires_grad_()
                             for o in _differentiable_outputs(func(*inputs)))
    grad_outputs = _as_tuple(grad_outputs)
    count = len(grad_outputs)
    checked = [i for i, x in enumerate(inputs) if _requires_grad(x)]

    def gradient(*args):
        args, cotangents = args[:-count], args[-count:]
        grads = grad(_differentiable_outputs(func(*args)), [args[i] for i in checked],
                     cotangents, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(gradient, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes, check_backward_ad=check_rev_over_rev,
                     fast_mode=fast_mode, masked=masked)


def _refuse(name, **options):
    wanted = [option for option, value in options.items() if value]
    if wanted:
        raise NotImplementedError(
            f"compat.autograd.{name}: {', '.join(wanted)} needs forward-mode or batched "
            f"(vmap) gradients, which compat does not have; leave it False.")


def _as_tuple(x):
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _requires_grad(x):
    return isinstance(x, Tensor) and x.requires_grad


def _differentiable_outputs(out):
    return tuple(o for o in _as_tuple(out) if _requires_grad(o))


def _check(func, inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes):
    checked = [i for i, x in enumerate(inputs) if _requires_grad(x)]
    if not checked:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, "
                         "but none of them have requires_grad=True.")
    for i in checked:
        if inputs[i].dtype not in (float64, complex128):
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point "
                f"or complex. This check will likely fail if all the inputs are not of double "
                f"precision floating point or complex. ", stacklevel=3)
    outputs = _as_tuple(func(*inputs))
    if any(t.is_complex() for t in [inputs[i] for i in checked] + list(outputs)
           if isinstance(t, Tensor)):
        raise NotImplementedError(
            "compat.autograd.gradcheck: complex inputs and outputs are not supported (PyTorch "
            "checks their Wirtinger derivatives); check a function of their real and "
            "imaginary parts (view_as_real) instead.")
    numerical = _numerical_jacobians(func, inputs, checked, outputs, eps)
    for j, output in enumerate(outputs):
        if not _requires_grad(output) and any(np.any(n[j] != 0) for n in numerical):
            raise GradcheckError("Numerical gradient for function expected to be zero")
    differentiable = [j for j, o in enumerate(outputs) if _requires_grad(o)]
    diff_inputs = [inputs[i] for i in checked]
    for position, j in enumerate(differentiable):
        first = _analytical_jacobians(outputs[j], diff_inputs, check_grad_dtypes)
        again = _analytical_jacobians(outputs[j], diff_inputs, check_grad_dtypes)
        if any(np.any(np.abs(a - b) > nondet_tol) for a, b in zip(first, again)):
            raise GradcheckError(
                f"Backward is not reentrant, i.e., running backward with same input and "
                f"grad_output multiple times gives different values, although analytical "
                f"gradient matches numerical gradient.The tolerance for nondeterminism was "
                f"{nondet_tol}.\n\nIf backward is nondeterministic on purpose, call "
                f"gradcheck/gradgradcheck with `nondet_tol=<tol>` as a keyword argument.\n")
        for k, analytical in enumerate(first):
            expected = numerical[k][j]
            if not np.all(np.abs(analytical - expected) <= atol + rtol * np.abs(expected)):
                raise GradcheckError(
                    f"Jacobian mismatch for output {position} with respect to input {k},\n"
                    f"numerical:{from_numpy(expected)}\nanalytical:{from_numpy(analytical)}\n")
    _check_backward_scales_with_grad_output([outputs[j] for j in differentiable], diff_inputs)


def _numerical_jacobians(func, inputs, checked, outputs, eps):
    """Per checked input, per output: (input size, output size) central differences.
    The moved inputs require grad as the originals do (as PyTorch moves them in place),
    so that a function that differentiates inside (gradgradcheck's) still can."""
    values = [x.detach().numpy().copy() if isinstance(x, Tensor) else x for x in inputs]

    def tensor_like(value, original):
        return from_numpy(value).requires_grad_(original.requires_grad)

    def evaluate(i, k, step):
        moved = values[i].copy()
        moved.flat[k] += step
        args = [tensor_like(moved, x) if m == i else
                tensor_like(v.copy(), x) if isinstance(x, Tensor) else v
                for m, (v, x) in enumerate(zip(values, inputs))]
        return [o.detach().numpy().ravel() for o in _as_tuple(func(*args))]

    jacobians = []
    for i in checked:
        rows = [[(plus - minus) / (2 * eps) for plus, minus in
                 zip(evaluate(i, k, eps), evaluate(i, k, -eps))]
                for k in range(values[i].size)]
        jacobians.append([np.array([row[j] for row in rows]).reshape(len(rows), _size(o))
                          for j, o in enumerate(outputs)])
    return jacobians


def _analytical_jacobians(output, inputs, check_grad_dtypes):
    """Per input, (input size, output size): column m is the gradient of output element m."""
    dtype = output.detach().numpy().dtype
    columns = []
    for m in range(_size(output)):
        seed = np.zeros(output.shape, dtype)
        seed.flat[m] = 1
        grads = grad(output, inputs, from_numpy(seed), retain_graph=True, allow_unused=True)
        if check_grad_dtypes and any(g is not None and g.dtype != x.dtype
                                     for g, x in zip(grads, inputs)):
            raise GradcheckError("Gradient has dtype mismatch")
        columns.append([np.zeros(_size(x), dtype) if g is None else g.detach().numpy().ravel()
                        for g, x in zip(grads, inputs)])
    return [np.array([column[k] for column in columns], dtype).T.reshape(_size(x), len(columns))
            for k, x in enumerate(inputs)]


def _size(tensor):
    return int(np.prod(tensor.shape))


def _check_backward_scales_with_grad_output(outputs, inputs):
    """With zero grad_outputs every gradient must be zero (backward multiplies by them)."""
    if not outputs:
        return
    zeros = [from_numpy(np.zeros(o.shape, o.detach().numpy().dtype)) for o in outputs]
    grads = grad(outputs, inputs, zeros, retain_graph=True, allow_unused=True)
    if any(g is not None and np.any(g.detach().numpy() != 0) for g in grads):
        raise GradcheckError("backward not multiplied by grad_output")
