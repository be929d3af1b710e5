"""Transforms on an array type that is not NumPy's (tests/duck_array.py, which behaves as
CuPy does: NumPy's protocols, no implicit conversion), so the path CuPy takes is tested in
CI without a GPU: results come back as that type and equal NumPy's."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from duck_array import DuckArray
from like_calls import CREATION, SAMPLERS, assert_created_as_numpy_would, draw
from funcgrad.tree_util import tree_flatten, tree_map


def _duck(tree):
    return tree_map(lambda x: DuckArray(x) if isinstance(x, np.ndarray) else x, tree)


def _assert_duck_equal(result, expected):
    ours, _ = tree_flatten(result)
    theirs, _ = tree_flatten(expected)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert isinstance(a, DuckArray), type(a)
        np.testing.assert_allclose(a.get(), b, rtol=1e-12, atol=1e-12)


def _data(seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(6, 4)), rng.normal(size=4), rng.normal(size=(4, 4)) + 4 * np.eye(4)


# Functions of (X, w, A) across the families: elementwise, products, reductions, indexing,
# shapes, linear algebra, where.
FUNCTIONS = {
    "logistic": lambda X, w, A: fnp.sum(fnp.log1p(fnp.exp(-(X @ w)))),
    "tanh_outer": lambda X, w, A: fnp.mean(fnp.tanh(fnp.outer(w, w)) * A, axis=0),
    "reductions": lambda X, w, A: fnp.max(X, axis=1) + fnp.prod(X[:, :2], axis=1)
    - fnp.min(X ** 2, axis=1),
    "indexing": lambda X, w, A: X[1:4, ::2].sum() + X[[0, 0, 2], 1] @ w[:3] + w[-1],
    "shapes": lambda X, w, A: fnp.concatenate([X.T.reshape(-1), w]) * 2.0,
    "solve_inv": lambda X, w, A: fnp.linalg.solve(A, w) + fnp.linalg.inv(A) @ w,
    "where": lambda X, w, A: fnp.where(w > 0, fnp.sin(w), fnp.cos(w) * A[0]),
    "einsum_stack": lambda X, w, A: fnp.einsum("ij,j->i", fnp.stack([A, A.T]).sum(0), w),
}


@pytest.mark.parametrize("name", FUNCTIONS)
def test_vjp_and_jvp_keep_the_array_type(name):
    fun = FUNCTIONS[name]
    args = _data(1)
    out, pullback = fg.vjp(fun, *args)
    duck_out, duck_pullback = fg.vjp(fun, *_duck(args))
    _assert_duck_equal(duck_out, out)
    ct = np.ones_like(out)
    _assert_duck_equal(duck_pullback(DuckArray(ct)), pullback(ct))
    tangents = tuple(np.full_like(a, 0.5) for a in args)
    _assert_duck_equal(fg.jvp(fun, _duck(args), _duck(tangents)),
                       fg.jvp(fun, args, tangents))
    # Jacobians: the basis is made in the value's library (a NumPy basis would make the
    # Jacobian of a linear function NumPy).
    _assert_duck_equal(fg.jacrev(fun, argnums=1)(*_duck(args)), fg.jacrev(fun, argnums=1)(*args))
    _assert_duck_equal(fg.jacfwd(fun, argnums=1)(*_duck(args)), fg.jacfwd(fun, argnums=1)(*args))


def test_grad_value_and_grad_jit_vmap_and_jacobians():
    X, w, A = _data(2)
    loss = FUNCTIONS["logistic"]
    dX, dw, dA = _duck((X, w, A))
    _assert_duck_equal(fg.grad(loss)(dX, dw, dA), fg.grad(loss)(X, w, A))
    _assert_duck_equal(fg.value_and_grad(loss, argnums=(0, 1))(dX, dw, dA),
                       fg.value_and_grad(loss, argnums=(0, 1))(X, w, A))
    step = fg.jit(lambda X, w, A: w - 0.5 * fg.grad(loss, argnums=1)(X, w, A))
    _assert_duck_equal(step(dX, dw, dA), step(X, w, A))
    _assert_duck_equal(step(dX, dw * 2.0, dA), step(X, w * 2.0, A))
    assert step.trace_count == 2  # one program per array type
    per_row = fg.vmap(fg.grad(lambda x, w: fnp.sin(x @ w)), in_axes=(0, None))
    _assert_duck_equal(per_row(dX, dw), per_row(X, w))
    f = FUNCTIONS["where"]
    _assert_duck_equal(fg.jacrev(f, argnums=1)(dX, dw, dA), fg.jacrev(f, argnums=1)(X, w, A))
    _assert_duck_equal(fg.jacfwd(f, argnums=1)(dX, dw, dA), fg.jacfwd(f, argnums=1)(X, w, A))


def test_gradients_own_their_memory():
    """A gradient the caller may write into shares no memory with the input or with
    another gradient (as for NumPy: see _ownership.py)."""
    w = DuckArray(np.arange(3.0))
    g1, g2 = fg.grad(lambda a, b: fnp.sum(a + b), argnums=(0, 1))(w, w)
    g1[0] = 100.0
    assert g2.get()[0] == 1.0 and w.get()[0] == 0.0
    same = fg.jit(lambda x: x)
    out = same(w)
    out[1] = -5.0
    assert w.get()[1] == 1.0


def test_mixing_numpy_and_duck_arguments_is_the_librarys_error():
    """As in CuPy, a NumPy operand beside a duck array is refused by the library (funcgrad
    adds its note), never converted behind the user's back."""
    X, w, A = _data(3)
    with pytest.raises(TypeError, match="Unsupported type") as caught:
        fg.grad(FUNCTIONS["logistic"], argnums=1)(DuckArray(X), w, A)
    assert "x.get() for CuPy" in "\n".join(getattr(caught.value, "__notes__", []))


@pytest.mark.parametrize("name", sorted(CREATION))
def test_creation_like_a_duck_array(name):
    made = CREATION[name](DuckArray(np.zeros(2)))
    assert_created_as_numpy_would(name, made, DuckArray, DuckArray.get)


@pytest.mark.parametrize("name", sorted(SAMPLERS))
@pytest.mark.filterwarnings("ignore:This function is deprecated. Please call randint")
def test_random_like_a_duck_array_is_numpys_draw_converted(name):
    # A library without a generator funcgrad knows: NumPy draws from its global stream.
    made = draw(fnp.random, name, 3, like=DuckArray(np.zeros((2, 3))))
    assert isinstance(made, DuckArray), type(made)
    np.testing.assert_array_equal(made.get(), draw(np.random, name, 3))


def test_random_like_a_library_that_cannot_convert_is_a_clear_error():
    class Refusing(DuckArray):  # its like= dispatch refuses NumPy's asarray
        def __array_function__(self, func, types, args, kwargs):
            if func is np.asarray:
                raise NotImplementedError("no asarray here")
            return super().__array_function__(func, types, args, kwargs)

    with pytest.raises(TypeError, match=r"funcgrad\.numpy\.random\.normal: cannot make the "
                                        r"sample a Refusing .*no asarray here"):
        fnp.random.normal(size=3, like=Refusing(np.zeros(3)))


def test_constants_like_a_traced_duck_array_are_of_its_type():
    made = []

    def f(x):
        made.extend([fnp.zeros_like(x), fnp.ones_like(x), fnp.full_like(x, 2.0),
                     fnp.empty_like(x)])
        return fnp.sum(x * made[1] + made[2] * made[0])
    _assert_duck_equal(fg.grad(f)(DuckArray(np.arange(3.0))), np.ones(3))
    assert [type(m) for m in made] == [DuckArray] * 4


def _repeated_picks_and_at_updates(x, v):
    picks = np.array([0, 2, 0])
    return fnp.sum(fnp.sin(x[picks]) + x.at[:, picks].add(v).max()
                   + fnp.at(x)[picks, 1].max(v[0]).sum() + fnp.at(x)[picks, 3].min(v[1]).sum())


def test_repeated_indices_accumulate_through_the_librarys_ufunc_at():
    """The VJP of indexing with repeated integers and x.at[].add/max/min go through the
    array type's own ufunc.at (NumPy's protocol; cupyx's scatter functions for CuPy)."""
    x = np.arange(12.0).reshape(3, 4)
    v = np.linspace(-1.0, 1.0, 9).reshape(3, 3)
    fun = fg.value_and_grad(_repeated_picks_and_at_updates, argnums=(0, 1))
    _assert_duck_equal(fun(DuckArray(x), DuckArray(v)), fun(x, v))


def _rounded_another_way(array_ufunc):
    """DuckArray's ufuncs with float32 transcendental results one unit in the last place
    up, as another library's kernels (a GPU's powf and logf) may round them."""
    def ufunc(self, ufunc, method, *inputs, **kwargs):
        result = array_ufunc(self, ufunc, method, *inputs, **kwargs)
        if ufunc in (np.power, np.log, np.exp) and method == "__call__" and \
                isinstance(result, DuckArray) and result.dtype == np.float32:
            result = DuckArray(np.nextafter(result.data, np.float32(np.inf)))
        return result
    return ufunc


def test_library_oracle_allows_float32_rounding_in_a_float64_result_of_float32_inputs(
        monkeypatch):
    """The CuPy oracle's one wrong case (at_multiply_divide_power, docs/cupy.md): x float32,
    the update a float64 scalar, whose VJP is summed in float32 and cast to float64. NumPy's
    own float32 answer is 3.6e-7 from the float64 one, so a library that rounds float32
    otherwise fails a float64 tolerance (1e-7) without being wrong; the library oracle
    compares such results at float32's, as the JAX oracle does."""
    from library_oracle import assert_equal, value_and_vjp
    from test_oracle import CASES
    case = next(c for c in CASES if c.name == "at_multiply_divide_power")
    x = np.array([[0.58057487, 1.0, 1.8539664, 1.0], [1.0976223, 1.7941188, 1.0, 0.6193489],
                  [2.0, 1.2568434, 1.7426242, 1.6916335]], np.float32)  # the oracle's draw
    args, static = (x, np.array(-0.95628967)), {"index": (np.array([2]),)}
    expected = value_and_vjp(case, args, static)
    monkeypatch.setattr(DuckArray, "__array_ufunc__",
                        _rounded_another_way(DuckArray.__array_ufunc__))
    result = value_and_vjp(case, _duck(args), static)
    assert result[1][1].dtype == np.float64
    with pytest.raises(AssertionError):  # float64's tolerance: the case's report on CuPy
        np.testing.assert_allclose(result[1][1].get(), expected[1][1], rtol=1e-7)
    for what, at in (("value", 0), ("VJP", 1)):
        assert_equal(case, result[at], expected[at], what, "DuckArray", args,
                     lambda a: a.get())
