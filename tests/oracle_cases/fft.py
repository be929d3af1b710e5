"""Oracle cases: numpy.fft (complex, real and inverse transforms, lengths, axes, norms)."""
import hypothesis.strategies as st
import numpy

from oracle import Case, array, dtypes, shapes

NORMS = st.sampled_from([None, "backward", "ortho", "forward"])
COMPLEX_OF = {numpy.dtype(numpy.float32): numpy.complex64,
              numpy.dtype(numpy.float64): numpy.complex128}


@st.composite
def signal(draw, shape, complex_=None):
    """A real or complex array; complex ones get independent real and imaginary parts."""
    dtype = numpy.dtype(draw(dtypes()))
    if complex_ is None:
        complex_ = draw(st.booleans())
    re = draw(array(shape, dtype))
    if not complex_:
        return re
    return (re + 1j * draw(array(shape, dtype))).astype(COMPLEX_OF[dtype])


@st.composite
def one_axis(draw, complex_=None, inverse_real=False):
    """An array, an axis, a length ``n`` (None, shorter or longer) and a norm."""
    shape = draw(shapes(min_dims=1, max_dims=2, max_side=4))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    n = draw(st.one_of(st.none(), st.integers(1, 6)))
    if inverse_real and n is None and shape[axis] < 2:
        n = draw(st.integers(1, 5))  # the default 2 * (m - 1) would be 0
    x = draw(signal(shape, complex_))
    return (x,), {"n": n, "axis": axis, "norm": draw(NORMS)}


@st.composite
def many_axes(draw, complex_=None, inverse_real=False, two=False):
    """An array, ``axes`` (in any order, or left out), lengths ``s`` (or None) and a norm."""
    shape = draw(shapes(min_dims=2 if two else 1, max_dims=3, max_side=3))
    ndim = len(shape)
    if two:
        axes = draw(st.sampled_from([None, (-2, -1), (-1, -2), (0, -1)]))
        effective = axes or (-2, -1)
    else:
        axes = draw(st.one_of(st.none(), st.permutations(range(ndim)).flatmap(
            lambda order: st.integers(1, ndim).map(lambda k: tuple(order[:k])))))
        effective = axes or tuple(range(ndim))
    lengths = st.lists(st.integers(1, 4), min_size=len(effective),
                       max_size=len(effective)).map(tuple)
    s = draw(st.one_of(st.none(), lengths))
    if inverse_real and s is None and shape[effective[-1]] < 2:
        s = draw(lengths)  # the default 2 * (m - 1) would be 0
    static = {"s": s, "norm": draw(NORMS)}
    if axes is not None or s is not None:  # NumPy deprecates s without axes
        static["axes"] = tuple(effective)
    return (draw(signal(shape, complex_)),), static


@st.composite
def shift_args(draw):
    shape = draw(shapes(min_dims=1, max_dims=3, max_side=4))
    ndim = len(shape)
    options = [st.none()]
    if ndim:
        options += [st.integers(-ndim, ndim - 1),
                    st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim).map(tuple)]
    return (draw(signal(shape)),), {"axes": draw(st.one_of(*options))}


def _power(y):
    # |y|**2 without abs, whose complex VJP is differentiated elsewhere.
    return y * y.conj()


CASES = [
    Case("fft.fft", lambda np, x, **k: np.fft.fft(x, **k), one_axis(), order=2),
    Case("fft.ifft", lambda np, x, **k: np.fft.ifft(x, **k), one_axis()),
    Case("fft.rfft", lambda np, x, **k: np.fft.rfft(x, **k), one_axis(complex_=False), order=2),
    Case("fft.irfft", lambda np, x, **k: np.fft.irfft(x, **k), one_axis(inverse_real=True),
         order=2),
    Case("fft.fft2", lambda np, x, **k: np.fft.fft2(x, **k), many_axes(two=True)),
    Case("fft.ifft2", lambda np, x, **k: np.fft.ifft2(x, **k), many_axes(two=True)),
    Case("fft.rfft2", lambda np, x, **k: np.fft.rfft2(x, **k),
         many_axes(complex_=False, two=True)),
    Case("fft.irfft2", lambda np, x, **k: np.fft.irfft2(x, **k),
         many_axes(inverse_real=True, two=True)),
    Case("fft.fftn", lambda np, x, **k: np.fft.fftn(x, **k), many_axes(), order=2),
    Case("fft.ifftn", lambda np, x, **k: np.fft.ifftn(x, **k), many_axes()),
    Case("fft.rfftn", lambda np, x, **k: np.fft.rfftn(x, **k), many_axes(complex_=False)),
    Case("fft.irfftn", lambda np, x, **k: np.fft.irfftn(x, **k), many_axes(inverse_real=True),
         order=2),
    # Real losses of complex intermediates.
    Case("fft.fft_power", lambda np, x, **k: np.sum(np.real(_power(np.fft.fft(x, **k)))),
         one_axis(), order=2),
    Case("fft.rfft_power", lambda np, x, **k: np.sum(np.real(_power(np.fft.rfft(x, **k)))),
         one_axis(complex_=False)),
    Case("fft.rfft_irfft_roundtrip",
         lambda np, x, n, axis, norm: np.sin(np.fft.irfft(np.fft.rfft(x, axis=axis, norm=norm),
                                                          n=x.shape[axis], axis=axis,
                                                          norm=norm)),
         one_axis(complex_=False)),
    Case("fft.fftshift", lambda np, x, axes: np.fft.fftshift(x, axes), shift_args()),
    Case("fft.ifftshift", lambda np, x, axes: np.fft.ifftshift(x, axes) * 2, shift_args()),
    Case("fft.fftfreq", lambda np, x, n, axis, norm: x * np.fft.fftfreq(x.shape[-1], 0.5)
         + np.fft.rfftfreq(2 * x.shape[-1] - 2 or 1)[:x.shape[-1]],
         one_axis(complex_=False)),
]
