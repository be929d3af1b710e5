"""autograd's ``test_util``: `check_grads` and `combo_check` with autograd's signatures,
checking with funcgrad's finite-difference checker (`funcgrad.test_util.check_grads`)."""
import itertools

from .. import test_util as _test_util
from .differential_operators import _argnum_operator


@_argnum_operator
def check_grads(f, x, modes=("fwd", "rev"), order=2):
    """``check_grads(f, argnum=0, modes=["fwd", "rev"], order=2)(*args)``: compare forward
    and reverse derivatives of ``f`` with respect to argument ``argnum`` (up to ``order``)
    with finite differences; raises AssertionError on a mismatch."""
    _test_util.check_grads(f, (x,), order=order, modes=tuple(modes))


def combo_check(fun, *check_args, **check_kwargs):
    """A function of lists of arguments (and keyword lists of keyword values) that runs
    ``check_grads(fun, *check_args, **check_kwargs)`` on every combination of them."""
    def run(*arg_choices, **kwarg_choices):
        names = list(kwarg_choices)
        for args in itertools.product(*arg_choices):
            for values in itertools.product(*(kwarg_choices[n] for n in names)):
                check_grads(fun, *check_args, **check_kwargs)(*args, **dict(zip(names, values)))
    return run


__all__ = ["check_grads", "combo_check"]
