"""Every primitive under vmap, against jax.vmap: values and per-example gradients, with the
batch at every position of some of the arguments and out_axes 0 or -1."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from funcgrad.core import BatchingFallbackWarning
from oracle import check_case_against_loop, check_case_batched
from test_oracle import CASES

# Cases whose result's shape or dtype, or the code that computes it, depends on the
# values: vmap gives what a loop over the batch gives, or raises an error naming vmap.
# JAX cannot vmap bincount without length=, trim_zeros or roots with strip_zeros; poly's
# dtype is real for conjugate pairs (as NumPy's); funcgrad's lstsq (and polyfit on it)
# picks its equations by the rank. The set operations' lengths depend on how the batch's
# (scaled) elements meet the other, unbatched, argument.
VALUE_DEPENDENT = {"bincount_counts", "trim_zeros", "linalg_lstsq", "polynomial_poly",
                   "polynomial_roots", "polynomial_polyfit_vander", "intersect1d",
                   "union1d", "setdiff1d", "setxor1d"}
# Cases compared with a loop over the batch rather than with jax.vmap: the value-dependent
# ones; schur, whose JAX transcription orders its eigenvalues by SciPy's diagonal, an
# argument that the batch's permutations do not keep in step with the matrix; and
# Riemann's zeta, whose oracle is mpmath's, no JAX function.
COMPARED_WITH_A_LOOP = VALUE_DEPENDENT | {"scipy_linalg_schur", "special.riemann_zeta"}

# Cases whose arguments' entries must stay where they are (see oracle._BATCH_ELEMENTS).
# polydiv: the divisor's leading coefficient is non-zero; solve_banded: the diagonal
# (dominant) is row u of the band storage; lu of a wide matrix: its leading square block
# is invertible (flipped, [[5, 0, 0, 0], [0, 5, 0, 0]] has a zero first column, where lu
# has no derivative: funcgrad raises, JAX gives inf and NaN).
KEEP_POSITIONS = {"polynomial_polydiv", "scipy_linalg_solve_banded",
                  "scipy_linalg_lu_rectangular"}

# Cases whose per-example gradient differs from JAX's, and why.
GRADIENT_DIFFERS = {
    "piecewise": "with conditions that differ per element, every function is evaluated on "
                 "the whole input and the results chosen with where, so the gradient is NaN "
                 "where an unchosen function is undefined (JAX's piecewise is a switch, "
                 "which it can batch after differentiating); values agree",
}


def check(case, data):
    # Cases draw the ends of their domains on purpose (reciprocal(0), log(0), empty
    # slices): NumPy's warnings are expected, and test_oracle.py already shows them.
    # Functions that read values without a rule of their own (digitize, nonzero, ...) run
    # once per element and say so; that is expected here too.
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore",
                                                over="ignore"):
        warnings.simplefilter("ignore", BatchingFallbackWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        # JAX's own, about its oracle's .at[] updates of float32 arrays by float64 values.
        warnings.filterwarnings("ignore", "scatter inputs have incompatible types",
                                FutureWarning)
        if case.name in COMPARED_WITH_A_LOOP:
            check_case_against_loop(case, data)
        else:
            check_case_batched(case, data, with_grad=case.name not in GRADIENT_DIFFERS,
                               keep_positions=case.name in KEEP_POSITIONS)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
@settings(max_examples=2)
@given(data=st.data())
def test_vmap_matches_jax(case, data):
    check(case, data)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
@settings(max_examples=60)
@given(data=st.data())
def test_vmap_matches_jax_thoroughly(case, data):
    check(case, data)
