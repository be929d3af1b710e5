"""compat.linspace against PyTorch's CPU kernel, bit for bit: every dtype, both halves (the
first counted up from start, the second down from end), steps of 0 and 1, infinite and NaN
ends; and the fused multiply-add it rests on against exact rational arithmetic."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from compat._fma import fused_multiply_add
from compat_harness import check

DTYPES = ["float16", "float32", "float64", "complex64", "complex128", "int64", "int32",
          "int16", "int8", "uint8"]
ENDS = st.one_of(st.floats(-1e4, 1e4, allow_nan=False).map(lambda v: round(v, 3)),
                 st.integers(-300, 300),
                 st.sampled_from([0.1, -np.pi, np.pi, 1 / 3, 65504.0, 1e30, float("inf"),
                                  float("nan")]))


@given(start=ENDS, end=ENDS, steps=st.one_of(st.integers(0, 70), st.integers(70, 5000)),
       dtype=st.sampled_from(DTYPES))
@example(start=-np.pi, end=np.pi, steps=2000, dtype="float32")  # PyTorch's polynomial tutorial
@example(start=0, end=1000, steps=7, dtype="float16")
@example(start=2.0, end=3.0, steps=1, dtype="float32")
def test_linspace_is_pytorchs_bit_for_bit(start, end, steps, dtype):
    if dtype[0] in "iu" and not (np.isfinite(start) and np.isfinite(end)):
        return  # PyTorch casts inf and nan to an integer type with undefined results
    if dtype == "uint8":
        start, end = abs(start) % 256, abs(end) % 256
    check(lambda torch: torch.linspace(start, end, steps, dtype=getattr(torch, dtype)),
          rtol=0, atol=0)


@given(start=st.complex_numbers(max_magnitude=1e4, allow_nan=False),
       end=st.complex_numbers(max_magnitude=1e4, allow_nan=False),
       steps=st.integers(0, 50), dtype=st.sampled_from(["complex64", "complex128"]))
def test_complex_linspace_is_pytorchs_bit_for_bit(start, end, steps, dtype):
    check(lambda torch: torch.linspace(start, end, steps, dtype=getattr(torch, dtype)),
          rtol=0, atol=0)


@pytest.mark.parametrize("expression", [
    "torch.linspace(0, 1, 3, dtype=torch.bool)", "torch.linspace(0, 1, -1)",
    "torch.linspace(torch.tensor(1.), torch.tensor(2.), 5)"])
def test_linspace_edges_match_torch(expression):
    check(lambda torch: eval(expression, {"torch": torch}), rtol=0, atol=0, messages=True)


def _rounded(exact, dtype):
    """The rational `exact` rounded to nearest `dtype`, ties to even."""
    guess = dtype(float(exact))  # float() rounds correctly to float64; float32 may be off by one
    neighbours = [np.nextafter(guess, dtype(-np.inf)), guess, np.nextafter(guess, dtype(np.inf))]
    return min(neighbours, key=lambda v: (abs(Fraction(float(v)) - exact),
                                          int(np.array(v).view(f"i{v.itemsize}")) & 1))


def _normal_floats(dtype):
    """Floats whose products neither overflow nor reach the subnormals."""
    half_range = 2.0 ** (np.finfo(dtype).maxexp // 2 - 1)
    width = 32 if dtype is np.float32 else 64
    return st.floats(-half_range, half_range, width=width).filter(
        lambda v: v == 0 or abs(v) >= 1 / half_range)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@given(data=st.data())
def test_fused_multiply_add_rounds_once(dtype, data):
    a, b, c = (data.draw(st.lists(_normal_floats(dtype), min_size=8, max_size=8))
               for _ in range(3))
    # Cancellation (c near -a*b) is where one rounding and two differ most.
    c = [ci if i % 2 else -float(dtype(ai) * dtype(bi)) for i, (ai, bi, ci) in
         enumerate(zip(a, b, c))]
    a, b, c = (np.array(v, dtype) for v in (a, b, c))
    got = fused_multiply_add(a, b, c)
    for ai, bi, ci, gi in zip(a, b, c, got):
        exact = Fraction(float(ai)) * Fraction(float(bi)) + Fraction(float(ci))
        assert gi == _rounded(exact, dtype), (ai, bi, ci)
