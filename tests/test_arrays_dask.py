"""Transforms on Dask arrays (DESIGN.md decision 16): values and derivatives equal NumPy's,
and come back as Dask arrays, lazy until computed.

Run with Dask's threaded scheduler; `test_arrays_dask_cluster.py` repeats a few on a
distributed cluster of worker processes.
"""
import pickle
import tracemalloc

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

da = pytest.importorskip("dask.array")
import dask  # noqa: E402

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
from dask_helpers import counting_computes  # noqa: E402
from funcgrad.numpy._add_at import ufunc_at  # noqa: E402
from like_calls import CREATION, SAMPLERS, assert_created_as_numpy_would, draw  # noqa: E402


@pytest.fixture(autouse=True, scope="module")
def _threaded_scheduler():
    with dask.config.set(scheduler="threads"):
        yield


def _data(seed=0, n=60, d=4):
    rng = np.random.default_rng(seed)
    X, y, w = rng.normal(size=(n, d)), np.sign(rng.normal(size=n)), rng.normal(size=d)
    return X, y, w, da.from_array(X, chunks=(15, d)), da.from_array(y, chunks=15), \
        da.from_array(w, chunks=2)


def logistic_loss(w, X, y):
    return fnp.sum(fnp.log1p(fnp.exp(-y * (X @ w))))


def _assert_lazy_equal(lazy, expected):
    assert isinstance(lazy, da.Array), type(lazy)
    np.testing.assert_allclose(lazy.compute(), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dask_w", [False, True], ids=["numpy-w", "dask-w"])
def test_grad_of_logistic_loss_is_lazy_and_equals_numpy(dask_w):
    X, y, w, dX, dy, dw = _data()
    expected = fg.grad(logistic_loss)(w, X, y)
    with counting_computes() as computes:
        lazy = fg.grad(logistic_loss)(dw if dask_w else w, dX, dy)
    assert computes == [], "grad computed a Dask array while tracing"
    _assert_lazy_equal(lazy, expected)


def test_value_and_grad_and_grad_with_respect_to_the_data():
    X, y, w, dX, dy, dw = _data(1)
    (value, grads) = fg.value_and_grad(logistic_loss, argnums=(0, 1))(w, X, y)
    with counting_computes() as computes:
        lazy_value, lazy_grads = fg.value_and_grad(logistic_loss, argnums=(0, 1))(dw, dX, dy)
    assert computes == []
    _assert_lazy_equal(lazy_value, value)
    for lazy, expected in zip(lazy_grads, grads):
        _assert_lazy_equal(lazy, expected)


def test_vjp_and_jvp():
    X, y, w, dX, dy, dw = _data(2)

    def margins(w, X):
        return fnp.tanh(X @ w) * fnp.sin(w).sum()

    out, pullback = fg.vjp(margins, w, X)
    lazy_out, lazy_pullback = fg.vjp(margins, dw, dX)
    ct = np.linspace(-1, 1, X.shape[0])
    _assert_lazy_equal(lazy_out, out)
    for lazy, expected in zip(lazy_pullback(da.from_array(ct, chunks=15)), pullback(ct)):
        _assert_lazy_equal(lazy, expected)
    primal, tangent = fg.jvp(margins, (w, X), (w[::-1].copy(), X * 0.5))
    lazy_primal, lazy_tangent = fg.jvp(margins, (dw, dX), (dw[::-1], dX * 0.5))
    _assert_lazy_equal(lazy_primal, primal)
    _assert_lazy_equal(lazy_tangent, tangent)


def test_jit_replays_one_program_on_dask_arrays_without_computing():
    X, y, w, dX, dy, dw = _data(3)

    @fg.jit
    def step(w, X, y):
        return w - 0.1 * fg.grad(logistic_loss)(w, X, y)

    with counting_computes() as computes:
        first = step(dw, dX, dy)
        second = step(dw * 2, dX, dy)  # replayed: same types, shapes and dtypes
    assert computes == [] and step.trace_count == 1
    _assert_lazy_equal(first, w - 0.1 * fg.grad(logistic_loss)(w, X, y))
    _assert_lazy_equal(second, 2 * w - 0.1 * fg.grad(logistic_loss)(2 * w, X, y))
    # NumPy arguments get a program of their own (the type is part of the signature).
    np.testing.assert_allclose(step(w, X, y), first.compute())


def test_jit_reuses_no_buffer_of_a_dask_program():
    X, _, _, dX, _, _ = _data(4, n=400)  # big enough for buffer reuse in NumPy programs
    elementwise = fg.jit(lambda x: fnp.exp(fnp.sin(x) * 2.0) + 1.0)
    _assert_lazy_equal(elementwise(dX), elementwise(X))
    assert "out=" in elementwise.lower(X).as_text()
    assert "out=" not in elementwise.lower(dX).as_text()


def test_jit_refuses_a_guard_that_would_compute_a_dask_array():
    _, _, _, dX, _, _ = _data(5)

    def branchy(x):
        return x * 2 if fnp.sum(x) > 0 else -x

    with pytest.raises(TypeError, match=r"converts a traced dask\.array\.core\.Array .* "
                                        r"funcgrad\.numpy\.where"):
        fg.jit(branchy)(dX)


def test_jacobians_of_dask_arrays():
    _, _, w, _, _, dw = _data(6)

    def f(w):
        return fnp.tanh(w) * fnp.sum(w ** 2)

    _assert_lazy_equal(fg.jacrev(f)(dw), fg.jacrev(f)(w))
    _assert_lazy_equal(fg.jacfwd(f)(dw), fg.jacfwd(f)(w))
    _assert_lazy_equal(fg.hessian(lambda w: fnp.sum(f(w)))(dw), fg.hessian(
        lambda w: fnp.sum(f(w)))(w))


def test_an_error_of_dask_names_the_primitive_and_the_fix():
    x = da.from_array(np.arange(8.0), chunks=4)  # Dask's FFT needs one chunk along the axis

    def f(x):
        return fnp.sum(fnp.abs(fnp.fft.fft(x)))

    for call in (lambda: f(x), lambda: fg.grad(f)(x)):
        with pytest.raises(ValueError, match="single chunk") as caught:
            call()
        notes = [n for n in caught.value.__notes__ if "dask.array.core.Array" in n]
        assert len(notes) == 1 and "primitive 'fft.fftn'" in notes[0]
        assert "x.compute()" in notes[0] and "docs/dask.md" in notes[0]
    np.testing.assert_allclose(fg.grad(f)(x.rechunk(8)).compute(), fg.grad(f)(x.compute()))


@pytest.mark.parametrize("index", [(None,), (slice(None), None), (None, 1, None, slice(1, 3)),
                                   (Ellipsis, None)], ids=str)
def test_regression_indexing_with_new_axes_differentiates_lazily(index):
    """Found when the oracle's draws moved (getitem_any, at_set_add_get): Dask's setitem
    takes no None, so the VJP of x[None] raised on Dask arrays."""
    x = np.arange(12.0).reshape(3, 4)

    def f(x):
        return fnp.sum(x[index] * 2.0)

    _assert_lazy_equal(fg.grad(f)(da.from_array(x, chunks=2)), fg.grad(f)(x))


@pytest.mark.parametrize("update", ["set", "add", "multiply", "max"])
@pytest.mark.parametrize("index", [(None,), (None, 1), (slice(None), None, 2)], ids=str)
def test_regression_index_updates_with_new_axes_stay_lazy(update, index):
    """The same Dask limit in `.at[...]` updates at an index with None (at_set_add_get,
    at_min_max, at_multiply_divide_power): values and both derivatives as NumPy's."""
    x, v = np.arange(12.0).reshape(3, 4), np.array(2.0)

    def f(x, v):
        return fnp.sum(getattr(x.at[index], update)(v) * 1.5)

    expected = fg.value_and_grad(f, argnums=(0, 1))(x, v)
    value, grads = fg.value_and_grad(f, argnums=(0, 1))(da.from_array(x, chunks=2), v)
    _assert_lazy_equal(value, expected[0])
    _assert_lazy_equal(grads[0], expected[1][0])
    np.testing.assert_allclose(np.asarray(grads[1]), expected[1][1])


def test_regression_complex_cotangent_scattered_into_zeros_keeps_its_dtype():
    """Found by the explore profile (vector_products, fft.fft_power): Dask's zeros made
    through like= ignore a positional dtype, so the VJP of indexing a complex array into
    float zeros dropped the imaginary part."""
    a = np.array([1 + 1j, 2 - 1j, 0.5 + 2j])
    b = np.array([2 - 1j, 1 + 3j, -1 + 0.5j])

    def f(a, b):
        return fnp.inner(a[0], b)

    out, pullback = fg.vjp(f, a, b)
    lazy_out, lazy_pullback = fg.vjp(f, da.from_array(a, chunks=2), da.from_array(b, chunks=2))
    for lazy, expected in zip(lazy_pullback(np.ones_like(out)), pullback(np.ones_like(out))):
        _assert_lazy_equal(lazy, expected)
    made = (fnp.zeros_like(da.from_array(a, chunks=2)),
            fnp.full_like(da.ones(2), 1j, dtype=complex))
    assert all(isinstance(m, da.Array) and m.dtype == np.complex128 for m in made)


@pytest.mark.parametrize("name", sorted(CREATION))
def test_creation_like_a_dask_array_is_a_dask_array(name):
    with counting_computes() as computes:
        made = CREATION[name](da.ones(4, chunks=2))
    assert not computes
    assert_created_as_numpy_would(name, made, da.Array, da.Array.compute)


@pytest.mark.parametrize("name", sorted(SAMPLERS))
@pytest.mark.filterwarnings("ignore:This function is deprecated. Please call randint")
def test_random_like_a_dask_array_is_lazy_chunked_like_it_and_seeded_by_numpy(name):
    like = da.zeros((2, 3), chunks=(1, 2))
    with counting_computes() as computes:
        made = draw(fnp.random, name, 5, like=like)
    assert isinstance(made, da.Array), type(made)
    assert not computes
    expected = draw(np.random, name, 5)
    assert (made.shape, made.dtype) == (expected.shape, expected.dtype)
    if made.shape == like.shape:
        assert made.chunks == like.chunks
    # funcgrad.numpy.random.seed makes Dask's draws reproducible too.
    np.testing.assert_array_equal(made.compute(),
                                  draw(fnp.random, name, 5, like=like).compute())


def test_random_like_a_dask_array_draws_dasks_stream():
    """Dask's generator, not NumPy's converted: a sample of many chunks is drawn chunk by
    chunk (one task per chunk, none of them holding the whole sample)."""
    like = da.zeros((8, 6), chunks=(2, 3))
    fnp.random.seed(0)
    made = fnp.random.normal(size=(8, 6), like=like)
    assert made.chunks == like.chunks and len(made.dask) == made.npartitions
    fnp.random.seed(0)
    assert not np.array_equal(made.compute(), np.random.normal(size=(8, 6)))


@st.composite
def _at_index(draw, shape):
    """An index into an array of ``shape`` with repeated positions: integer arrays
    (broadcast against each other, negative ones included) mixed with integers, slices
    (of any step), boolean masks, None and Ellipsis, as NumPy takes them."""
    arrays_shape = draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=4))
    index = []
    for side in shape:
        kind = draw(st.sampled_from(["array", "array", "slice", "int", "mask"]))
        if kind == "array":
            picks_shape = draw(hnp.broadcastable_shapes(arrays_shape, min_side=0,
                                                               max_dims=2))
            index.append(draw(hnp.arrays(np.intp, picks_shape,
                                         elements=st.integers(-side, side - 1))))
        elif kind == "slice":
            index.append(slice(draw(st.none() | st.integers(-side, side)),
                               draw(st.none() | st.integers(-side, side)),
                               draw(st.none() | st.sampled_from([1, 2, -1, -3]))))
        elif kind == "int":
            index.append(draw(st.integers(-side, side - 1)))
        else:
            index.append(draw(hnp.arrays(bool, side)))
    for _ in range(draw(st.integers(0, 2))):
        index.insert(draw(st.integers(0, len(index))), None)
    if draw(st.booleans()):  # an Ellipsis for a run of full slices (maybe none)
        start = draw(st.integers(0, len(index)))
        stop = draw(st.integers(start, len(index)))
        if all(_is_full_slice(part) for part in index[start:stop]):
            index[start:stop] = [Ellipsis]
    if draw(st.booleans()):  # the trailing axes left out
        while index and _is_full_slice(index[-1]):
            index.pop()
    return tuple(index)


def _is_full_slice(part):
    return isinstance(part, slice) and part == slice(None)


@st.composite
def _ufunc_at_calls(draw):
    """A ufunc, an array of a dtype, chunks for it, an index into it with repeated
    positions, and values that broadcast to the selection."""
    ufunc = draw(st.sampled_from([np.add, np.maximum, np.minimum, np.multiply]))
    dtype = np.dtype(draw(st.sampled_from(
        ["float64", "int32", "complex128", "bool"] if ufunc is not np.add
        else ["float64", "int32", "complex128"])))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=5))
    bound = 3 if ufunc is np.multiply else 100  # (products of repeats stay finite)
    elements = {"f": st.floats(-bound, bound), "i": st.integers(-bound, bound),
                "c": st.complex_numbers(max_magnitude=bound), "b": st.booleans()}[dtype.kind]
    out = draw(hnp.arrays(dtype, shape, elements=elements))
    if dtype.kind == "f" and draw(st.booleans()):
        out = np.where(out == 0, -0.0, out)  # -0.0 where nothing is added stays -0.0
    index = draw(_at_index(shape))
    try:
        selected = np.zeros(shape)[index].shape
    except IndexError:  # advanced indices that do not broadcast together
        assume(False)
    kept = draw(st.integers(0, len(selected)))  # values broadcast to the selection
    values_shape = tuple(1 if draw(st.booleans()) else side for side in selected[-kept:]) \
        if kept else ()
    values = draw(hnp.arrays(dtype, values_shape, elements=elements))
    chunks = tuple(draw(st.integers(1, side)) for side in shape)
    return ufunc, out, index, values, chunks


@given(_ufunc_at_calls(), st.booleans())
@example((np.add, np.zeros((1, 1, 3)), (np.array([False]), np.array(0), slice(None)),
          np.zeros(3), (1, 1, 1)), False)  # nothing selected: values keep their chunks
@settings(deadline=None, max_examples=60)
def test_ufunc_at_on_dask_is_lazy_and_equals_numpys(call, dask_index):
    ufunc, out, index, values, chunks = call
    expected = out.copy()
    ufunc.at(expected, index, values)
    lazy_index = tuple(da.from_array(part, chunks=2) if isinstance(part, np.ndarray)
                       and part.ndim == 1 and part.dtype != bool and dask_index else part
                       for part in index)
    with counting_computes() as computes:
        result = ufunc_at(ufunc, da.from_array(out, chunks=chunks), lazy_index,
                          da.from_array(values, chunks=2))
    assert not computes or dask_index  # (a Dask index array is computed first)
    assert isinstance(result, da.Array) and result.dtype == out.dtype
    assert result.chunks == da.from_array(out, chunks=chunks).chunks
    computed = result.compute()
    if out.dtype.kind in "fc":  # combined in another order: as close as rounding allows
        np.testing.assert_allclose(computed, expected, rtol=1e-12, atol=1e-12)
        assert (np.signbit(computed.real) == np.signbit(expected.real))[
            expected.real == 0].all()
    else:
        np.testing.assert_array_equal(computed, expected)


def test_ufunc_at_on_dask_refuses_what_numpy_refuses():
    out = da.zeros(6, chunks=4)
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 6"):
        ufunc_at(np.add, out, (np.array([1, 7]),), 1.0)
    with pytest.raises(IndexError, match="too many indices"):
        ufunc_at(np.add, out, (np.array([1]), 0), 1.0)
    unknown = out[out > 1]
    with pytest.raises(ValueError, match=r"add.at on Dask arrays: the array's chunks are "
                                         r"of unknown size .* call .compute_chunk_sizes\(\)"):
        ufunc_at(np.add, unknown, (np.array([0, 0]),), 1.0)
    with pytest.raises(ValueError, match="the values' chunks are of unknown size"):
        ufunc_at(np.maximum, out, (np.array([0, 0]),), unknown)


def test_ufunc_at_on_dask_holds_chunks_not_the_output():
    """A few values added into a large table (the gradient of an embedding lookup): the
    host makes no array of the table's size to build the graph, no task of the graph
    carries more than the index, and computing the picked rows holds a few chunks. NumPy
    reports its allocations to tracemalloc."""
    rows, width, chunk_rows = 10**6, 10, 10**4  # 80 MB of table in chunks of 800 kB
    table = da.zeros((rows, width), chunks=(chunk_rows, width))
    picks = np.random.default_rng(0).integers(-rows, rows, 200)
    updates = da.ones((picks.size, width), chunks=(50, width))
    tracemalloc.start()
    try:
        result = ufunc_at(np.add, table, (picks,), updates)
        built = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        computed = result[picks[:20]].compute(scheduler="sync")
        held = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    chunk_bytes = chunk_rows * width * 8
    assert built < chunk_bytes, built
    assert held < 10 * chunk_bytes, held  # (the table is 100 chunks)
    tasks = dict(result.__dask_graph__()).values()
    assert max(len(pickle.dumps(task)) for task in tasks) < 10 * picks.nbytes
    counts = np.bincount(picks % rows, minlength=rows)
    np.testing.assert_array_equal(computed, np.repeat(counts[picks[:20] % rows, None],
                                                      width, axis=1))


def test_gradient_of_repeated_picks_and_at_updates_are_lazy():
    x = np.arange(12.0).reshape(3, 4)
    picks = np.array([[0, 2, 0], [2, 2, 1]])

    def f(x, v):
        return fnp.sum(fnp.sin(x[picks[0]]) + x.at[:, picks[0]].add(v).max()
                       + fnp.at(x)[picks[1], 1].max(v[0]).sum())
    v = np.linspace(-1.0, 1.0, 9).reshape(3, 3)
    expected = fg.grad(f, argnums=(0, 1))(x, v)
    with counting_computes() as computes:
        lazy = fg.grad(f, argnums=(0, 1))(da.from_array(x, chunks=2), da.from_array(v, chunks=2))
    assert not computes
    for ours, theirs in zip(lazy, expected):
        _assert_lazy_equal(ours, theirs)


def test_random_like_a_dask_array_without_a_dask_generator_is_numpys_draw():
    """Dask's RandomState lacks dirichlet: NumPy draws from its global stream, untouched by
    a seed draw, so the values are NumPy's own."""
    like = da.zeros((2, 3), chunks=(1, 3))
    made = draw(fnp.random, "dirichlet", 9, like=like)
    assert made.chunks == like.chunks
    np.testing.assert_array_equal(made.compute(), draw(np.random, "dirichlet", 9))


@pytest.mark.parametrize("name, build", [
    ("prod's VJP", lambda X: fg.grad(lambda w: fnp.sum(fnp.prod(X * w, axis=1)))(
        np.full(X.shape[1], 0.5))),
    ("cumprod's VJP", lambda X: fg.grad(lambda w: fnp.sum(fnp.cumprod(X * w, axis=1)))(
        np.full(X.shape[1], 0.5))),
    ("cumulative_sum with include_initial", lambda X: fnp.cumulative_sum(
        X, axis=1, include_initial=True)),
])
def test_filled_edges_along_a_long_axis_are_made_in_its_chunks(name, build):
    """The constant edge that prod's and cumprod's VJPs shift in, and cumulative_sum's
    initial column, span every row: made on the host they were one NumPy array as long as
    the data (8 MB here, for 10^6 rows); made in the rows' chunks, the host holds none."""
    X = da.random.default_rng(0).normal(size=(10**6, 4), chunks=(10**5, 4))
    small = X[:300].rechunk(70)  # (first, so that the modules it imports are loaded)
    np.testing.assert_allclose(build(small).compute(), build(small.compute()), rtol=1e-12)
    tracemalloc.start()
    try:
        result = build(X)
        built = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert isinstance(result, da.Array)
    assert built < 10**6, (name, built)


_REDUCED = {
    "sum": lambda x: fnp.sum(x ** 2),
    "mean": lambda x: fnp.mean(fnp.sin(x)),
    "sum_over_an_axis": lambda x: fnp.sum(fnp.sum(x, axis=1) ** 2),
    "mean_logaddexp": lambda x: fnp.mean(fnp.logaddexp(0.0, x)),
    "prod_cumulative": lambda x: fnp.sum(fnp.prod(x, axis=0) ** 2) + fnp.sum(
        fnp.cumulative_sum(x, axis=1, include_initial=True) ** 2),
}


@pytest.mark.parametrize("name", _REDUCED)
@pytest.mark.parametrize("transform", ["vmap_grad", "vmap_hessian", "grad"])
def test_batched_gradients_of_reductions_on_dask_equal_numpys(name, transform):
    """Regression: sum's and mean's VJPs spread their cotangent as ones in the chunks of
    the Dask array under the box, which under vmap holds the whole batch: the gradient of
    each batch element came back with the batch's shape in front (3, 3, 4, 5), silently."""
    f = _REDUCED[name]
    x = np.random.default_rng(1).uniform(0.5, 1.5, size=(3, 4, 5))
    if transform == "vmap_hessian":
        x = x[:, :2, :3]
    fun = {"vmap_grad": fg.vmap(fg.grad(f)), "vmap_hessian": fg.vmap(fg.hessian(f)),
           "grad": fg.grad(f)}[transform]
    result = fun(da.from_array(x, chunks=(2, 2, 3)))
    assert isinstance(result, da.Array)
    np.testing.assert_allclose(result.compute(), fun(x), rtol=1e-10, atol=1e-12)
