"""Oracle cases: vectorize (on vmap), apply_over_axes, fromfunction, JAX's functional put
and place, sort_complex, and the floating-point neighbours nextafter and spacing (no
derivative, as in JAX)."""
import hypothesis.strategies as st
import jax.numpy as jnp
import numpy

from oracle import Case, array, broadcasting, dtypes, shapes, unary


@st.composite
def matrix_and_vector(draw):
    n = draw(st.integers(1, 3))
    loop = draw(shapes(0, 2))
    return (draw(array(loop + (n,), draw(dtypes()))), draw(array((n,), draw(dtypes())))), {}


def _vectorized_with_signature(np, x, y):
    def rowwise(a, b):
        return np.dot(a, b), a * np.sum(b) ** 2
    return np.vectorize(rowwise, signature="(n),(n)->(),(n)")(x, y)


@st.composite
def over_axes_args(draw):
    shape = draw(shapes(1, 3))
    axes = draw(st.lists(st.integers(-len(shape), len(shape) - 1), min_size=1, max_size=2))
    return (draw(array(shape, draw(dtypes()))),), {"axes": tuple(axes)}


@st.composite
def put_args(draw):
    dtype = draw(dtypes())
    x = draw(array(draw(shapes(1, 2)), dtype))
    indices = draw(st.lists(st.integers(-x.size, x.size - 1), min_size=1, max_size=x.size,
                            unique_by=lambda i: i % x.size))
    v = draw(array((draw(st.integers(1, len(indices))),), draw(dtypes())))
    return (x, v), {"indices": tuple(indices)}


def _put_jax(x, v, indices):
    # NumPy's repetition of v over the indices, which JAX's put broadcasts instead
    cycled = jnp.take(v, numpy.arange(len(indices)) % v.shape[0]).astype(x.dtype)
    return jnp.put(x, numpy.asarray(indices), cycled, inplace=False)


@st.composite
def place_args(draw):
    x = draw(array(draw(shapes(1, 2)), draw(dtypes())))
    mask = draw(array(x.shape, bool, elements=st.booleans()))
    v = draw(array((draw(st.integers(1, 3)),), draw(dtypes())))
    return (x, v), {"mask": mask}


def _place_jax(x, v, mask):
    count = int(mask.sum())
    cycled = jnp.take(v, numpy.arange(count) % v.shape[0]).astype(x.dtype)
    return x.at[mask].set(cycled)


CASES = [
    Case("vectorize", lambda np, x, y: np.vectorize(lambda a, b: np.sin(a * b) + a * b)(x, y),
         broadcasting(), order=2),
    Case("vectorize_signature", _vectorized_with_signature, matrix_and_vector(), order=2),
    Case("apply_over_axes", lambda np, x, axes: np.apply_over_axes(np.sum, x ** 2, axes),
         over_axes_args(), order=2),
    Case("fromfunction", lambda np, x: np.fromfunction(lambda i, j: i * x + j, (2, 3)),
         unary(min_dims=0, max_dims=0), order=2),
    Case("put", lambda np, x, v, indices: np.put(x, numpy.asarray(indices), v,
                                                 inplace=False),
         put_args(), jax_fun=_put_jax, order=2),
    Case("place", lambda np, x, v, mask: np.place(x, mask, v, inplace=False), place_args(),
         jax_fun=_place_jax, order=2),
    # NumPy's complex128 for a float32 x (JAX's complex64)
    Case("sort_complex", lambda np, x: np.sort_complex(x), unary(min_dims=1, max_dims=2),
         jax_fun=lambda x: jnp.sort_complex(x).astype(numpy.complex128)),
    Case("nextafter_spacing", lambda np, x, y: (np.nextafter(x, y), np.spacing(x)),
         broadcasting(), differentiable=False),
]
