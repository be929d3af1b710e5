"""funcgrad.scipy.special where JAX cannot be the oracle: points where JAX's derivative is
not the function's own (checked against finite differences), and the errors for derivatives
funcgrad does not compute (never a silent zero) and for bad orders."""
import mpmath
import numpy as np
import pytest
import scipy.special

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.special as special
from funcgrad.test_util import check_grads


@pytest.mark.parametrize("x", [1.0, 1.5, 3.0])
def test_spence_derivative_at_and_above_one(x):
    # JAX's is 0 at 1 and nan above; spence'(x) = log(x) / (1 - x), -1 at 1.
    check_grads(special.spence, (np.array([x, x + 0.25]),), order=2)
    assert fg.grad(special.spence)(1.0) == -1.0


def test_fresnel_second_derivative_at_integers():
    # JAX's second derivative of C is 0 at x = 1; it is -pi x sin(pi x**2 / 2).
    check_grads(special.fresnel, (np.array([1.0, 2.0, -1.0]),), order=2)


def test_factorial_derivative_at_negative_integers_is_that_of_the_zero_it_returns():
    # JAX's is nan there.
    check_grads(special.factorial, (np.array([-1.0, -2.0]),), order=2)
    assert np.all(fg.vjp(special.factorial, np.array([-1.0, -2.0]))[1](np.ones(2))[0] == 0)


def test_comb_with_repetition_at_k_zero_is_differentiable():
    # JAX's comb(N, 0, repetition=True) is the constant 1; comb(2 + k - 1, k) = k + 1.
    assert np.isclose(fg.grad(lambda k: special.comb(2.0, k, repetition=True))(0.0), 1.0)


def test_j1_at_zero():
    # JAX's bessel_jn is nan at 0; J1'(0) = 1/2, J1'''(0) = -3/8.
    check_grads(special.j1, (np.array([0.0, 1e-3]),), order=2)
    assert fg.grad(special.j1)(0.0) == 0.5


def test_gammainc_derivative_in_a_in_both_regions_and_far_tails():
    """The series (x < a + 1) and the continued fraction (x >= a + 1), and large a."""
    a = np.array([0.3, 2.0, 5.0, 5.0, 40.0, 40.0])
    x = np.array([0.5, 0.4, 5.9, 6.1, 30.0, 55.0])
    check_grads(lambda a: special.gammainc(a, x), (a,), order=1)
    check_grads(lambda a: special.gammaincc(a, x), (a,), order=1)


@pytest.mark.parametrize("fun, parameter", [
    (lambda t: special.betainc(t, 2.0, 0.5), "betainc: the derivative with respect to a "),
    (lambda t: special.betainc(2.0, t, 0.5), "betainc: the derivative with respect to b "),
    (lambda t: special.zeta(t, 1.5), "zeta: the derivative with respect to x "),
    (lambda t: special.hyp1f1(t, 2.0, 0.5), "hyp1f1: the derivative with respect to a "),
    (lambda t: special.hyp2f1(1.0, 2.0, t, 0.5), "hyp2f1: the derivative with respect to c "),
])
def test_derivatives_not_implemented_name_the_parameter(fun, parameter):
    with pytest.raises(NotImplementedError, match=parameter):
        fg.grad(fun)(1.5)
    with pytest.raises(NotImplementedError, match=parameter):
        fg.jvp(fun, (1.5,), (1.0,))


def test_second_derivative_of_gammainc_in_a_is_an_error():
    with pytest.raises(NotImplementedError, match="gammainc: .* a twice"):
        fg.grad(fg.grad(lambda a: special.gammainc(a, 2.0)))(1.5)


@pytest.mark.parametrize("fun, name", [
    (lambda n: special.jn(n, 0.5), "jn: the order n"),
    (lambda n: special.yn(n, 0.5), "yn: the order n"),
    (lambda v: special.iv(v, 0.5), "iv: the order v"),
    (lambda v: special.ive(v, 0.5), "ive: the order v"),
    (lambda n: special.expn(n, 0.5), "expn: the order n"),
])
def test_a_derivative_in_the_order_is_an_error(fun, name):
    with pytest.raises(TypeError, match=f"{name} was a traced value"):
        fg.grad(fun)(1.0)


def test_bad_orders_and_arguments():
    with pytest.raises(TypeError, match="yn: the order n must be an integer"):
        special.yn(1.5, 2.0)
    with pytest.raises(ValueError, match="expn: the order n must be non-negative"):
        special.expn(-1, 2.0)
    with pytest.raises(ValueError, match=r"multigammaln: a must be greater than \(d - 1\) / 2"):
        special.multigammaln(np.array([0.9, 3.0]), 3)
    with pytest.raises(ValueError, match="multigammaln: the dimension d must be positive"):
        special.multigammaln(3.0, 0)
    with pytest.raises(NotImplementedError, match="factorial: exact=True"):
        special.factorial(3.0, exact=True)
    with pytest.raises(NotImplementedError, match="comb: exact=True"):
        special.comb(3.0, 2.0, exact=True)
    with pytest.raises(ValueError, match="bessel_jn: n_iter must be a positive integer"):
        special.bessel_jn(1.0, v=2, n_iter=0)
    with pytest.raises(ValueError, match=r"betainc: shapes a \(2,\), b \(3,\), x \(\) cannot"):
        special.betainc(np.ones(2), np.ones(3), 0.5)


def test_negative_integer_orders_follow_scipy():
    assert np.isclose(special.jn(-1, 2.0), -special.j1(2.0))
    check_grads(lambda x: special.yn(-2, x), (np.array([0.5, 2.0]),), order=2)


def _mpmath_box_cox_slope(log_base, x, lmbda, order):
    """d^order/dl^order of (b**l - 1) / l at l, log(b) = log_base(x), in 40 digits."""
    def box_cox(t):
        exponent = t * log_base(mpmath.mpf(x))
        return log_base(mpmath.mpf(x)) if exponent == 0 else mpmath.expm1(exponent) / t
    with mpmath.workdps(40):
        return float(mpmath.diff(box_cox, lmbda, order))


@pytest.mark.parametrize("name, log_base, x", [
    ("boxcox", "log", 0.01), ("boxcox", "log", 0.999999), ("boxcox", "log", 3.0),
    ("boxcox", "log", 1e6), ("boxcox1p", "log1p", 1e-7), ("boxcox1p", "log1p", 2.0)])
@pytest.mark.parametrize("lmbda", [0.0, 1e-300, 1e-12, -1e-9, 1e-6, -1e-4, 0.3, -2.5])
def test_box_cox_lambda_derivatives_near_zero(name, log_base, x, lmbda):
    # The closed form (x**l log x) / l - (x**l - 1) / l**2 loses every digit near l = 0
    # (JAX's grad is 0 at l = 0 and wrong in the 7th digit at 1e-10): the series branch
    # must agree with mpmath to rounding, to second order.
    fun, log_fun = getattr(special, name), getattr(mpmath, log_base)
    first = fg.grad(fun, 1)(x, lmbda)
    second = fg.grad(fg.grad(fun, 1), 1)(x, lmbda)
    np.testing.assert_allclose(first, _mpmath_box_cox_slope(log_fun, x, lmbda, 1), rtol=1e-14)
    np.testing.assert_allclose(second, _mpmath_box_cox_slope(log_fun, x, lmbda, 2),
                               rtol=1e-13)


@pytest.mark.parametrize("name, outside, edge", [("boxcox", -1.0, 0.0),
                                                 ("boxcox1p", -2.0, -1.0)])
def test_box_cox_domain_follows_scipy(name, outside, edge):
    fun = getattr(special, name)
    x = np.array([outside, edge, edge, edge, edge + 2.0])
    lmbda = np.array([0.5, 0.5, 0.0, -1.0, 0.0])
    np.testing.assert_array_equal(fun(x, lmbda), getattr(scipy.special, name)(x, lmbda))
    # Below the domain the value and both first derivatives are nan.
    assert np.isnan(fg.grad(fun, 0)(outside, 0.5)) and np.isnan(fg.grad(fun, 1)(outside, 0.5))
    # At the edge, with lmbda > 0, the value is -1 / lmbda: its slope in lmbda 1 / lmbda**2.
    assert fg.grad(fun, 1)(edge, 0.5) == 4.0
    check_grads(fun, (np.array([0.5, 1.5]) + edge, np.array([1e-9, -0.75])), order=2)


def test_spherical_harmonics_at_and_near_the_poles():
    # The ladder form of d/dtheta has no 1/sin(theta): near the poles derivatives agree with
    # finite differences, and at them with SciPy's own (diff_n=1); the oracle draws theta in
    # [0.1, 3].
    n, m, phi = np.array([1, 2, 3, 3]), np.array([1, -1, 0, 2]), np.array([0.3, 1.0, 2.0, 4.0])
    for theta in (1e-3, np.pi - 1e-3):
        check_grads(lambda t, p: special.sph_harm_y(n, m, t, p), (np.full(4, theta), phi),
                    order=2)
    for theta in (0.0, np.pi):
        theta = np.full(4, theta)
        _, slope = fg.jvp(lambda t: special.sph_harm_y(n, m, t, phi), (theta,), (np.ones(4),))
        scipy_slope = scipy.special.sph_harm_y(n, m, theta, phi, diff_n=1)[1][..., 0]
        np.testing.assert_allclose(slope, scipy_slope, rtol=1e-14, atol=1e-15)


def test_spherical_harmonics_beyond_the_degree():
    # |m| > n: SciPy's 0, and 0 derivatives.
    value = special.sph_harm_y(2, 3, 0.5, 0.5)
    assert value == scipy.special.sph_harm_y(2, 3, 0.5, 0.5) == 0
    assert fg.grad(lambda t: fnp.real(special.sph_harm_y(2, 3, t, 0.5)))(0.5) == 0


def test_spherical_harmonic_bad_arguments():
    with pytest.raises(ValueError, match="sph_harm_y: the order n must be non-negative"):
        special.sph_harm_y(-1, 0, 0.5, 0.5)
    with pytest.raises(TypeError, match="sph_harm_y: the order m must be an integer"):
        special.sph_harm_y(2, 0.5, 0.5, 0.5)
    with pytest.raises(TypeError, match="sph_harm_y: the order n was a traced value"):
        fg.grad(lambda n: fnp.real(special.sph_harm_y(n, 0, 0.5, 0.5)))(2.0)
    with pytest.raises(NotImplementedError, match="diff_n=1 is not supported"):
        special.sph_harm_y(2, 0, 0.5, 0.5, diff_n=1)
    with pytest.raises(ValueError, match="n_max=2 is below the largest degree n, 3"):
        special.sph_harm_y(np.array([1, 3]), 0, 0.5, 0.5, n_max=2)


@pytest.mark.parametrize("name, parameters, x", [
    ("betainc", (4.0, 4.0), 0.25), ("betainc", (1.5, 0.5), 0.8), ("gammainc", (2.5,), 0.7),
    ("gammaincc", (0.5,), 3.0)])
def test_derivatives_in_x_keep_double_precision_beside_single_precision_parameters(
        name, parameters, x):
    """float32 parameters and a float64 x give a float64 result, which SciPy computes in
    double precision: so are its first and second derivatives in x (the densities once
    computed betaln or gammaln of the float32 parameters in single precision: a relative
    error of 1e-6). Checked against the same derivatives in float64 throughout (mpmath)."""
    function = getattr(special, name)
    single = [np.float32(p) for p in parameters]

    def exact(order):
        with mpmath.workdps(30):
            f = {"betainc": lambda t: mpmath.betainc(*parameters, 0, t, regularized=True),
                 "gammainc": lambda t: mpmath.gammainc(parameters[0], 0, t, regularized=True),
                 "gammaincc": lambda t: mpmath.gammainc(parameters[0], t, mpmath.inf,
                                                        regularized=True)}[name]
            return float(mpmath.diff(f, x, order))

    first = fg.grad(lambda t: function(*single, t))
    second = fg.grad(first)
    for order, derivative in ((1, first), (2, second)):
        value = derivative(np.float64(x))
        assert value.dtype == np.float64
        np.testing.assert_allclose(value, exact(order), rtol=1e-12)


# Functions SciPy computes in double precision only, which funcgrad rounds to the arguments'
# precision (as JAX): Python numbers, integers and booleans are double's, not single's.
@pytest.mark.parametrize("name, args", [
    ("gammainc", (0.7, 0.7)), ("gammaincc", (2.0, 1.5)), ("iv", (0.7, 0.7)),
    ("ive", (0.5, 2.0)), ("betainc", (0.5, 0.5, 0.25)),
    ("gammainc", (np.array([1, 2], np.uint8), np.array([1, 3], np.uint8))),
    ("expn", (np.array([1, 2], np.uint8), np.array([1, 3], np.uint8))),
    ("yn", (np.array([1, 2], np.uint8), np.array([1, 3], np.uint8))),
    ("polygamma", (np.array([1, 2], np.uint8), np.array([1, 3], np.uint8))),
    ("gammaincc", (np.array([True, False]), 1.5)),
])
def test_numbers_integers_and_booleans_compute_in_double_precision(name, args):
    ours, scipys = getattr(special, name)(*args), getattr(scipy.special, name)(*args)
    assert np.result_type(ours) == np.float64
    np.testing.assert_allclose(ours, scipys, rtol=1e-14)


@pytest.mark.parametrize("a, b", [
    (np.array([1, 2, 3], np.uint8), None),  # (a - max(a) in uint8 wrapped: inf)
    (np.array([True, False]), None),  # (a boolean subtraction raised)
    (np.array([1, 2, 3]), np.array([1, 0, 2], np.uint8)),
    (np.array([0.5, 1.0], np.float32), np.array([1, 2], np.uint8)),
])
def test_logsumexp_of_integers_and_booleans_computes_in_floating_point(a, b):
    ours, scipys = special.logsumexp(a, b=b), scipy.special.logsumexp(a, b=b)
    assert np.result_type(ours) == np.result_type(scipys)
    np.testing.assert_allclose(ours, scipys, rtol=1e-6)


def test_riemann_zeta_below_one_is_scipys():
    # Hurwitz's zeta(x, 1) is NaN below 1, which zeta(x) without q gave.
    x = np.array([0.5, 0.0, -1.0, -2.5, 3.0])
    np.testing.assert_allclose(special.zeta(x), scipy.special.zeta(x), rtol=1e-15)
    assert special.zeta(-1.0) == pytest.approx(-1 / 12, rel=1e-15)
    with pytest.raises(NotImplementedError, match="zeta: the derivative with respect to x"):
        fg.grad(special.zeta)(0.5)
