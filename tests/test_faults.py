"""Faults leave nothing behind: an exception (or Ctrl-C) raised inside a differentiated
function, a custom_vjp backward rule, a compat hook or autograd.Function, a function being
jitted or vmapped, leaves no trace active, no collector paused, no switch or grad mode
changed and no half-made jit cache entry; a fresh grad and a fresh compat backward then
work."""
import _thread
import contextlib
import gc
import signal
import sys
import threading
import time

import numpy as np
import pytest

import compat
import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import debug
from funcgrad.core import Box, instruments

X = np.array([0.5, -1.25, 2.0])


class Boom(Exception):
    pass


def engine_state():
    """Every process-wide setting a transform or a backward pass changes while it runs."""
    return {
        "collector enabled": gc.isenabled(),
        "nodes being pulled back": list(debug._pulling_back),
        "switches": dict(debug._switches),
        "anomaly mode": dict(debug._anomaly),
        "instruments": (instruments.on_result, instruments.pull),
        "compat grad mode": compat.is_grad_enabled(),
    }


@pytest.fixture
def unchanged_state():
    """Fails the test if it leaves any of `engine_state` changed; then checks that a fresh
    grad and a fresh compat backward give the right gradient."""
    before = engine_state()
    yield
    assert engine_state() == before
    fresh_grad_works()
    fresh_backward_works()


def fresh_grad_works():
    np.testing.assert_allclose(fg.grad(lambda x: fnp.sum(fnp.sin(x)))(X), np.cos(X))


def fresh_backward_works():
    x = compat.tensor(X, requires_grad=True)
    compat.sin(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.cos(X))


def retired(box):
    """Whether the trace that boxed `box` (and each one inside it) has ended."""
    while isinstance(box, Box):
        if box._trace.active:
            return False
        box = box.value
    return True


TRANSFORMS = {
    "grad": lambda f: fg.grad(f)(X),
    "value_and_grad": lambda f: fg.value_and_grad(f)(X),
    "vjp": lambda f: fg.vjp(f, X),
    "jvp": lambda f: fg.jvp(f, (X,), (X,)),
    "hessian": lambda f: fg.hessian(f)(X),
    "hvp": lambda f: fg.hvp(f, (X,), (X,)),
    "jacrev": lambda f: fg.jacrev(f)(X),
    "jacfwd": lambda f: fg.jacfwd(f)(X),
    "vmap": lambda f: fg.vmap(f)(np.stack([X, X])),
    "vmap(grad)": lambda f: fg.vmap(fg.grad(f))(np.stack([X, X])),
    "jit": lambda f: fg.jit(f)(X),
    "jit(grad)": lambda f: fg.jit(fg.grad(f))(X),
    "checkpoint": lambda f: fg.grad(fg.checkpoint(f))(X),
    "make_graph": lambda f: fg.make_graph(f)(X),
}


@pytest.mark.parametrize("error", [Boom, KeyboardInterrupt])
@pytest.mark.parametrize("transform", sorted(TRANSFORMS))
def test_error_inside_a_transformed_function(transform, error, unchanged_state):
    seen = []

    def failing(x):
        y = fnp.sin(x) * 2.0
        seen.append(y)
        raise error("inside the function")

    with pytest.raises(error, match="inside the function"):
        TRANSFORMS[transform](failing)
    assert seen and all(retired(y) for y in seen)


@pytest.mark.parametrize("error", [Boom, KeyboardInterrupt])
@pytest.mark.parametrize("transform", ["grad", "vjp", "hessian", "jacrev", "vmap(grad)",
                                       "jit(grad)", "checkpoint"])
def test_error_inside_a_custom_vjp_backward(transform, error, unchanged_state):
    @fg.custom_vjp
    def f(x):
        return fnp.sin(x)

    def backward(residual, g):
        raise error("inside the backward rule")

    f.defvjp(lambda x: (fnp.sin(x), x), backward)
    with pytest.raises(error, match="inside the backward rule"):
        out = TRANSFORMS[transform](lambda x: fnp.sum(f(x) * x))
        if transform == "vjp":
            out[1](1.0)


@pytest.mark.parametrize("error", [Boom, KeyboardInterrupt])
def test_error_in_a_long_backward_pass_under_debug_nans(error, unchanged_state):
    """debug_nans notes the node being pulled back; the failure pops it and the switch
    goes back to off when the block ends."""
    calls = []

    @fg.custom_vjp
    def f(x):
        return x * 1.0

    def backward(residual, g):
        calls.append(1)
        if len(calls) == 500:
            raise error("halfway through")
        return (g,)

    f.defvjp(lambda x: (x * 1.0, None), backward)

    def chain(x):
        for _ in range(1000):
            x = f(x)
        return fnp.sum(x)

    with pytest.raises(error, match="halfway"), fg.debug_nans():
        fg.grad(chain)(X)
    assert len(calls) == 500


@pytest.mark.parametrize("error", [Boom, KeyboardInterrupt])
def test_error_in_a_compat_hook(error, unchanged_state):
    x = compat.tensor(X, requires_grad=True)
    y = compat.sin(x) * 2.0

    def hook(grad):
        raise error("inside the hook")

    y.register_hook(hook)
    with pytest.raises(error, match="inside the hook"):
        y.sum().backward()
    assert x.grad is None


@pytest.mark.parametrize("error", [Boom, KeyboardInterrupt])
def test_error_in_a_compat_function_backward(error, unchanged_state):
    class Failing(compat.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2.0

        @staticmethod
        def backward(ctx, grad):
            raise error("inside Function.backward")

    x = compat.tensor(X, requires_grad=True)
    with pytest.raises(error, match="inside Function.backward"):
        Failing.apply(x).sum().backward()


@pytest.mark.filterwarnings("ignore:compat. anomaly detection is on:UserWarning")
@pytest.mark.parametrize("error", [Boom, KeyboardInterrupt])
def test_error_inside_no_grad_and_anomaly_mode(error, unchanged_state):
    x = compat.tensor(X, requires_grad=True)
    with pytest.raises(error):
        with compat.autograd.detect_anomaly(), compat.no_grad():
            compat.sin(x)
            raise error("inside the blocks")


@pytest.mark.parametrize("error", [Boom, KeyboardInterrupt])
def test_jit_keeps_no_cache_entry_of_a_failed_trace(error, unchanged_state):
    calls = []

    def sometimes_failing(x):
        calls.append(1)
        if len(calls) == 1:
            raise error("while tracing")
        return fnp.sin(x)

    jitted = fg.jit(sometimes_failing)
    with pytest.raises(error, match="while tracing"):
        jitted(X)
    assert jitted._cache == {}
    np.testing.assert_allclose(jitted(X), np.sin(X))
    np.testing.assert_allclose(jitted(X + 1.0), np.sin(X + 1.0))
    assert jitted.trace_count == 2 and len(calls) == 2


def test_jit_keeps_its_programs_when_a_retrace_fails(unchanged_state):
    """A signature with a program keeps it when a re-trace (after a failed guard) fails."""
    def f(x):
        if x[0] > 0:  # a guard: a negative first entry re-traces
            return fnp.sin(x)
        raise Boom("second branch")

    jitted = fg.jit(f)
    np.testing.assert_allclose(jitted(X), np.sin(X))
    with pytest.raises(Boom):
        jitted(-X)
    (entry,) = jitted._cache.values()
    assert len(entry.programs) == 1
    np.testing.assert_allclose(jitted(X * 2), np.sin(X * 2))


def test_ctrl_c_at_any_moment_of_a_long_grad(unchanged_state):
    """A real KeyboardInterrupt (from another thread, as Ctrl-C arrives) at several moments
    of the forward and backward passes of a 20,000-primitive chain."""
    def chain(x):
        for _ in range(20_000):
            x = fnp.sin(x)
        return fnp.sum(x)

    # The moments are fractions of one measured grad, so that they fall inside the passes
    # however loaded the machine is (fixed delays all fell after a fast grad).
    start = time.perf_counter()
    fg.grad(chain)(X)
    duration = time.perf_counter() - start
    interrupted, swallowed = 0, []
    # A process started in the background by a non-interactive shell (`pytest &`, as CI
    # may) inherits SIGINT ignored, and Python then installs no handler: Ctrl-C is
    # Python's own handler here, as in an interactive user's process.
    usual_handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with _swallowed_interrupts(swallowed):
            # A sweep whose interrupts were all swallowed (see _swallowed_interrupts) is
            # tried again: what is checked is the state after each interrupt that lands.
            for _sweep in range(3):
                for delay in np.linspace(0.05, 0.95, 9) * duration:
                    interrupted += _grad_interrupted_after(chain, delay)
                    assert engine_state()["collector enabled"]
                if interrupted:
                    break
    finally:
        signal.signal(signal.SIGINT, usual_handler)
    assert interrupted > 0, (
        f"none of 27 interrupts reached the test (swallowed as unraisable: "
        f"{len(swallowed)}; SIGINT handler: {signal.getsignal(signal.SIGINT)})")


def _grad_interrupted_after(chain, delay):
    """1 if an interrupt sent ``delay`` seconds into ``grad(chain)(X)`` reached the test
    (during the grad or, if it came after, while waiting for it), else 0."""
    timer = threading.Timer(delay, _thread.interrupt_main)
    try:
        timer.start()
        try:
            fg.grad(chain)(X)
            timer.join()
        except KeyboardInterrupt:
            return 1
    except KeyboardInterrupt:  # after the grad, while leaving the inner block
        return 1
    finally:
        timer.cancel()
    return 0


@contextlib.contextmanager
def _swallowed_interrupts(swallowed):
    """Python swallows a KeyboardInterrupt that lands in a callback it cannot raise from
    (a weakref callback, a __del__, the collector's callbacks) and reports it as
    unraisable: expected when Ctrl-C may land anywhere, so such reports are collected into
    ``swallowed``; any other unraisable exception goes to the usual hook."""
    usual = sys.unraisablehook

    def hook(report):
        if issubclass(report.exc_type, KeyboardInterrupt):
            swallowed.append(report)
        else:
            usual(report)
    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = usual
