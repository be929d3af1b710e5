"""The JAX oracle: one declarative `Case` per function, checked for values and derivatives.

A case is a function written once against a NumPy-like namespace and called with
``funcgrad.numpy`` and ``jax.numpy``; Hypothesis draws its arguments. `check_case`
compares the value, ``vjp`` for a random cotangent, ``grad``/``value_and_grad`` of
the cotangent-weighted sum and ``jvp`` for a random tangent with JAX, and that each
cotangent and tangent has its primal's shape and dtype. Cases with ``order=2`` also
compare a second derivative.
"""
import dataclasses
from typing import Callable, Optional

import hypothesis.extra.numpy as hnp
import hypothesis.strategies as st
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.tree_util import tree_flatten, tree_map, tree_unflatten

jax.config.update("jax_enable_x64", True)

# The warnings the cases' inputs make NumPy (and funcgrad, as NumPy does) give: they draw
# domain edges, poles and degenerate slices on purpose; and the oracle's own: NumPy 2's
# deprecation of 2-vectors in cross (which the cross case covers), JAX's of scattering
# float64 values into float32 arrays (which funcgrad casts, as NumPy does). `pytestmark` of
# the test modules that run cases; library lines under transforms are test_quiet.py's job.
_EXPECTED = [
    ("divide by zero encountered", "RuntimeWarning"),
    ("invalid value encountered", "RuntimeWarning"),
    ("overflow encountered", "RuntimeWarning"),
    ("Mean of empty slice", "RuntimeWarning"),
    ("Degrees of freedom <= 0 for slice", "RuntimeWarning"),
    ("All-NaN slice encountered", "RuntimeWarning"),
    ("Arrays of 2-dimensional vectors are deprecated", "DeprecationWarning"),
    ("scatter inputs have incompatible types", "FutureWarning"),
]
EXPECTED_WARNINGS = [pytest.mark.filterwarnings(f"ignore:{message}:{category}")
                     for message, category in _EXPECTED]

TOLERANCES = {np.dtype("float32"): (2e-4, 2e-5), np.dtype("float64"): (1e-7, 1e-9),
              np.dtype("complex64"): (2e-4, 2e-5), np.dtype("complex128"): (1e-7, 1e-9)}


@dataclasses.dataclass(frozen=True)
class Case:
    """One function to check against JAX.

    fun:      ``fun(np, *args, **static)``, called with funcgrad.numpy and jax.numpy.
    args:     strategy drawing ``(args, static)``: a tuple of arrays and a dict of
              non-array keyword arguments (axis, shape, ...).
    jax_fun:  ``jax_fun(*args, **static)`` when the JAX spelling differs.
    diff:     positions of the arguments to differentiate (default: every float one).
    order:    2 also compares a Hessian-vector product.
    rtol, atol: looser floors for the tolerances of the arguments' precision (a float64
              case with a float32 step inside rounds like float32 there).
    costly_oracle: JAX compiles the case's oracle for seconds a shape (its second
              derivatives are large programs): the default run draws fewer examples.
    """
    name: str
    fun: Callable
    args: st.SearchStrategy
    jax_fun: Optional[Callable] = None
    diff: Optional[tuple] = None
    order: int = 1
    rtol: Optional[float] = None
    atol: Optional[float] = None
    differentiable: bool = True
    costly_oracle: bool = False

    def funcgrad_fun(self):
        return lambda *args, **static: self.fun(fnp, *args, **static)

    def jax_version(self):
        if self.jax_fun is not None:
            return self.jax_fun
        return lambda *args, **static: self.fun(jnp, *args, **static)


# ---- strategies ----------------------------------------------------------------------

FLOAT_DTYPES = (np.float64, np.float32)


def _flush_tiny(dtype):
    """Magnitudes whose square, times 1/8, would be subnormal become 0 (below 1.3e-15 in
    float32, 1.3e-145 in float64). JAX's compiled code flushes subnormal results to 0 where
    NumPy keeps them, and the same formula, associated differently, underflows on one side
    only; Hypothesis favours such values (the smallest normal, 1.1754944e-38 in float32), so
    at them a derivative compares only the two float environments: xlog1py at
    x = 1.2e-38, y = -1 (JAX's (t * x) / 0 is 0 / 0 = nan, ours t * (x / 0) = inf), xlogy's
    second derivative at y = 8.8e-247 (y * y underflows: nan against our 0)."""
    info = np.finfo(dtype)
    threshold = float(np.sqrt(float(info.tiny) * 2.0 ** (info.nmant + 4)))
    return lambda v: 0.0 if abs(v) < threshold else v


def floats(low=-3.0, high=3.0, dtype=np.float64, exclude_zero=False):
    width = 32 if np.dtype(dtype) == np.float32 else 64
    if width == 32:  # bounds must be exactly representable in float32
        low = float(np.nextafter(np.float32(low), np.float32(np.inf))
                    if np.float32(low) < low else np.float32(low))
        high = float(np.nextafter(np.float32(high), np.float32(-np.inf))
                     if np.float32(high) > high else np.float32(high))
    elements = st.floats(low, high, width=width, allow_nan=False, allow_infinity=False,
                         allow_subnormal=False).map(_flush_tiny(dtype))
    if exclude_zero:
        elements = elements.filter(lambda v: abs(v) > 0.25)
    return elements


def array(shape, dtype=np.float64, low=-3.0, high=3.0, exclude_zero=False, elements=None):
    """An array of ``shape``; values are mixed with small integers so ties and zeros occur."""
    if elements is None:
        element = floats(low, high, dtype, exclude_zero)
        ints = st.integers(int(np.ceil(low)), int(np.floor(high))).map(float)
        if exclude_zero:
            ints = ints.filter(lambda v: v != 0)
        elements = st.one_of(element, ints) if low <= high - 1 else element
    return hnp.arrays(dtype, shape, elements=elements)


def well_scaled(a, smallest=1e-3):
    """``a`` with entries smaller than ``smallest`` (but not 0) set to 0. NumPy's eig (LAPACK's
    balancing) returns wrong eigenvectors for a matrix whose entries span 1e-244 to 1, as
    for the companion matrix of a polynomial with a root at 1e-45: funcgrad then refuses to
    differentiate (tests/test_errors.py), and JAX's derivative differs from finite
    differences. Exact zeros are fine."""
    if np.iscomplexobj(a):
        return well_scaled(a.real, smallest) + 1j * well_scaled(a.imag, smallest)
    return np.where(np.abs(a) < smallest, 0.0, a)


def shapes(min_dims=0, max_dims=3, min_side=1, max_side=3):
    # Small sides keep the number of distinct shapes, and so JAX's compilations, low.
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side)


def dtypes(choices=FLOAT_DTYPES):
    return st.sampled_from(choices)


@st.composite
def unary(draw, low=-3.0, high=3.0, exclude_zero=False, min_dims=0, max_dims=3):
    """One array argument of any shape."""
    dtype = draw(dtypes())
    shape = draw(shapes(min_dims, max_dims))
    return (draw(array(shape, dtype, low, high, exclude_zero)),), {}


@st.composite
def broadcasting(draw, count=2, low=-3.0, high=3.0, exclude_zero=False, same_dtype=False):
    """``count`` arrays of mutually broadcastable shapes (dtypes may differ)."""
    shapes_ = draw(hnp.mutually_broadcastable_shapes(num_shapes=count, max_dims=3,
                                                     max_side=3)).input_shapes
    first = draw(dtypes())
    return tuple(draw(array(shape, first if same_dtype or i == 0 else draw(dtypes()), low,
                            high, exclude_zero))
                 for i, shape in enumerate(shapes_)), {}


@st.composite
def with_axis(draw, low=-3.0, high=3.0, min_dims=0, allow_none=True, allow_tuple=True,
              keepdims=True, exclude_zero=False):
    """One array, and ``axis`` (None, int or tuple; negative too) and ``keepdims``."""
    dtype = draw(dtypes())
    shape = draw(shapes(min_dims=min_dims))
    ndim = len(shape)
    options = []
    if allow_none:
        options.append(st.none())
    if ndim:
        options.append(st.integers(-ndim, ndim - 1))
        if allow_tuple:
            options.append(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim)
                           .map(tuple))
    axis = draw(st.one_of(*options)) if options else None
    static = {"axis": axis}
    if keepdims:
        static["keepdims"] = draw(st.booleans())
    return (draw(array(shape, dtype, low, high, exclude_zero)),), static


# ---- checks --------------------------------------------------------------------------


def _tolerance(case, dtype):
    rtol, atol = TOLERANCES.get(np.dtype(dtype), (1e-7, 1e-9))
    return max(case.rtol or 0.0, rtol), max(case.atol or 0.0, atol)


def _least_precise(args):
    """float32 tolerances apply whenever any input is single precision."""
    single = any(np.result_type(a) in (np.float32, np.complex64) for a in args)
    return np.dtype(np.float32 if single else np.float64)


def assert_close(case, ours, theirs, what, precision=None):
    ours_flat, ours_tree = tree_flatten(ours)
    theirs_flat, theirs_tree = tree_flatten(tree_map(np.asarray, theirs))
    assert len(ours_flat) == len(theirs_flat), f"{case.name}: {what}: structure differs"
    for a, b in zip(ours_flat, theirs_flat):
        a = np.asarray(a)
        assert a.shape == b.shape, f"{case.name}: {what}: shape {a.shape} != JAX's {b.shape}"
        rtol, atol = _tolerance(case, precision or a.dtype)
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=f"{case.name}: {what} differs from JAX")


def _assert_like_primal(case, cotangent, primal, position):
    assert np.shape(cotangent) == np.shape(primal), (
        f"{case.name}: cotangent of argument {position} has shape {np.shape(cotangent)}, "
        f"primal has {np.shape(primal)}")
    assert np.result_type(cotangent) == np.result_type(primal), (
        f"{case.name}: cotangent of argument {position} has dtype "
        f"{np.result_type(cotangent)}, primal has {np.result_type(primal)}")


def weights(shape, dtype, high=2.0):
    """An array of 0 and values of moderate size, +-[1/8, high]: cotangents, tangents and
    directions. Tiny ones (1e-38) would test nothing but flush-to-zero: JAX's compiled code
    flushes subnormal intermediates (ct / ln 10) to 0 where NumPy keeps them."""
    magnitude = floats(0.125, high, dtype)
    return hnp.arrays(dtype, shape, elements=st.one_of(
        st.just(0.0), magnitude, magnitude.map(lambda w: -w)))


def _draw_cotangent(data, out):
    def draw_one(leaf):
        leaf = np.asarray(leaf)
        if leaf.dtype.kind not in "fc":
            return None
        real_dtype = np.float32 if leaf.dtype in (np.float32, np.complex64) else np.float64
        ct = data.draw(weights(leaf.shape, real_dtype))
        if leaf.dtype.kind == "c":
            ct = ct + 1j * data.draw(weights(leaf.shape, real_dtype))
        return ct.astype(leaf.dtype)
    return tree_map(draw_one, out)


_JAX_ORACLES = {}


def bind(fun, args, static, diff):
    """``fun`` as a function of the differentiated arguments only."""
    def partial(*diff_args):
        full = list(args)
        for i, a in zip(diff, diff_args):
            full[i] = a
        return fun(*full, **static)
    return partial


def _second_order_objective(namespace, vjp, partial, ct_leaves, directions):
    """x -> <vjp(ct)(x), v>: its gradient is a Hessian-vector product of <f(x), ct>. The
    cotangent is cast to each output's dtype, which float64 arguments may have raised."""
    def objective(*diff_args):
        out, pullback = vjp(partial, *diff_args)
        out_leaves, out_tree = tree_flatten(out)
        out_ct = tree_unflatten(out_tree, [
            c if c is None or c.dtype == jax.dtypes.float0 else
            namespace.asarray(c).astype(np.result_type(o))
            for c, o in zip(ct_leaves, out_leaves)])
        total = 0.0
        for c, v in zip(pullback(out_ct), directions):
            total = total + namespace.sum(namespace.real(c * v))
        return total
    return objective


def _jax_oracle(case, static, diff, order):
    """JAX's value, vjp, jvp and (order 2) Hessian-vector product for a case, in one function
    jitted once per case and static arguments: one compilation per shape, not one per
    primitive and per derivative."""
    key = (case.name, repr(static), diff, order)
    if key not in _JAX_ORACLES:
        jax_fun = case.jax_version()

        def oracle(args, ct, tangents, second):
            partial = bind(jax_fun, args, static, diff)
            diff_args = tuple(args[i] for i in diff)
            out, pullback = jax.vjp(partial, *diff_args)
            _, tangent_out = jax.jvp(partial, diff_args, tuple(tangents))
            if second is None:
                return out, pullback(ct), tangent_out, None
            second_args, directions = second
            objective = _second_order_objective(
                jnp, jax.vjp, bind(jax_fun, second_args, static, diff),
                tree_flatten(ct)[0], directions)
            hvp = jax.grad(objective, argnums=tuple(range(len(diff))))(
                *(second_args[i] for i in diff))
            return out, pullback(ct), tangent_out, hvp

        _make_room_for_a_program()
        _JAX_ORACLES[key] = jax.jit(oracle)
    return _JAX_ORACLES[key]


def _float0_for_missing(ct, out):
    return tree_map(lambda c, o: np.zeros(np.shape(o), jax.dtypes.float0) if c is None else c,
                    ct, out, is_leaf=lambda x: x is None)


def _in_double_precision(a):
    dtype = np.result_type(a)
    return np.asarray(a, {"f": np.float64, "c": np.complex128}[dtype.kind])


def check_case(case, data, mixed_precision=True):
    """`case` against JAX for arguments drawn from `data`, and (`mixed_precision`) with one
    argument in float32 against all in float64 (`_check_mixed_precision`)."""
    args, static = data.draw(case.args, label="args")
    precision = _least_precise(args)
    ours_fun, jax_fun = case.funcgrad_fun(), case.jax_version()

    value = ours_fun(*args, **static)
    numpy_value = case.fun(np, *args, **static) if case.jax_fun is None else None
    if numpy_value is not None:
        for ours, theirs in zip(tree_flatten(value)[0], tree_flatten(numpy_value)[0]):
            theirs = np.asarray(theirs)  # a JAX array where the namespace maps to JAX's
            assert np.result_type(ours) == np.result_type(theirs), (
                f"{case.name}: dtype {np.result_type(ours)} differs from NumPy's "
                f"{np.result_type(theirs)}")
    if not case.differentiable:
        assert_close(case, value, jax_fun(*args, **static), "value", precision)
        return

    diff = case.diff if case.diff is not None else tuple(
        i for i, a in enumerate(args) if np.result_type(a).kind in "fc")
    diff_args = tuple(args[i] for i in diff)
    ct = _draw_cotangent(data, value)
    tangents = tuple(_draw_cotangent(data, a) for a in diff_args)
    has_ct = bool([c for c in tree_flatten(ct)[0] if c is not None])
    second = None
    if case.order >= 2 and has_ct:
        # Second derivatives are compared in double precision: in float32, rounding in the
        # first derivative's terms (which can be large where the second is ~0) swamps them.
        directions = tuple(_in_double_precision(
            data.draw(weights(np.shape(a), np.result_type(a), 1.0))) for a in diff_args)
        second_args = tuple(_in_double_precision(a) if i in diff else a
                            for i, a in enumerate(args))
        second = (second_args, directions)

    expected, expected_cts, expected_tangents, expected_hvp = _jax_oracle(
        case, static, diff, case.order)(args, _float0_for_missing(ct, value), tangents, second)
    assert_close(case, value, expected, "value", precision)
    if not has_ct:
        return

    partial = bind(ours_fun, args, static, diff)
    out, pullback = fg.vjp(partial, *diff_args)
    ours_ct = tree_map(lambda c, o: np.zeros(np.shape(o), np.result_type(o)) if c is None
                       else c, ct, out, is_leaf=lambda x: x is None)
    cts = pullback(ours_ct)
    for i, (c, a) in enumerate(zip(cts, diff_args)):
        _assert_like_primal(case, c, a, diff[i])
    assert_close(case, cts, expected_cts, "vjp", precision)

    def weighted(*a):
        leaves = tree_flatten(partial(*a))[0]
        total = 0.0
        for leaf, c in zip(leaves, tree_flatten(ct, is_leaf=lambda x: x is None)[0]):
            if c is not None:
                total = total + fnp.sum(fnp.real(leaf * c))
        return total

    argnums = tuple(range(len(diff)))
    assert_close(case, fg.grad(weighted, argnums=argnums)(*diff_args), expected_cts, "grad",
                 precision)
    _, grads = fg.value_and_grad(weighted, argnums=argnums)(*diff_args)
    assert_close(case, grads, expected_cts, "value_and_grad", precision)

    _check_jvp(case, partial, diff_args, tangents, expected_tangents, precision)
    if mixed_precision:
        _check_mixed_precision(case, data, args, static, diff)

    if second is not None:
        second_args, directions = second
        objective = _second_order_objective(
            fnp, fg.vjp, bind(ours_fun, second_args, static, diff),
            tree_flatten(ct, is_leaf=lambda x: x is None)[0], directions)
        ours = fg.grad(objective, argnums=argnums)(*(second_args[i] for i in diff))
        assert_close(case, ours, expected_hvp, "second derivative", np.dtype(np.float64))


def _check_jvp(case, partial, diff_args, tangents, expected, precision):
    """Forward mode: funcgrad.jvp against jax.jvp for a random tangent per argument."""
    out, tangent_out = fg.jvp(partial, diff_args, tangents)
    ours_flat, theirs_flat = tree_flatten(tangent_out)[0], tree_flatten(expected)[0]
    assert len(ours_flat) == len(theirs_flat), f"{case.name}: jvp: structure differs"
    for primal, ours, theirs in zip(tree_flatten(out)[0], ours_flat, theirs_flat):
        if np.result_type(primal).kind not in "fc":
            assert np.result_type(ours) == fg.float0, (
                f"{case.name}: jvp: the tangent of an integer output has dtype "
                f"{np.result_type(ours)}, not float0")
            continue
        assert np.result_type(ours) == np.result_type(primal), (
            f"{case.name}: jvp: tangent dtype {np.result_type(ours)} differs from the output's "
            f"{np.result_type(primal)}")
        assert_close(case, ours, theirs, "jvp", precision)


def _check_mixed_precision(case, data, args, static, diff):
    """Derivatives of mixed single- and double-precision arguments at the result's
    precision. With one float argument cast to float32 and the others to float64, NumPy
    computes a double-precision output exactly as it does for the float32 argument's
    values given in float64 (the cast is exact), and so must every derivative rule: each
    float64 cotangent and tangent must equal that of the all-float64 arguments to double
    precision, where comparing with JAX at single-precision tolerance would let a rule
    that computes log(x) of the float32 x pass. Outputs that are not the same both ways
    (a function of the float32 argument alone stays single precision) get no cotangent."""
    floats = [i for i in diff if np.result_type(args[i]) in (np.float32, np.float64)]
    if len(floats) < 2:
        return
    single = data.draw(st.sampled_from(floats), label="the float32 argument")
    mixed = [np.asarray(a, np.float32 if i == single else np.float64) if i in floats else a
             for i, a in enumerate(args)]
    wide = [np.asarray(a, np.float64) if i in floats else a for i, a in enumerate(mixed)]
    fun = case.funcgrad_fun()
    # (arguments, value, pullback): the mixed arguments, then the same all in float64
    runs = [(values, *fg.vjp(bind(fun, values, static, diff), *(values[i] for i in diff)))
            for values in (mixed, wide)]
    (_, mixed_value, _), (_, wide_value, _) = runs
    mixed_out = tree_flatten(mixed_value)[0]
    wide_out, out_tree = tree_flatten(wide_value)
    same = list(map(_identical, mixed_out, wide_out))
    if case.jax_fun is None:  # NumPy computes at double precision: so must funcgrad
        numpy_same = map(_identical, tree_flatten(case.fun(np, *mixed, **static))[0],
                         tree_flatten(case.fun(np, *wide, **static))[0])
        for index, (ours, numpys) in enumerate(zip(same, numpy_same)):
            assert ours or not numpys, (
                f"{case.name}: output {index} with one argument in float32 differs from the "
                f"same arguments all in float64, where NumPy's does not: funcgrad computes "
                f"part of it at the float32 argument's precision")
    if not any(same):
        return
    drawn = tree_flatten(_draw_cotangent(data, wide_value), is_leaf=lambda x: x is None)[0]
    # The float32 argument's tangent is zero: NumPy adds its neighbouring entries in float32
    # (trapezoid's y[1:] + y[:-1] beside a float64 dx), and its tangents likewise, which
    # is NumPy's arithmetic, not a rule's precision (the pullback checks that argument).
    tangents = [np.zeros_like(mixed[i]) if i == single else _draw_cotangent(data, mixed[i])
                for i in diff]
    results = []
    for (values, _, pullback), outputs in zip(runs, (mixed_out, wide_out)):
        cotangent = tree_unflatten(out_tree, [c if keep and c is not None
                                              else np.zeros(np.shape(o), np.result_type(o))
                                              for c, o, keep in zip(drawn, outputs, same)])
        diff_values = tuple(values[i] for i in diff)
        _, tangent_out = fg.jvp(bind(fun, values, static, diff), diff_values, tuple(
            np.asarray(t, np.result_type(v)) for t, v in zip(tangents, diff_values)))
        results.append((pullback(cotangent), tree_flatten(tangent_out)[0]))
    (mixed_cts, mixed_tangents), (wide_cts, wide_tangents) = results
    for position, ours, exact in zip(diff, mixed_cts, wide_cts):
        _assert_like_primal(case, ours, mixed[position], position)
        _assert_same_in_precision_of(case, ours, exact, f"cotangent of argument {position}")
    for index, (ours, exact, keep) in enumerate(zip(mixed_tangents, wide_tangents, same)):
        if keep and np.result_type(ours).kind in "fc":  # (not an integer output's float0)
            _assert_same_in_precision_of(case, ours, exact, f"tangent of output {index}")


def _identical(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True)


def _assert_same_in_precision_of(case, ours, exact, what):
    """`ours` (from mixed-precision arguments) against `exact` (from the same arguments in
    float64): to double precision for a double-precision result; within the oracle's
    single-precision tolerance otherwise, since float32 cotangents add each operation's
    contribution in float32 (as JAX's do)."""
    ours, exact = np.asarray(ours), np.asarray(exact)
    if ours.dtype not in (np.float64, np.complex128):
        rtol, atol = _tolerance(case, np.float32)
    else:
        rtol = 1e-12
        atol = rtol * float(np.max(np.abs(exact[np.isfinite(exact)]), initial=0.0))
    np.testing.assert_allclose(
        ours, exact.astype(ours.dtype), rtol=rtol, atol=atol, equal_nan=True,
        err_msg=f"{case.name}: {what} with one argument in float32 and the others in float64 "
                f"differs from the same arguments all in float64 (a rule computing at the "
                f"float32 argument's precision instead of the result's?)")


# ---- vmap ------------------------------------------------------------------------------

# The batch: the drawn arguments, then the same with their entries reversed along every
# axis, then rolled by one along every axis (float arguments only; integer ones are
# indices, repeated). Both keep each argument in its case's domain: a permutation of an
# elementwise argument's entries, and a similarity transform P A P^T of a square matrix
# (definite and invertible ones stay so), while giving each element its own
# values. Sorted vectors (bins, sample points) must stay sorted, and some cases need
# their entries where they are (a divisor's leading coefficient): those are scaled.
_BATCH_ELEMENTS = (lambda a: a, np.flip,
                   lambda a: np.roll(a, 1, axis=tuple(range(np.ndim(a)))) if np.ndim(a) else a)
_SORTED_ELEMENTS = (lambda a: a, lambda a: a * 0.875, lambda a: a * 0.75)

_JAX_BATCHED = {}


def _batchable(a):
    return isinstance(a, (np.ndarray, np.generic))


def _batched_arg(a, size, axis, keep_positions):
    if np.result_type(a).kind in "fc":
        ascending = keep_positions or (np.ndim(a) == 1 and np.all(np.diff(a) >= 0))
        elements = [np.asarray(change(a)).astype(np.result_type(a)) for change in
                    (_SORTED_ELEMENTS if ascending else _BATCH_ELEMENTS)[:size]]
    else:
        elements = [np.asarray(a)] * size
    return np.stack(elements, axis=axis)


def draw_batch(data, args, keep_positions=False):
    """Batched versions of ``args``: (batched args, in_axes, size); at least one argument
    is batched, each at an axis drawn among all its positions (negative ones too)."""
    size = data.draw(st.integers(1, len(_BATCH_ELEMENTS)), label="batch size")
    candidates = [i for i, a in enumerate(args) if _batchable(a)]
    batched_positions = set(data.draw(
        st.lists(st.sampled_from(candidates), min_size=1, unique=True), label="batched")
        if candidates else ())
    batched, in_axes = [], []
    for i, a in enumerate(args):
        if i not in batched_positions:
            batched.append(a)
            in_axes.append(None)
            continue
        ndim = np.ndim(a) + 1
        axis = data.draw(st.integers(-ndim, ndim - 1), label=f"in_axes[{i}]")
        batched.append(_batched_arg(a, size, axis % ndim, keep_positions))
        in_axes.append(axis)
    return tuple(batched), tuple(in_axes), size


def _jax_batched(case, static, in_axes, out_axes, diff, ct_tree_leaves):
    key = (case.name, repr(static), in_axes, out_axes, diff)
    if key not in _JAX_BATCHED:
        jax_fun = case.jax_version()

        def oracle(args, ct):
            value = jax.vmap(lambda *a: jax_fun(*a, **static), in_axes=in_axes,
                             out_axes=out_axes)(*args)
            if ct is None:
                return value, None

            def weighted(*a):
                leaves = tree_flatten(jax_fun(*a, **static))[0]
                return sum(jnp.sum(jnp.real(leaf * c)) for leaf, c in zip(leaves, ct)
                           if c is not None)
            grads = jax.vmap(jax.grad(weighted, argnums=diff), in_axes=in_axes,
                             out_axes=out_axes)(*args)
            return value, grads

        _make_room_for_a_program()
        _JAX_BATCHED[key] = jax.jit(oracle)
    return _JAX_BATCHED[key]


def _element(args, in_axes, i):
    return [a if axis is None else np.take(a, i, axis=axis) for a, axis in zip(args, in_axes)]


def check_case_against_loop(case, data):
    """For functions whose result's shape depends on values (which JAX cannot vmap):
    ``vmap`` equals a loop over the batch, or raises an error that names vmap."""
    args, static = data.draw(case.args, label="args")
    batched, in_axes, size = draw_batch(data, args)
    if all(axis is None for axis in in_axes):
        return
    ours_fun = case.funcgrad_fun()
    try:
        value = fg.vmap(lambda *a: ours_fun(*a, **static), in_axes=in_axes)(*batched)
    except (TypeError, ValueError) as error:
        assert "vmap" in str(error), f"{case.name}: unclear error under vmap: {error}"
        return
    looped = [ours_fun(*_element(batched, in_axes, i), **static) for i in range(size)]
    expected = tree_map(lambda *leaves: np.stack(leaves), *looped)
    assert_close(case, value, expected, "vmap value against a loop")


def check_case_batched(case, data, with_grad=True, keep_positions=False):
    """``vmap`` of the case's function (and of its gradient) against ``jax.vmap``."""
    args, static = data.draw(case.args, label="args")
    batched, in_axes, size = draw_batch(data, args, keep_positions)
    if all(axis is None for axis in in_axes):  # nothing to batch (no array argument)
        return
    out_axes = data.draw(st.sampled_from((0, -1)), label="out_axes")
    precision = _least_precise(args)
    ours_fun = case.funcgrad_fun()
    element = ours_fun(*args, **static)

    diff = case.diff if case.diff is not None else tuple(
        i for i, a in enumerate(args) if np.result_type(a).kind in "fc")
    ct = None
    if with_grad and case.differentiable and diff:
        ct = tree_flatten(_draw_cotangent(data, element), is_leaf=lambda x: x is None)[0]
        if all(c is None for c in ct):
            ct = None

    expected, expected_grads = _jax_batched(case, static, in_axes, out_axes, diff,
                                            ct)(batched, ct)
    value = fg.vmap(lambda *a: ours_fun(*a, **static), in_axes=in_axes,
                    out_axes=out_axes)(*batched)
    assert_close(case, value, expected, f"vmap value (in_axes={in_axes})", precision)
    for batched_leaf, leaf in zip(tree_flatten(value)[0], tree_flatten(element)[0]):
        assert np.result_type(batched_leaf) == np.result_type(leaf), (
            f"{case.name}: vmap gives dtype {np.result_type(batched_leaf)}, one element "
            f"{np.result_type(leaf)}")
    if ct is None:
        return

    def weighted(*a):
        leaves = tree_flatten(ours_fun(*a, **static))[0]
        total = 0.0
        for leaf, c in zip(leaves, ct):
            if c is not None:
                total = total + fnp.sum(fnp.real(leaf * c))
        return total

    grads = fg.vmap(fg.grad(weighted, argnums=diff), in_axes=in_axes,
                    out_axes=out_axes)(*batched)
    assert_close(case, grads, expected_grads, f"vmap(grad) (in_axes={in_axes})", precision)



# How many compiled oracles are kept at once, and how many memory mappings the process may
# reach before they are dropped (see release_compiled_oracles): a large program (second
# derivatives of an unrolled iteration) takes thousands of mappings on its own.
_MOST_PROGRAMS = 150
_MOST_MAPPINGS = 30_000


def release_compiled_oracles():
    """Drop the JAX programs compiled for oracle cases. Each keeps memory mappings of its
    machine code, and thousands of them together reach the kernel's limit on mappings per
    process (vm.max_map_count, 65530), where XLA's next compile crashes the process."""
    _JAX_ORACLES.clear()
    _JAX_BATCHED.clear()
    jax.clear_caches()


def _make_room_for_a_program():
    if len(_JAX_ORACLES) + len(_JAX_BATCHED) >= _MOST_PROGRAMS \
            or _memory_mappings() > _MOST_MAPPINGS:
        release_compiled_oracles()


def _memory_mappings():
    """How many memory mappings the process has (Linux; 0 where /proc cannot tell)."""
    try:
        with open("/proc/self/maps", "rb") as maps:
            return maps.read().count(b"\n")
    except OSError:
        return 0
