"""compat.autograd.gradcheck and gradgradcheck against torch.autograd's: the same verdict,
the same errors and messages, the same warning."""
import warnings

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from compat_harness import LIBRARIES, Raised, run_both


def _functions(torch, scale=1.0):
    """Functions written once against either library: correct ones, and Functions whose
    backward is wrong (scaled), nondeterministic, or not differentiable (detached)."""

    class Scaled(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * x * (2.0 * scale)

    class Noisy(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2 + torch.rand(g.shape, dtype=g.dtype) * 1e-9

    class Detached(torch.autograd.Function):  # right first derivative, wrong second
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 3 * x.detach() ** 2

    return {
        "products": lambda a, b: (a * b, (a + b).sin()),
        "reduction": lambda a, b: (a * a).sum() + (b.exp() * a).mean(),
        "with_a_number": lambda a, b: a * 3 - b,
        "scaled": lambda a, b: Scaled.apply(a) + b,
        "noisy": lambda a, b: Noisy.apply(a) + b,
        "detached": lambda a, b: Detached.apply(a) * b,
        "output_detached": lambda a, b: (a * b).detach(),
    }


def _outcome(check, torch, name, a, b, scale=1.0, **options):
    """What gradcheck/gradgradcheck gives: its verdict and warnings, or the exception."""
    x = torch.tensor(a, dtype=torch.float64 if a.dtype == np.float64 else torch.float32,
                     requires_grad=True)
    y = torch.tensor(b, dtype=x.dtype, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        verdict = getattr(torch.autograd, check)(_functions(torch, scale)[name], (x, y),
                                                 **options)
    return verdict, [str(w.message) for w in caught]


def assert_same_outcome(case, compare_message=True):
    ours, theirs = run_both(case)
    if isinstance(theirs, Raised):
        assert isinstance(ours, Raised), (ours, theirs)
        assert ours.type == theirs.type, (ours, theirs)
        # The first paragraph: PyTorch then adds notes for its own developers (OpInfo).
        # gradgradcheck draws random grad_outputs: its numbers differ, its first line not.
        if compare_message:
            assert ours.message.split("\n\n")[0] == theirs.message.split("\n\n")[0]
        else:
            assert ours.message.splitlines()[0] == theirs.message.splitlines()[0]
    else:
        assert ours == theirs


values = hnp.arrays(np.float64, st.sampled_from([(2,), (2, 2)]),
                    elements=st.floats(-2.0, 2.0).filter(lambda v: abs(v) > 0.1))


@pytest.mark.parametrize("name", ["products", "reduction", "with_a_number", "scaled",
                                  "noisy", "output_detached"])
@given(a=values, b=values, scale=st.sampled_from([1.0, 1.0, 0.5, 1.001]))
def test_gradcheck_matches_torch(name, a, b, scale):
    b = b[: a.shape[0]] if b.ndim == 1 else b
    if name == "with_a_number" or (b.shape != a.shape and b.ndim > a.ndim):
        b = a.copy()
    assert_same_outcome(lambda torch: _outcome("gradcheck", torch, name, a, b, scale))


@pytest.mark.parametrize("name", ["products", "reduction", "scaled", "detached"])
@given(a=values, scale=st.sampled_from([1.0, 0.5]))
def test_gradgradcheck_matches_torch(name, a, scale):
    assert_same_outcome(lambda torch: _outcome("gradgradcheck", torch, name, a, a + 1.0, scale),
                        compare_message=False)


@pytest.mark.parametrize("options", [{"raise_exception": False}, {"nondet_tol": 1e-6},
                                     {"atol": 0.5, "rtol": 0.0}, {"eps": 1e-3}],
                         ids=lambda o: ",".join(o))
def test_options_match_torch(options):
    a = np.array([0.5, -1.5])
    for name, scale in (("scaled", 1.1), ("noisy", 1.0), ("products", 1.0)):
        assert_same_outcome(lambda torch: _outcome("gradcheck", torch, name, a, a, scale,
                                                   **options))


def test_single_precision_warns_as_torch_does():
    a = np.array([0.5, -1.5], np.float32)
    assert_same_outcome(lambda torch: _outcome("gradcheck", torch, "with_a_number", a, a,
                                               eps=1e-2, atol=1e-2))


def test_inputs_that_do_not_require_grad_are_refused_as_by_torch():
    def case(torch):
        return torch.autograd.gradcheck(lambda x: x * 2, (torch.ones(2, dtype=torch.float64),))
    assert_same_outcome(case)


def test_a_single_tensor_input_and_output():
    def case(torch):
        x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
        return (torch.autograd.gradcheck(lambda t: t.sin(), x),
                torch.autograd.gradgradcheck(lambda t: t.sin(), x))
    assert_same_outcome(case)


def test_checks_compat_cannot_run_are_refused():
    torch = LIBRARIES["compat"]
    x = torch.tensor([1.0], dtype=torch.float64, requires_grad=True)
    with pytest.raises(NotImplementedError, match="check_forward_ad"):
        torch.autograd.gradcheck(lambda t: t * 2, x, check_forward_ad=True)
    with pytest.raises(NotImplementedError, match="check_fwd_over_rev"):
        torch.autograd.gradgradcheck(lambda t: t * 2, x, check_fwd_over_rev=True)
