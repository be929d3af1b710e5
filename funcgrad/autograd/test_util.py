"""autograd's ``test_util``: `check_grads`, `check_vjp`, `check_jvp` and `combo_check` with
autograd's signatures,
checking with funcgrad's finite-difference checker (`funcgrad.test_util.check_grads`), and
`check_equivalent`."""
import itertools

import numpy as np

from .. import test_util as _test_util
from ..core import unbox_all
from ..tree_util import tree_leaves, tree_map
from .differential_operators import _argnum_operator
from .vspace import vspace

# autograd's finite-difference step in double precision (x +- 5e-7 v): funcgrad's default,
# JAX's 1e-4, spans gaps that autograd's checks pass over (two of np.sort's inputs 2e-5
# apart, as in autograd's own test_sort), so a ported test would fail where it passed.
_AUTOGRAD_STEP = 5e-7
# How far apart check_equivalent lets values be, absolutely or relatively (autograd's).
_EQUIVALENCE_TOLERANCE = 1e-6


@_argnum_operator
def check_grads(f, x, modes=("fwd", "rev"), order=2):
    """``check_grads(f, argnum=0, modes=["fwd", "rev"], order=2)(*args)``: compare forward
    and reverse derivatives of ``f`` with respect to argument ``argnum`` (up to ``order``)
    with finite differences, steps as small as autograd's; raises AssertionError on a
    mismatch."""
    single = any(np.result_type(leaf) in (np.float32, np.complex64) for leaf in tree_leaves(x))
    _test_util.check_grads(f, (x,), order=order, modes=tuple(modes),
                           eps=None if single else _AUTOGRAD_STEP)


def check_vjp(f, x):
    """Compare ``f``'s reverse-mode derivative at ``x`` with finite differences (autograd's
    one-mode check); raises AssertionError on a mismatch."""
    check_grads(f, modes=("rev",), order=1)(x)


def check_jvp(f, x):
    """Compare ``f``'s forward-mode derivative at ``x`` with finite differences."""
    check_grads(f, modes=("fwd",), order=1)(x)


def combo_check(fun, *check_args, **check_kwargs):
    """A function of lists of arguments (and keyword lists of keyword values) that runs
    ``check_grads(fun, *check_args, **check_kwargs)`` on every combination of them."""
    def run(*arg_choices, **kwarg_choices):
        names = list(kwarg_choices)
        for args in itertools.product(*arg_choices):
            for values in itertools.product(*(kwarg_choices[n] for n in names)):
                check_grads(fun, *check_args, **check_kwargs)(*args, **dict(zip(names, values)))
    return run


def check_equivalent(x, y):
    """Assert that ``x`` and ``y`` (pytrees of arrays and numbers) are the same value: the
    same vector space (structure, shapes and dtypes) and, element by element, values no
    more than 1e-6 apart, absolutely or relatively. autograd compares one random
    projection of the values; each element is compared here, so a difference is never
    missed by chance. Raises AssertionError saying what differs."""
    x_space, y_space = vspace(x), vspace(y)
    if x_space != y_space:
        raise AssertionError(f"check_equivalent: the values are in different vector spaces "
                             f"(structure, shapes or dtypes):\nx: {x_space}\ny: {y_space}")
    x_leaves, y_leaves = (tree_leaves(tree_map(unbox_all, value)) for value in (x, y))
    for i, (a, b) in enumerate(zip(x_leaves, y_leaves)):
        if not np.allclose(a, b, rtol=_EQUIVALENCE_TOLERANCE, atol=_EQUIVALENCE_TOLERANCE):
            worst = np.max(np.abs(np.asarray(a) - np.asarray(b)))
            raise AssertionError(f"check_equivalent: leaf {i} of the values differs (by up to "
                                 f"{worst:.3g}):\nx: {a}\ny: {b}")


__all__ = ["check_equivalent", "check_grads", "check_jvp", "check_vjp", "combo_check"]
