"""clamp, clamp_min, clamp_max and clamp_ against PyTorch at NaN, infinities and signed
zeros, in the input and in number or tensor bounds: values (zeros' signs included),
grad_fn names and the gradients of ClampBackward0/1, ClampMinBackward, ClampMaxBackward."""
import hypothesis.extra.numpy as hnp
import numpy as np
from hypothesis import example, given, strategies as st

from compat_harness import check

NAN = float("nan")
INF = float("inf")
SPECIAL = st.sampled_from([NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0, 2.5])
VALUES = st.one_of(SPECIAL, st.floats(-4, 4, width=32))
ARRAYS = hnp.arrays(np.float32, st.integers(1, 5), elements=VALUES)
NUMBERS = st.one_of(st.none(), SPECIAL, st.floats(-4, 4))


def _leaf(t, values, grad):
    return t.tensor(np.asarray(values, np.float32).copy(), requires_grad=grad)


def _run(t, fn, x, bounds):
    """fn's result and the gradients of x and the tensor bounds, with each value's signbit
    (allclose does not tell -0.0 from 0.0)."""
    out = fn(x, *bounds)
    tensors = [b for b in (x, *bounds) if isinstance(b, t.Tensor) and b.requires_grad]
    signs = np.signbit(out.detach().numpy()).tolist()
    if not tensors:
        return out, signs
    grads = t.autograd.grad(out, tensors, t.arange(1, out.numel() + 1.0).view(out.shape),
                            allow_unused=True)
    return out, signs, grads


def _bound_of(t, bound, grad, like):
    if isinstance(bound, np.ndarray):
        return _leaf(t, np.resize(bound, like.shape), grad)
    return bound


@given(x=ARRAYS, low=st.one_of(NUMBERS, ARRAYS), high=st.one_of(NUMBERS, ARRAYS),
       grads=st.tuples(st.booleans(), st.booleans(), st.booleans()))
@example(x=np.array([NAN, 1, 5], np.float32), low=np.array([0, NAN, 0], np.float32),
         high=np.array([2, 2, NAN], np.float32), grads=(True, True, True))
@example(x=np.array([0, 1, 5], np.float32), low=np.array([3], np.float32),
         high=np.array([2], np.float32), grads=(True, True, True))
@example(x=np.array([-0.0, 0.0, 1, 3], np.float32), low=np.array([0.0, -0.0, 1, 3], np.float32),
         high=np.array([1, 1, 1, 3], np.float32), grads=(True, True, True))
@example(x=np.array([1, 5, -1], np.float32), low=NAN, high=2.0, grads=(True, False, False))
@example(x=np.array([1, 5, -1], np.float32), low=0.0, high=NAN, grads=(True, False, False))
def test_clamp_at_special_values_matches_torch(x, low, high, grads):
    if low is None and high is None:
        low = 0.0

    def case(t):
        leaf = _leaf(t, x, grads[0])
        return _run(t, lambda v, lo, hi: t.clamp(v, min=lo, max=hi), leaf,
                    [_bound_of(t, low, grads[1], leaf), _bound_of(t, high, grads[2], leaf)])
    check(case)


@given(x=ARRAYS, bound=st.one_of(SPECIAL, ARRAYS), side=st.sampled_from(["min", "max"]),
       grads=st.tuples(st.booleans(), st.booleans()))
@example(x=np.array([NAN, 1, -0.0], np.float32), bound=np.array([0, NAN, 0], np.float32),
         side="min", grads=(True, True))
@example(x=np.array([NAN, 1, -0.0], np.float32), bound=NAN, side="max", grads=(True, False))
def test_clamp_min_and_max_at_special_values_match_torch(x, bound, side, grads):
    def case(t):
        leaf = _leaf(t, x, grads[0])
        fn = t.clamp_min if side == "min" else t.clamp_max
        return _run(t, fn, leaf, [_bound_of(t, bound, grads[1], leaf)])
    check(case)


@given(x=ARRAYS, low=NUMBERS, high=NUMBERS)
@example(x=np.array([NAN, 1, 5, -0.0], np.float32), low=NAN, high=2.0)
@example(x=np.array([-np.inf, 5, -1, 0.5], np.float32), low=0.0, high=-0.0)  # ties of zeros
def test_clamp_in_place_at_special_values_matches_torch(x, low, high):
    if low is None and high is None:
        high = 1.0

    def case(t):
        leaf = _leaf(t, x, True)
        return _run(t, lambda v, lo, hi: v.clone().clamp_(lo, hi), leaf, [low, high])
    check(case)
