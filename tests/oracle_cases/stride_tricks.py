"""Oracle cases: numpy.lib.stride_tricks. jax.numpy has no sliding_window_view, so its
oracle is the definition written as a gather: element [*i, *k] of the windows is x at i,
moved by k_j along the axis windowed j-th."""
import hypothesis.strategies as st
import jax.numpy as jnp

from oracle import Case, array, dtypes

# (x's shape, window_shape, axis): every axis, one, a negative one, an axis windowed
# twice, axes out of order, an empty window, a 0-d x.
_LAYOUTS = [((5,), 3, None), ((2, 4), (2, 3), None), ((3, 4), 2, -1), ((3, 4), (2, 2), (1, 1)),
            ((3, 2, 4), (2, 1), (2, 0)), ((4,), 0, 0), ((), (), None)]


@st.composite
def windowed(draw):
    shape, window_shape, axis = draw(st.sampled_from(_LAYOUTS))
    return (draw(array(shape, draw(dtypes()))),), {"window_shape": window_shape, "axis": axis}


def _jax_windows(x, window_shape, axis):
    sizes = window_shape if isinstance(window_shape, tuple) else (window_shape,)
    if axis is None:
        axes = tuple(range(x.ndim))
    else:
        axes = tuple(a % x.ndim for a in (axis if isinstance(axis, tuple) else (axis,)))
    starts = list(x.shape)
    for a, size in zip(axes, sizes):
        starts[a] -= size - 1
    rank = x.ndim + len(sizes)

    def along(dim, n):  # 0..n-1 along dimension `dim` of the result
        return jnp.arange(n).reshape([n if d == dim else 1 for d in range(rank)])

    index = []
    for a in range(x.ndim):
        position = along(a, starts[a])
        for j, (windowed_axis, size) in enumerate(zip(axes, sizes)):
            if windowed_axis == a:
                position = position + along(x.ndim + j, size)
        index.append(position)
    return x[tuple(index)]


def _windows_and_squares(np, x, **kw):
    # The squares give the view's VJP a traced cotangent, so that the VJP's own
    # derivative is checked too.
    windows = np.lib.stride_tricks.sliding_window_view(x, **kw)
    return [windows, windows * windows]


def _jax_windows_and_squares(x, **kw):
    windows = _jax_windows(x, **kw)
    return [windows, windows * windows]


CASES = [
    Case("sliding_window_view", _windows_and_squares, windowed(),
         jax_fun=_jax_windows_and_squares, order=2),
]
