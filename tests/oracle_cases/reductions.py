"""Oracle cases: reductions."""
from oracle import Case, with_axis

CASES = [
    Case("sum", lambda np, x, **k: np.sum(x, **k), with_axis(), order=2),
    Case("mean", lambda np, x, **k: np.mean(x, **k), with_axis(min_dims=1)),
    Case("prod", lambda np, x, **k: np.prod(x, **k), with_axis(low=-2.0, high=2.0), order=2),
    Case("max", lambda np, x, **k: np.max(x, **k), with_axis()),
    Case("min", lambda np, x, **k: np.min(x, **k), with_axis()),
    Case("sum_method", lambda np, x: x.sum() + x.mean() + x.max() + x.min() + x.prod(),
         with_axis(keepdims=False, allow_none=False).map(lambda a: (a[0], {}))),
]
