"""Values PyTorch 2.13 gives at NaN, infinities and signed zeros, compared with compat's.

PyTorch's kernels decide what these inputs give (NaN propagating through median and the
running maxima, sign 0 at NaN, a running sum kept in float64 for float32), and NumPy
often decides otherwise; a script ported to compat must print PyTorch's values.
"""
import numpy as np
import warnings

import pytest

from compat_harness import check

NAN, INF = float("nan"), float("inf")

EXPRESSIONS = [
    "torch.sign(torch.tensor([n, -0.0, 0.0, 2.0, -i]))",
    "torch.sgn(torch.tensor([n, -0.0]))",
    "torch.tensor([n, -3.0]).sign_()",
    "torch.heaviside(torch.tensor([n, 0., -0., -2., 5.]), torch.tensor([0.2, 0.3, 0.4, 0.5, 0.6]))",
    "torch.angle(torch.tensor([-0.0, n, -1., 0., -i]))",
    "torch.median(torch.tensor([1., n, 2.]))",
    "tuple(torch.tensor([1., n, 2., n]).median(0))",
    "tuple(torch.tensor([[1., n, 2.], [3., 1., 2.], [n, n, 0.]]).median(1))",
    "tuple(torch.tensor([[1., n, 2.], [3., 1., 2.]]).median(0, keepdim=True))",
    "tuple(torch.tensor([[1., n, 2.], [3., 1., 2.]]).median(-1, keepdim=True))",
    "tuple(torch.cummax(torch.tensor([3., n, 2., n, 5.]), 0))",
    "tuple(torch.cummin(torch.tensor([3., n, 2., n, 5.]), 0))",
    "tuple(torch.cummax(torch.tensor([[1., n], [2., 0.], [n, 4.]]), 0))",
    "torch.cumsum(torch.tensor([1., i, -i]), 0)",
    "torch.cumsum(torch.tensor([[1., i], [2., 3.]]), 1)",
    "torch.cumsum(torch.tensor(2.5), 0)",
    "torch.cumsum(torch.tensor([1, 2, 3], dtype=torch.int32), 0)",
    "torch.cumsum(torch.tensor([True, True]), 0)",
    "torch.cumsum(torch.tensor([1., 2.]), 0, dtype=torch.float64)",
    "torch.cumprod(torch.tensor([0., i, 2.]), 0)",
    "torch.cumprod(torch.tensor(3.), 0)",
    "torch.cumprod(torch.tensor([1, 2, 3], dtype=torch.int32), 0)",
    "torch.cumprod(torch.tensor([1., 2.]), 0, dtype=torch.float64)",
    "torch.unique(torch.tensor([2., n, 1., n]))",
    "torch.unique(torch.tensor([2., n, 1., n, 2.]), return_inverse=True, return_counts=True)",
    "torch.nn.functional.softmax(torch.tensor([i, 1.]), 0)",
    "torch.nn.functional.softmax(torch.tensor([-i, -i]), 0)",
    "torch.nn.functional.softmax(torch.tensor([-i, 1.]), 0)",
    "torch.nn.functional.log_softmax(torch.tensor([i, 1.]), 0)",
    "torch.nn.functional.log_softmax(torch.tensor([-i, 1.]), 0)",
    "torch.softmax(torch.tensor([[i, 1.], [2., n]]), 1)",
    "torch.quantile(torch.tensor([-0., i, 1e30]), 0.75)",
    "torch.quantile(torch.tensor([-0., i, 1e30]), 0.25)",
    "torch.quantile(torch.tensor([1., 2., i]), 0.5)",
    "torch.quantile(torch.tensor([-i, -i, 1.]), 0.5)",
    "torch.nanquantile(torch.tensor([1., n, 2., i]), 0.9)",
]


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_value_at_special_inputs_matches_torch(expression):
    check(lambda torch: eval(expression, {"torch": torch, "n": NAN, "i": INF}), rtol=0,
          atol=0)


# (median's grad_fn names differ: compat composes it, see test_torch_names.COMPOSED.)
@pytest.mark.parametrize("expression", [
    "x.median()", "x.median(0)[0]", "x.cummax(0)[0]", "x.cummin(0)[0]", "x.cumsum(0)",
    "x.logcumsumexp(0)"])
def test_gradient_at_nan_matches_torch(expression):
    def case(torch):
        x = torch.tensor([1., NAN, 3., 0.], requires_grad=True)
        out = eval(expression, {"x": x})
        (out * torch.linspace(0.5, 1.5, out.numel()).reshape(out.shape)).sum().backward()
        return out, x.grad
    check(case, rtol=0, atol=0, grad_fn_names="median" not in expression)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_running_sums_and_products_round_as_torch(name, dtype):
    """PyTorch keeps float16 and float32 running values in a wider type: values bit for bit,
    and cumsum's gradient (a reversed running sum); cumprod's gradient is PyTorch's formula
    in another order of operations (within float rounding)."""
    values = np.random.default_rng(0).uniform(0.5, 1.5, 3000)

    def case(torch, part):
        x = torch.tensor(values, dtype=getattr(torch, dtype), requires_grad=True)
        out = getattr(x, name)(0)
        if part == "value":
            return out
        out.backward(torch.linspace(0.5, 1.5, 3000, dtype=out.dtype))
        return x.grad
    check(lambda torch: case(torch, "value"), rtol=0, atol=0)
    if name == "cumsum":
        check(lambda torch: case(torch, "gradient"), rtol=0, atol=0)
    else:  # (the running product falls below float16's and float32's smallest numbers)
        check(lambda torch: case(torch, "gradient"), rtol=1e-2 if dtype == "float16" else 1e-5,
              atol=1e-4 if dtype == "float16" else 1e-30)


@pytest.mark.parametrize("expression", [
    "torch.tensor([5, -5]) // 0", "torch.tensor([5, -5]) % 0", "7 % torch.tensor([2, 0])",
    "torch.div(torch.tensor([5, -5]), 0, rounding_mode='trunc')",
    "torch.tensor([5]).div(torch.tensor([0]), rounding_mode='floor')",
    "torch.remainder(torch.tensor([5, 1]), torch.tensor([2, 0]))",
    "torch.fmod(torch.tensor([5], dtype=torch.int32), 0)", "torch.tensor([5, 3]).fmod_(0)",
    "torch.tensor([5, 3]).remainder_(torch.tensor([1, 0]))",
    "torch.tensor([5, 7]) // 2", "torch.fmod(torch.tensor([5, -7]), 3)",
    "7 // torch.tensor([2, -3])",
    "torch.floor_divide(torch.tensor([5., -5., 1.]), torch.tensor([0., 3., -0.]))",
    "torch.floor_divide(torch.tensor([5, -5]), 0)", "torch.tensor([5, -7]).floor_divide_(2)",
    "torch.floor_divide(7, torch.tensor([2, -3]))", "torch.tensor([5., 7.]).floor_divide(2.5)"])
def test_integer_division_by_zero_raises_as_torch(expression):
    """NumPy's integer quotient by zero is 0 (with a warning): PyTorch refuses it."""
    check(lambda torch: eval(expression, {"torch": torch}), messages=True)


@pytest.mark.parametrize("expression", [
    "torch.fmax(x, y)", "torch.fmin(x, y)", "x.fmax(y)", "torch.logaddexp(x, y)",
    "torch.atan2(x, y)", "y.arctan2(x)", "torch.copysign(x, y)", "x.copysign(-1.5)",
    "x.angle()", "x.abs()", "x.lgamma()", "torch.special.gammaln(y)", "x.pow(0)",
    "x ** 0.0", "x.pow(3)", "torch.pow(x, y * 0)", "torch.pow(x * 0, y)", "torch.pow(0.0, y)",
    "torch.pow(2.0, y)",
    "torch.stack([x, y]).logsumexp(0)", "torch.stack([x, y]).logsumexp(1)",
    "torch.special.logsumexp(torch.stack([x, y]), (0, 1), keepdim=True)",
    "torch.logaddexp2(x, y)", "torch.xlogy(x, y)", "torch.xlogy(y, x)", "x.xlogy(2.0)"])
def test_gradient_at_ties_infinities_and_zeros_is_torchs(expression):
    """PyTorch's derivative formulas decide these points (a tie goes to fmax's first
    argument; logaddexp beside an infinity is 0 for the finite argument; xlogy's is 0 where
    self == 0 and other <= 0; atan2's is 0 at (0, 0); copysign's is result / self, NaN at
    infinities; a real angle's is 0; logsumexp's is exp(x - result); pow's is 0 where the
    exponent is 0, and for the exponent where the base is 0 and the exponent >= 0), where
    funcgrad's rules follow JAX's."""
    def case(torch):
        x = torch.tensor([0.0, -0.0, 2.0, INF, INF, 1.0, NAN, 0.0, 3.0], requires_grad=True)
        y = torch.tensor([0.0, 0.0, 2.0, 1.0, INF, -INF, 1.0, NAN, -1.0], requires_grad=True)
        out = eval(expression, {"torch": torch, "x": x, "y": y})
        out.backward(torch.linspace(0.5, 1.5, out.numel()))
        return out, x.grad, y.grad
    check(case, rtol=1e-6, atol=0)


@pytest.mark.parametrize("expression", [
    "a.erf()", "torch.erfc(a)", "p.erfinv()", "p.lgamma()", "torch.digamma(p)", "a.i0()",
    "p.logit()", "torch.xlogy(a, p)", "torch.special.expit(a)", "torch.special.ndtr(a)",
    "torch.special.entr(p)", "torch.special.polygamma(1, p)", "torch.special.i0e(a)",
    "torch.mvlgamma(p + 2, 3)", "a.float_power(2)", "torch.float_power(p, a)"])
def test_float16_functions_keep_float16_as_torch(expression):
    """PyTorch computes float16 in float32 and rounds to float16; funcgrad's special
    functions (as SciPy's) return their wider type: compat rounds their results."""
    def case(torch):
        a = torch.tensor([[0.5, -1.2, 2.0], [1.5, 0.3, -0.7]], dtype=torch.float16,
                         requires_grad=True)
        p = torch.tensor([[0.2, 0.5, 0.9], [0.1, 0.7, 0.4]], dtype=torch.float16,
                         requires_grad=True)
        return eval(expression, {"torch": torch, "a": a, "p": p})
    # (PyTorch composes ndtr of a product: its node is MulBackward1, compat's its own.)
    check(case, rtol=2e-3, atol=2e-3, grad_fn_names="ndtr" not in expression)


@pytest.mark.parametrize("expression", [
    "torch.fmod(m, 0.4)", "torch.fmod(m, 2)", "torch.remainder(m, 0.4)", "m.fmod(-1.5)",
    "torch.special.bessel_j0(m)", "torch.trapezoid(m)", "torch.trapz(m, dim=0)",
    "torch.linalg.matrix_power(m, 2)", "torch.linalg.matrix_power(m, 0)",
    "torch.matrix_power(m, 3)", "torch.linalg.matrix_power(m, -1)",
    "torch.linalg.matrix_power(m.double(), -1)"])
def test_integer_operands_give_torchs_dtypes(expression):
    """An integer tensor with a Python float computes in the default float dtype; integer
    powers of integer matrices stay integers; their inverse is refused."""
    check(lambda torch: eval(expression, {"torch": torch, "m": torch.tensor([[1, 2], [3, 4]])}),
          messages=True)


# Writes into an expanded view: PyTorch writes the selected elements' memory, which the
# view's other elements share (read back through the base), and refuses a basic index
# whose selected elements share memory.
@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("statement", [
    "v = base.expand(2, 1); v[0] = 0.5", "v = base.expand(2, 3); v[0, 1:] = 0.5",
    "v = base.expand(2, 3); v[0] = 0.5", "v = base.view(1, 1).expand(3, 1); v[1:2] = "
    "torch.tensor([[2.0]], dtype=torch.float64)", "v = base.expand(2, 1); v[1, 0] = 3.0",
    "v = base.view(1, 1).expand(2, 2); v[:, 0] = 1.0",
    "v = base.expand(2, 2, 1); v[1, :1] = torch.tensor([[4.0]], dtype=torch.float64)"])
def test_writing_into_an_expanded_view_is_torchs(statement, requires_grad):
    def case(torch):
        leaf = torch.tensor([0.0], dtype=torch.float64, requires_grad=requires_grad)
        env = {"torch": torch, "base": leaf.clone()}
        exec(statement, env)
        out = (env["base"] * 2.0).sum()
        if requires_grad:
            out.backward()
        return env["base"], env["v"], leaf.grad
    check(case, rtol=0, atol=0, messages=True)


@pytest.mark.filterwarnings("ignore:Use of index_put_ on expanded tensors:UserWarning",
                            "ignore:Use of masked_fill_ on expanded tensors:UserWarning")
@pytest.mark.parametrize("statement", [
    "v = base.expand(2, 1); v[[0]] = 0.5",
    "v = base.expand(2, 1); v[torch.tensor([True, False])] = 0.5"])
def test_an_index_array_writes_an_expanded_views_memory(statement):
    """(PyTorch deprecates it, with a warning, and its backward raises.)"""
    def case(torch):
        env = {"torch": torch, "base": torch.tensor([0.0], dtype=torch.float64)}
        exec(statement, env)
        return env["base"], env["v"]
    check(case, rtol=0, atol=0)


_ADDED_INTO_SHARED_MEMORY = pytest.mark.xfail(strict=True, reason=(
    "PyTorch's index_put_(accumulate=True) adds every value into an expanded tensor's shared "
    "memory (recorded, its backward pass then raises); compat refuses it at once"))
_ACCUMULATED = "v.index_put_((torch.tensor([{}]), torch.tensor([{}])), ws{}, accumulate=True)"
_EXPANDED_FILLS = [
    "v.index_fill_(1, torch.tensor([0, 2]), 5.0)", "v.index_fill_(0, torch.tensor([1]), w)",
    "v.index_fill_(-1, torch.tensor([1]), w * 2.0)",
    "v.index_put_((torch.tensor([0, 1]), torch.tensor([1, 1])), ws)",
    "v.index_put_((torch.tensor([1]),), ws[None, :1].expand(1, 3) * 1.0)",
    _ACCUMULATED.format("0, 1", "1, 1", ""), _ACCUMULATED.format("0", "2", "[:1]"),
    "v.zero_()", "v.fill_(2.0)", "v.masked_fill_(torch.tensor([True, False, True]), w)",
    "v[torch.tensor([0])] = 1.5", "v[torch.tensor([[False] * 3, [True] * 3])] = w"]


@pytest.mark.parametrize("statement, requires_grad", [
    pytest.param(statement, requires_grad, marks=[_ADDED_INTO_SHARED_MEMORY] if
                 "accumulate" in statement else [])
    for statement in _EXPANDED_FILLS for requires_grad in (False, True)])
def test_index_fill_and_index_put_write_an_expanded_views_memory(statement, requires_grad):
    """As PyTorch, with its deprecation warning. Recorded, PyTorch's backward pass refuses
    them, as compat's does."""
    def case(torch):
        leaf = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=requires_grad)
        w = torch.tensor(3.0, dtype=torch.float64, requires_grad=requires_grad)
        ws = torch.tensor([4.0, 7.0], dtype=torch.float64, requires_grad=requires_grad)
        base = leaf * 1.0
        env = {"torch": torch, "v": base.unsqueeze(0).expand(2, 3), "w": w, "ws": ws}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                exec(statement, env)
            except RuntimeError as error:  # (refused at once, not by the backward pass)
                return "refused", str(error)
        if requires_grad:
            (base * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum().backward()
        return base, env["v"], leaf.grad, w.grad, ws.grad, [str(c.message)[:60] for c in caught]
    check(case, rtol=0, atol=0, messages=True)


# (ord 0 counts the nonzero elements: PyTorch's result lets no gradient reach x, compat's
# gives it zeros.)
@pytest.mark.parametrize("ord", [1, 2, 3, 1.5, 0.5, -1, INF, -INF])
@pytest.mark.parametrize("values", [[0.0, -0.0, 0.0], [0.0, -2.0, 2.0], [NAN, -2.0, 2.0],
                                    [1.0, -3.0, 0.5], [INF, 1.0, -INF]])
def test_vector_norm_gradient_is_torchs(ord, values):
    """PyTorch's norm derivative: 0 where x is 0 (an L1 penalty's subgradient at a zero
    weight) and where the norm is 0, sgn(NaN) = 0, ties of the inf-norm sharing."""
    def case(torch):
        x = torch.tensor(values, requires_grad=True)
        torch.linalg.vector_norm(x, ord).backward()
        grads = [x.grad]
        for norm in (lambda y: torch.norm(y, ord), lambda y: y.dist(torch.zeros(3), ord)):
            y = torch.tensor(values, requires_grad=True)
            norm(y).backward()
            grads.append(y.grad)
        return grads
    check(case, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("p", [1.0, 2.0, 3.0, 0.5, INF])
def test_cdist_gradient_at_zero_distance_is_torchs(p):
    rows = np.random.default_rng(0).standard_normal((3, 2))
    rows[1, 0] = 0.0

    def case(torch):
        x = torch.tensor(rows, requires_grad=True)
        y = torch.tensor(np.vstack([rows[:2], [[rows[0, 0], 1.0]]]), requires_grad=True)
        torch.cdist(x, y, p=p).sum().backward()
        return x.grad, y.grad
    check(case, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("expression", [
    "torch.det(m)", "torch.linalg.det(m)", "m.logdet()", "m.slogdet()", "torch.linalg.slogdet(m)",
    "m.inverse()", "torch.linalg.inv(m)", "torch.linalg.solve(m, m)", "torch.linalg.svd(m)",
    "torch.linalg.svdvals(m)", "torch.linalg.cond(m)", "torch.linalg.qr(m)",
    "torch.linalg.cholesky(m)", "torch.linalg.vecdot(m, m)", "torch.linalg.vector_norm(m)",
    "torch.linalg.matrix_norm(m)", "torch.linalg.eigh(m)", "torch.linalg.eigvalsh(m)",
    "torch.hypot(m, m)", "torch.logaddexp(m, m)", "m.logaddexp2(m)", "m.frac()",
    "m.logcumsumexp(0)", "torch.histc(m)", "torch.hypot(m, m.double())",
    "torch.quantile(m, 0.5)", "torch.nanquantile(m.half(), 0.5)", "torch.std_mean(m)",
    "torch.var_mean(m)", "torch.cdist(m, m)", "torch.cdist(m.float(), m)",
    "torch.cosine_similarity(m, m)", "torch.dist(m, m)", "torch.linalg.pinv(m)",
    "m.pinverse()", "torch.linalg.lstsq(m, m)", "torch.linalg.matrix_rank(m)",
    "torch.linalg.norm(m)",
    "torch.logaddexp(m.float(), m)", "torch.linalg.det(m.double())"])
def test_integer_tensors_are_refused_where_torch_refuses_them(expression):
    check(lambda torch: eval(expression, {"torch": torch, "m": torch.tensor([[2, 1], [1, 3]])}),
          messages=True)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_logcumsumexp_neither_overflows_nor_underflows(dtype):
    """A running log-add-exp as PyTorch's (float32 kept in float64: bit for bit), where a
    shift by the slice's maximum made the early elements of [-1000, 1, 1000] -inf; the
    gradient is PyTorch's formula, split by the signs of the incoming gradient."""
    values = np.random.default_rng(0).standard_normal((3, 50)) * 300
    values[0, :3] = [-1000.0, 1.0, 1000.0]
    weights = np.random.default_rng(1).standard_normal((3, 50))

    def case(torch, part):
        x = torch.tensor(values, dtype=getattr(torch, dtype), requires_grad=True)
        out = x.logcumsumexp(1)
        if part == "value":
            return out
        out.backward(torch.tensor(weights, dtype=out.dtype))
        return x.grad
    check(lambda torch: case(torch, "value"), rtol=0, atol=0)
    check(lambda torch: case(torch, "gradient"), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("expression", [
    "torch.addmm(torch.ones(2, 2, dtype=d), torch.ones(2, 3), torch.ones(3, 2))",
    "torch.addmm(torch.ones(2, 2), torch.ones(2, 3, dtype=d), torch.ones(3, 2))",
    "torch.addmm(torch.ones(2, 2), torch.ones(2, 3), torch.ones(3, 2, dtype=d))",
    "torch.addmv(torch.ones(2, dtype=d), torch.ones(2, 3), torch.ones(3))",
    "torch.addmv(torch.ones(2), torch.ones(2, 3), torch.ones(3, dtype=torch.int64))",
    "torch.baddbmm(torch.ones(1, 2, 2), torch.ones(1, 2, 3, dtype=d), torch.ones(1, 3, 2))",
    "torch.addbmm(torch.ones(2, 2, dtype=d), torch.ones(1, 2, 3), torch.ones(1, 3, 2))",
    "torch.isclose(torch.ones(2, dtype=torch.int64), torch.ones(2))",
    "torch.isclose(torch.ones(2), torch.ones(2, dtype=d))",
    "torch.addr(torch.ones(2, 2, dtype=d), torch.ones(2), torch.ones(2))"])
def test_mixed_dtypes_are_refused_where_torch_refuses_them(expression):
    """The scaled products and isclose take operands of one dtype (compat promoted them)."""
    check(lambda torch: eval(expression, {"torch": torch, "d": torch.float64}), messages=True)


@pytest.mark.parametrize("expression", [
    "torch.det(h)", "torch.linalg.det(h)", "h.logdet()", "h.slogdet()", "h.inverse()",
    "torch.linalg.inv(h)", "torch.linalg.solve(h, h)", "torch.linalg.svd(h)",
    "torch.linalg.svdvals(h)", "torch.linalg.cond(h)", "torch.linalg.qr(h)",
    "torch.linalg.cholesky(h)", "torch.linalg.eigh(h)", "torch.linalg.eigvalsh(h)",
    "torch.linalg.pinv(h)", "h.pinverse()", "torch.linalg.lstsq(h, h)",
    "torch.linalg.matrix_rank(h)", "torch.cdist(h, h)", "torch.linalg.matrix_norm(h, -2)",
    "torch.linalg.matrix_norm(h, 'nuc')", "torch.linalg.matrix_norm(h)",
    "torch.linalg.matrix_norm(h, 1)", "torch.linalg.vector_norm(h)"])
def test_float16_linear_algebra_is_refused_as_torch_refuses_it(expression):
    """PyTorch's CPU build has no float16 kernels for these (NumPy's linalg raises a
    TypeError of its own); the Frobenius, 1- and inf-norms and vector norms compute."""
    check(lambda torch: eval(expression, {"torch": torch, "h": torch.tensor(
        [[2.0, 1.0], [1.0, 3.0]], dtype=torch.float16)}), rtol=1e-3, atol=1e-3, messages=True)


@pytest.mark.parametrize("expression", [
    "torch.softmax(x, 0)", "x.softmax(-1)", "torch.log_softmax(x, -1)", "x.log_softmax(0)",
    "F.softmax(x, dim=0)", "F.log_softmax(x, -1)", "F.softmin(x, 0)",
    "torch.nn.Softmax(dim=-1)(x)", "torch.logsumexp(x, 0)", "x.logsumexp(-1)",
    "torch.logsumexp(x, (0,), keepdim=True)", "torch.special.logsumexp(x, [-1])"])
@pytest.mark.parametrize("value", [1.5, -INF, INF, NAN])
def test_normalizing_a_0_d_tensor_along_dim_0_or_minus_1_is_torchs(expression, value):
    """PyTorch's 0-d tensor has one element along dim 0 or -1 (NumPy's has no axis):
    softmax gives 1, log_softmax 0 and logsumexp the value itself, NaN for infinities and
    NaN as a slice of one element gives."""
    def case(torch):
        x = torch.tensor(value, requires_grad=True)
        out = eval(expression, {"torch": torch, "F": torch.nn.functional, "x": x})
        out.backward()
        return out, x.grad
    check(case)


@pytest.mark.parametrize("expression", ["torch.softmax(x, 1)", "x.log_softmax(-2)",
                                        "torch.logsumexp(x, 1)"])
def test_a_0_d_tensor_has_no_dim_past_0_or_minus_1(expression):
    check(lambda torch: eval(expression, {"torch": torch, "x": torch.tensor(1.5)}),
          messages=True)
