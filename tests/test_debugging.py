"""Provenance (the user's line behind each node), debug_nans, and the safe-where idiom."""
import inspect

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import debug
from funcgrad.core import ArgVJP, Primitive, defvjp, instruments


def _next_line():
    """The number of the line after the caller's."""
    return inspect.currentframe().f_back.f_lineno + 1


@pytest.fixture
def switches_off():
    """Both switches off for one test (the suite may run with provenance on)."""
    with debug.provenance(False), debug.debug_nans(False):
        yield


def test_switches_off_leave_the_engine_uninstrumented(switches_off):
    # "Costs one attribute test when off": the engine's hooks are unset.
    assert instruments.on_result is None and instruments.pull is None
    with fg.debug_nans():
        assert instruments.on_result is not None and instruments.pull is not None
    assert instruments.on_result is None and instruments.pull is None


def test_config_attribute_context_manager_and_jax_spelling(switches_off):
    fg.config.debug_nans = True
    try:
        assert fg.config.debug_nans
        with fg.debug_nans(False):
            assert not fg.config.debug_nans
        assert fg.config.debug_nans
    finally:
        fg.config.debug_nans = False
    fg.config.update("jax_debug_nans", True)
    assert "debug_nans=True" in repr(fg.config)
    fg.config.update("debug_nans", False)
    with pytest.raises(AttributeError, match="no switch 'debug_infs'"):
        fg.config.update("debug_infs", True)


# A primitive whose VJP rule fails, to see what the backward pass reports.
_fragile = Primitive("fragile", np.sin, register=False)
defvjp(_fragile, ArgVJP(lambda ans, x: (), lambda g: g.no_such_method()))


def test_backward_errors_name_the_primitive_and_the_users_line():
    def f(x):
        line = _next_line()
        y = _fragile(x) * 2.0
        return y, line

    with debug.provenance():
        _, pullback, line = fg.vjp(f, 1.0, has_aux=True)
        with pytest.raises(AttributeError) as info:
            pullback(1.0)
    note = "\n".join(info.value.__notes__)
    assert "VJP rule of 'fragile'" in note
    assert f'File "{__file__}", line {line}, in f' in note
    assert "y = _fragile(x) * 2.0" in note


def test_without_provenance_the_note_says_how_to_get_the_line(switches_off):
    with pytest.raises(AttributeError) as info:
        fg.grad(lambda x: _fragile(x))(1.0)
    assert "config.provenance = True" in "\n".join(info.value.__notes__)


def test_user_origin_skips_library_frames(tmp_path):
    assert debug.user_origin().filename == __file__
    here = debug.user_origin()
    assert here.function == "test_user_origin_skips_library_frames"
    assert "debug.user_origin()" in here.source


# ---- debug_nans ---------------------------------------------------------------------


def test_forward_nan_names_primitive_and_line():
    def f(x):
        line = _next_line()
        return fnp.sum(fnp.log(x - 2.0)), line

    with fg.debug_nans(), pytest.raises(FloatingPointError) as info:
        fg.grad(f, has_aux=True)(np.array([1.0, 3.0]))
    message = str(info.value)
    assert "value computed by 'log' holds nan (1 of 2 elements)" in message
    assert f"line {f(np.full(1, 3.0))[1]}, in f" in message


def test_forward_inf_under_jvp_and_make_graph():
    with fg.debug_nans():
        with pytest.raises(FloatingPointError, match="'divide' holds inf"):
            fg.jvp(lambda x: 1.0 / x, (0.0,), (1.0,))
        with pytest.raises(FloatingPointError, match="'exp' holds inf"):
            fg.make_graph(fnp.exp)(1000.0)


def test_finite_computations_are_unchanged():
    def f(x):
        values, vectors = fnp.linalg.eigh(x @ x.T)
        return fnp.sum(values * vectors[0]) + fnp.sum(x > 0)

    x = np.array([[1.0, 0.5], [0.2, 2.0]])
    expected = fg.grad(f)(x)
    with fg.debug_nans():
        np.testing.assert_allclose(fg.grad(f)(x), expected)
        np.testing.assert_allclose(fg.hessian(lambda v: fnp.sum(fnp.tanh(v) ** 3))(x[0]),
                                   fg.hessian(lambda v: fnp.sum(fnp.tanh(v) ** 3))(x[0]))


# ---- the classic NaN gradient through where, and its fix ------------------------------


def unsafe_sqrt(x):
    """sqrt(x) for x > 0, else 0: right values, NaN gradient at 0."""
    return fnp.where(x > 0, fnp.sqrt(x), 0.0)


def safe_sqrt(x):
    """The double where: sqrt never sees x <= 0, so its derivative stays finite."""
    positive = x > 0
    safe_x = fnp.where(positive, x, 1.0)
    return fnp.where(positive, fnp.sqrt(safe_x), 0.0)


def test_where_passes_nan_gradients_from_the_unselected_branch():
    x = np.array([0.0, 4.0])
    np.testing.assert_allclose(unsafe_sqrt(x), safe_sqrt(x))
    with np.errstate(divide="ignore", invalid="ignore"):
        gradient = fg.grad(lambda x: fnp.sum(unsafe_sqrt(x)))(x)
    # 0 (where's cotangent for the unselected branch) times sqrt's infinite slope.
    assert np.isnan(gradient[0]) and gradient[1] == 0.25
    np.testing.assert_array_equal(fg.grad(lambda x: fnp.sum(safe_sqrt(x)))(x), [0.0, 0.25])


def test_debug_nans_points_at_the_sqrt_line():
    sqrt_line = inspect.getsourcelines(unsafe_sqrt)[1] + 2
    with fg.debug_nans(), pytest.raises(FloatingPointError) as info, \
            np.errstate(divide="ignore", invalid="ignore"):
        fg.grad(lambda x: fnp.sum(unsafe_sqrt(x)))(np.array([0.0, 4.0]))
    message = str(info.value)
    assert "backward pass: the VJP of 'sqrt' gave argument 0 a cotangent holding nan" in message
    assert f"line {sqrt_line}, in unsafe_sqrt" in message
    assert "double-where" in message
    with fg.debug_nans():  # the fix passes the check
        fg.grad(lambda x: fnp.sum(safe_sqrt(x)))(np.array([0.0, 4.0]))


def test_higher_order_nan_is_reported_inside_the_backward_pass():
    with fg.debug_nans(), pytest.raises(FloatingPointError) as info, \
            np.errstate(divide="ignore", invalid="ignore"):
        fg.grad(fg.grad(fnp.sqrt))(0.0)
    assert "computed in a backward pass, by the VJP of 'sqrt'" in str(info.value)


def test_anomaly_mode_checks_the_backward_pass_only(switches_off):
    """compat's detect_anomaly: like PyTorch, NaN values in the forward pass are allowed."""
    assert not debug.is_anomaly_enabled()
    with debug.anomaly_mode(), np.errstate(divide="ignore", invalid="ignore"):
        assert debug.is_anomaly_enabled() and debug.is_anomaly_check_nan_enabled()
        assert fg.grad(lambda x: fnp.log(x))(-1.0) == -1.0  # log(-1) is NaN: no error
        with pytest.raises(FloatingPointError, match="backward pass: the VJP of 'sqrt'"):
            fg.grad(lambda x: fnp.sum(unsafe_sqrt(x)))(np.array([0.0, 4.0]))
    with debug.anomaly_mode(check_nan=False), np.errstate(divide="ignore", invalid="ignore"):
        assert not debug.is_anomaly_check_nan_enabled()
        # provenance only
        assert instruments.on_result is not None and instruments.pull is None
        fg.grad(lambda x: fnp.sum(unsafe_sqrt(x)))(np.array([0.0, 4.0]))
    assert instruments.on_result is None
