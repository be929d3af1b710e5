"""Errors that suggest a fix name a fix that exists: every "call funcgrad.X instead" names a
real function, and a transform given a value instead of a function says so at once."""
import importlib
import re

import numpy as np
import pytest
import scipy.special

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.special  # noqa: F401 -- registers its primitives
import funcgrad.scipy.stats  # noqa: F401
from funcgrad.core import registry

_NAMED = re.compile(r"\b(funcgrad(?:\.\w+)+)")


def resolve(dotted):
    """The object a dotted name like funcgrad.numpy.linalg.norm names (AttributeError if none)."""
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def assert_named_functions_exist(message):
    for dotted in _NAMED.findall(message):
        try:
            resolve(dotted)
        except (ImportError, AttributeError):
            raise AssertionError(f"the message names {dotted}, which does not exist:\n"
                                 f"{message}") from None


def _ufuncs(module):
    return sorted(name for name in dir(module) if isinstance(getattr(module, name), np.ufunc))


UFUNCS = [("numpy", name) for name in _ufuncs(np)] + \
         [("scipy.special", name) for name in _ufuncs(scipy.special)]


def _call_traced(ufunc, **kwargs):
    """``ufunc`` applied to traced 0.5s (under vjp), as a user's code would."""
    return fg.vjp(lambda *x: ufunc(*x, **kwargs), *([0.5] * ufunc.nin))


@pytest.mark.parametrize("module, name", UFUNCS, ids=[f"{m}.{n}" for m, n in UFUNCS])
def test_each_ufunc_on_a_traced_value_works_or_names_a_real_function(module, name):
    ufunc = getattr(importlib.import_module(module), name)
    for kwargs in ({}, {"out": tuple(np.empty(()) for _ in range(ufunc.nout))}):
        try:
            _call_traced(ufunc, **kwargs)
        except TypeError as error:
            assert_named_functions_exist(str(error))
            if kwargs and "funcgrad" in str(error):
                assert f"{ufunc.__name__} was called on a traced value with out=" in str(error)
        except (ValueError, FloatingPointError, np.exceptions.DTypePromotionError):
            pass  # the function's own refusal (integer-only, say), not a hint
        except NotImplementedError as error:
            # a function without a derivative (nextafter, as in JAX): the refusal names it
            assert f"'{ufunc.__name__}'" in str(error), str(error)


def _original(primitive_name):
    """The NumPy or SciPy function a primitive's name refers to, or None."""
    dotted = primitive_name if primitive_name.startswith("scipy.") else "numpy." + primitive_name
    try:
        return dotted, resolve(dotted)
    except (ImportError, AttributeError):
        return dotted, None


ORIGINALS = [(name, *_original(name)) for name in sorted(registry)
             if _original(name)[1] is not None]


@pytest.mark.parametrize("primitive, dotted, original", ORIGINALS, ids=[o[0] for o in ORIGINALS])
def test_numpy_and_scipy_spellings_of_every_primitive_reach_ours(primitive, dotted, original):
    """numpy.sin(box) or scipy.special.gammaln(box) runs funcgrad's version (a ufunc, or a
    function NumPy dispatches with __array_function__): the name exists in funcgrad."""
    assert resolve("funcgrad." + dotted), dotted


def test_scipy_special_on_a_traced_value_is_differentiated():
    ours = fg.grad(funcgrad.scipy.special.gammaln)(1.5)
    assert fg.grad(lambda x: scipy.special.gammaln(x))(1.5) == ours
    assert ours == pytest.approx(scipy.special.digamma(1.5))


def test_a_function_funcgrad_lacks_is_reported_as_missing():
    with pytest.raises(TypeError, match="scipy.special.kv was called on a traced value; "
                                        "funcgrad has no differentiable version of it"):
        fg.grad(lambda x: scipy.special.kv(1.0, x))(1.5)
    with pytest.raises(TypeError, match=r"numpy.add.reduce .* use the funcgrad.numpy"):
        fg.grad(lambda x: np.add.reduce(x))(np.ones(2))


TRANSFORMS = {
    "grad": lambda v: fg.grad(v),
    "value_and_grad": lambda v: fg.value_and_grad(v),
    "vjp": lambda v: fg.vjp(v, 1.0),
    "jvp": lambda v: fg.jvp(v, (1.0,), (1.0,)),
    "jacfwd": lambda v: fg.jacfwd(v),
    "jacrev": lambda v: fg.jacrev(v),
    "hessian": lambda v: fg.hessian(v),
    "hvp": lambda v: fg.hvp(v, (1.0,), (1.0,)),
    "linearize": lambda v: fg.linearize(v, 1.0),
    "linear_transpose": lambda v: fg.linear_transpose(v, 1.0),
    "checkpoint": lambda v: fg.checkpoint(v),
    "custom_vjp": lambda v: fg.custom_vjp(v),
    "custom_jvp": lambda v: fg.custom_jvp(v),
    "make_graph": lambda v: fg.make_graph(v),
}


@pytest.mark.parametrize("transform", TRANSFORMS)
def test_a_value_instead_of_a_function_is_refused_at_once(transform):
    value = fnp.sin(1.0)  # grad(f(x)) instead of grad(f)
    with pytest.raises(TypeError, match=rf"funcgrad.{transform}: expected a callable "
                                        rf"function, got a float64: .*\(f, not f\(x\)\)"):
        TRANSFORMS[transform](value)


def test_custom_rules_must_be_functions():
    f = fg.custom_vjp(fnp.sin)
    with pytest.raises(TypeError, match="custom_vjp.defvjp: expected a callable bwd rule"):
        f.defvjp(lambda x: (fnp.sin(x), x), 1.0)
    with pytest.raises(TypeError, match="custom_jvp.defjvp: expected a callable rule"):
        fg.custom_jvp(fnp.sin).defjvp(None)
