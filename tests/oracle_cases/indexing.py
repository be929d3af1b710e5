"""Oracle cases: every indexing form, and JAX's functional updates ``x.at[idx]``."""
import hypothesis.strategies as st
import numpy

from oracle import Case, array, dtypes, shapes

INDEXED_POOL = ((4,), (3, 4), (2, 3, 4))


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
                      st.one_of(st.none(), st.sampled_from([1, 2, -1, -2]))))))
    if draw(st.booleans()):
        index.insert(draw(st.integers(0, len(index))), None)  # a new axis takes no dimension
    if draw(st.booleans()):
        # After the per-dimension indices, so each still meets the dimension it was drawn for.
        index.append(Ellipsis)
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


def _slice(draw, n):
    bound = st.one_of(st.none(), st.integers(-n - 1, n + 1))
    return slice(draw(bound), draw(bound), draw(st.sampled_from([None, 1, 2, -1, -3])))


@st.composite
def any_index(draw, shape):
    """An index for ``shape`` mixing ints, slices (negative steps too), None, Ellipsis,
    integer arrays (multi-dimensional, with repeats) and boolean masks."""
    advanced = draw(st.sampled_from([(3,), (2, 2), (1,)]))  # integer arrays broadcast
    index, dim, ellipsis, mask = [], 0, False, False
    while dim < len(shape):
        kind = draw(st.sampled_from(["int", "slice", "array", "mask", "none", "ellipsis",
                                     "stop"]))
        n = shape[dim]
        if kind == "stop":
            break
        if kind == "int":
            index.append(draw(st.integers(-n, n - 1)))
        elif kind == "slice":
            index.append(_slice(draw, n))
        elif kind == "array":
            index.append(numpy.array(draw(st.lists(
                st.integers(-n, n - 1), min_size=int(numpy.prod(advanced)),
                max_size=int(numpy.prod(advanced))))).reshape(advanced))
        elif kind == "mask" and not mask and advanced == (1,):
            # A mask's count is free, so only length-1 integer arrays can join it.
            span = draw(st.integers(1, len(shape) - dim))
            index.append(draw(array(shape[dim:dim + span], bool, elements=st.booleans())))
            mask = True
            dim += span - 1
        elif kind == "none":
            index.append(None)
            continue
        elif kind == "ellipsis" and not ellipsis:
            index.append(Ellipsis)
            ellipsis = True
            dim += draw(st.integers(0, len(shape) - dim)) - 1
        else:
            continue
        dim += 1
    if ellipsis:
        # NumPy aligns the indices after an Ellipsis with the last dimensions: those it
        # was drawn to skip are written out, so a mask after it meets the axes drawn for it
        index.extend([slice(None)] * (len(shape) - dim))
    return tuple(index)


@st.composite
def indexed(draw, dtype=None):
    x = draw(array(draw(st.sampled_from(INDEXED_POOL)), dtype or draw(dtypes())))
    return (x,), {"index": draw(any_index(x.shape))}


def _indexed_shape(shape, index):
    return numpy.broadcast_to(numpy.empty((), bool), shape)[index].shape


@st.composite
def updates(draw, low=-3.0, high=3.0, exclude_zero=False, unique=False, elements=None,
            dtype=None):
    """x, an index, and values of a shape that broadcasts to x[index]."""
    (x,), static = draw(indexed(dtype=dtype))
    if elements is not None or low > 0:
        x = draw(array(x.shape, x.dtype, low, high, elements=elements))
    if unique:
        positions = numpy.arange(x.size).reshape(x.shape)[static["index"]]
        if numpy.unique(positions).size != positions.size:
            static["index"] = tuple(part[..., :1] if isinstance(part, numpy.ndarray) and
                                    part.dtype != bool else part for part in static["index"])
            positions = numpy.arange(x.size).reshape(x.shape)[static["index"]]
            if numpy.unique(positions).size != positions.size:
                static["index"] = (slice(None, None, 2),)
    target = _indexed_shape(x.shape, static["index"])
    shape = draw(st.sampled_from([target, (), target[-1:]]))
    values = draw(array(shape, draw(dtypes()), -2.0, 2.0, exclude_zero=exclude_zero,
                        elements=elements))
    return (x, values), static


def _jax_update(method, **options):
    return lambda x, values, index: getattr(x.at[index], method)(values, **options)


def _set_add_get(np, x, values, index):
    return [np.at(x)[index].get(), np.at(x)[index].set(values),
            np.at(x)[index].add(values) * np.at(x)[index].subtract(values)]


def _jax_set_add_get(x, values, index):
    return [x.at[index].get(), x.at[index].set(values),
            x.at[index].add(values) * x.at[index].subtract(values)]


def _arithmetic(np, x, values, index):
    at = np.at(x)[index]
    return [at.multiply(values), at.divide(values), at.power(values)]


def _jax_arithmetic(x, values, index):
    at = x.at[index]
    return [at.multiply(values, unique_indices=True), at.divide(values, unique_indices=True),
            at.power(values, unique_indices=True)]


def _min_max(np, x, values, index):
    return [np.at(x)[index].min(values), np.at(x)[index].max(values)]


def _jax_min_max(x, values, index):
    return [x.at[index].min(values), x.at[index].max(values)]


# Few values, so that ties between x and the updates (and among updates) are common.
_TIED = st.sampled_from([0.0, 1.0, 2.0])

CASES = [
    Case("getitem_basic", lambda np, x, index: x[index], basic_index(), order=2),
    Case("getitem_integer_array", lambda np, x, index: x[index], integer_array_index()),
    # Nonlinear after indexing, so the second derivative traces indexing's transpose.
    Case("getitem_then_square", lambda np, x, index: x[index] ** 2, integer_array_index(),
         order=2),
    Case("getitem_mask", lambda np, x, index: x[index], mask_index()),
    Case("getitem_any", lambda np, x, index: x[index], indexed(), order=2),
    Case("getitem_list", lambda np, x, index: x[list(index)], integer_array_index(),
         jax_fun=lambda x, index: x[index]),  # JAX refuses list indices
    Case("iterate_rows", lambda np, x, index: np.stack([row * i for i, row in enumerate(x)]),
         integer_array_index()),
    Case("at_set_add_get", _set_add_get, updates(), jax_fun=_jax_set_add_get, order=2),
    Case("at_multiply_divide_power", _arithmetic,
         updates(low=0.5, high=2.0, exclude_zero=True, unique=True),
         jax_fun=_jax_arithmetic),
    Case("at_min_max", _min_max, updates(elements=_TIED), jax_fun=_jax_min_max, order=2),
]
