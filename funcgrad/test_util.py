"""Numerical derivative checks for tests: `check_grads`."""
import numpy as np

from .core import float0, quiet_floating_point
from .transforms import jvp, vjp
from .tree_util import keystr, tree_flatten, tree_flatten_with_path, tree_unflatten

# (eps, atol, rtol) by the least precise inexact dtype among the arguments.
_DEFAULTS = {np.dtype(np.float64): (1e-4, 1e-5, 1e-5),
             np.dtype(np.float32): (1e-3, 1e-2, 1e-2)}
_MODE_NAMES = {"fwd": "jvp", "rev": "vjp"}


def check_grads(f, args, order, modes=("fwd", "rev"), eps=None, atol=None, rtol=None):
    """Check the derivatives of ``f`` at ``args`` against central finite differences.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> check_grads(lambda x, y: fnp.sin(x) * y, (np.array([0.3, 1.0]), 2.0), order=2)

    ``args`` is a tuple of arguments (arrays, scalars or pytrees of them); every float or
    complex leaf is differentiated, other leaves are held fixed. Along a random direction
    ``t`` per argument, ``"fwd"`` compares `jvp` with central differences
    ``(f(x + eps t) - f(x - eps t)) / 2 eps`` (Richardson-extrapolated with eps/2), and
    ``"rev"`` compares `vjp` through the inner product ``<vjp(c), t> = <c, J t>`` for a
    random output cotangent ``c``. ``order`` > 1 repeats both checks on each mode's
    derivative (``x -> jvp(f, x, t + x)``, ``x -> vjp(f, x)(c + f(x))`` for fixed random t,
    c: the direction moves with x, so the derivative's own rules in it are checked too),
    so order 2 checks jvp and vjp of jvp and of vjp. Directions are drawn from a fixed
    seed.
    Tolerances compare elementwise like ``numpy.allclose`` (``rev``: against the sum of
    the inner product's absolute terms).

    Raises AssertionError naming the mode, the order, the argument and the error.
    """
    if not isinstance(args, (tuple, list)):
        raise TypeError(f"check_grads: args must be a tuple of arguments, got "
                        f"{type(args).__name__}; for one argument write (x,).")
    unknown = set(modes) - set(_MODE_NAMES)
    if unknown or not modes:
        raise ValueError(f"check_grads: modes must be a non-empty subset of ('fwd', 'rev'), "
                         f"got {modes!r}")
    if int(order) != order or order < 1:
        raise ValueError(f"check_grads: order must be a positive integer, got {order!r}")
    checker = _Checker(f, tuple(args), eps, atol, rtol)
    checker.check(checker.base_fun, int(order), tuple(modes), ())


class _Checker:
    """The differentiated leaves of ``args``, their names, and the tolerances."""

    def __init__(self, f, args, eps, atol, rtol):
        paths_and_leaves, tree = tree_flatten_with_path(args)
        leaves = [np.asarray(leaf) for _, leaf in paths_and_leaves]
        self.where = [i for i, x in enumerate(leaves) if x.dtype.kind in "fc"]
        self.names = ["args" + keystr(paths_and_leaves[i][0]) for i in self.where]
        self.point = [leaves[i] for i in self.where]
        self.rng = np.random.default_rng(0)
        single = any(x.dtype in (np.float32, np.complex64) for x in self.point)
        default = _DEFAULTS[np.dtype(np.float32 if single else np.float64)]
        self.eps = default[0] if eps is None else eps
        self.atol = default[1] if atol is None else atol
        self.rtol = default[2] if rtol is None else rtol
        self._scale = 6 * self.eps  # steps are 6 eps t (see _finite_differences)

        def base_fun(*diff_leaves):
            full = list(leaves)
            for i, x in zip(self.where, diff_leaves):
                full[i] = x
            return f(*tree_unflatten(tree, full))

        self.base_fun = base_fun

    def check(self, fun, order, modes, path):
        """Check ``fun`` (the derivative ``path`` of f) in each mode, then its derivatives."""
        steps, differences = self._finite_differences(fun)
        for mode in modes:
            if mode == "fwd":
                self._check_fwd(fun, steps, differences, path)
            else:
                self._check_rev(fun, steps, differences, path)
            if order > 1:
                self.check(self._derivative(fun, mode), order - 1, modes, path + (mode,))

    def _finite_differences(self, fun):
        """Per argument, a step along a random direction and the change of ``fun``'s inexact
        output leaves across it, to compare with ``J step``.

        Richardson's combination of central differences with steps eps and eps/2,
        ``8 (f(x + eps/2 t) - f(x - eps/2 t)) - (f(x + eps t) - f(x - eps t))``, is
        ``J (6 eps t)`` up to O(eps^5). The step is the one actually taken, after rounding
        to the argument's dtype, so rounding the inputs costs no accuracy. The points are
        ours, not the caller's (x - eps may leave a domain), so they are evaluated quietly.
        """
        with quiet_floating_point():
            return self._richardson_differences(fun)

    def _richardson_differences(self, fun):
        steps, differences = [], []
        for i, x in enumerate(self.point):
            t = self._random_like(x)
            step, difference = 0, None
            for h, weight in ((self.eps, -1.0), (self.eps / 2, 8.0)):
                plus, minus = (x + h * t).astype(x.dtype), (x - h * t).astype(x.dtype)
                high = _inexact_leaves(fun(*self._replace(i, plus)))
                low = _inexact_leaves(fun(*self._replace(i, minus)))
                change = [None if a is None else weight * (a - b) for a, b in zip(high, low)]
                difference = change if difference is None else [
                    None if a is None else a + b for a, b in zip(difference, change)]
                step = step + weight * (plus - minus)
            steps.append(step.astype(x.dtype))
            differences.append(difference)
        return steps, differences

    def _check_fwd(self, fun, steps, differences, path):
        zeros = [np.zeros_like(x) for x in self.point]
        for i, (step, numeric) in enumerate(zip(steps, differences)):
            tangents = zeros[:i] + [step] + zeros[i + 1:]
            ours = _inexact_leaves(jvp(fun, tuple(self.point), tuple(tangents))[1])
            for k, (a, b) in enumerate(zip(ours, numeric)):
                if b is None:
                    continue
                a, b = a / self._scale, b / self._scale
                excess = np.abs(a - b) - (self.atol + self.rtol * np.abs(b))
                if np.any(excess > 0):
                    worst = tuple(int(j) for j in
                                  np.unravel_index(np.argmax(excess), np.shape(excess)))
                    self._fail("fwd", path, i, k,
                               f"max abs error {np.max(np.abs(a - b)):.3g} at index {worst} "
                               f"(jvp {a[worst].item():.6g}, numerical {b[worst].item():.6g})")

    def _check_rev(self, fun, steps, differences, path):
        out, pullback = vjp(fun, *self.point)
        out_flat, out_tree = tree_flatten(out)
        cotangent = [self._random_like(np.asarray(o)) if np.asarray(o).dtype.kind in "fc"
                     else np.zeros_like(o) for o in out_flat]
        pulled = pullback(tree_unflatten(out_tree, cotangent))
        for i, (step, numeric, ct) in enumerate(zip(steps, differences, pulled)):
            ours = float(np.real(np.sum(ct * step))) / self._scale
            terms = [np.real(c * d) / self._scale
                     for c, d in zip(cotangent, numeric) if d is not None]
            theirs = float(sum(np.sum(term) for term in terms))
            scale = float(sum(np.sum(np.abs(term)) for term in terms))
            if abs(ours - theirs) > self.atol + self.rtol * scale:
                self._fail("rev", path, i, None,
                           f"<vjp(c), t> = {ours:.6g} but <c, J t> numerically = {theirs:.6g}, "
                           f"error {abs(ours - theirs):.3g}")

    def _derivative(self, fun, mode):
        """``fun``'s derivative along directions that move with the point, ``x -> jvp(fun,
        x, t + x)`` and ``x -> vjp(fun, x)(c + fun(x))`` for fixed random t, c, a function of
        the same args: the next order's check then differentiates the derivative in its
        direction too, which is what checks the rules of a VJP's own VJP in its cotangent
        (JAX's check_grads takes fun(x) as the cotangent for the same reason)."""
        if mode == "fwd":
            tangents = tuple(self._random_like(x) for x in self.point)
            return lambda *xs: jvp(fun, xs, tuple(t + x for t, x in zip(tangents, xs)))[1]
        out_flat, out_tree = tree_flatten(fun(*self.point))
        inexact = [np.asarray(o).dtype.kind in "fc" for o in out_flat]
        offsets = [self._random_like(np.asarray(o)) if moves else np.zeros_like(o)
                   for o, moves in zip(out_flat, inexact)]

        def pulled_back(*xs):
            out, pullback = vjp(fun, *xs)
            cotangent = [offset + o if moves else offset
                         for offset, o, moves in zip(offsets, tree_flatten(out)[0], inexact)]
            return pullback(tree_unflatten(out_tree, cotangent))
        return pulled_back

    def _random_like(self, x):
        t = self.rng.standard_normal(x.shape)
        if x.dtype.kind == "c":
            t = t + 1j * self.rng.standard_normal(x.shape)
        return t.astype(x.dtype)

    def _replace(self, i, value):
        return self.point[:i] + [value] + self.point[i + 1:]

    def _fail(self, mode, path, i, output, detail):
        chain = " of ".join(_MODE_NAMES[m] for m in (mode,) + path[::-1])
        where = f", output leaf {output}" if output is not None else ""
        raise AssertionError(
            f"check_grads: {'forward' if mode == 'fwd' else 'reverse'}-mode check of order "
            f"{len(path) + 1} ({chain} of f) disagrees with finite differences for argument "
            f"{self.names[i]}{where}: {detail}; allowed atol={self.atol:g}, "
            f"rtol={self.rtol:g}, eps={self.eps:g}.")


def _inexact_leaves(tree):
    """The leaves of ``tree`` as arrays, None for integer, boolean and float0 ones."""
    leaves = [np.asarray(leaf) for leaf in tree_flatten(tree)[0]]
    return [x if x.dtype.kind in "fc" and x.dtype != float0 else None for x in leaves]


__all__ = ["check_grads"]
