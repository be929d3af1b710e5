"""compat.optim.LBFGS against torch.optim.LBFGS 2.13: the losses step() returns, the
parameters and the whole optimizer state (iterations, evaluations, step length, history,
state_dict) after several steps, with and without the strong Wolfe line search, for
float64 (to rounding) and float32 (whose sums round otherwise, so a few iterations only);
errors and printing."""
import warnings

import numpy as np
import pytest

from compat_harness import assert_same_error, check, check_printed

OPTIONS = [
    dict(),
    dict(lr=0.5, history_size=2, max_iter=7),
    dict(max_iter=4, max_eval=5),
    dict(tolerance_change=1e-3),
    dict(tolerance_grad=0.5),
]


def _problem(torch, dtype, complex_parameter=False):
    """Parameters (one unused: a zero gradient) and a closure of a smooth nonconvex loss."""
    rng = np.random.default_rng(0)
    a = torch.tensor(rng.standard_normal((6, 4)), dtype=dtype)
    b = torch.tensor(rng.standard_normal(6), dtype=dtype)
    w = torch.nn.Parameter(torch.tensor(rng.standard_normal(4), dtype=dtype))
    c = torch.nn.Parameter(torch.tensor([[0.3, -0.2]], dtype=dtype))
    unused = torch.nn.Parameter(torch.ones(3, dtype=dtype))
    params = [w, c, unused]
    if complex_parameter:
        params.append(torch.nn.Parameter(torch.tensor([0.5 + 1.0j, -0.25 + 0.5j],
                                                      dtype=torch.complex128)))

    def loss():
        value = ((a @ w - b) ** 2).sum() + (torch.sin(c) ** 2).sum() + (w ** 4).sum() * 0.1
        if complex_parameter:
            value = value + ((params[3] - (1.0 - 1.0j)).abs() ** 2).sum()
        return value
    return params, loss


def _run(torch, dtype, options, steps, complex_parameter=False):
    params, loss = _problem(torch, dtype, complex_parameter)
    optimizer = torch.optim.LBFGS(params, **options)

    def closure():
        optimizer.zero_grad()
        value = loss()
        value.backward()
        return value
    losses = [optimizer.step(closure).detach() for _ in range(steps)]
    state = optimizer.state[params[0]]
    # (the step length: a number or a 0-d tensor in either library, as the search left it)
    return (losses, [p.detach() for p in params], state["n_iter"], state["func_evals"],
            float(state["t"]), len(state["old_dirs"]), sorted(state),
            optimizer.state_dict()["param_groups"])


@pytest.mark.parametrize("options", OPTIONS, ids=str)
@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_float64_steps_equal_torchs(line_search_fn, options):
    check(lambda torch: _run(torch, torch.float64, dict(options, line_search_fn=line_search_fn),
                             steps=3),
          rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("options", [dict(lr=1), dict(lr=3.0), dict(lr=10.0, history_size=4),
                                     dict(lr=0.2, max_iter=50)], ids=str)
@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_rosenbrock_trajectory_equals_torchs(line_search_fn, options):
    """Rosenbrock's valley makes the line search extrapolate and zoom (lr 3 and 10), and
    the fixed step overshoot."""
    def case(torch):
        x = torch.nn.Parameter(torch.tensor([-1.5, 2.0], dtype=torch.float64))
        optimizer = torch.optim.LBFGS([x], max_iter=30, line_search_fn=line_search_fn,
                                      **options)

        def closure():
            optimizer.zero_grad()
            value = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
            value.backward()
            return value
        trajectory = []
        for _ in range(3):
            trajectory.append((optimizer.step(closure).detach(), x.detach().clone(),
                               optimizer.state[x]["func_evals"]))
        return trajectory
    check(case, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_float32_iterations_equal_torchs(line_search_fn):
    """Far from the minimum, where float32 rounding does not yet decide the path."""
    check(lambda torch: _run(torch, torch.float32,
                             dict(max_iter=4, line_search_fn=line_search_fn), steps=1),
          rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_complex_parameter_steps_as_pairs_of_reals(line_search_fn):
    check(lambda torch: _run(torch, torch.float64, dict(line_search_fn=line_search_fn),
                             steps=2, complex_parameter=True),
          rtol=1e-10, atol=1e-12)


def test_history_and_state_after_a_step():
    def case(torch):
        params, loss = _problem(torch, torch.float64)
        optimizer = torch.optim.LBFGS(params, history_size=3, line_search_fn="strong_wolfe")

        def closure():
            optimizer.zero_grad()
            value = loss()
            value.backward()
            return value
        optimizer.step(closure)
        state = optimizer.state[params[0]]
        return ([state[key] for key in ("d", "old_dirs", "old_stps", "ro", "H_diag",
                                        "prev_flat_grad", "prev_loss")],
                [a for a in state["al"] if a is not None], len(state["al"]))
    check(case, rtol=1e-9, atol=1e-12)


def test_printed_like_torch():
    def case(torch):
        print(torch.optim.LBFGS([torch.nn.Parameter(torch.ones(2))], lr=0.5))
    check_printed(case)


@pytest.mark.parametrize("make", [
    "LBFGS([{'params': [p]}, {'params': [q]}])",
    "LBFGS([p], lr=-1.0)",
    "LBFGS([p]).step()",
    "LBFGS([p], line_search_fn='backtracking').step(closure)",
    "LBFGS([])",
])
def test_errors_like_torch(make):
    def case(torch):
        p = torch.nn.Parameter(torch.ones(2))
        q = torch.nn.Parameter(torch.ones(1))

        def closure():
            value = (p ** 2).sum()
            value.backward()
            return value
        eval(f"torch.optim.{make}", {"torch": torch, "p": p, "q": q, "closure": closure})
    assert_same_error(case)


def test_gradient_free_closure_returns_its_loss():
    """A closure whose gradient is already below tolerance_grad: one evaluation, nothing
    moved."""
    def case(torch):
        p = torch.nn.Parameter(torch.zeros(3, dtype=torch.float64))
        optimizer = torch.optim.LBFGS([p])

        def closure():
            optimizer.zero_grad()
            value = (p ** 2).sum()
            value.backward()
            return value
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # (no warning from converting the loss)
            loss = optimizer.step(closure)
        return loss.detach(), p.detach(), dict(optimizer.state[p])
    check(case)
