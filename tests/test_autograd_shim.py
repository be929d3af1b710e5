"""funcgrad.autograd against HIPS autograd 1.9.1: each differential operator, builtins and
tracer helper gives autograd's values, gradients and error types; the numpy and scipy
namespaces are funcgrad's own modules."""
import os
import subprocess
import sys
import warnings
from collections import OrderedDict

import autograd
import autograd.builtins
import autograd.numpy as anp
import autograd.scipy.stats.norm as anorm
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import funcgrad
import funcgrad.autograd as fa
import funcgrad.autograd.builtins as fbuiltins
import funcgrad.autograd.numpy as fnp
import funcgrad.autograd.scipy.stats.norm as fnorm
from funcgrad.autograd import differential_operators, tracer
from funcgrad.tree_util import tree_flatten

rng = np.random.default_rng(0)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
x3 = rng.standard_normal(3)
m23 = rng.standard_normal((2, 3))


def assert_same(ours, theirs, rtol=1e-12):
    """Equal values leaf by leaf; autograd's containers are lists, tuples and dicts too."""
    ours_leaves, ours_tree = tree_flatten(ours)
    theirs_leaves, theirs_tree = tree_flatten(theirs)
    assert ours_tree == theirs_tree, (ours, theirs)
    for a, b in zip(ours_leaves, theirs_leaves):
        assert np.shape(a) == np.shape(b)
        np.testing.assert_allclose(a, b, rtol=rtol, atol=1e-14)


def both(make):
    """``make(library, numpy)`` run with autograd and with funcgrad.autograd."""
    return make(fa, fnp), make(autograd, anp)


def loss(np_, w, x, scale=1.0):
    return scale * np_.sum(np_.tanh(np_.dot(x, w)) ** 2) + np_.sum(w ** 3)


# ---- grad and its variants ------------------------------------------------------------------


@pytest.mark.parametrize("argnum", [0, 1, -1, (0, 1), [1, 0]])
def test_grad_with_each_kind_of_argnum(argnum):
    ours, theirs = both(lambda L, n: L.grad(lambda w, x, scale: loss(n, w, x, scale),
                                            argnum)(x3, m23, 2.0))
    assert_same(ours, theirs)


def test_grad_passes_keyword_arguments_through():
    ours, theirs = both(lambda L, n: L.grad(lambda w, x, scale=1.0: loss(n, w, x, scale))(
        x3, m23, scale=3.0))
    assert_same(ours, theirs)


CONTAINERS = [
    ([1.0, np.array([0.5, -2.0])], lambda p: [p[0], p[1]]),
    ({"a": 1.5, "b": (np.array([1.0, 2.0]), 0.25)}, lambda p: [p["a"], p["b"][0], p["b"][1]]),
]


@pytest.mark.parametrize("params, leaves_of", CONTAINERS)
def test_grad_with_respect_to_containers(params, leaves_of):
    def f(n, p):
        return sum(n.sum(n.sin(leaf) * (i + 1)) for i, leaf in enumerate(leaves_of(p)))

    ours, theirs = both(lambda L, n: L.grad(lambda p: f(n, p))(params))
    assert_same(ours, theirs)


def test_value_and_grad_and_nested_grad():
    assert_same(*both(lambda L, n: L.value_and_grad(lambda w: loss(n, w, m23))(x3)))
    assert_same(*both(lambda L, n: L.grad(L.grad(lambda x: n.sin(x) * x ** 3))(0.7)))
    assert_same(*both(lambda L, n: L.grad(lambda x: L.grad(
        lambda y: n.sum(n.sin(x * y)))(x3)[0])(1.3)))


@given(st.floats(-2, 2))
def test_grad_of_scalar_functions_any_point(x):
    f = lambda n: lambda x: n.exp(n.sin(x)) / (1.0 + x ** 2)
    np.testing.assert_allclose(fa.grad(f(fnp))(x), autograd.grad(f(anp))(x), rtol=1e-12)


def test_grad_of_a_single_element_output_as_autograd():
    assert_same(*both(lambda L, n: L.grad(lambda w: n.reshape(loss(n, w, m23), (1, 1)))(x3)))


@pytest.mark.parametrize("bad_output", [
    lambda n, x: x * 2.0,                    # several elements
    lambda n, x: n.sum(x) * (1.0 + 1.0j),   # complex scalar
])
def test_grad_of_a_non_scalar_or_complex_output_is_a_type_error_in_both(bad_output):
    for L, n in ((fa, fnp), (autograd, anp)):
        with pytest.raises(TypeError):
            L.grad(lambda x: bad_output(n, x))(x3)
        with pytest.raises(TypeError):
            L.value_and_grad(lambda x: bad_output(n, x))(x3)


def test_differentiating_an_integer_is_a_type_error_in_both():
    for L, n in ((fa, fnp), (autograd, anp)):
        with pytest.raises(TypeError):
            L.grad(lambda x: x * 2.0)(3)


def test_an_argnum_that_is_not_an_int_or_tuple_is_refused():
    with pytest.raises(AssertionError):
        autograd.grad(lambda x: x, "x")
    with pytest.raises(TypeError, match="argnum must be an int or a tuple of ints, got 'x'"):
        fa.grad(lambda x: x, "x")
    with pytest.raises(TypeError, match="argnum 2 asks for positional argument 2"):
        fa.grad(lambda x: x, 2)(1.0)


def test_elementwise_grad():
    assert_same(*both(lambda L, n: L.elementwise_grad(n.tanh)(m23)))
    assert_same(*both(lambda L, n: L.elementwise_grad(lambda x, y: x * n.exp(y), 1)(x3, x3)))
    for L, n in ((fa, fnp), (autograd, anp)):
        with pytest.raises(TypeError):
            L.elementwise_grad(lambda x: x * 1j)(x3)


def test_deriv_is_forward_mode_along_ones():
    assert_same(*both(lambda L, n: L.deriv(lambda x: x ** 3 * n.sin(x))(1.5)))
    assert_same(*both(lambda L, n: L.deriv(n.sin)(x3)))


def test_jacobian_and_hessian_layouts():
    f = lambda n: lambda x: n.dot(m23, n.sin(x)) * n.sum(x)
    assert_same(*both(lambda L, n: L.jacobian(f(n))(x3)))
    assert_same(*both(lambda L, n: L.jacobian(lambda a, b: a @ b, 1)(m23, m23.T)))
    assert_same(*both(lambda L, n: L.hessian(lambda x: loss(n, x, m23))(x3)))
    assert_same(*both(lambda L, n: L.hessian(f(n))(x3)))  # output axes first
    assert fa.hessian(f(fnp))(x3).shape == (2, 3, 3)


def test_jacobian_and_hessian_with_respect_to_several_arguments():
    f = lambda n: lambda a, b: n.sin(a) * n.sum(b ** 2)
    ours = fa.jacobian(f(fnp), (0, 1))(x3, m23[0])
    for argnum, block in enumerate(ours):  # autograd takes one argument at a time
        assert_same(block, autograd.jacobian(f(anp), argnum)(x3, m23[0]))
    g = lambda n: lambda a, b: n.sum(n.sin(a) * b ** 2)
    ours = fa.hessian(g(fnp), (0, 1))(x3, m23[0])
    assert_same(ours[0][0], autograd.hessian(g(anp), 0)(x3, m23[0]))
    assert_same(ours[1][1], autograd.hessian(g(anp), 1)(x3, m23[0]))
    assert_same(ours[0][1], autograd.jacobian(autograd.grad(g(anp), 1), 0)(x3, m23[0]).T)


def test_holomorphic_grad():
    z = np.array(0.3 + 0.8j)
    assert_same(*both(lambda L, n: L.holomorphic_grad(lambda z: n.exp(z) * z ** 2)(z)))
    for L, n in ((fa, fnp), (autograd, anp)):
        with pytest.warns(UserWarning, match="not complex"):
            L.holomorphic_grad(n.sin)(0.5)


def test_make_vjp_returns_the_function_first_and_accepts_python_numbers():
    (ours_vjp, ours_ans), (their_vjp, their_ans) = both(
        lambda L, n: L.make_vjp(lambda x: n.sin(x) * 2.0)(x3))
    assert_same(ours_ans, their_ans)
    assert_same(ours_vjp(m23[0]), their_vjp(m23[0]))
    ours_vjp, _ = fa.make_vjp(lambda x: x ** 2)(3.0)
    assert ours_vjp(1.0) == autograd.make_vjp(lambda x: x ** 2)(3.0)[0](1.0)
    (vjp_pair, _), (their_pair, _) = both(lambda L, n: L.make_vjp(
        lambda x, y: x * n.cos(y), (0, 1))(x3, 2 * x3))
    assert_same(vjp_pair(x3), their_pair(x3))


def test_make_jvp():
    ours, theirs = both(lambda L, n: L.make_jvp(lambda x: n.sum(n.sin(x) ** 2))(x3)(m23[0]))
    assert_same(ours, theirs)


def test_hessian_vector_products():
    f = lambda n: lambda x, y: n.sum(n.sin(x) * x ** 2) * y
    v = m23[1]
    assert_same(*both(lambda L, n: L.hessian_tensor_product(f(n))(x3, 2.0, v)))
    assert_same(*both(lambda L, n: L.hessian_vector_product(f(n))(x3, 2.0, v)))
    (ours_hvp, ours_g), (their_hvp, their_g) = both(lambda L, n: L.make_hvp(
        lambda x: f(n)(x, 2.0))(x3))
    assert_same(ours_g, their_g)
    assert_same(ours_hvp(v), their_hvp(v))
    matrix = rng.standard_normal((3, 3))
    assert_same(*both(lambda L, n: L.hessian_tensor_product(lambda a: n.sum(n.sin(a) ** 3))(
        matrix, matrix.T)))


def test_tensor_jacobian_products():
    f = lambda n: lambda x: n.outer(n.sin(x), x)
    t = rng.standard_normal((3, 3))
    assert_same(*both(lambda L, n: L.tensor_jacobian_product(f(n))(x3, t)))
    assert_same(*both(lambda L, n: L.vector_jacobian_product(f(n))(x3, t[0])))


def test_make_jvp_reversemode_and_make_ggnvp():
    f = lambda n: lambda x: n.tanh(n.dot(m23, x))
    assert_same(*both(lambda L, n: differential_operators.make_jvp_reversemode(f(n))(x3)(m23[0])
                      if L is fa else autograd.differential_operators.make_jvp_reversemode(
                          f(n))(x3)(m23[0])))
    assert_same(*both(lambda L, n: L.make_ggnvp(f(n))(x3)(m23[1])))
    assert_same(*both(lambda L, n: L.make_ggnvp(f(n), lambda y: n.sum(n.exp(y)))(x3)(x3)))
    assert_same(*both(lambda L, n: L.make_ggnvp(lambda a, x: f(n)(x) * a, f_argnum=1)(2.0, x3)(
        m23[0])))


def test_grad_named():
    def f(n):
        def named(alpha, beta, gamma=1.0):
            return n.sum(alpha * n.sin(beta)) * gamma
        return named
    assert_same(*both(lambda L, n: L.grad_named(f(n), "beta")(2.0, x3)))
    with pytest.raises(ValueError):
        autograd.grad_named(f(anp), "delta")
    with pytest.raises(ValueError, match="no argument named 'delta'"):
        fa.grad_named(f(fnp), "delta")


def test_grad_and_aux():
    f = lambda n: lambda x: (n.sum(x ** 2), n.cos(x))
    assert_same(*both(lambda L, n: L.grad_and_aux(f(n))(x3)))
    # A non-scalar first output is summed, as in autograd.
    assert_same(*both(lambda L, n: L.grad_and_aux(lambda x: (x ** 2, 1.0))(x3)))


def test_multigrad_dict_gives_every_arguments_gradient_by_name():
    def f(n):
        def fun(a, b, *rest, c=2.0, **extra):
            return n.sum(a * b) * c + sum(r ** 2 for r in rest) + extra["d"] ** 3
        return fun

    ours = fa.multigrad_dict(f(fnp))(x3, 2 * x3, 0.5, 1.5, d=0.3)
    assert isinstance(ours, OrderedDict) and list(ours) == ["a", "b", "rest", "c", "extra"]
    # autograd 1.9.1's multigrad_dict needs the missing funcsigs package: compare with its
    # gradients argument by argument.
    with pytest.raises(ImportError):
        autograd.multigrad_dict(f(anp))(x3, 2 * x3)
    g = lambda *args, **kwargs: f(anp)(*args, **kwargs)
    assert_same(ours["a"], autograd.grad(g, 0)(x3, 2 * x3, 0.5, 1.5, d=0.3))
    assert_same(ours["b"], autograd.grad(g, 1)(x3, 2 * x3, 0.5, 1.5, d=0.3))
    assert_same(ours["rest"], autograd.grad(g, (2, 3))(x3, 2 * x3, 0.5, 1.5, d=0.3))
    assert_same(ours["c"], autograd.grad(lambda c: f(anp)(x3, 2 * x3, 0.5, 1.5, c=c, d=0.3))(2.0))
    assert_same(ours["extra"],
                {"d": autograd.grad(lambda d: f(anp)(x3, 2 * x3, 0.5, 1.5, d=d))(0.3)})


def test_checkpoint():
    block = lambda n: lambda x: n.sin(n.exp(x) * 0.5)
    assert_same(*both(lambda L, n: L.grad(lambda x: n.sum(L.checkpoint(block(n))(
        L.checkpoint(block(n))(x))))(x3)))


# ---- builtins, tracer, namespaces -------------------------------------------------------------


def test_builtins_isinstance_and_type_see_through_the_trace():
    def f(ours):
        builtins_ = fbuiltins if ours else autograd.builtins
        n = fnp if ours else anp

        def inner(x, xs):
            checks = (builtins_.isinstance(x, float), builtins_.isinstance(xs, np.ndarray),
                      builtins_.type(x) is float, builtins_.isinstance(
                          builtins_.tuple((x, xs)), tuple))
            assert all(checks), checks
            return x * n.sum(xs)
        return (fa if ours else autograd).grad(inner, (0, 1))(1.5, x3)

    assert_same(f(True), f(False))
    assert fa.tuple is tuple and fa.list is list and fa.dict is dict


def test_tracer_getval_and_isbox():
    seen = []

    def f(x):
        seen.append((tracer.isbox(x), tracer.getval(x)))
        return x * 2.0

    fa.grad(f)(1.25)
    assert seen == [(True, 1.25)]
    assert tracer.getval(3.0) == 3.0 and not tracer.isbox(3.0)


def test_numpy_and_scipy_are_funcgrads_modules_under_autograds_names():
    import funcgrad.autograd.numpy.linalg as flinalg
    import funcgrad.autograd.numpy.random as frandom
    import funcgrad.autograd.numpy.fft as ffft
    import funcgrad.autograd.scipy.special as fspecial
    assert fnp is funcgrad.numpy and flinalg is funcgrad.numpy.linalg
    assert ffft is funcgrad.numpy.fft and frandom is funcgrad.numpy.random
    assert fspecial is sys.modules["funcgrad.scipy.special"]
    assert fnorm is sys.modules["funcgrad.scipy.stats.norm"]
    assert_same(*both(lambda L, n: L.grad(lambda x: n.sum(
        (fnorm if L is fa else anorm).logpdf(x, 0.5, 2.0)))(x3)))


def test_a_module_funcgrad_lacks_is_a_clear_import_error():
    with pytest.raises(ModuleNotFoundError, match="funcgrad.scipy.nonexistent"):
        import funcgrad.autograd.scipy.nonexistent  # noqa: F401


def test_dirichlet_rvs_is_scipys_sampler_as_in_autograd():
    import autograd.scipy.stats.dirichlet as adirichlet
    import funcgrad.autograd.scipy.stats.dirichlet as fdirichlet
    alpha = np.array([0.5, 2.0, 3.0])
    for size in (1, (2, 4)):
        ours = fdirichlet.rvs(alpha, size=size, random_state=np.random.RandomState(3))
        theirs = adirichlet.rvs(alpha, size=size, random_state=np.random.RandomState(3))
        np.testing.assert_array_equal(ours, theirs)
    np.random.seed(5)  # with no random_state, SciPy draws from NumPy's global stream
    ours = fdirichlet.rvs(alpha, size=2)
    np.random.seed(5)
    np.testing.assert_array_equal(ours, adirichlet.rvs(alpha, size=2))
    # A sample is a constant to the derivatives, drawn for the traced value.
    sample = lambda a: fdirichlet.rvs(a, random_state=np.random.RandomState(1))[0]  # noqa: E731
    np.testing.assert_array_equal(fa.grad(lambda a: fnp.sum(sample(a) * a))(alpha),
                                  sample(alpha))


def test_scipy_namespaces_without_scipy_are_a_clear_import_error():
    hidden = ("import sys; sys.modules['scipy'] = None\n"
              "import funcgrad.autograd.scipy.stats.dirichlet")
    result = subprocess.run([sys.executable, "-c", hidden], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": ROOT})
    assert result.returncode == 1
    assert ("ImportError: funcgrad.scipy (and funcgrad.autograd.scipy) needs SciPy, an "
            "optional extra of funcgrad: pip install 'funcgrad[scipy]'") in result.stderr


def test_no_warning_from_plain_use():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fa.grad(lambda x: fnp.sum(fnp.sin(x)))(x3)


def test_every_operator_autograd_exports_is_here():
    import autograd.differential_operators as theirs
    # Operators are defined there or lifted by wrap_util (which sets the lifted's module).
    defined = [name for name, obj in vars(theirs).items()
               if callable(obj) and not name.startswith("_") and name != "unary_to_nary"
               and getattr(obj, "__module__", None) in (theirs.__name__, "autograd.wrap_util")]
    assert {"grad", "make_ggnvp", "make_jvp_reversemode", "checkpoint"} <= set(defined)
    assert [name for name in defined if not hasattr(differential_operators, name)] == []
    exported = [name for name in dir(autograd) if not name.startswith("_")
                and not isinstance(getattr(autograd, name), type(sys))]
    assert [name for name in exported if not hasattr(fa, name)] == []
