"""Finds of the random exploration (HYPOTHESIS_PROFILE=explore, see tests/conftest.py), each
replayed as a named example of its oracle case.

A regression lists the values its case drew, in order (arguments, the cotangent, then one
tangent and, for second-order cases, one direction per argument), as Hypothesis printed them
in its falsifying example.
Where the fix was the case's strategy, not funcgrad, the arguments are the ones the fixed
strategy now draws in their place; `tiny` records a value that was found, which
`test_strategies_no_longer_draw_the_found_values` checks is mapped away, and `refused` a
draw the case's strategy now filters out.
"""
import dataclasses

import numpy as np
import pytest

from funcgrad.tree_util import tree_flatten
from oracle import EXPECTED_WARNINGS, _flush_tiny, check_case
from oracle_cases.elementwise import _off_jumps
from test_jit_oracle import check_jit_case
from test_oracle import CASES

pytestmark = EXPECTED_WARNINGS

CASES_BY_NAME = {case.name: case for case in CASES}


@dataclasses.dataclass(frozen=True)
class Regression:
    name: str
    case: str
    draws: tuple
    why: str
    tiny: tuple = ()  # (value, dtype) pairs the strategies now flush to 0
    refused: tuple = ()  # (strategy filter, the found draw) the case's strategy now refuses


class Replay:
    """Stands in for Hypothesis' ``data``: each draw returns the next recorded value."""

    def __init__(self, draws):
        self._draws = iter(draws)

    def draw(self, strategy, label=None):
        return next(self._draws)


f32, f64 = np.float32, np.float64
REGRESSIONS = [
    Regression(
        "xlog1py_smallest_normal_float32", "special.xlog1py",
        draws=(((np.array(0.0, f32), np.array([-1.0, 0.5, -1.0], f32)), {}),
               np.array([1.0, 0.125, -2.0], f32),
               np.array(0.5, f32), np.array([0.0, 1.0, 0.25], f32),
               np.array(1.0, f32), np.array([0.0, -1.0, 0.5], f32)),
        why="x = 1.1754944e-38 (float32), y = -1: JAX's jvp is nan ((t * x) / 0 with t * x "
            "flushed to 0), ours -inf; x is now drawn as 0",
        tiny=((1.1754944e-38, f32),)),
    Regression(
        "xlogy_second_derivative_underflow", "special.xlogy",
        draws=(((np.array(0.0), np.array([0.0, 0.0, 0.0])), {}),
               np.array([0.0, 0.0, 0.0]),
               np.array(0.0), np.array([0.0, 0.0, 0.0]),
               np.array(0.0), np.array([0.0, 0.0, 0.0])),
        why="x = 0, y = 8.8e-247: the second derivative's y * y underflows to 0 in JAX's "
            "formula (nan) and not in ours (0); y is now drawn as 0",
        tiny=((8.83016287e-247, f64),)),
    Regression(
        "j1_second_derivative_at_one_eighth", "special.j1",
        draws=(((np.array(0.125),), {}), np.array(1.0), np.array(0.0), np.array(1.0)),
        why="x = 0.125: JAX's bessel_jn gives J1'' = -20767.3 (its recurrence's derivative), "
            "ours -0.046773, mpmath's too; J_n's oracle is now mpmath"),
    Regression(
        "j0_second_derivative_at_one_eighth", "special.j0",
        draws=(((np.array([0.125]),), {}), np.array([1.0]), np.array([0.0]),
               np.array([1.0])),
        why="x = 0.125: JAX's bessel_jn gives J0'' = -331627.3, ours -0.497073 (mpmath's)"),
    Regression(
        "mean_in_float32_of_float64", "dtype_where_initial",
        draws=(((np.zeros(3),), {"axis": None, "keepdims": False}),
               np.array(0.625), np.array(-0.75), np.array(0.0), np.array(0.0), np.array(0.0),
               np.zeros(3)),
        why="mean(x, dtype=float32) of float64 x: the vjp, 0.0833333284 against JAX's "
            "0.0833333433, differs by a float32 rounding of 0.625 / 3, beyond float64's "
            "tolerance; the case now allows atol 1e-6"),
    Regression(
        "divmod_on_the_remainder_jump", "divmod",
        draws=(((np.array([[1.0], [0.29799297]], f32), np.array([1.0, 1.0, 0.3], f32)), {}),
               np.zeros((2, 3), f32), np.zeros((2, 3), f32),
               np.zeros((2, 1), f32), np.array([0.0, 0.0, 1.0], f32)),
        why="x = y = 0.29799297 (float32): x / y is 1, where the remainder jumps; JAX's "
            "compiled quotient rounds below 1 (d/dy 0), ours does not (-1); the strategy "
            "now refuses such draws, and y is 0.3 here",
        refused=((_off_jumps, ((np.array([[1.0], [0.29799297]], f32),
                                np.array([1.0, 1.0, 0.29799297], f32)), {})),)),
]


@pytest.mark.parametrize("regression", REGRESSIONS, ids=lambda r: r.name)
def test_regression(regression):
    # (recorded without the draws of the mixed-precision check, which came later)
    check_case(CASES_BY_NAME[regression.case], Replay(regression.draws), mixed_precision=False)


@dataclasses.dataclass(frozen=True)
class JitRegression:
    """A find of the jit oracle (tests/test_jit_oracle.py, `-m slow`): the arguments drawn.
    Its finds so far failed on values, before the cotangent was drawn, so each output's
    cotangent is replayed as ones."""
    name: str
    case: str
    args: tuple
    why: str


_VALUES_ONLY = ("NumPy's values-only LAPACK call (gesdd or syevd without vectors), which "
                "eager funcgrad made and a traced call replaced by the full decomposition's")
JIT_REGRESSIONS = [
    JitRegression(
        "lstsq_singular_values", "linalg_lstsq",
        args=(np.array([[10.0, 0.25], [0.0, 6.0], [0.0, 0.0]]), np.array([1.0, 1.0, 1.0])),
        why=f"s, 1 ulp from {_VALUES_ONLY}"),
    JitRegression(
        "eigvalsh_and_hermitian_svd_values", "linalg_cholesky_eigh",
        args=(np.array([[4.0, 0.5, 0.0], [0.5, 12.0, 0.0], [0.0, 0.25, 20.0]]),),
        why=f"eigvalsh and svd(hermitian=True, compute_uv=False), 1 ulp from {_VALUES_ONLY}"),
    JitRegression(
        "svdvals", "linalg_svd_pinv",
        args=(np.array([[10.0, 0.0], [0.2109375, 6.0], [0.0, 0.0]]),),
        why=f"svd(compute_uv=False) and svdvals, 1 ulp from {_VALUES_ONLY}"),
    JitRegression(
        "cond_from_singular_values", "linalg_matrix_power_cond",
        args=(np.array([[5.0, 0.0, 0.0], [1.0, 5.0, 0.0], [0.0, 0.0, 5.0]]),),
        why=f"cond(a, 2), 1 ulp from {_VALUES_ONLY}"),
    JitRegression(
        "matrix_norms_from_singular_values", "linalg_norm_matrix",
        args=(np.array([[10.0, 0.0], [0.2109375, 6.0], [0.0, 0.0]]),),
        why=f"norm(a, 'nuc'), norm(a, 2) and norm(a, -2), 1 ulp from {_VALUES_ONLY}; "
            f"found at a[1, 0] = 0.12381683 as printed (rounded: it does not reproduce), "
            f"replayed at svdvals' a[1, 0]"),
    JitRegression(
        "logspace_of_float32", "polynomial_logspace_geomspace",
        args=(np.array(1.0, np.float32), np.array(2.0, np.float32), np.array(2.0, np.float32),
              np.array([1.0, 1.0], np.float32)),
        why="traced logspace made its base a float64 array (NumPy keeps a number weak), so "
            "logspace of float32 exponents was float64 under jit and grad (the first "
            "random exploration, 2026-11-27)"),
    JitRegression(
        "dot_above_two_dimensions", "array_methods",
        args=(np.array([[[2.0, -1.3812797174167781, 0.0], [0.0, 0.0, 0.0]],
                        [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]),),
        why="x.dot(v) of a 3-d x, 1 ulp from NumPy's: funcgrad's dot of more than two "
            "dimensions was np.tensordot's one matrix product, where np.dot sums each "
            "product alone (random exploration, 2026-11-27)"),
]


def _unit_cotangent_draws(case, args):
    """The draws of a cotangent of ones for each inexact output (two for a complex one)."""
    draws = []
    for leaf in tree_flatten(case.funcgrad_fun()(*args))[0]:
        leaf = np.asarray(leaf)
        if leaf.dtype.kind in "fc":
            draws += [np.ones(leaf.shape, leaf.real.dtype)] * (2 if leaf.dtype.kind == "c" else 1)
    return draws


@pytest.mark.parametrize("regression", JIT_REGRESSIONS, ids=lambda r: r.name)
def test_jit_regression(regression):
    case = CASES_BY_NAME[regression.case]
    check_jit_case(case, Replay(((regression.args, {}),
                                 *_unit_cotangent_draws(case, regression.args))))


@pytest.mark.parametrize("regression", [r for r in REGRESSIONS if r.tiny],
                         ids=lambda r: r.name)
def test_strategies_no_longer_draw_the_found_values(regression):
    for value, dtype in regression.tiny:
        assert _flush_tiny(dtype)(value) == 0.0
        assert _flush_tiny(dtype)(-value) == 0.0


@pytest.mark.parametrize("regression", [r for r in REGRESSIONS if r.refused],
                         ids=lambda r: r.name)
def test_strategies_refuse_the_found_draws(regression):
    for accepts, draw in regression.refused:
        assert not accepts(draw)
