"""grad and value_and_grad treat an output with exactly one element (shape (1,), (1, 1), ...)
as the scalar it holds, as HIPS autograd and PyTorch do; JAX refuses such outputs."""
import autograd
import autograd.numpy as anp
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

x = np.array([0.3, -1.2, 2.0])


def loss(np_, x, shape):
    return np_.reshape(np_.sum(np_.sin(x) * x ** 2), shape)


@pytest.mark.parametrize("shape", [(1,), (1, 1), (1, 1, 1)])
def test_gradient_of_a_one_element_output_is_autograds(shape):
    ours = fg.grad(lambda x: loss(fnp, x, shape))(x)
    theirs = autograd.grad(lambda x: loss(anp, x, shape))(x)
    np.testing.assert_allclose(ours, theirs, rtol=1e-14)
    np.testing.assert_array_equal(ours, fg.grad(lambda x: loss(fnp, x, ()))(x))


@pytest.mark.parametrize("shape", [(1,), (1, 1)])
def test_value_and_grad_keeps_the_values_shape_as_autograd_does(shape):
    value, g = fg.value_and_grad(lambda x: loss(fnp, x, shape))(x)
    their_value, their_g = autograd.value_and_grad(lambda x: loss(anp, x, shape))(x)
    assert value.shape == np.shape(their_value) == shape
    np.testing.assert_allclose(value, their_value, rtol=1e-14)
    np.testing.assert_allclose(g, their_g, rtol=1e-14)


def test_jax_refuses_what_funcgrad_accepts_here():
    with pytest.raises(TypeError, match="scalar"):
        jax.grad(lambda x: loss(jnp, x, (1,)))(x)


def test_has_aux_holomorphic_and_higher_order_accept_one_element_too():
    g, aux = fg.grad(lambda x: (loss(fnp, x, (1,)), "aux"), has_aux=True)(x)
    np.testing.assert_allclose(g, fg.grad(lambda x: loss(fnp, x, ()))(x))
    assert aux == "aux"
    z = np.array([0.5 + 0.2j])
    np.testing.assert_allclose(fg.grad(lambda z: fnp.exp(z) * z, holomorphic=True)(z),
                               np.exp(z) * (z + 1))
    second = fg.grad(lambda x: fg.grad(lambda x: loss(fnp, x, (1, 1)))(x)[0])(x)
    np.testing.assert_allclose(
        second, autograd.grad(lambda x: autograd.grad(lambda x: loss(anp, x, (1, 1)))(x)[0])(x),
        rtol=1e-13)


@pytest.mark.parametrize("shape", [(2,), (0,), (1, 2)])
def test_more_or_fewer_elements_keep_the_clear_error(shape):
    with pytest.raises(TypeError, match=rf"one element in any shape.*shape {re_shape(shape)}"):
        fg.grad(lambda x: fnp.zeros(shape) + fnp.sum(x))(x)
    with pytest.raises(TypeError, match="scalar-output"):
        autograd.grad(lambda x: anp.zeros(shape) + anp.sum(x))(x)


def re_shape(shape):
    return str(shape).replace("(", r"\(").replace(")", r"\)")
