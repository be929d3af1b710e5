"""Oracle cases: unique values and set operations. Their results' lengths depend on the
values, which JAX can only trace with ``size=``: each case's JAX side gets the length
NumPy computes from the drawn values (a static argument), and gives the derivative of
that gather, which funcgrad's must equal with or without ``size``."""
import hypothesis.strategies as st
import jax.numpy as jnp
import numpy

from oracle import Case, array, dtypes, floats, shapes

# A grid that the drawn values often hit, so that ties (repeated values, common members)
# are frequent.
_GRID = (-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0)


def _tied(shape, dtype):
    return array(shape, dtype, elements=st.one_of(st.sampled_from(_GRID), floats(-3, 3, dtype)))


@st.composite
def unique_args(draw):
    """An array with ties, its ``axis`` (None or an axis), the returned extras; ``n``: the
    number of unique values (slices), and maybe a ``size`` near it and a ``fill_value``."""
    dtype = draw(dtypes())
    shape = draw(shapes(1, 2))
    x = draw(_tied(shape, dtype))
    axis = draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1)))
    static = {"axis": axis, "n": numpy.unique(x, axis=axis).shape[axis or 0],
              **{name: draw(st.booleans()) for name in
                 ("return_index", "return_inverse", "return_counts")}}
    _draw_size(draw, static)
    return (x,), static


def _draw_size(draw, static):
    """JAX's size= (maybe), near the result's length ``n``, and fill_value (maybe)."""
    if draw(st.booleans()):
        static["size"] = max(1, static["n"] + draw(st.integers(-1, 2)))
        static["fill_value"] = draw(st.sampled_from([None, -7.0]))


def _unique(np, x, n, **options):
    return np.unique(x, **options)


def _unique_jax(x, n, size=None, **options):
    return jnp.unique(x, size=n if size is None else size, **options)


@st.composite
def one_vector(draw):
    x = draw(_tied((draw(st.integers(1, 5)),), draw(dtypes())))
    return (x,), {"n": len(numpy.unique(x))}


def _array_api(np, x, n, size=None):
    # (named tuples as plain ones: JAX's have other classes)
    options = {} if size is None else {"size": size}
    return (np.unique_values(x, **options), tuple(np.unique_counts(x, **options)),
            tuple(np.unique_inverse(x, **options)), tuple(np.unique_all(x, **options)))


def _array_api_jax(x, n):
    return _array_api(jnp, x, n, size=n)


_SET_OPERATIONS = {"intersect1d": numpy.intersect1d, "union1d": numpy.union1d,
                   "setdiff1d": numpy.setdiff1d, "setxor1d": numpy.setxor1d}


@st.composite
def two_sets(draw, function):
    """Two arrays sharing some values; ``assume_unique`` (where the function takes it)
    draws arrays without repeats; ``n``: the length of NumPy's result."""
    assume_unique = function != "union1d" and draw(st.booleans())
    arrays = []
    for _ in range(2):
        a = draw(_tied((draw(st.integers(1, 4)),), draw(dtypes())))
        if assume_unique:  # unique, in a drawn order
            a = numpy.asarray(draw(st.permutations(numpy.unique(a))), a.dtype)
        arrays.append(a)
    static = {"assume_unique": assume_unique} if function != "union1d" else {}
    if function == "intersect1d":
        static["return_indices"] = draw(st.booleans())
    result = _SET_OPERATIONS[function](*arrays, **static)
    static["n"] = len(result[0] if static.get("return_indices") else result)
    _draw_size(draw, static)
    return tuple(arrays), static


def _set_case(function):
    def ours(np, a, b, n, **options):
        return getattr(np, function)(a, b, **options)

    def jax_fun(a, b, n, size=None, **options):
        if size is not None:
            return getattr(jnp, function)(a, b, size=size, **options)
        # An empty result cut from a padded one (JAX's size=0 fails in setdiff1d).
        result = getattr(jnp, function)(a, b, size=max(n, 1), **options)
        return tuple(r[:n] for r in result) if isinstance(result, tuple) else result[:n]

    # (the oracle's second derivatives take float outputs only: not intersect1d's
    # indices). Each drawn length is a JAX compilation: costly.
    return Case(function, ours, two_sets(function), jax_fun=jax_fun,
                order=1 if function == "intersect1d" else 2, costly_oracle=True)


CASES = [
    # Order 1: the oracle's second derivatives take float outputs only (not indices).
    # Costly: each drawn length (a static size) is a JAX compilation.
    Case("unique", _unique, unique_args(), jax_fun=_unique_jax, costly_oracle=True),
    Case("unique_values", lambda np, x, n: np.unique(x, axis=-1), one_vector(),
         jax_fun=lambda x, n: jnp.unique(x, axis=-1, size=n), order=2, costly_oracle=True),
    Case("unique_array_api", _array_api, one_vector(), jax_fun=_array_api_jax,
         costly_oracle=True),
    *(_set_case(function) for function in _SET_OPERATIONS),
]
