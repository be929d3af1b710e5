"""Complex autograd against PyTorch 2.13: complex leaves require grad, and .grad,
autograd.grad, hooks and custom Functions give PyTorch's gradients (the conjugate of
funcgrad's cotangents, JAX's convention), through complex intermediates of real leaves and
real intermediates of complex leaves, under create_graph too; and PyTorch's errors."""
import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, strategies as st

import compat
from compat_harness import assert_same_error, check

# Away from 0 and infinity: the operations below have poles or branch points at 0.
COMPLEX_VALUES = st.complex_numbers(min_magnitude=0.25, max_magnitude=2.0, allow_nan=False,
                                    allow_infinity=False)
REAL_VALUES = st.floats(-2.0, 2.0, allow_nan=False, allow_infinity=False)
TOLERANCES = {"complex64": dict(rtol=2e-4, atol=2e-5), "complex128": dict(rtol=1e-7, atol=1e-9)}
REAL_OF = {"complex64": "float32", "complex128": "float64"}


def _matrix(L, z):
    """A well-conditioned 2x2 matrix of the four values of z (diagonally dominant)."""
    return z.reshape(2, 2) + 5 * L.eye(2, dtype=z.dtype)


# Each: an operation of complex z and w (4 values each) and real r (4 values), every one a
# leaf that requires grad; the result is complex or real.
OPERATIONS = {
    "add": lambda L, z, w, r: z + w,
    "sub": lambda L, z, w, r: z - w,
    "mul": lambda L, z, w, r: z * w,
    "div": lambda L, z, w, r: z / w,
    "pow": lambda L, z, w, r: z ** (w * 0.25),
    "pow_number": lambda L, z, w, r: z ** 3,
    "mul_real": lambda L, z, w, r: z * r,
    "add_real": lambda L, z, w, r: r + z,
    "div_by_real": lambda L, z, w, r: z / (r.abs() + 1),
    "python_complex": lambda L, z, w, r: z * (0.5 - 2j) + r * 1j - (1 + 1j),
    "neg_conj": lambda L, z, w, r: -z.conj() * w,
    "exp": lambda L, z, w, r: z.exp(),
    "log": lambda L, z, w, r: z.log(),
    "sin": lambda L, z, w, r: z.sin(),
    "cos": lambda L, z, w, r: z.cos(),
    "tanh": lambda L, z, w, r: (z * 0.5).tanh(),
    "sinh_cosh": lambda L, z, w, r: z.sinh() * w.cosh(),
    "sqrt": lambda L, z, w, r: z.sqrt(),
    "rsqrt": lambda L, z, w, r: z.rsqrt(),
    "reciprocal": lambda L, z, w, r: z.reciprocal(),
    "square": lambda L, z, w, r: z.square(),
    "sigmoid": lambda L, z, w, r: (z * 0.5).sigmoid(),
    "expm1_log1p": lambda L, z, w, r: z.expm1() + (w * 0.2).log1p(),
    "sgn": lambda L, z, w, r: z.sgn(),
    "abs": lambda L, z, w, r: z.abs(),
    "angle": lambda L, z, w, r: z.angle(),
    "real_imag": lambda L, z, w, r: (z * w).real * (z.exp()).imag,
    "view_as_real": lambda L, z, w, r: L.view_as_real(z * w),
    "view_as_complex": lambda L, z, w, r: L.view_as_complex(L.view_as_real(z).exp()),
    "complex": lambda L, z, w, r: L.complex(r, z.abs()) * w,
    "polar": lambda L, z, w, r: L.polar(z.abs(), r),
    "to_complex": lambda L, z, w, r: r.to(z.dtype) * z,
    "sum": lambda L, z, w, r: (z * w).sum(),
    "mean": lambda L, z, w, r: z.mean(0, keepdim=True) * w,
    "prod": lambda L, z, w, r: z.prod(),
    "cumsum": lambda L, z, w, r: z.cumsum(0),
    "var": lambda L, z, w, r: z.var(),
    "std": lambda L, z, w, r: (z * w).std(),
    "vector_norm": lambda L, z, w, r: L.linalg.vector_norm(z * w),
    "vector_norm_1": lambda L, z, w, r: L.linalg.vector_norm(z, 1),
    "norm": lambda L, z, w, r: (z * w).norm(3),
    "matmul": lambda L, z, w, r: z.reshape(2, 2) @ w.reshape(2, 2),
    "vdot": lambda L, z, w, r: L.vdot(z, w),
    "dot": lambda L, z, w, r: L.dot(z, w),
    "outer": lambda L, z, w, r: L.outer(z, w),
    "einsum": lambda L, z, w, r: L.einsum("i,j->ij", z, w),
    "mH": lambda L, z, w, r: z.reshape(2, 2).mH @ w.reshape(2, 2),
    "indexing": lambda L, z, w, r: L.cat([z[1:], w[:2]]) * L.stack([z, w])[1, 1],
    "where": lambda L, z, w, r: L.where(r > 0, z, w),
    "det": lambda L, z, w, r: L.linalg.det(_matrix(L, z)),
    "inv": lambda L, z, w, r: L.linalg.inv(_matrix(L, z)),
    "solve": lambda L, z, w, r: L.linalg.solve(_matrix(L, z), w.reshape(2, 2)),
    "svdvals": lambda L, z, w, r: L.linalg.svdvals(_matrix(L, z)),
    "fft": lambda L, z, w, r: L.fft.fft(z),
    "ifft": lambda L, z, w, r: L.fft.ifft(z * w),
    "rfft": lambda L, z, w, r: L.fft.rfft(r),
    "irfft": lambda L, z, w, r: L.fft.irfft(z),
    "fft2": lambda L, z, w, r: L.fft.fft2(z.reshape(2, 2)),
}

# Rows that PyTorch builds from several kernels carry the row's own name in compat
# (docs/guide-compat.md, "Where it differs from PyTorch").
NAMED_BY_ROW = {"einsum", "fft", "ifft", "rfft", "irfft", "fft2"}


def _real_loss(L, out):
    """A real loss that weighs the real and imaginary parts of each element differently."""
    weights = L.arange(1.0, out.numel() + 1.0, dtype=out.real.dtype).reshape(out.shape)
    if out.is_complex():
        return (out.real * weights - out.imag * weights.flip(list(range(out.dim())))).sum()
    return (out * weights).sum()


def _leaves(L, dtype, z, w, r):
    complex_dtype = getattr(L, dtype)
    return (L.tensor(z, dtype=complex_dtype, requires_grad=True),
            L.tensor(w, dtype=complex_dtype, requires_grad=True),
            L.tensor(r, dtype=getattr(L, REAL_OF[dtype]), requires_grad=True))


@pytest.mark.parametrize("name", OPERATIONS)
@given(dtype=st.sampled_from(sorted(TOLERANCES)),
       z=hnp.arrays(np.complex128, 4, elements=COMPLEX_VALUES),
       w=hnp.arrays(np.complex128, 4, elements=COMPLEX_VALUES),
       r=hnp.arrays(np.float64, 4, elements=REAL_VALUES))
def test_gradients_of_real_losses_match_torch(name, dtype, z, w, r):
    def case(L):
        leaves = _leaves(L, dtype, z, w, r)
        out = OPERATIONS[name](L, *leaves)
        _real_loss(L, out).backward()
        return out, [leaf.grad for leaf in leaves]
    check(case, grad_fn_names=name not in NAMED_BY_ROW, **TOLERANCES[dtype])


@pytest.mark.parametrize("name", ("mul", "exp", "log", "abs", "vdot", "inv", "fft", "polar",
                                  "sgn", "vector_norm", "var", "angle"))
@given(z=hnp.arrays(np.complex128, 4, elements=COMPLEX_VALUES),
       w=hnp.arrays(np.complex128, 4, elements=COMPLEX_VALUES),
       r=hnp.arrays(np.float64, 4, elements=REAL_VALUES))
def test_double_backward_matches_torch(name, z, w, r):
    """The gradients made with create_graph, and the gradients of a real loss of them."""
    def case(L):
        leaves = _leaves(L, "complex128", z, w, r)
        out = OPERATIONS[name](L, *leaves)
        grads = L.autograd.grad(_real_loss(L, out), leaves, create_graph=True,
                                allow_unused=True)
        used = [(leaf, g) for leaf, g in zip(leaves, grads) if g is not None]
        second = L.autograd.grad(sum(_real_loss(L, g * (1 + 0.5j)) for _, g in used),
                                 [leaf for leaf, _ in used], allow_unused=True)
        return grads, second
    check(case, rtol=1e-7, atol=1e-9, grad_fn_names=False)


@given(z=hnp.arrays(np.complex128, 4, elements=COMPLEX_VALUES),
       g=hnp.arrays(np.complex128, 4, elements=COMPLEX_VALUES))
def test_backward_of_a_complex_output_with_a_gradient(z, g):
    """backward(gradient=) and autograd.grad(grad_outputs=) seed a complex output with
    PyTorch's gradient, of complex and of real leaves."""
    def case(L):
        x = L.tensor(z, requires_grad=True)
        r = L.tensor(z.real.copy(), requires_grad=True)
        out = (x * x).exp() + L.polar(r.abs() + 1, r)
        out.backward(L.tensor(g, dtype=out.dtype), retain_graph=True)
        again = L.autograd.grad(out, (x, r), grad_outputs=L.tensor(g * 1j, dtype=out.dtype))
        return x.grad, r.grad, again
    check(case)


@pytest.mark.parametrize("operation", [
    lambda L, z: z.abs(), lambda L, z: z.angle(), lambda L, z: L.view_as_real(z.sgn()),
    lambda L, z: L.linalg.vector_norm(z[:1]), lambda L, z: L.linalg.vector_norm(z, 1),
    lambda L, z: z[:1].std(correction=0), lambda L, z: (z * 0).std(),
], ids=["abs", "angle", "sgn", "norm of 0", "norm 1", "std of one", "std of zeros"])
def test_derivatives_at_zero_are_pytorch_s(operation):
    def case(L):
        z = L.tensor([0j, 1 + 0j, -1 + 0j, 1j, -1j], dtype=L.complex128, requires_grad=True)
        out = operation(L, z)
        out.sum().backward()
        return out, z.grad
    check(case)


def _accumulated_with_create_graph(L):
    z = L.tensor([1 + 2j, 3 - 1j], dtype=L.complex128, requires_grad=True)
    x = L.tensor([0.5, -1.0], dtype=L.float64, requires_grad=True)
    (z * z * x).exp().abs().sum().backward(create_graph=True)
    first = z.grad, x.grad
    return first, L.autograd.grad((z.grad * (1 - 2j)).real.sum() + x.grad.pow(2).sum(), (z, x))


def _hook_with_create_graph(L):
    z = L.tensor([1 + 2j, 3 - 1j], dtype=L.complex128, requires_grad=True)
    y = z * z
    y.register_hook(lambda grad: grad * z)
    first, = L.autograd.grad(y.abs().sum(), z, create_graph=True)
    return first, L.autograd.grad(first.abs().sum(), z)


def _square_function(L):
    """z * z as an autograd.Function whose backward takes and gives PyTorch's gradients."""
    class Square(L.autograd.Function):
        @staticmethod
        def forward(ctx, z):
            ctx.save_for_backward(z)
            return z * z

        @staticmethod
        def backward(ctx, grad):
            z, = ctx.saved_tensors
            return grad * 2 * z.conj()
    return Square


def _function_with_create_graph(L):
    z = L.tensor([1 + 2j, 3 - 1j], dtype=L.complex128, requires_grad=True)
    first, = L.autograd.grad(_square_function(L).apply(z).abs().sum(), z, create_graph=True)
    return first, L.autograd.grad((first * first).real.sum(), z)


def _grad_outputs_that_require_grad(L):
    z = L.tensor([1 + 2j, 3 - 1j], dtype=L.complex128, requires_grad=True)
    v = L.tensor([1 - 1j, 2j], dtype=L.complex128, requires_grad=True)
    first, = L.autograd.grad(z.exp(), z, v, create_graph=True)
    return first, L.autograd.grad(first.abs().sum(), v)


@pytest.mark.parametrize("case", [_accumulated_with_create_graph, _hook_with_create_graph,
                                  _function_with_create_graph, _grad_outputs_that_require_grad],
                         ids=["grad", "hook", "Function", "grad_outputs"])
# PyTorch warns of the reference cycle that backward(create_graph=True) makes on purpose here.
@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True:UserWarning")
def test_conversions_are_recorded_under_create_graph(case):
    """Where the tape meets PyTorch's gradients (seeds, .grad, hooks, Functions), the
    conversion is part of the recorded computation: second derivatives as torch's."""
    check(case, grad_fn_names=False)


# Real losses of complex matrix functions (of the parts of eigenvectors and singular vectors
# that do not depend on their phases).
MATRIX_LOSSES = {
    "eigvalsh": lambda L, A: L.linalg.eigvalsh(A + A.mH).sum(),
    "eigh": lambda L, A: (L.linalg.eigh(A + A.mH)[1].abs().sum()
                          + L.linalg.eigh(A + A.mH)[0].sum()),
    "cholesky": lambda L, A: L.linalg.cholesky(A @ A.mH + L.eye(3)).abs().sum(),
    "qr": lambda L, A: L.linalg.qr(A)[1].abs().sum(),
    "svd": lambda L, A: (L.linalg.svd(A)[1].sum()
                         + (L.linalg.svd(A)[0][:, :1] @ L.linalg.svd(A)[2][:1, :]).abs().sum()),
    "pinv": lambda L, A: L.linalg.pinv(A).abs().sum(),
    "matrix_exp": lambda L, A: L.linalg.matrix_exp(A * 0.3).abs().sum(),
    "slogdet": lambda L, A: L.linalg.slogdet(A)[1] + L.linalg.slogdet(A)[0].real,
    "eigvals": lambda L, A: L.linalg.eigvals(A).abs().sum(),
    "matrix_norm": lambda L, A: L.linalg.matrix_norm(A) + L.linalg.matrix_norm(A, "nuc"),
    "cumprod": lambda L, A: A.cumprod(0).abs().sum(),
    "triangles": lambda L, A: (A.tril() @ A.triu(1)).abs().sum(),
    "diagonal": lambda L, A: A.trace().abs() + A.diagonal().angle().sum(),
    "kron": lambda L, A: L.kron(A, A).abs().sum(),
    "cross": lambda L, A: L.linalg.cross(A, A.flip(0)).abs().sum(),
    "fftn": lambda L, A: L.fft.fftn(A).abs().sum() + L.fft.ihfft(A.real).abs().sum(),
}


@pytest.mark.parametrize("name", MATRIX_LOSSES)
def test_gradients_of_matrix_functions_match_torch(name):
    def case(L):
        A = L.tensor([[2 + 1j, 0.5 - 1j, 0.3j], [0.2, 3 - 0.5j, 1j], [1.0, -1j, 4 + 2j]],
                     dtype=L.complex128, requires_grad=True)
        loss = MATRIX_LOSSES[name](L, A)
        loss.backward()
        return loss, A.grad
    check(case, rtol=1e-7, atol=1e-9)


def test_complex_intermediates_of_real_leaves():
    def case(L):
        L.manual_seed(0)
        x = L.randn(6, dtype=L.float64, requires_grad=True)
        y = L.randn(6, dtype=L.float64, requires_grad=True)
        z = L.complex(x, y)
        spectrum = L.fft.fft(z * x)
        loss = (spectrum.abs() ** 2).sum() + (x * 2j).exp().real.sum() + (z @ z).imag
        loss.backward()
        return loss, x.grad, y.grad
    check(case)


def test_real_intermediates_of_complex_leaves():
    def case(L):
        z = L.tensor([1 - 2j, -0.5 + 1j, 2j, -1.5 - 0.5j, 0.25 + 0.75j], requires_grad=True)
        parts = L.view_as_real(z)
        magnitude = z.abs()
        loss = (parts.relu() * 3).sum() + (magnitude.sigmoid() * z.angle()).sum()
        loss.backward()
        return loss, z.grad
    check(case)


def test_gradients_accumulate_into_grad():
    def case(L):
        z = L.tensor([1 + 2j, 3 - 1j, -0.5j], requires_grad=True)
        (z.abs() ** 2).sum().backward()  # PyTorch's gradient of |z|^2 is 2z
        first = z.grad.clone()
        (z * z).real.sum().backward()
        return first, z.grad
    check(case)


def test_hooks_see_pytorch_gradients_and_may_replace_them():
    def case(L):
        z = L.tensor([1 + 2j, 3 - 1j], dtype=L.complex128, requires_grad=True)
        seen = []
        z.register_hook(lambda g: seen.append(g.clone()))
        m = z * (2 - 1j)
        m.register_hook(lambda g: seen.append(g.clone()))
        m.register_hook(lambda g: g * 1j)
        m.retain_grad()
        m.exp().abs().sum().backward()
        return seen, m.grad, z.grad
    check(case)


def test_custom_function_receives_and_returns_pytorch_gradients():
    def case(L):
        Square = _square_function(L)
        z = L.tensor([1 + 2j, 3 - 1j], requires_grad=True)
        out = Square.apply(z)
        out.abs().sum().backward()
        return out, z.grad
    check(case)


def test_hooks_may_not_change_the_dtype():
    def case(L):
        z = L.tensor([1 + 2j, 3 - 1j], requires_grad=True)

        def to_real(grad):
            return grad.real
        z.register_hook(to_real)
        z.abs().sum().backward()
    assert_same_error(case)


@pytest.mark.parametrize("name, settings", [
    ("SGD", dict(momentum=0.9, nesterov=True)), ("Adam", dict(amsgrad=True)),
    ("AdamW", {}), ("RMSprop", dict(momentum=0.5, centered=True)), ("Adagrad", {}),
    ("Adadelta", {}), ("Adamax", {}), ("NAdam", dict(decoupled_weight_decay=True,
                                                     weight_decay=0.1)), ("RAdam", {}),
    ("Rprop", {})])
def test_optimizers_step_complex_parameters_as_pairs_of_reals(name, settings):
    """The parameters and the state (complex, of the parameter's shape) after three
    steps, a transposed (non-contiguous) parameter included."""
    def case(L):
        p = L.nn.Parameter(L.tensor([[1 + 2j, 3 - 1j], [0.5j, -2 + 0j]]).t())
        optimizer = getattr(L.optim, name)([p], lr=0.1, **settings)
        for _ in range(3):
            optimizer.zero_grad()
            (p.abs() ** 2 + p.real * 3).sum().backward()
            optimizer.step()
        return p, optimizer.state_dict()["state"]
    check(case)


def test_parameters_may_be_complex():
    def case(L):
        p = L.nn.Parameter(L.tensor([1 + 2j, 3 - 1j]))
        (p.abs() ** 2).sum().backward()
        return p, p.grad
    check(case)


def test_leaves_of_each_dtype_require_grad_as_in_torch():
    def case(L):
        made = [L.zeros(2, dtype=L.complex64, requires_grad=True),
                L.tensor([1j], requires_grad=True),
                L.ones(2, dtype=L.complex128).requires_grad_()]
        set_after = L.zeros(2, dtype=L.complex64)
        set_after.requires_grad = True
        return made + [set_after]
    check(case)


@pytest.mark.parametrize("case", [
    lambda L: L.tensor([1 + 2j, 3j], requires_grad=True).sum().backward(),
    lambda L: L.autograd.grad(L.tensor(1j, requires_grad=True) * 2,
                              L.tensor(1j, requires_grad=True)),
    lambda L: (L.tensor([1 + 2j, 3j], requires_grad=True) * 2).backward(),
    lambda L: (L.tensor([1 + 2j, 3j], requires_grad=True) * 2).backward(L.ones(2)),
    lambda L: (L.ones(2, requires_grad=True) * 2).backward(L.ones(2, dtype=L.complex64)),
    lambda L: L.autograd.grad(L.tensor([2j], requires_grad=True).exp(),
                              L.ones(1, requires_grad=True), L.ones(1)),
    lambda L: L.zeros(2, dtype=L.int64, requires_grad=True),
    lambda L: L.zeros(2, dtype=L.int64).requires_grad_(),
    lambda L: setattr(L.zeros(2, dtype=L.complex64, requires_grad=True), "grad", L.ones(2)),
    lambda L: L.tensor([1j, 2], requires_grad=True).sign(),
], ids=["complex scalar", "autograd.grad of a complex scalar", "complex vector",
        "real gradient of a complex output", "complex gradient of a real output",
        "real grad_outputs", "integer leaf", "integer requires_grad_",
        "real .grad of a complex leaf", "sign of complex"])
def test_errors(case):
    assert_same_error(case)


@pytest.mark.parametrize("imag", ["x.imag", "L.imag(x)", "(x * 2).imag", "L.imag(L.arange(3))"])
def test_imag_of_a_real_tensor_is_refused(imag):
    """Found by the random complex programs: compat gave zeros (and an ImagBackward0
    node) for the imaginary part of a real tensor, which PyTorch refuses."""
    def case(L):
        x = L.tensor([1.0, -2.0], dtype=L.float64, requires_grad=True)
        return eval(imag)
    assert_same_error(case)


@pytest.mark.parametrize("operation", ["abs", "sgn", "angle", "exp"])
def test_update_of_an_input_saved_for_backward(operation):
    """Found by the random complex programs (``v1 = v0.abs()``, then ``v0.mul_(-1)``):
    PyTorch's AbsBackward0 saves its complex input, and refuses a backward after the
    input's update in place; compat's did not (its rule keeps z / |z|)."""
    def case(L):
        x = L.tensor([0.5 + 1j, -1.0], dtype=L.complex128, requires_grad=True)
        v = x * 2.0
        out = getattr(v, operation)()
        v.mul_(-1)
        out.abs().sum().backward()
        return x.grad
    check(case)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("statements", [
    "p = v.imag; v.mul_(1j); r = p", "p = v.real; v.mul_(1j); r = p",
    "p = v.t().imag; v.mul_(1j); r = p", "p = v[:, 1:].imag; v.mul_(1j); r = p",
    "p = v.imag; v[0] = 2j; r = p", "v.imag.mul_(3); r = v", "v.real.add_(1); r = v",
    "v.imag[0] = 5.0; r = v", "v[1].real.mul_(v[0].imag); r = v"])
def test_real_and_imag_views_of_a_tensor_updated_in_place(statements, dtype):
    """Found by the random complex programs (``v3 = v2.imag``, ``v2.mul_(-1)``, then a
    use of v3): after an update of its base, an .imag view read its history as the real
    parts (a wrong gradient); and an update of a .real or .imag view in place wrote its
    real values over the whole complex elements of the base (wrong values)."""
    def case(L):
        x = L.tensor([[0.5 + 1j, -1.0 + 2j], [0.25 - 1j, 2.0]], dtype=getattr(L, dtype),
                     requires_grad=True)
        scope = {"v": x * 2}
        exec(statements, scope)
        r = scope["r"]
        weights = L.linspace(1, 2, r.numel(), dtype=L.float64).reshape(r.shape)
        ((r * r).abs() if r.is_complex() else r * weights).sum().backward()
        return r, x.grad
    check(case, **TOLERANCES[dtype])


def test_complex_scalar_error_names_the_dtype():
    def case(L):
        z = L.tensor(1 + 1j, dtype=L.complex128, requires_grad=True)
        (z * z).backward()
    assert_same_error(case)


@pytest.mark.parametrize("inputs", ["complex", "real"])
def test_gradcheck_refuses_complex_values_as_a_compat_limit(inputs):
    x = compat.tensor([1.0, 2.0], dtype=compat.float64, requires_grad=True)
    func = compat.exp if inputs == "complex" else (lambda x: compat.polar(x, x))
    with pytest.raises(NotImplementedError, match="complex inputs and outputs"):
        compat.autograd.gradcheck(func, (x.to(compat.complex128) if inputs == "complex"
                                         else x,))
