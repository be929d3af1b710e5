"""Arrays a transform returns belong to the caller (docs/guide-functional.md, "Results are
yours"): each is writable and shares memory with no other returned array, no input, no
cotangent or tangent the caller passed, and no constant; and ndarray subclasses whose
semantics the rules do not follow are refused."""
import itertools

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.tree_util import tree_leaves

X = np.array([1.0, 2.0, 3.0])
CONSTANT = np.array([5.0, 6.0, 7.0])

# Functions whose derivatives come out of a backward pass as views, shared arrays or the
# caller's own arrays: a sum (a broadcast view of the 0-d seed), a fan-out (both inputs of
# x + y receive the same cotangent), an identity, a reshape, a constant output.
FUNCTIONS = {
    "sum": lambda p: fnp.sum(p["a"]) + fnp.sum(p["b"] * 2.0),
    "fan-out": lambda p: fnp.sum(p["a"] + p["b"]),
    "identity": lambda p: p["a"],
    "reshape": lambda p: fnp.reshape(p["a"], (3, 1)) + p["b"][:, None],
    "constant": lambda p: CONSTANT,
    "pytree out": lambda p: {"x": p["a"], "y": p["a"], "z": p["b"] * 1.0},
}
SCALAR_FUNCTIONS = {name: f for name, f in FUNCTIONS.items() if name in ("sum", "fan-out")}


def params():
    return {"a": X.copy(), "b": X.copy() * 2}


def _call(transform, f, p):
    """The arrays `transform` hands back for `f` at `p`, and the caller's own arrays."""
    given = tree_leaves(p)
    if transform == "grad":
        return tree_leaves(fg.grad(f)(p)), given
    if transform == "value_and_grad":
        return tree_leaves(fg.value_and_grad(f)(p)), given
    if transform == "vjp":
        out, pullback = fg.vjp(f, p)
        ct = fg.tree_util.tree_map(np.ones_like, out)
        return tree_leaves(out) + tree_leaves(pullback(ct)), given + tree_leaves(ct)
    if transform == "jvp":
        tangents = fg.tree_util.tree_map(np.ones_like, p)
        out, t_out = fg.jvp(f, (p,), (tangents,))
        return tree_leaves(out) + tree_leaves(t_out), given + tree_leaves(tangents)
    if transform == "linearize":
        tangents = fg.tree_util.tree_map(np.ones_like, p)
        out, f_jvp = fg.linearize(f, p)
        return tree_leaves(out) + tree_leaves(f_jvp(tangents)), given + tree_leaves(tangents)
    if transform == "jacrev":
        return tree_leaves(fg.jacrev(f)(p)), given
    if transform == "jacfwd":
        return tree_leaves(fg.jacfwd(f)(p)), given
    if transform == "hessian":
        return tree_leaves(fg.hessian(f)(p)), given
    if transform == "hvp":
        tangents = fg.tree_util.tree_map(np.ones_like, p)
        return tree_leaves(fg.hvp(f, (p,), (tangents,))), given + tree_leaves(tangents)
    raise ValueError(transform)


# Forward mode of a scalar function returns only scalars: nothing to check there.
ARRAY_OUTPUTS = ["jvp", "linearize"]
ANY_OUTPUT = ["vjp", "jacrev", "jacfwd"]
SCALAR_OUTPUT = ["grad", "value_and_grad", "hessian", "hvp"]
CASES = ([(t, name) for t in ANY_OUTPUT for name in FUNCTIONS]
         + [(t, name) for t in ARRAY_OUTPUTS for name in FUNCTIONS
            if name not in SCALAR_FUNCTIONS]
         + [(t, name) for t in SCALAR_OUTPUT for name in SCALAR_FUNCTIONS])


@pytest.mark.parametrize("transform, name", CASES)
def test_returned_arrays_are_the_callers_own(transform, name):
    p = params()
    returned, given = _call(transform, FUNCTIONS[name], p)
    arrays = [a for a in returned if isinstance(a, np.ndarray)]
    assert arrays, "the call returned no arrays to check"
    for a in arrays:
        assert a.flags.writeable, f"{transform}({name}) returned a read-only array"
    for a, b in itertools.combinations(arrays, 2):
        assert not np.shares_memory(a, b), f"{transform}({name}) returned aliased arrays"
    for a in arrays:
        for b in given + [CONSTANT]:
            assert not np.shares_memory(a, b), \
                f"{transform}({name}) returned an array sharing memory with the caller's"


def test_in_place_updates_of_gradients_act_on_each_alone():
    # The optimizer loop of the issue: scaling each gradient in place scales it once.
    g = fg.grad(lambda p: fnp.sum(p["a"] + p["b"]))({"a": np.ones(3), "b": np.ones(3)})
    for key in g:
        g[key] *= 0.2
    np.testing.assert_array_equal(g["a"], [0.2, 0.2, 0.2])
    np.testing.assert_array_equal(g["b"], [0.2, 0.2, 0.2])
    g = fg.grad(fnp.sum)(np.ones(3))
    g *= 2  # was "output array is read-only"
    np.testing.assert_array_equal(g, [2.0, 2.0, 2.0])


def test_arrays_that_are_already_the_callers_are_not_copied():
    # A gradient computed fresh by the backward pass is handed back as it is.
    seen = []

    @fg.custom_vjp
    def f(x):
        return fnp.sum(x ** 2)

    def f_bwd(x, g):
        ct = 2.0 * x * g
        seen.append(ct)
        return (ct,)

    f.defvjp(lambda x: (f(x), x), f_bwd)
    g = fg.grad(f)(X)
    assert g is seen[0]


@pytest.mark.parametrize("transform", [
    lambda x: fg.grad(lambda x: fnp.sum(x ** 2))(x),
    lambda x: fg.value_and_grad(lambda x: fnp.sum(x ** 2))(x),
    lambda x: fg.vjp(fnp.sin, x),
    lambda x: fg.jvp(fnp.sin, (x,), (np.ones(np.shape(x)),)),
    lambda x: fg.jacrev(fnp.sin)(x),
    lambda x: fg.jacfwd(fnp.sin)(x),
    lambda x: fg.grad(lambda y, m: fnp.sum(y * m))(np.ones((1, 3)), x),  # not differentiated
], ids=["grad", "value_and_grad", "vjp", "jvp", "jacrev", "jacfwd", "constant argument"])
@pytest.mark.parametrize("array, message", [
    (np.ma.array([1.0, 2.0, 5.0], mask=[0, 1, 0]), r"numpy\.ma\.MaskedArray.*x\.filled"),
    # (a view, since np.matrix(...) itself warns that the class is deprecated)
    (np.array([[1.0, 2.0, 5.0]]).view(np.matrix), r"numpy\.matrix.*np\.asarray\(x\)"),
], ids=["masked", "matrix"])
def test_masked_arrays_and_matrices_are_refused(transform, array, message):
    with pytest.raises(TypeError, match=message):
        transform(array)


def test_the_masked_array_of_the_issue_no_longer_gives_a_wrong_value():
    x = np.ma.array([1.0, 2.0, 5.0], mask=[0, 1, 0])
    with pytest.raises(TypeError, match="does not honour masks"):
        fg.value_and_grad(lambda x: fnp.sum(x ** 2))(x)
    # What the error says to do gives NumPy's answer, 26.
    value, _ = fg.value_and_grad(lambda x: fnp.sum(x ** 2))(x.compressed())
    assert value == np.sum(x ** 2) == 26.0


def test_memmap_is_accepted(tmp_path):
    array = np.memmap(tmp_path / "x.dat", dtype=np.float64, mode="w+", shape=(3,))
    array[:] = X
    np.testing.assert_allclose(fg.grad(lambda x: fnp.sum(x ** 2))(array), 2 * X)


def test_subclasses_that_only_carry_data_are_traced_and_others_refused():
    class Tagged(np.ndarray):  # metadata only: an ndarray's semantics
        def __array_finalize__(self, obj):
            self.tag = getattr(obj, "tag", None)

    class Doubling(np.ndarray):  # changes what * means
        def __mul__(self, other):
            return np.multiply(np.asarray(self), other) * 2

    np.testing.assert_allclose(fg.grad(lambda x: fnp.sum(x * x))(X.view(Tagged)), 2 * X)
    with pytest.raises(TypeError, match=r"Doubling.*overrides what operations on it mean"):
        fg.grad(lambda x: fnp.sum(x * x))(X.view(Doubling))


# ---- arrays modified in place between a vjp (or linearize) and the use of its result -----
# (found for the bad-input table of docs/debugging.md: the pullback read the caller's
# arrays, so an in-place update in between changed the derivative silently)

def test_vjp_pullback_ignores_an_input_modified_in_place_after_it():
    x = np.array([0.5, 1.0, 2.0])
    expected = np.cos(x)
    _, pullback = fg.vjp(fnp.sin, x)
    x -= 0.1 * np.ones(3)  # an optimizer's in-place step
    np.testing.assert_array_equal(pullback(np.ones(3))[0], expected)


def test_vjp_pullback_ignores_its_output_modified_in_place():
    x = np.array([0.5, 1.0, 2.0])
    out, pullback = fg.vjp(fnp.exp, x)  # exp's rule reads its saved result
    out[:] = 0.0
    np.testing.assert_array_equal(pullback(np.ones(3))[0], np.exp(x))


def test_vjp_pullback_ignores_aux_modified_in_place():
    x = np.array([0.5, 1.0, 2.0])
    _, pullback, aux = fg.vjp(lambda x: (fnp.exp(x) * 1.0, fnp.exp(x)), x, has_aux=True)
    aux[:] = 0.0
    np.testing.assert_allclose(pullback(np.ones(3))[0], np.exp(x))


def test_linearize_ignores_inputs_modified_in_place_after_it():
    x, y = np.array([0.5, 1.0]), np.array([3.0, -2.0])
    _, f_jvp = fg.linearize(lambda x, y: x * y, x, y)
    y[:] = 100.0
    np.testing.assert_array_equal(f_jvp(np.ones(2), np.zeros(2)), [3.0, -2.0])
