"""Bad input gets a clear error that says what was wrong and how to fix it."""
import re

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.core import ArgVJP, Primitive, defvjp, errors


def test_grad_of_non_scalar_names_the_shape_and_the_alternatives():
    with pytest.raises(TypeError, match=r"shape \(3,\).*vjp"):
        fg.grad(lambda x: x * 2.0)(np.ones(3))


def test_grad_of_tuple_output():
    with pytest.raises(TypeError, match="has_aux"):
        fg.grad(lambda x: (x, x))(1.0)


def test_grad_of_integer_output():
    with pytest.raises(TypeError, match="real floating-point scalar"):
        fg.grad(lambda x: fnp.sum(x > 0))(np.ones(2))


@pytest.mark.parametrize("bad", [1, True, np.arange(3), np.array([True])])
def test_differentiating_an_integer_or_boolean_input(bad):
    with pytest.raises(TypeError, match=r"float or complex inputs.*args\[0\].*astype"):
        fg.grad(lambda x: fnp.sum(x * 1.0))(bad)


def test_differentiating_a_non_array_leaf_names_its_path():
    with pytest.raises(TypeError, match=r"args\[0\]\['name'\] is a str"):
        fg.grad(lambda d: d["w"])({"w": 1.0, "name": "weights"})


@pytest.mark.parametrize("argnums", [2, (0, 3), -3])
def test_argnums_out_of_range(argnums):
    with pytest.raises(TypeError, match=f"argnums={argnums if isinstance(argnums, int) else 3}"
                       r".*only 2 positional arguments"):
        fg.grad(lambda x, y: x * y, argnums=argnums)(1.0, 2.0)


def test_argnums_of_wrong_type_or_repeated():
    with pytest.raises(TypeError, match="argnums must be an int or a tuple"):
        fg.grad(lambda x: x, argnums="0")
    with pytest.raises(ValueError, match="repeats"):
        fg.grad(lambda x: x, argnums=(0, 0))


def test_primitive_without_a_rule_names_primitive_and_argument():
    half_done = Primitive("half_done", np.multiply, register=False)
    defvjp(half_done, ArgVJP(lambda ans, x, y: (y,), lambda g, y: g * y))
    assert fg.grad(lambda x: half_done(x, 2.0))(1.0) == 2.0
    with pytest.raises(NotImplementedError, match="'half_done' has no VJP rule for argument 1"):
        fg.grad(lambda y: half_done(3.0, y))(1.0)


def test_error_inside_a_rule_names_the_primitive():
    fragile = Primitive("fragile", np.sin, register=False)

    def broken(g):
        raise ZeroDivisionError("boom")
    defvjp(fragile, ArgVJP(lambda ans, x: (), broken))
    with pytest.raises(ZeroDivisionError) as info:
        fg.grad(lambda x: fragile(x))(1.0)
    assert any("VJP rule of 'fragile'" in note for note in info.value.__notes__)


def test_cotangent_of_wrong_shape_dtype_or_structure():
    _, pullback = fg.vjp(lambda x: (x, x * 2.0), np.ones(2))
    with pytest.raises(ValueError, match=r"output 1 has shape \(3,\)"):
        pullback((np.ones(2), np.ones(3)))
    with pytest.raises(ValueError, match="dtype float32"):
        pullback((np.ones(2), np.ones(2, np.float32)))
    with pytest.raises(ValueError, match="structure"):
        pullback([np.ones(2), np.ones(2)])


def test_has_aux_without_a_pair():
    with pytest.raises(TypeError, match=r"pair \(output, aux\)"):
        fg.grad(lambda x: x, has_aux=True)(1.0)


def test_leaked_box_is_reported():
    leaked = []
    fg.grad(lambda x: leaked.append(x) or x)(1.0)
    with pytest.raises(RuntimeError, match="leaked"):
        fnp.sin(leaked[0])


def test_setitem_on_traced_array():
    def f(x):
        x[0] = 1.0
        return fnp.sum(x)
    with pytest.raises(TypeError, match="immutable"):
        fg.grad(f)(np.ones(2))


def test_converting_a_traced_value_to_numpy():
    with pytest.raises(TypeError, match="would lose its derivative"):
        fg.grad(lambda x: np.asarray(x).sum())(np.ones(2))


def test_unhashable_aux_data_in_a_custom_node():
    class Box:
        def __init__(self, v):
            self.v = v

    fg.tree_util.register_pytree_node(Box, lambda b: ((b.v,), {"unhashable": []}),
                                      lambda aux, children: Box(*children))
    with pytest.raises(TypeError, match="hashable"):
        fg.grad(lambda b: b.v)(Box(1.0))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("transform", ["grad", "jvp"])
def test_eig_derivatives_refuse_eigenvectors_numpy_got_wrong(dtype, transform):
    # x^3 - 4x + 6e-45: LAPACK's balancing of the companion matrix returns the eigenvectors
    # of +-2 without their last component, so derivatives built on them would be wrong
    # (JAX's d prod(roots) / d p[3] is -1; they gave 0). A correct decomposition passes.
    def prod_of_roots(p):
        return fnp.real(fnp.prod(fnp.roots(p)))

    bad = np.array([1.0, 0.0, -4.0, 6e-45], dtype)
    good = np.array([1.0, 0.0, -4.0, 1e-30], dtype)
    direction = np.array([0.0, 0.0, 0.0, 1.0], dtype)
    if transform == "grad":
        differentiate = lambda p: fg.grad(prod_of_roots)(p) @ direction  # noqa: E731
    else:
        differentiate = lambda p: fg.jvp(prod_of_roots, (p,), (direction,))[1]  # noqa: E731
    np.testing.assert_allclose(differentiate(good), -1.0, rtol=1e-5)
    with pytest.raises(FloatingPointError, match=r"linalg.eig: NumPy's eigenvectors .* "
                                                 r"inaccurate.*rescale"):
        differentiate(bad)


@pytest.mark.parametrize("name, call", [
    ("sin", lambda x: fnp.sin(x, out=np.empty(3))),
    ("add", lambda x: fnp.add(x, 1.0, np.empty(3))),          # out given positionally
    ("round", lambda x: fnp.round(x, out=np.empty(3))),
    ("concatenate", lambda x: fnp.concatenate([x, x], out=np.empty(6))),
    ("argmax", lambda x: fnp.argmax(x, out=np.empty((), int))),
    ("take", lambda x: fnp.take(x, [0], out=np.empty(1))),
    ("choose", lambda x: fnp.choose([0, 1, 0], [x, x], out=np.empty(3))),
    ("cumsum", lambda x: fnp.cumsum(x, out=np.empty(3))),
    ("trace", lambda x: fnp.trace(fnp.reshape(x, (3, 1)) * x, out=np.empty(()))),
    ("linalg.multi_dot", lambda x: fnp.linalg.multi_dot([x, x], out=np.empty(()))),
])
def test_out_arguments_are_refused_in_one_wording(name, call):
    with pytest.raises(TypeError) as info:
        fg.grad(lambda x: fnp.sum(call(x)))(np.ones(3))
    assert str(info.value) == str(errors.out_argument(f"funcgrad.numpy.{name}"))


# Where NumPy answers something a user did not mean, funcgrad refuses and says why.
@pytest.mark.parametrize("call, pattern", [
    # NumPy truncates a float shift
    (lambda: fnp.roll(np.arange(4.0), 1.5), r"roll: shifts must be integers, got .*1\.5"),
    # NumPy bins a mix of the parts, with a ComplexWarning
    (lambda: fnp.histogram(np.array([1 + 1j, 2 - 1j])), r"histogram: complex samples.*real"),
    (lambda: fnp.histogram_bin_edges(np.array([1j])), "histogram_bin_edges: complex"),
    (lambda: fnp.histogramdd(np.array([[1j, 2.0]])), "histogramdd: complex"),
])
def test_refused_where_numpy_answers_something_else(call, pattern):
    with pytest.raises(TypeError, match=pattern):
        call()


@pytest.mark.parametrize("axis, got", [
    (np.zeros((0, 2)), r"an array of shape \(0, 2\) and dtype float64"),
    (1.0, "float 1.0"),
    ("0", "str '0'"),
])
def test_a_bad_axis_is_named_with_what_it_was(axis, got):
    with pytest.raises(TypeError, match=r"funcgrad\.numpy\.sum: axis must be an int, a tuple "
                                        r"of ints or None, got " + got):
        fnp.sum(np.ones((2, 2)), axis)
    with pytest.raises(TypeError, match=r"funcgrad\.numpy\.cumsum: axis must be an int, got "
                                        + got):
        fnp.cumsum(np.ones((2, 2)), axis)


@pytest.mark.parametrize("function, a, initial, dtype", [
    ("sum", np.array([1, 2], np.int8), 2.5, "int64"),  # (NumPy's sum of int8 is int64)
    ("prod", np.array([1, 2], np.int8), 2.5, "int64"),
    ("max", np.array([1, 2], np.int8), 2.5, "int8"),
    ("min", np.array([True, False]), 5, "bool"),
    ("nanmax", np.array([1.0, np.nan]), 1 + 1j, "float64"),
])
def test_an_initial_value_numpy_would_change_is_refused(function, a, initial, dtype):
    with pytest.raises(TypeError, match=re.escape(f"{function}: initial={initial!r} would change "
                                                  f"when cast to the reduction's dtype, {dtype}")):
        getattr(fnp, function)(a, initial=initial)
