"""Oracle cases: scipy.signal (against jax.scipy.signal, and SciPy's values where a case
has no `jax_fun`). JAX has no counterpart of autograd's generalised convolve, so its case
is checked against a JAX transcription of the definition: a sum over the kernel's shifts.
SciPy-only behaviour (the 'wrap' and 'symm' boundaries, a non-zero fillvalue, inputs
neither of which is the larger in every dimension) is tested in tests/test_scipy_signal.py.
"""
import itertools

import hypothesis.strategies as st
import jax.numpy as jnp
import jax.scipy.signal
import numpy
import scipy.signal

import funcgrad.scipy.signal
from oracle import Case, array, dtypes

COMPLEX = {numpy.float32: numpy.complex64, numpy.float64: numpy.complex128}

_SIGNAL = {"funcgrad.numpy": funcgrad.scipy.signal, "jax.numpy": jax.scipy.signal,
           "numpy": scipy.signal}

# (in1's shape, in2's shape): one is at least as large as the other in every dimension,
# as JAX requires; in2 the larger too; even and odd kernel lengths ('same' centres differ).
_LAYOUTS = [((5,), (3,)), ((2,), (4,)), ((4, 3), (2, 2)), ((2, 3), (3, 3)), ((3, 2, 2), (2, 1, 2))]


def signal(np):
    return _SIGNAL[np.__name__]


@st.composite
def operands(draw, layouts=_LAYOUTS):
    shapes = draw(st.sampled_from(layouts))
    dtype = draw(dtypes())
    complex_ = draw(st.booleans())
    drawn = []
    for shape in shapes:
        x = draw(array(shape, dtype, -2.0, 2.0))
        if complex_:
            x = (x + 1j * draw(array(shape, dtype, -2.0, 2.0))).astype(COMPLEX[dtype])
        drawn.append(x)
    return tuple(drawn), {}


def _convolutions(np, a, b):
    s = signal(np)
    return tuple(f(a, b, mode) for f in (s.convolve, s.correlate)
                 for mode in ("full", "same", "valid")) + (
        s.convolve(a, b, "same", "fft"), s.correlate(a, b, method="direct"))


def _convolutions_2d(np, a, b):
    s = signal(np)
    return tuple(f(a, b, mode) for f in (s.convolve2d, s.correlate2d)
                 for mode in ("full", "same", "valid"))


# (in1's shape, in2's shape, axes, dot_axes): convnet's layer (data and colour against
# colour and filters), a smaller in1, conv axes paired out of order, no dot axes.
_GENERAL = [((2, 1, 4, 5), (1, 3, 2, 2), ((2, 3), (2, 3)), ((1,), (0,))),
            ((2, 4, 3), (3, 2, 3), ((1,), (2,)), ((2,), (0,))),
            ((3, 4), (2, 2, 3), ((0, 1), (2, 1)), ((), ())),
            ((2, 4), (3,), ((1,), (0,)), ((), ()))]


@st.composite
def general_operands(draw):
    shape_a, shape_b, axes, dot_axes = draw(st.sampled_from(_GENERAL))
    dtype = draw(dtypes())
    mode = draw(st.sampled_from(["full", "same", "valid"]))
    return ((draw(array(shape_a, dtype, -2.0, 2.0)), draw(array(shape_b, dtype, -2.0, 2.0))),
            {"axes": axes, "dot_axes": dot_axes, "mode": mode})


def _general(np, a, b, axes, dot_axes, mode):
    return signal(np).convolve(a, b, axes=axes, dot_axes=dot_axes, mode=mode)


def _jax_general(a, b, axes, dot_axes, mode):
    """The definition, out[..., k] = sum_m a[..., k - m] b[..., m], as one shifted product
    per position m of the kernel; result axes: a's others, b's others, the convolved."""
    (ca, cb), (da, db) = axes, dot_axes
    lengths_a, lengths_b = [a.shape[i] for i in ca], [b.shape[j] for j in cb]
    ignored_a = [i for i in range(a.ndim) if i not in ca + da]
    full = 0
    for m in itertools.product(*[range(n) for n in lengths_b]):
        index = [slice(None)] * b.ndim
        for j, position in zip(cb, m):
            index[j] = position
        kept_b = [j for j in range(b.ndim) if j not in cb]
        term = jnp.tensordot(a, b[tuple(index)], axes=(list(da), [kept_b.index(j) for j in db]))
        # term: a's axes but da (ignored and convolved, in order), then b's ignored ones.
        a_kept = [i for i in range(a.ndim) if i not in da]
        order = ([a_kept.index(i) for i in ignored_a]
                 + list(range(len(a_kept), term.ndim)) + [a_kept.index(i) for i in ca])
        term = jnp.transpose(term, order)
        widths = [(0, 0)] * (term.ndim - len(ca)) + [
            (position, n - 1 - position) for position, n in zip(m, lengths_b)]
        full = full + jnp.pad(term, widths)
    first = full.ndim - len(ca)
    index = [slice(None)] * full.ndim
    for k, (n_a, n_b) in enumerate(zip(lengths_a, lengths_b)):
        if mode == "valid":
            index[first + k] = slice(min(n_a, n_b) - 1, max(n_a, n_b))
        elif mode == "same":
            index[first + k] = slice((n_b - 1) // 2, (n_b - 1) // 2 + n_a)
    return full[tuple(index)]


CASES = [
    Case("signal_convolve_correlate", _convolutions, operands(), order=2,
         costly_oracle=True),
    Case("signal_convolve2d", _convolutions_2d,
         operands([layout for layout in _LAYOUTS if len(layout[0]) == 2]), order=2,
         costly_oracle=True),
    Case("signal_convolve_general", _general, general_operands(), jax_fun=_jax_general,
         order=2),
]
