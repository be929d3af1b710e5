"""NumPy's in-place writers (put, place, copyto, putmask) on NumPy arrays and on traced
values, and the floating-point neighbours (nextafter, spacing), which, as in JAX, have no
derivative. Values and derivatives of the functional forms: tests/oracle_cases."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

X = np.array([3.0, -1.0, 0.5, 2.0])


@pytest.mark.parametrize("function", [
    lambda np_, x: np_.nextafter(x, 5.0),
    lambda np_, x: np_.nextafter(1.0, x),
    lambda np_, x: np_.spacing(x),
])
@pytest.mark.parametrize("transform", ["grad", "jvp"])
def test_neighbours_refuse_differentiation_as_jax_does(function, transform):
    def run(library, namespace):
        def total(x):
            return namespace.sum(function(namespace, x))
        if transform == "grad":
            return library.grad(total)(X)
        return library.jvp(total, (X,), (np.ones_like(X),))

    with pytest.raises(NotImplementedError):
        run(jax, jnp)
    with pytest.raises(NotImplementedError, match="nextafter|spacing"):
        run(fg, fnp)


def test_neighbours_inside_a_derivative_of_something_else_are_numpys():
    # (x is a constant here: only y is differentiated)
    ours = fg.grad(lambda y: fnp.sum(fnp.nextafter(X, 0.0) * y + fnp.spacing(X) * y))(X)
    np.testing.assert_array_equal(ours, np.nextafter(X, 0.0) + np.spacing(X))


@pytest.mark.parametrize("write", [
    lambda np_, a: np_.put(a, [0, 2], [7.0, 8.0]),
    lambda np_, a: np_.put(a, [5, -9], [7.0], mode="wrap"),
    lambda np_, a: np_.place(a, a > 0, [7.0, 8.0]),
    lambda np_, a: np_.copyto(a, np.array([1.0, 2.0, 3.0, 4.0]), where=a > 0),
    lambda np_, a: np_.putmask(a, a < 1, np.array([5.0, 6.0])),
])
def test_in_place_on_numpy_arrays_is_numpys(write):
    ours, theirs = X.copy(), X.copy()
    assert write(fnp, ours) is None and write(np, theirs) is None
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("write, instead", [
    (lambda x: fnp.put(x, [0], 1.0), "inplace=False"),
    (lambda x: fnp.place(x, X > 0, 1.0), "inplace=False"),
    (lambda x: fnp.copyto(np.zeros(4), x), "where"),
    (lambda x: fnp.copyto(x, np.zeros(4)), "where"),
    (lambda x: fnp.putmask(x, X > 0, 1.0), "where"),
])
def test_in_place_on_traced_values_says_what_to_write_instead(write, instead):
    with pytest.raises(TypeError, match="immutable") as raised:
        fg.grad(lambda x: fnp.sum(write(x)))(X)
    assert instead in str(raised.value)


def test_functional_put_and_place_refuse_what_numpy_refuses():
    with pytest.raises(IndexError):
        np.put(X.copy(), [9], 1.0)
    with pytest.raises(IndexError, match="put"):
        fnp.put(X, [9], 1.0, inplace=False)
    with pytest.raises(ValueError):
        np.place(X.copy(), X > 0, [])
    with pytest.raises(ValueError, match="place.*vals"):
        fnp.place(X, X > 0, [], inplace=False)


def test_vectorize_checks_its_signature_and_outputs_as_jax_does():
    for namespace in (jnp, fnp):
        with pytest.raises(ValueError):
            namespace.vectorize(lambda a: a, signature="(n)->(n")(X)
        with pytest.raises(ValueError):  # core dimension n of sizes 4 and 3
            namespace.vectorize(lambda a, b: a @ b, signature="(n),(n)->()")(X, X[:3])
        with pytest.raises(TypeError):  # two outputs expected
            namespace.vectorize(lambda a: a, signature="()->(),()")(X)
    with pytest.raises(ValueError, match="vectorize.*signature"):
        fnp.vectorize(lambda a: a, signature="(n)->(n")(X)


def test_vectorize_passes_excluded_arguments_through():
    def scaled(a, scale, *, offset):
        assert isinstance(scale, list)  # not converted or mapped over
        return a * len(scale) + offset

    ours = fnp.vectorize(scaled, excluded={1})(X, [1, 2], offset=0.5)
    theirs = jnp.vectorize(scaled, excluded={1, "offset"})(X, [1, 2], offset=0.5)
    np.testing.assert_array_equal(ours, theirs)
