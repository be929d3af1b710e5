"""Oracle cases: shape manipulation."""
import hypothesis.strategies as st
import numpy

from oracle import Case, array, dtypes, shapes, unary


@st.composite
def reshapeable(draw):
    dtype = draw(dtypes())
    shape = draw(shapes())
    size = int(numpy.prod(shape))
    divisors = [d for d in range(1, size + 1) if size % d == 0]
    first = draw(st.sampled_from(divisors))
    target = draw(st.sampled_from([(size,), (first, size // first), (first, -1), (-1,)]))
    return (draw(array(shape, dtype)),), {"shape": target}


@st.composite
def permutation(draw):
    dtype = draw(dtypes())
    shape = draw(shapes())
    axes = draw(st.permutations(range(len(shape))))
    axes = [a - len(shape) if draw(st.booleans()) else a for a in axes]
    return (draw(array(shape, dtype)),), {"axes": tuple(axes)}


@st.composite
def broadcastable_to(draw):
    dtype = draw(dtypes())
    shape = draw(shapes(max_dims=2))
    lead = draw(st.lists(st.integers(1, 3), max_size=2))
    target = tuple(lead) + tuple(draw(st.sampled_from([1, 2])) * n if n == 1 else n
                                 for n in shape)
    return (draw(array(shape, dtype)),), {"shape": target}


@st.composite
def joinable(draw, count=3, same_shape=False):
    dtype = draw(dtypes())
    base = list(draw(shapes(min_dims=1)))
    axis = draw(st.integers(-len(base), len(base) - 1))
    arrays = []
    for _ in range(draw(st.integers(1, count))):
        shape = list(base)
        if not same_shape:
            shape[axis] = draw(st.integers(1, 3))
        arrays.append(draw(array(tuple(shape), draw(dtypes()) if not same_shape else dtype)))
    return tuple(arrays), {"axis": axis}


@st.composite
def squeezable(draw):
    dtype = draw(dtypes())
    shape = draw(shapes(min_side=1, max_side=2))
    ones = [i for i, n in enumerate(shape) if n == 1]
    axis = draw(st.one_of(st.none(), st.lists(st.sampled_from(ones), unique=True).map(tuple))
                if ones else st.none())
    return (draw(array(shape, dtype)),), {"axis": axis}


@st.composite
def expandable(draw):
    dtype = draw(dtypes())
    shape = draw(shapes(max_dims=2))
    axis = draw(st.integers(-len(shape) - 1, len(shape)))
    return (draw(array(shape, dtype)),), {"axis": axis}


CASES = [
    Case("reshape", lambda np, x, shape: np.reshape(x, shape), reshapeable(), order=2),
    Case("reshape_method", lambda np, x, shape: x.reshape(shape) * 2, reshapeable()),
    Case("ravel", lambda np, x: np.ravel(x), unary()),
    Case("transpose", lambda np, x, axes: np.transpose(x, axes), permutation(), order=2),
    Case("transpose_default", lambda np, x: np.transpose(x) + x.T, unary()),
    Case("broadcast_to", lambda np, x, shape: np.broadcast_to(x, shape), broadcastable_to(),
         order=2),
    Case("concatenate", lambda np, *xs, axis: np.concatenate(xs, axis=axis), joinable(),
         order=2),
    Case("stack", lambda np, *xs, axis: np.stack(xs, axis=axis), joinable(same_shape=True)),
    Case("squeeze", lambda np, x, axis: np.squeeze(x, axis), squeezable()),
    Case("expand_dims", lambda np, x, axis: np.expand_dims(x, axis), expandable()),
    Case("astype", lambda np, x: x.astype(np.float32) * 2 + x.astype(np.float64), unary()),
    Case("array_of_traced", lambda np, x: np.array([x, 2 * x, np.sin(x)]), unary()),
]
