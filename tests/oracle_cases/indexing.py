"""Oracle cases: every indexing form."""
import hypothesis.strategies as st
import numpy

from oracle import Case, array, dtypes, shapes


@st.composite
def basic_index(draw):
    dtype = draw(dtypes())
    shape = draw(shapes(min_dims=1))
    index = []
    for n in shape[:draw(st.integers(1, len(shape)))]:
        index.append(draw(st.one_of(
            st.integers(-n, n - 1),
            st.builds(slice, st.one_of(st.none(), st.integers(-n, n)),
                      st.one_of(st.none(), st.integers(-n, n)),
                      st.one_of(st.none(), st.sampled_from([1, 2, -1]))))))
    if draw(st.booleans()):
        index.insert(draw(st.integers(0, len(index))), None)  # a new axis takes no dimension
    if draw(st.booleans()):
        index.insert(draw(st.integers(0, len(index))), Ellipsis)
    return (draw(array(shape, dtype)),), {"index": tuple(index)}


@st.composite
def integer_array_index(draw):
    dtype = draw(dtypes())
    shape = draw(shapes(min_dims=1))
    picks = draw(st.lists(st.integers(-shape[0], shape[0] - 1), min_size=1, max_size=5))
    return (draw(array(shape, dtype)),), {"index": numpy.array(picks)}


@st.composite
def mask_index(draw):
    dtype = draw(dtypes())
    shape = draw(shapes(min_dims=1))
    mask = numpy.array(draw(st.lists(st.booleans(), min_size=shape[-1],
                                     max_size=shape[-1])))
    return (draw(array(shape, dtype)),), {"index": (Ellipsis, mask)}


CASES = [
    Case("getitem_basic", lambda np, x, index: x[index], basic_index(), order=2),
    Case("getitem_integer_array", lambda np, x, index: x[index], integer_array_index(),
         order=2),
    # Nonlinear after indexing, so the second derivative traces indexing's transpose.
    Case("getitem_then_square", lambda np, x, index: x[index] ** 2, integer_array_index(),
         order=2),
    Case("getitem_mask", lambda np, x, index: x[index], mask_index()),
    Case("getitem_list", lambda np, x, index: x[list(index)], integer_array_index(),
         jax_fun=lambda x, index: x[index]),  # JAX refuses list indices
    Case("iterate_rows", lambda np, x, index: np.stack([row * i for i, row in enumerate(x)]),
         integer_array_index()),
]
