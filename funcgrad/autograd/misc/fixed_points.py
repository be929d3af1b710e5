"""autograd's ``fixed_point``: iterate to a fixed point, differentiated implicitly."""
from ... import numpy as fnp
from ...transforms import custom_vjp, vjp
from ...tree_util import tree_map


def fixed_point(f, a, x0, distance, tol):
    """Iterate ``x = f(a)(x)`` from ``x0`` until ``distance(x, x_prev) <= tol``; return x.

    The derivative with respect to ``a`` is implicit: at the fixed point
    ``x* = f(a)(x*)``, the cotangent ``g`` of x* pulls back to
    ``a_bar = (d f(a)(x*) / d a)^T w`` where ``w = g + (d f(a)(x*) / d x)^T w``, which is
    itself found as a fixed point (of the same iteration, same tolerance). So no iterate is
    kept for the backward pass, and the iteration count does not matter. ``x0`` gets no
    derivative (a fixed point does not depend on where the iteration starts).
    """
    solve = custom_vjp(lambda a, x0: _iterate(f(a), x0, distance, tol))

    def solve_fwd(a, x0):
        # solve again, not _iterate: under an outer derivative, x* must be the implicit
        # function of a there too, not the unrolled iterations.
        x_star = solve(a, x0)
        return x_star, (a, x_star)

    def solve_bwd(residuals, g):
        a, x_star = residuals

        def adjoint_step(params):
            # From the parameters, not closed over: higher derivatives see a and x* in it.
            a, x_star, g = params
            _, pull_x = vjp(f(a), x_star)
            return lambda w: tree_map(lambda p, q: p + q, pull_x(w)[0], g)

        w = fixed_point(adjoint_step, (a, x_star, g), tree_map(fnp.zeros_like, g), distance,
                        tol)
        _, pull_a = vjp(lambda a: f(a)(x_star), a)
        return pull_a(w)[0], None

    solve.defvjp(solve_fwd, solve_bwd)
    return solve(a, x0)


def _iterate(step, x, distance, tol):
    x, x_prev = step(x), x
    while distance(x, x_prev) > tol:
        x, x_prev = step(x), x
    return x


__all__ = ["fixed_point"]
