"""Every misuse in the bad-input table of docs/debugging.md, with what funcgrad does: a
clear error naming the function, the argument and the fix, or the right answer (checked
against JAX or NumPy). The table and these rows are kept the same by the last test."""
import pathlib
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.core.errors import ConversionError

jax.config.update("jax_enable_x64", True)

X = np.array([0.5, 1.0, 2.0])


def loss(x):
    return fnp.sum(fnp.sin(x) * x)


def jax_loss(x):
    return jnp.sum(jnp.sin(x) * x)


def grad_like_jax(x):
    ours, theirs = fg.grad(loss)(x), jax.grad(jax_loss)(x)
    assert np.shape(ours) == np.shape(theirs)
    assert np.asarray(ours).dtype == np.asarray(theirs).dtype
    rtol = 1e-3 if np.asarray(ours).dtype == np.float16 else 1e-12
    np.testing.assert_allclose(np.asarray(ours, float), np.asarray(theirs, float), rtol=rtol)
    return ours


def readonly():
    x = X.copy()
    x.flags.writeable = False
    gradient = grad_like_jax(x)
    assert gradient.flags.writeable


def mutates_with_setitem():
    def f(x):
        x[0] = 5.0
        return fnp.sum(x * x)
    x = X.copy()
    with pytest.raises(TypeError, match=r"traced arrays are immutable.*\.at\[idx\]\.set"):
        fg.grad(f)(x)
    np.testing.assert_array_equal(x, X)


def mutates_with_iadd():
    def f(x):
        x += 1.0  # rebinds x to x + 1 (as in JAX): the derivative of sum((x + 1) ** 2)
        return fnp.sum(x * x)
    x = X.copy()
    np.testing.assert_array_equal(fg.grad(f)(x), 2 * (X + 1.0))
    np.testing.assert_array_equal(x, X)  # the caller's array is not modified


def input_modified_after_vjp():
    x = X.copy()
    _, pullback = fg.vjp(fnp.sin, x)
    x *= 3.0
    np.testing.assert_array_equal(pullback(np.ones(3))[0], np.cos(X))


def complex_input_real_output():
    z = np.array([1 + 2j, -0.5 + 0.25j])
    np.testing.assert_allclose(fg.grad(lambda z: fnp.sum(fnp.abs(z) ** 2))(z),
                               jax.grad(lambda z: jnp.sum(jnp.abs(z) ** 2))(z))


def complex_output_holomorphic():
    z = np.array([1 + 2j])
    np.testing.assert_allclose(fg.grad(lambda z: fnp.sum(z * z), holomorphic=True)(z),
                               jax.grad(lambda z: jnp.sum(z * z), holomorphic=True)(z))


def integer_with_allow_int():
    gradient = fg.grad(lambda x: fnp.sum(x * 2.0), allow_int=True)(np.array([1, 2]))
    assert gradient.dtype == fg.float0 and gradient.shape == (2,)


def nan_input():
    gradient = fg.grad(loss)(np.array([np.nan, 1.0]))
    assert np.isnan(gradient[0]) and np.isfinite(gradient[1])
    with pytest.raises(FloatingPointError, match="nan"), fg.debug_nans():
        fg.grad(loss)(np.array([np.nan, 1.0]))


def raises(error, pattern, call):
    def check():
        with pytest.raises(error, match=pattern):
            call()
    return check


def scalars():
    for x in (0.5, np.float64(0.5), np.float32(0.5), np.array(0.5)):
        grad_like_jax(x)


# name (as in the docs table): a check that runs the misuse and asserts what happens.
ROWS = {
    "non-scalar output": raises(
        TypeError, r"funcgrad\.grad: the function must return a scalar.*vjp.*jacrev",
        lambda: fg.grad(fnp.sin)(X)),
    "integer input": raises(
        TypeError, r"funcgrad\.grad: can only differentiate with respect to float or "
                   r"complex inputs, but args\[0\] has dtype int64.*astype\(float\)",
        lambda: fg.grad(loss)(np.array([1, 2]))),
    "Python int": raises(TypeError, r"args\[0\] has dtype int64.*1\.0 instead of 1",
                         lambda: fg.grad(loss)(2)),
    "integer input, allow_int=True": integer_with_allow_int,
    "boolean input": raises(TypeError, r"args\[0\] has dtype bool",
                            lambda: fg.grad(loss)(np.array([True]))),
    "complex input, real output": complex_input_real_output,
    "complex output": raises(TypeError, r"must return a real floating-point scalar.*"
                                        r"holomorphic=True",
                             lambda: fg.grad(lambda z: fnp.sum(z * 1j))(X)),
    "complex output, holomorphic=True": complex_output_holomorphic,
    "object array": raises(TypeError, r"args\[0\] has dtype object",
                           lambda: fg.grad(loss)(np.array([1.0, 2.0], dtype=object))),
    "string": raises(TypeError, r"args\[0\] is a str, which is not an array",
                     lambda: fg.grad(loss)("abc")),
    "string array": raises(TypeError, r"args\[0\] has dtype <U1",
                           lambda: fg.grad(loss)(np.array(["a"]))),
    "datetime array": raises(TypeError, r"args\[0\] has dtype datetime64\[D\]",
                             lambda: fg.grad(loss)(np.array(["2020-01-01"], "datetime64[D]"))),
    "read-only array": readonly,
    "non-contiguous view": lambda: grad_like_jax(np.arange(12.0).reshape(3, 4)[:, ::2]),
    "Fortran-ordered array": lambda: grad_like_jax(np.asfortranarray(np.ones((2, 3)))),
    "np.matrix": raises(TypeError, r"args\[0\] is a numpy\.matrix.*np\.asarray\(x\)",
                        lambda: fg.grad(loss)(np.asarray(X).view(np.matrix))),
    "masked array": raises(
        TypeError, r"args\[0\] is a numpy\.ma\.MaskedArray.*x\.filled\(value\)",
        lambda: fg.grad(loss)(np.ma.masked_array(X, mask=[0, 1, 0]))),
    "float16": lambda: grad_like_jax(X.astype(np.float16)),
    "empty array": lambda: grad_like_jax(np.zeros((2, 0))),
    "0-d array and scalars": scalars,
    "NaN input": nan_input,
    "function assigns into its input": mutates_with_setitem,
    "function updates its input with +=": mutates_with_iadd,
    "np.asarray of a traced value": raises(
        TypeError, r"a traced value was converted to a NumPy array.*stop_gradient",
        lambda: fg.grad(lambda x: fnp.sum(np.asarray(x)))(X)),
    "float() of a traced value": raises(
        ConversionError, r"float\(\) of a value traced by a reverse-mode transform",
        lambda: fg.grad(lambda x: float(x) * 2.0)(0.5)),
    "input modified after vjp": input_modified_after_vjp,
    "tangent of another dtype": raises(
        TypeError, r"funcgrad\.jvp: the tangent for primals\[0\] has shape \(3,\) and dtype "
                   r"float32, but the primal has shape \(3,\) and dtype float64",
        lambda: fg.jvp(loss, (X,), (X.astype(np.float32),))),
    "cotangent of another shape": raises(
        ValueError, r"funcgrad\.vjp: the cotangent for output 0 has shape \(2,\)",
        lambda: fg.vjp(fnp.sin, X)[1](X[:2])),
}


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
@pytest.mark.parametrize("name", sorted(ROWS))
def test_bad_input(name):
    ROWS[name]()


def test_the_docs_table_lists_these_rows():
    text = (pathlib.Path(__file__).parents[1] / "docs" / "debugging.md").read_text()
    section = text.split("## Bad input")[1].split("\n## ")[0]
    names = re.findall(r"^\| ([^|]+?) +\|", section, flags=re.MULTILINE)
    assert sorted(names[2:]) == sorted(ROWS)  # (after the header and its rule)
