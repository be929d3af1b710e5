"""funcgrad.scipy.integrate: ``scipy.integrate.odeint``, differentiable by the adjoint
method.

The solution is SciPy's (LSODA). Its derivative is not that of the solver's steps but of
the exact solution, computed as autograd and JAX do: one backward solve of the adjoint
system per interval between output times, carrying the state, its cotangent ``a``, the
time's and the arguments' cotangents, with ``da/ds = -a^T df/dy``. So gradients with
respect to the initial state, every output time and every array in ``args`` are those of
the exact solution up to the solver's tolerances; reverse mode and first order only
(JAX's and autograd's adjoint solves are differentiable again; this one is SciPy's).
"""
import numpy as np
import scipy.integrate

from ..core import Box, JVPBox, ReverseBox, dtype_of, shape_of, unbox_all
from ..flatten_util import ravel_pytree
from ..numpy._base import astype
from ..numpy.creation import asarray
from ..numpy.shape_ops import reshape
from ..transforms import custom_vjp, vjp
from ..tree_util import tree_flatten

_OPTIONS = ("rtol", "atol", "tcrit", "h0", "hmax", "hmin", "mxstep")


def _plain_rhs(func, args, name):
    """``func`` as SciPy calls it: plain arrays in and out."""
    def rhs(y, t):
        dy = func(y, t, *args)
        if isinstance(dy, Box) or any(isinstance(leaf, Box) for leaf in tree_flatten(dy)[0]):
            raise TypeError(
                f"funcgrad.scipy.integrate.{name}: func returned a value traced by a "
                f"transform although its arguments were constants: it uses a traced value "
                f"it closes over. Pass that value through args=(...) instead, so that its "
                f"derivative is computed.")
        return np.asarray(dy, np.float64).reshape(-1)
    return rhs


def _first_order_only(values):
    """Raise if a derivative outside odeint's own traces `values`: a derivative of that
    derivative was asked for, and SciPy's solves, forward and adjoint, run on plain
    arrays, which have none. (jit's values pass: jit runs the solves on its inputs.)"""
    if any(isinstance(leaf, (ReverseBox, JVPBox)) for leaf in tree_flatten(values)[0]):
        raise NotImplementedError(
            "funcgrad.scipy.integrate.odeint: only first derivatives are supported (SciPy "
            "solves the system and its adjoint on plain arrays); a derivative of odeint's "
            "gradient (grad of grad, hessian, jacfwd of grad) is not.")


def _solve(func, options, y0, t, args):
    _first_order_only((y0, t, args))
    return scipy.integrate.odeint(_plain_rhs(func, args, "odeint"), y0, t, args=(),
                                  full_output=False, **dict(options))


_odeint = custom_vjp(_solve, nondiff_argnums=(0, 1))


def _odeint_fwd(func, options, y0, t, args):
    ys = _solve(func, options, y0, t, args)
    return ys, (ys, t, args)


def _odeint_bwd(func, options, residuals, g):
    _first_order_only((residuals, g))
    ys, t, args = residuals
    flat_args, unravel = ravel_pytree(args)
    flat_args = np.asarray(flat_args, np.float64)
    size, count = ys.shape[1], flat_args.shape[0]

    def field(y, s, flat):
        return func(y, s, *unravel(flat))

    def augmented(state, s):
        # [y, a, a_t, a_args]' = [f, -a^T f_y, -a^T f_t, -a^T f_args].
        y, a = state[:size], state[size:2 * size]
        dy, pull = vjp(field, y, s, flat_args)
        ct_y, ct_s, ct_args = pull(-a)
        return np.concatenate([np.asarray(dy, np.float64).reshape(-1),
                               np.asarray(ct_y).reshape(-1), np.reshape(ct_s, 1),
                               np.asarray(ct_args).reshape(-1)])

    g = np.asarray(g, np.float64)
    a, a_t0, a_args = g[-1].copy(), 0.0, np.zeros(count)
    ct_t = np.zeros(len(t))
    for i in range(len(t) - 1, 0, -1):
        # Moving output time t_i moves y(t_i) along f: its cotangent is g_i . f.
        ct_t[i] = g[i] @ _plain_rhs(func, args, "odeint")(ys[i], t[i])
        a_t0 -= ct_t[i]
        start = np.concatenate([ys[i], a, [a_t0], a_args])
        end = scipy.integrate.odeint(augmented, start, np.array([t[i], t[i - 1]]),
                                     **dict(options))[1]
        a = end[size:2 * size] + g[i - 1]
        a_t0, a_args = end[2 * size], end[2 * size + 1:]
    ct_t[0] = a_t0
    return a, ct_t, unravel(a_args)


_odeint.defvjp(_odeint_fwd, _odeint_bwd)


def odeint(func, y0, t, args=(), Dfun=None, col_deriv=0, full_output=0, ml=None, mu=None,
           rtol=None, atol=None, tcrit=None, h0=0.0, hmax=0.0, hmin=0.0, ixpr=0, mxstep=0,
           mxhnil=0, mxordn=12, mxords=5, printmessg=0, tfirst=False):
    """``scipy.integrate.odeint``: ``y`` at the times ``t`` (rows) for ``dy/dt =
    func(y, t, *args)`` and ``y(t[0]) = y0``; differentiable (reverse mode) in ``y0``,
    ``t`` and the arrays in ``args`` (any pytree: autograd's ``tuple((params,))`` too).
    ``func`` must be written with funcgrad.numpy; values it closes over are constants.
    Supported options: rtol, atol, tcrit, h0, hmax, hmin, mxstep, tfirst."""
    name = "funcgrad.scipy.integrate.odeint"
    unsupported = {"Dfun": Dfun is not None, "col_deriv": col_deriv, "full_output": full_output,
                   "ml": ml is not None, "mu": mu is not None, "ixpr": ixpr,
                   "mxhnil": mxhnil, "mxordn": mxordn != 12, "mxords": mxords != 5,
                   "printmessg": printmessg}
    given = sorted(option for option, used in unsupported.items() if used)
    if given:
        raise NotImplementedError(f"{name}: the options {given} are not supported; leave "
                                  f"them at their defaults")
    if not callable(func):
        raise TypeError(f"{name}: func must be callable, got {type(func).__name__}")
    if not isinstance(args, tuple):
        args = (args,)
    y0, t = asarray(y0), asarray(t)
    for value, argument in ((y0, "y0"), (t, "t")):
        if dtype_of(value).kind not in "biuf":
            raise TypeError(f"{name}: {argument} must be real, got dtype {dtype_of(value)}")
    if len(shape_of(y0)) > 1 or len(shape_of(t)) != 1:
        raise ValueError(f"{name}: y0 must be a scalar or a vector and t a vector, got "
                         f"shapes {shape_of(y0)} and {shape_of(t)}")
    times = np.asarray(unbox_all(t))
    steps = np.diff(times)
    if not (np.all(steps >= 0) or np.all(steps <= 0)):
        raise ValueError(f"{name}: the times t must be monotonic (increasing or decreasing)")
    if tfirst:
        user_func = func
        func = lambda y, t, *rest: user_func(t, y, *rest)  # noqa: E731
    options = tuple((key, value) for key, value in zip(
        _OPTIONS, (rtol, atol, tcrit, h0, hmax, hmin, mxstep)))
    # SciPy integrates in double precision, a vector state.
    y0, t = reshape(astype(y0, np.float64), (-1,)), astype(t, np.float64)
    return _odeint(func, options, y0, t, args)


__all__ = ["odeint"]
