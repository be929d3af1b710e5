"""L-BFGS as PyTorch's torch.optim.LBFGS runs it: a quasi-Newton direction from the last
`history_size` steps and gradient changes (the two-loop recursion), a fixed step or a
line search satisfying the strong Wolfe conditions, several iterations per `step(closure)`.

Written with compat's own tensor operations on the parameters' flattened gradient, in the
parameters' dtype (0-d tensors where PyTorch has them, so that the state holds what
PyTorch's holds), under no_grad: only the closure records.
"""
from .. import _ops
from .._grad_mode import no_grad
from .._memory_formats import contiguous_format
from .._torch_names import FUNCTIONS
from .optimizer import Optimizer, check_at_least

_STATE_KEYS = ("d", "t", "old_dirs", "old_stps", "ro", "H_diag", "prev_flat_grad",
               "prev_loss")


class LBFGS(Optimizer):
    """Limited-memory BFGS over every parameter at once (one parameter group).

    `step(closure)` runs up to `max_iter` iterations (`max_eval` evaluations of the
    closure), stopping early once the gradient's largest element is at most
    `tolerance_grad` or a step, or the loss, changes by less than `tolerance_change`.
    `line_search_fn="strong_wolfe"` searches each step's length; None takes `lr` (the first
    iteration: `lr` over the gradient's 1-norm, at most `lr`).
    """

    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None):
        check_at_least(lr, 0.0, "learning rate")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        super().__init__(params, dict(
            lr=lr, max_iter=max_iter, max_eval=max_eval, tolerance_grad=tolerance_grad,
            tolerance_change=tolerance_change, history_size=history_size,
            line_search_fn=line_search_fn))
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    def step(self, closure):
        """Up to max_iter iterations; returns the closure's first loss."""
        with no_grad():
            return self._iterate(closure)

    def _iterate(self, closure):
        group = self.param_groups[0]
        lr, history_size = group["lr"], group["history_size"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        first_loss = self._evaluate(closure)
        loss = float(first_loss)
        evaluations = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if flat_grad.abs().max() <= tolerance_grad:  # already optimal
            return first_loss

        d, t, old_dirs, old_stps, ro, h_diag, prev_flat_grad, prev_loss = (
            state.get(key) for key in _STATE_KEYS)
        iterations = 0
        while iterations < group["max_iter"]:
            iterations += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = flat_grad.neg()
                old_dirs, old_stps, ro, h_diag = [], [], [], 1
            else:
                h_diag = self._remember(flat_grad - prev_flat_grad, d.mul(t), old_dirs,
                                        old_stps, ro, h_diag, history_size)
                al = state.setdefault("al", [None] * history_size)
                d = _two_loop_direction(flat_grad, old_dirs, old_stps, ro, h_diag, al)
            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone(memory_format=contiguous_format)
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss

            if state["n_iter"] == 1:
                t = min(1.0, 1.0 / flat_grad.abs().sum()) * lr
            else:
                t = lr
            slope = flat_grad.dot(d)  # the directional derivative
            if slope > -tolerance_change:
                break

            searched = 0
            if group["line_search_fn"] is not None:
                if group["line_search_fn"] != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                start = [p.clone(memory_format=contiguous_format) for p in self._params]
                loss, flat_grad, t, searched = _strong_wolfe(
                    lambda x, step, direction: self._evaluate_along(closure, x, step,
                                                                    direction),
                    start, t, d, loss, flat_grad, slope)
                self._add_step(t, d)
                optimal = flat_grad.abs().max() <= tolerance_grad
            else:
                self._add_step(t, d)
                optimal = False
                if iterations != group["max_iter"]:
                    loss = float(self._evaluate(closure))
                    flat_grad = self._flat_grad()
                    optimal = flat_grad.abs().max() <= tolerance_grad
                    searched = 1
            evaluations += searched
            state["func_evals"] += searched

            if (iterations == group["max_iter"] or evaluations >= group["max_eval"]
                    or optimal or d.mul(t).abs().max() <= tolerance_change
                    or abs(loss - prev_loss) < tolerance_change):
                break

        state.update(zip(_STATE_KEYS, (d, t, old_dirs, old_stps, ro, h_diag, prev_flat_grad,
                                       prev_loss)))
        return first_loss

    @staticmethod
    def _remember(y, s, old_dirs, old_stps, ro, h_diag, history_size):
        """Keep the gradient change `y` and step `s` if their product is positive (the
        curvature condition), dropping the oldest pair beyond `history_size`; returns the
        initial Hessian's new scale (y's product with s over its own square) or the old
        one."""
        ys = y.dot(s)
        if ys > 1e-10:
            if len(old_dirs) == history_size:
                del old_dirs[0], old_stps[0], ro[0]
            old_dirs.append(y)
            old_stps.append(s)
            ro.append(1.0 / ys)
            h_diag = ys / y.dot(y)
        return h_diag

    def _flat_grad(self):
        """Every parameter's gradient, flattened and concatenated (zeros for a parameter
        without one; a complex one as pairs of reals)."""
        pieces = []
        for p in self._params:
            piece = p.new_zeros(p.numel()) if p.grad is None else p.grad.view(-1)
            if piece.is_complex():
                piece = FUNCTIONS["view_as_real"](piece).view(-1)
            pieces.append(piece)
        return _ops.cat(pieces, 0)

    def _add_step(self, t, d):
        """Move the parameters by t times the flat direction `d` (whose pieces for complex
        parameters are pairs of reals)."""
        offset = 0
        for p in self._params:
            if p.is_complex():
                count = 2 * p.numel()
                pairs = d[offset:offset + count].clone().view(*p.shape, 2)  # (offset 0)
                step = FUNCTIONS["view_as_complex"](pairs)
            else:
                count = p.numel()
                step = d[offset:offset + count].view_as(p)
            p.add_(step, alpha=t)
            offset += count

    def _evaluate_along(self, closure, x, t, d):
        """The loss and flat gradient at the parameters `x` moved by t d, the parameters
        set back to `x` after."""
        self._add_step(t, d)
        loss = float(self._evaluate(closure))
        flat_grad = self._flat_grad()
        for p, values in zip(self._params, x):
            p.copy_(values)
        return loss, flat_grad


def _two_loop_direction(flat_grad, old_dirs, old_stps, ro, h_diag, al):
    """The L-BFGS direction: minus the inverse Hessian approximation (from the kept pairs,
    scaled by `h_diag`) times the gradient, by the two-loop recursion; `al` (the state's
    list) receives the first loop's coefficients."""
    q = flat_grad.neg()
    for i in range(len(old_dirs) - 1, -1, -1):
        al[i] = old_stps[i].dot(q) * ro[i]
        q.add_(old_dirs[i], alpha=-al[i])
    r = _ops.mul(q, h_diag)
    for i in range(len(old_dirs)):
        be_i = old_dirs[i].dot(r) * ro[i]
        r.add_(old_stps[i], alpha=al[i] - be_i)
    return r


def _cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimizer, within `bounds` (default: between x1 and x2), of the cubic through
    (x1, f1) and (x2, f2) with slopes g1 and g2; the middle of the bounds if it has
    none."""
    low, high = bounds if bounds is not None else (min(x1, x2), max(x1, x2))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square.sqrt()
        if x1 <= x2:
            at = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            at = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(at, low), high)
    return (low + high) / 2.0


def _strong_wolfe(evaluate, x, t, d, loss, flat_grad, slope, c1=1e-4, c2=0.9,
                  tolerance_change=1e-9, max_ls=25):
    """A step length along `d` from the parameters `x` (loss `loss`, gradient `flat_grad`,
    directional derivative `slope`) meeting the strong Wolfe conditions (sufficient
    decrease, c1; curvature, c2), starting from `t`: a bracketing phase that extrapolates
    by cubic interpolation, then a zoom into the bracket. `evaluate(x, t, d)` gives the loss
    and flat gradient at x + t d. Returns that loss and gradient, the step length and the
    number of evaluations."""
    d_norm = d.abs().max()
    flat_grad = flat_grad.clone(memory_format=contiguous_format)
    new_loss, new_grad = evaluate(x, t, d)
    evaluations = 1
    new_slope = new_grad.dot(d)

    previous = (0, loss, flat_grad, slope)  # (step, loss, gradient, slope) of the last try
    done = False
    searched = 0
    while searched < max_ls:
        prev_t, prev_loss, prev_grad, prev_slope = previous
        if new_loss > loss + c1 * t * slope or (searched > 1 and new_loss >= prev_loss):
            bracket = [previous, (t, new_loss, new_grad.clone(), new_slope)]
            break
        if abs(new_slope) <= -c2 * slope:
            bracket = [(t, new_loss, new_grad, new_slope)]
            done = True
            break
        if new_slope >= 0:
            bracket = [previous, (t, new_loss, new_grad.clone(), new_slope)]
            break
        # extrapolate, between a little past t and ten times t
        next_t = _cubic_minimum(prev_t, prev_loss, prev_slope, t, new_loss, new_slope,
                                bounds=(t + 0.01 * (t - prev_t), t * 10))
        previous = (t, new_loss, new_grad.clone(), new_slope)
        t = next_t
        new_loss, new_grad = evaluate(x, t, d)
        evaluations += 1
        new_slope = new_grad.dot(d)
        searched += 1
    if searched == max_ls:
        bracket = [(0, loss, flat_grad, None), (t, new_loss, new_grad, None)]

    # zoom: shrink the bracket [low, high] (low: the lower loss) until a step meets both
    # conditions
    insufficient_progress = False
    low, high = (0, 1) if bracket[0][1] <= bracket[-1][1] else (1, 0)
    while not done and searched < max_ls:
        (t0, f0, _, s0), (t1, f1, _, s1) = bracket
        if abs(t1 - t0) * d_norm < tolerance_change:
            break
        t = _cubic_minimum(t0, f0, s0, t1, f1, s1)
        # Too close to an end of the bracket: move a tenth of its width inside, the second
        # time in a row (or at once where the cubic's minimum is at or past an end).
        top, bottom = max(t0, t1), min(t0, t1)
        margin = 0.1 * (top - bottom)
        if min(top - t, t - bottom) < margin:
            if insufficient_progress or t >= top or t <= bottom:
                t = top - margin if abs(t - top) < abs(t - bottom) else bottom + margin
                insufficient_progress = False
            else:
                insufficient_progress = True
        else:
            insufficient_progress = False
        new_loss, new_grad = evaluate(x, t, d)
        evaluations += 1
        new_slope = new_grad.dot(d)
        searched += 1
        if new_loss > loss + c1 * t * slope or new_loss >= bracket[low][1]:
            bracket[high] = (t, new_loss, new_grad.clone(), new_slope)
            low, high = (0, 1) if bracket[0][1] <= bracket[1][1] else (1, 0)
        else:
            if abs(new_slope) <= -c2 * slope:
                done = True
            elif new_slope * (bracket[high][0] - bracket[low][0]) >= 0:
                bracket[high] = bracket[low]  # the bracket's ends swap roles
            bracket[low] = (t, new_loss, new_grad.clone(), new_slope)
    t, new_loss, new_grad, _ = bracket[low]
    return new_loss, new_grad, t, evaluations
