"""Strides and contiguity against PyTorch: stride(), is_contiguous(), contiguous(), clone(),
view (PyTorch's rule for which non-contiguous tensors can take a shape, and its error),
reshape, and the views t, transpose, permute, expand, unsqueeze sharing storage."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import compat
from compat_harness import check, graph


def _factors(n):
    found, p = [], 2
    while p * p <= n:
        while n % p == 0:
            found.append(p)
            n //= p
        p += 1
    return found + ([n] if n > 1 else [])


@st.composite
def layouts(draw):
    """(shape, permutation, slices): a row-major tensor of `shape`, permuted, then sliced
    with steps, which gives contiguous, permuted, gapped and length-1 layouts."""
    shape = tuple(draw(st.lists(st.integers(0, 4), min_size=0, max_size=4)))
    perm = tuple(draw(st.permutations(range(len(shape)))))
    slices = tuple(draw(st.sampled_from([slice(None), slice(None, None, 2), slice(1, None),
                                         slice(0, 1)])) for _ in shape)
    return shape, perm, slices


@st.composite
def new_shapes(draw, numel):
    """A shape of `numel` elements: its prime factors grouped at random, lengths 1 put in,
    perhaps one length given as -1."""
    if numel == 0:
        dims = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4).filter(lambda d: 0 in d))
    else:
        dims = [1] * draw(st.integers(1, 3))
        for factor in draw(st.permutations(_factors(numel))):
            dims[draw(st.integers(0, len(dims) - 1))] *= factor
        for _ in range(draw(st.integers(0, 2))):
            dims.insert(draw(st.integers(0, len(dims))), 1)
        if draw(st.booleans()):
            dims[draw(st.integers(0, len(dims) - 1))] = -1
    return tuple(dims)


def _tensor(torch, layout, requires_grad=False):
    shape, perm, slices = layout
    numel = int(np.prod(shape, dtype=np.int64))
    x = torch.arange(float(numel)).reshape(shape).permute(perm)[slices]
    return x.detach().requires_grad_(requires_grad)


def _described(t, length_one_strides=True):
    """The tensor, its strides and contiguity. The strides of empty tensors are left out
    (compat reports NumPy's, often 0), and with `length_one_strides=False` those of
    dimensions of length 1, where no element is ever stepped to (a copy's are NumPy's):
    see docs/guide-compat.md."""
    if not t.numel():
        return t, None, t.is_contiguous()
    strides = tuple(None if n == 1 and not length_one_strides else s
                    for s, n in zip(t.stride(), t.shape))
    return t, strides, t.is_contiguous()


@given(layout=layouts(), data=st.data())
def test_view_and_reshape_strides_like_torch(layout, data):
    """view succeeds exactly where PyTorch's does, with its strides, sharing storage (an
    in-place change shows through), and otherwise raises PyTorch's error, word for word;
    reshape gives a view there and a contiguous copy elsewhere."""
    shape, perm, slices = layout
    numel = np.empty(shape)[()].transpose(perm)[slices].size if shape else 1
    target = data.draw(new_shapes(numel))

    def case(torch):
        x = _tensor(torch, layout)
        results = [_described(x)]
        try:
            v = x.view(target)
            results.append(_described(v))
            v.add_(1)  # shows in x when v shares its storage
            results.append(x.clone())
        except RuntimeError as error:
            results.append(str(error))
        r = _tensor(torch, layout).reshape(target)
        results.append(_described(r))
        return results
    check(case)


@given(layout=layouts(), data=st.data())
def test_views_and_copies_strides_like_torch(layout, data):
    """contiguous, clone, t/transpose, permute, expand, unsqueeze, flatten: strides,
    contiguity and values, and gradients flowing through them."""
    ndim = len(layout[0])
    dims = data.draw(st.permutations(range(ndim)))
    dim = data.draw(st.integers(-ndim - 1, ndim))

    def case(torch):
        x = _tensor(torch, layout, requires_grad=True)
        results = [_described(x.contiguous(), False), _described(x.clone(), False),
                   _described(x.permute(dims)), _described(x.unsqueeze(dim)),
                   _described(x.flatten()), _described(x.expand(2, *x.shape))]
        if ndim >= 2:
            results.append(_described(x.transpose(0, -1)))
        if ndim <= 2:
            results.append(_described(x.t()))
        total = sum(r[0].sum() for r in results)
        total.backward()
        results.append(x.grad)
        return results
    check(case)


@pytest.mark.parametrize("expression", [
    "torch.arange(12.).reshape(3, 4).t().view(-1)",
    "torch.arange(12.).reshape(3, 4).t().view(12)",
    "torch.arange(12.).reshape(3, 4).t().view(2, 6)",
    "torch.arange(12.).reshape(3, 4).t().view(4, 3, 1)",
    "torch.arange(12.).reshape(3, 4).t().view(-1, -1)",
    "torch.arange(12.).reshape(3, 4).view(5, -1)",
    "torch.arange(12.).reshape(3, 4).view(-2, 6)",
    "torch.zeros(0, 3).view(-1, 0)",
    "torch.zeros(0, 3).view(0, -1)",
    "torch.arange(24.).reshape(2, 3, 4).permute(1, 0, 2).view(3, 8)",
    "torch.arange(24.).reshape(2, 3, 4).permute(1, 0, 2).view(3, 2, 2, 2)",
    "torch.arange(8.).expand(3, 8).view(24)",
    "torch.arange(8.).expand(3, 8).view(3, 2, 4)",
])
def test_view_errors_like_torch(expression):
    """The issue's case (view(-1) of a 12-element transposed matrix), and the other errors
    of view, word for word."""
    def case(torch):
        t = eval(expression, {"torch": torch})
        return _described(t)
    check(case, messages=True)


def test_expand_and_transpose_share_storage_like_torch():
    def case(torch):
        x = torch.arange(6.).reshape(2, 3)
        views = [x.t(), x.transpose(0, 1), x.permute(1, 0), x[:1].expand(4, 3), x.view(3, 2),
                 x.unsqueeze(1)]
        x.mul_(10)
        return [_described(v) for v in views]
    check(case)


@pytest.mark.parametrize("expression", [
    "x.diagonal()", "x.diagonal(1)", "x.diagonal(-2)", "x.diagonal(0, 1, 0)",
    "torch.diagonal(x, 2, -1, 0)", "torch.linalg.diagonal(x)", "x.t().diagonal(1)",
    "y.diagonal(1, 0, 2)", "y.diagonal(-1, 2, 1)", "y[:, ::2].diagonal(0, -1, -2)",
    "torch.linalg.diagonal(y, offset=-1, dim1=0)",
])
def test_diagonal_is_a_view_like_torchs(expression):
    def case(torch):
        x = torch.arange(12.).reshape(3, 4)
        y = torch.arange(24.).reshape(2, 3, 4)
        d = eval(expression)
        described = _described(d)
        d.mul_(-1)  # written through to x (or y)
        x[1, 1] = 100.0  # and seen by the view
        y[1, 1, 1] = 100.0
        return described, d._base is x or d._base is y, d, x, y
    check(case)


def test_diagonal_updates_and_torchs_version_check():
    # The view shares its base's version counter: updating it after the base was saved
    # for backward fails that backward, and an update of it is an update of the base.
    def case(torch):
        torch.manual_seed(0)
        x = torch.randn(3, 4, requires_grad=True)
        a = x.clone()
        y = (a * a).sum()
        a.diagonal(1).add_(1)
        try:
            y.backward()
            message = None
        except RuntimeError as error:
            message = str(error)
        b = x * 1
        b.diagonal().mul_(3)
        (b * b).sum().backward()
        return message, b, graph(b), x.grad
    torch_message = check(case)[0]
    assert "modified by an inplace operation" in torch_message


@pytest.mark.parametrize("expression", [
    "x.diagonal(0, 0, 0)", "x.diagonal(0, 0, -2)", "torch.zeros(3).diagonal()",
    "torch.tensor(1.).diagonal()", "x.diagonal(0, 0, 2)", "torch.linalg.diagonal(torch.zeros(3))",
])
def test_diagonal_errors_like_torch(expression):
    check(lambda torch: eval(expression, {"torch": torch, "x": torch.zeros(3, 4)}),
          messages=True)


@pytest.mark.parametrize("expression", [
    "x.mT", "b.mT", "x.mH", "b.mH", "x.H", "x.adjoint()", "x.where(x > 0, -x)",
    "x.where(x > 0, 2.0)"])
def test_matrix_transposes_and_where_as_methods(expression):
    def case(torch):
        x = torch.tensor([[0.5, -1.2, 2.0], [1.5, 0.3, -0.7]], requires_grad=True)
        b = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
        out = eval(expression)
        (out * torch.arange(float(out.numel())).reshape(out.shape)).sum().backward()
        return out, graph(out), out.is_contiguous(), out.stride(), x.grad, b.grad
    check(case)


def test_complex_adjoints_conjugate():
    def case(torch):
        z = torch.tensor([[1 + 2j, 3 - 1j], [0.5j, 2.0]])
        return z.mH, z.H, z.adjoint(), torch.ones(2, 3, 2, dtype=torch.complex64).mH
    check(case)


@pytest.mark.parametrize("expression", ["v.mT", "v.mH", "v.H", "b.H", "s.H", "s.mT", "s.mH",
                                        "v.T", "b.T"])
def test_matrix_transposes_refuse_and_warn_as_torch(expression):
    # PyTorch gives these deprecations once per process: every time while warn_always.
    def case(torch):
        names = {"v": torch.ones(3), "b": torch.ones(2, 3, 4), "s": torch.tensor(1.0)}
        torch.set_warn_always(True)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                out = eval(expression, names)
        finally:
            torch.set_warn_always(False)
        return out, [str(w.message).split(" (Triggered internally")[0] for w in caught]
    check(case, messages=True)


def test_a_deprecation_is_given_once_per_process():
    compat.ones(3).T  # (warns unless an earlier test's call did)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert compat.ones(3).T.shape == (3,)
    assert not caught


def test_identities_return_the_tensor_itself():
    def case(torch):
        x = torch.tensor([[0.5, -1.2]], requires_grad=True)
        return [y is x for y in (x.resolve_conj(), x.resolve_neg(), x.real, torch.real(x))]
    check(case)


@given(layout=layouts(), data=st.data())
def test_sorts_scans_and_joins_lay_out_results_like_torch(layout, data):
    """sort's values and indices (and msort's, argsort's) keep the input's order of
    dimensions in memory, gaps closed (an expanded dimension where the shape puts it);
    cumsum, cumprod and logcumsumexp are row-major for any input; cat and stack are
    row-major unless every input is channels_last. Gradients flow through all of them."""
    ndim = len(layout[0])
    dim = data.draw(st.integers(-max(ndim, 1), max(ndim, 1) - 1))
    expand = data.draw(st.booleans())

    def case(torch):
        x = _tensor(torch, layout, requires_grad=True)
        y = x.expand(2, *x.shape) if expand else x
        results = [*y.sort(dim), y.argsort(dim), y.cumsum(dim), y.cumprod(dim),
                   y.logcumsumexp(dim)]
        if ndim:
            results += [y.msort(), torch.cat([y, y], dim), torch.stack([y, y], dim)]
        results = [_described(r, length_one_strides=False) for r in results]
        total = sum(r[0].sum() for r in results if r[0].dtype.is_floating_point)
        total.backward()
        results.append(x.grad)
        return results
    check(case)


@st.composite
def operand_layouts(draw, count):
    """`count` layouts of operands that broadcast together: one shape, each operand's
    dimensions in its own order in memory, some with a step, some broadcast (leading
    dimensions dropped, or a length made 1). An operand with a dimension of length 1 is
    row-major: the strides of such dimensions are NumPy's in compat's results (see
    `_described`), and PyTorch's TensorIterator reads them to break ties."""
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    operands = []
    for _ in range(count):
        own = list(shape)
        if draw(st.booleans()):
            own[draw(st.integers(0, len(own) - 1))] = 1
        own = own[draw(st.integers(0, len(own) - 1)):] if draw(st.booleans()) else own
        order = tuple(range(len(own))) if 1 in own else tuple(
            draw(st.permutations(range(len(own)))))
        step = draw(st.booleans())
        operands.append((tuple(own), order, step))
    return operands


def _operand(torch, layout, offset, dtype="float64"):
    """A tensor of shape `own` laid out with its dimensions in `order` (outermost first),
    perhaps with a step of 2 along its last dimension in memory."""
    own, order, step = layout
    stored = [own[d] for d in order]
    if step:
        stored[-1] *= 2
    x = torch.arange(int(np.prod(stored)), dtype=getattr(torch, dtype)).reshape(stored)
    if x.dtype.is_floating_point:
        x = x / 7 + offset
    if step:
        x = x[..., ::2]
    return x.permute(tuple(np.argsort(order))).detach()


_ELEMENTWISE = ["a + b", "a * b", "a - b", "torch.atan2(a, b)", "torch.maximum(a, b)",
                "torch.hypot(a, b)", "torch.complex(a, b)", "a > b", "torch.lerp(a, b, 0.5)",
                "torch.fmod(a, b + 1.0)", "torch.copysign(a, b)", "torch.xlogy(a, b + 1.0)",
                "torch.where(c > 0.5, a, b)", "torch.clamp(a, b, b + 1.0)",
                "torch.addcmul(a, b, c)", "i & j", "i << (j % 3)"]


@settings(max_examples=60)
@given(layouts=operand_layouts(3), recorded=st.booleans())
def test_elementwise_results_of_several_tensors_are_laid_out_like_torchs(layouts, recorded):
    """PyTorch's TensorIterator orders the result's dimensions by its operands' strides,
    the first operand first, where NumPy's result is row-major when the layouts differ:
    view() of such a result succeeds or fails as PyTorch's does."""
    def case(torch):
        a, b, c = (_operand(torch, layout, k) for k, layout in enumerate(layouts))
        i, j = (_operand(torch, layout, 0, "int64") for layout in layouts[:2])
        if recorded:
            a.requires_grad_()
            b.requires_grad_()
        results = []
        for expression in _ELEMENTWISE:
            r = eval(expression)
            results.append(_described(r, length_one_strides=False))
        if recorded:
            sum(r.abs().sum() for r, _, _ in results if r.requires_grad).backward()
            results += [a.grad, b.grad]
        return results
    check(case)


@given(layout=layouts())
def test_elementwise_results_of_complex_tensors_are_laid_out_like_torchs(layout):
    """Most keep the input's layout (abs, exp, ...); angle's is row-major (PyTorch computes
    it into a new tensor). Found by the random complex programs: view_as_complex of an
    angle of a transposed tensor."""
    def case(torch):
        x = (_tensor(torch, layout) * (1 + 1j)).requires_grad_()
        results = [x.angle(), torch.angle(x), x.abs(), x.exp(), x.sgn(), x + 1.5]
        results = [_described(r, length_one_strides=False) for r in results]
        sum(r[0].real.sum() for r in results).backward()
        return results + [x.grad]
    check(case)


@pytest.mark.parametrize("expression", [
    "torch.cat([cl, cl])", "torch.cat([cl, cl], 1)", "torch.cat([cl, cl.contiguous()])",
    "torch.cat([cl.contiguous(), cl], 3)", "torch.cat([cl.permute(0, 1, 3, 2), cl])",
    "torch.cat([cl[:, :1], cl[:, 1:]], 1)",
])
def test_cat_keeps_channels_last_where_every_input_has_it(expression):
    def case(torch):
        cl = torch.arange(48.).reshape(2, 3, 4, 2).permute(0, 3, 1, 2)
        return _described(eval(expression, {"torch": torch, "cl": cl}))
    check(case)


# PyTorch's linear algebra returns LAPACK's layout: each matrix column-major.
LAPACK_RESULTS = [
    "L.linalg.inv(M)", "L.inverse(M)", "L.linalg.inv(B)", "L.linalg.cholesky(M)",
    "L.linalg.cholesky(B)", "L.linalg.cholesky(M.to(L.complex128))", "L.linalg.solve(M, C)",
    "L.linalg.solve(M, C[:, 0])", "L.linalg.solve(B, C[None].expand(2, 4, 3))",
    "L.linalg.qr(M)", "L.linalg.qr(C)", "L.linalg.svd(M)", "L.linalg.svd(C)", "L.linalg.svd(B)",
    "L.linalg.eigh(M)", "L.linalg.eigh(B)", "L.linalg.eig(M)", "L.linalg.lu_factor(M)",
    "L.linalg.lstsq(M, C).solution", "L.cholesky_solve(C, L.linalg.cholesky(M))",
    "L.cholesky_inverse(L.linalg.cholesky(M))",
    "L.linalg.householder_product(C, L.ones(3, dtype=L.float64))",
    "L.orgqr(C, L.ones(3, dtype=L.float64))", "L.ormqr(C, L.ones(3, dtype=L.float64), M)",
    "L.linalg.pinv(M)", "L.linalg.matrix_exp(M * 0.1)", "L.linalg.lu_factor(B)",
    "L.linalg.solve_triangular(M.triu(), C, upper=True)", "L.linalg.lstsq(B, B).solution",
    "L.linalg.lu(M)", "L.linalg.inv(M.t())", "L.linalg.matrix_power(M, 2)", "L.linalg.qr(B)",
    "L.linalg.eig(B)", "L.triangular_solve(C, M.triu())",
    "L.triangular_solve(B, B.tril(), upper=False)", "L.geqrf(C)", "L.geqrf(B[:, :, :3])",
    "L.geqrf(C.t().contiguous().t())", "L.lu_unpack(*L.linalg.lu_factor(C))",
    "L.lu_unpack(*L.linalg.lu_factor(B[:, :, :3]))", "L.lu_unpack(*L.linalg.lu_factor(M))"]


@pytest.mark.filterwarnings("ignore:torch.triangular_solve is deprecated:UserWarning")
@pytest.mark.parametrize("expression", LAPACK_RESULTS)
def test_linear_algebra_results_are_laid_out_as_pytorchs(expression):
    """Found in passing: compat's inverse was row-major, so ``.view(-1)`` of it worked
    where PyTorch refuses it."""
    rng = np.random.default_rng(0)
    m = rng.standard_normal((4, 4)) @ rng.standard_normal((4, 4)).T + 4 * np.eye(4)
    b = rng.standard_normal((2, 4, 4))
    b = b @ b.transpose(0, 2, 1) + 4 * np.eye(4)
    c = rng.standard_normal((4, 3))

    def case(L):
        results = eval(expression, {"L": L, "M": L.tensor(m @ m.T), "B": L.tensor(b),
                                    "C": L.tensor(c)})
        results = results if isinstance(results, tuple) else (results,)
        layouts = []
        for t in results:
            try:
                flat = t.view(-1).shape
            except RuntimeError as error:
                flat = str(error)
            layouts.append((tuple(t.stride()), t.is_contiguous(), flat))
        return layouts
    check(case)


@pytest.mark.parametrize("update", [
    "x.masked_fill_(x > 1, 0.5)", "x.masked_fill_(x > 1, L.tensor(0.5))", "x[x > 1] = 0.25",
    "x[x > 1] = L.tensor(0.25)", "x[[0]] = 0.5", "x[[0]] = L.ones(1, 3)", "x[0] = 0.5",
    "x[:, 0] = 1.0", "x.fill_(1.0)", "x.zero_()"])
def test_writes_of_an_expanded_tensor_warn_as_pytorchs(update):
    """PyTorch writes an expanded tensor by a mask or index arrays, warning that this is
    deprecated (its message, up to where PyTorch names its own source line)."""
    def case(L):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            x = L.tensor([1.0, 2.0, 3.0]).expand(2, 3)
            exec(update)
        return x, [str(w.message).split(" (Triggered internally")[0] for w in caught]
    check(case)


@pytest.mark.parametrize("layout", ["contiguous", "channels_last", "transposed"])
@pytest.mark.parametrize("expression", [
    "F.pad(x, (1, 2, 1, 0), 'reflect')", "F.pad(x, (1, 1, 0, 2), 'replicate')",
    "F.pad(x, (1, 2, 2, 1), 'circular')", "F.pad(x, (1, 1, -1, 1))",
    "F.interpolate(x, scale_factor=2)", "F.interpolate(x, scale_factor=2, mode='bilinear')",
    "F.interpolate(x, size=(5, 3), mode='nearest-exact')"])
def test_pads_and_interpolations_are_laid_out_like_torchs(expression, layout):
    """Row-major, or channels-last for a channels-last input (circular padding aside), as
    PyTorch's suggest_memory_format; compat's were batch-last (reads along the spatial
    dimensions) before."""
    def case(torch):
        x = torch.arange(24.0).reshape(1, 2, 3, 4)
        if layout == "channels_last":
            x = x.contiguous(memory_format=torch.channels_last)
        elif layout == "transposed":
            x = torch.arange(24.0).reshape(1, 2, 4, 3).transpose(2, 3)
        x.requires_grad_()
        out = eval(expression, {"F": torch.nn.functional, "x": x})
        (out * torch.arange(float(out.numel())).reshape(out.shape)).sum().backward()
        return _described(out, length_one_strides=False), x.grad
    check(case)


@pytest.mark.parametrize("recorded", [False, True])
def test_an_operand_with_length_one_dimensions_out_of_order(recorded):
    """Found in review: a recorded product of two tensors asked a laxer question of its
    operands' layout than an unrecorded one, and was row-major where PyTorch's is not."""
    def case(torch):
        a = torch.arange(2.0, dtype=torch.float64).reshape(1, 2, 1).permute(2, 0, 1).detach()
        b = torch.arange(4.0, dtype=torch.float64).reshape(2, 2)
        a.requires_grad_(recorded)
        return [_described(r, length_one_strides=False) for r in (b - a, b * a, a + b)]
    check(case)
