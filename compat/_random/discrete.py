"""Integers, Bernoulli trials, permutations and categorical samples, drawn as PyTorch's CPU
kernels draw them (the checks raise PyTorch's messages)."""
import warnings

import numpy as np

from .continuous import exponential, standard_float32, standard_float64
from .shuffle import forward_shuffle, inside_out_shuffle
from .topk_order import topk_indices

_f16, _f32, _f64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
_bool = np.dtype(np.bool_)
_u64 = np.uint64

# The C++ type names PyTorch's range errors print, and float mantissa digits.
CPP_NAMES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "bool": "bool", "float64": "double", "float32": "float",
              "float16": "c10::Half", "complex64": "c10::complex<float>",
              "complex128": "c10::complex<double>"}
DIGITS = {"float64": 53, "float32": 24, "float16": 11}
# ... and the scalar type names its other messages print.
TORCH_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char",
                "uint8": "Byte", "bool": "Bool", "float64": "Double", "float32": "Float",
                "float16": "Half", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}
_WIDE_RANGE = 2 ** 28  # from here on a draw takes 64 bits, to keep the modulo's skew small
PERMUTATION_SWITCH = (2**32 - 1) // 20  # randperm's inside-out shuffle from this n on


def limits(dtype):
    if dtype == _bool:
        return 0, 1
    if dtype.kind == "f":
        info = np.finfo(dtype)
        return float(info.min), float(info.max)
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


def _as_float(value, dtype):
    """The integer `value` converted to the float `dtype` and back to int64, as C++ casts do
    on x86 (a float beyond int64's range comes back as -2**63)."""
    if not -2**63 <= value < 2**63:
        return value  # outside int64 PyTorch's arithmetic is undefined; leave it
    rounded = float(to_dtype(np.array([value], np.int64), dtype)[0])
    return int(rounded) if -2.0**63 <= rounded < 2.0**63 else -2**63


def _representable_from(low, dtype):
    """PyTorch's update_from: raise `low` to the first integer the float dtype keeps."""
    rounded = _as_float(low + 1, dtype)
    if rounded < low:
        low = rounded + (1 << ((abs(low + 1).bit_length() - 1) - DIGITS[dtype.name] + 1))
    return low


def _representable_to(high, dtype):
    """PyTorch's update_to: lower `high` to the last integer the float dtype keeps."""
    rounded = _as_float(high - 1, dtype)
    if rounded >= high:
        high = rounded - (1 << ((abs(high - 1).bit_length() - 1) - DIGITS[dtype.name] + 1))
    return high


def _check_bounds(low, high_inclusive, dtype):
    name = CPP_NAMES[dtype.name]
    lowest, highest = limits(dtype)
    for value, label in ((low, "from"), (high_inclusive, "to - 1")):
        if not lowest <= value <= highest:
            raise RuntimeError(f"{label} is out of bounds for {name}")
    if dtype.kind == "f":
        digits = DIGITS[dtype.name]
        for value, label in ((low, "from"), (high_inclusive, "to - 1")):
            if not -(1 << digits) <= value <= 1 << digits:
                warnings.warn(
                    f"{label} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                    f"limitations {name} can support discrete uniform distribution only within "
                    f"this range. This warning will become an error in version 1.7 release, "
                    f"please fix the code in advance", UserWarning, stacklevel=4)


def integer_range(dtype, low, high):
    """random_(low, high)'s (range, base) for a tensor of `dtype` (high None: up to the
    dtype's largest value), or None for the full 64-bit range (low = -2**63, high None)."""
    dtype = np.dtype(dtype)
    floating = dtype.kind == "f"
    if high is not None:
        if low >= high:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got "
                               f"from={low} >= to={high}")
        if floating:
            low = _representable_from(low, dtype)
            high = _representable_to(high, dtype)
            if low >= high:
                raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than "
                                   f"'to' casted to dtype, but got from={low} >= to={high}")
        _check_bounds(low, high - 1, dtype)
        return high - low, low
    if low == -2**63:
        if dtype.name not in ("int64", "float64", "float32"):
            raise RuntimeError("random_full_64_bits_range_kernel_cpu handles only int64, "
                               "double, float and bfloat16")
        return None
    if floating:
        high_inclusive = 1 << DIGITS[dtype.name]
        low = _representable_from(low, dtype)
        if low >= high_inclusive:
            raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than or "
                               f"equal to 'to_inc' casted to dtype, but got from={low} > "
                               f"to_inc={high_inclusive}")
    else:
        high_inclusive = limits(dtype)[1]
    _check_bounds(low, high_inclusive, dtype)
    return high_inclusive - low + 1, low


def integers(generator, count, dtype, span):
    """`count` values of random_(from, to) given integer_range's `span`: (draw % range) +
    from, with 32-bit draws for ranges below 2**28 and 64-bit draws above; None: every
    64-bit value, as int64."""
    dtype = np.dtype(dtype)
    if span is None:
        return to_dtype(generator.words64(count).view(np.int64), dtype)
    size, base = span
    draws = generator.words64(count) if size >= _WIDE_RANGE else generator.words(count)
    offsets = draws % _u64(size)
    # uint64 arithmetic wraps as C++'s does; the sum is read back as int64.
    return to_dtype((offsets + _u64(base % 2**64)).view(np.int64), dtype)


def full_integers(generator, count, dtype):
    """random_() without bounds: [0, 2**mantissa] for floats, [0, max] for integers, and
    the lowest bit of a draw for bool."""
    dtype = np.dtype(dtype)
    if dtype == _bool:
        return (generator.words(count) & _u64(1)).astype(_bool)
    wide = dtype.name in ("int64", "float64")
    draws = generator.words64(count) if wide else generator.words(count)
    if dtype.kind == "f":
        modulus = (1 << DIGITS[dtype.name]) + 1
    else:
        modulus = int(np.iinfo(dtype).max) + 1
    return to_dtype((draws % _u64(modulus)).view(np.int64), dtype)


def to_dtype(values, dtype):
    """int64 values as `dtype` (C++'s static_cast: wrap for narrow ints, round for floats)."""
    if dtype == _bool:
        return values != 0
    with np.errstate(over="ignore"):  # beyond float16's range is inf, as in C++
        if dtype == _f16:
            return values.astype(_f32).astype(_f16)
        return values.astype(dtype)


def bernoulli_scalar(generator, count, p):
    """bernoulli_(p) for a float p: u < p with a double uniform u for each element."""
    return standard_float64(generator, count) < p


def bernoulli_tensor(generator, probabilities):
    """bernoulli_(p) for p values in the kernel's order: a double p is compared with a
    double uniform, any other float p with a float32 uniform. A p outside [0, 1] raises
    PyTorch's error after the earlier elements have drawn (as in PyTorch); returns the
    outcomes drawn so far and the error (None when every p was valid)."""
    valid = (probabilities >= 0) & (probabilities <= 1)
    drawn = int(np.argmin(valid)) if not valid.all() else probabilities.size
    if probabilities.dtype == _f64:
        outcomes = standard_float64(generator, drawn) < probabilities[:drawn]
    else:
        outcomes = standard_float32(generator, drawn) < probabilities[:drawn].astype(_f32)
    error = None if drawn == probabilities.size else RuntimeError(
        "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
        "message be improved?  If so, please report an enhancement request to PyTorch.)")
    return outcomes, error


def permutation(generator, n):
    """randperm(n) as int64: PyTorch's Fisher-Yates with 32-bit draws taken modulo n - i,
    or for n >= 214748364 its inside-out variant with 64-bit draws modulo i + 1."""
    if n < PERMUTATION_SWITCH:
        if n <= 1:
            return np.arange(n, dtype=np.int64)
        offsets = generator.words(n - 1) % np.arange(n, 1, -1, dtype=_u64)
        return forward_shuffle(offsets.astype(np.int64))
    choices = generator.words64(n) % np.arange(1, n + 1, dtype=_u64)
    return inside_out_shuffle(choices.astype(np.int64))


def multinomial(generator, probabilities, samples, replacement):
    """multinomial(probabilities, samples, replacement) for an ndarray of probabilities
    (rows of categories, any strides): int64 category indices."""
    if not 1 <= probabilities.ndim <= 2:
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if probabilities.dtype.kind != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{TORCH_NAMES[probabilities.dtype.name]}")
    if samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    categories = probabilities.shape[-1]
    if not replacement and samples > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    if categories > 2**24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    rows = probabilities.reshape(1, -1) if probabilities.ndim == 1 else probabilities
    shape = (samples,) if probabilities.ndim == 1 else (rows.shape[0], samples)
    if rows.shape[0] == 0:
        return np.empty(shape, np.int64)
    if categories == 0:
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    if not replacement or samples == 1:
        return _multinomial_by_exponential_race(generator, probabilities, samples).reshape(
            shape)
    return _multinomial_by_inversion(generator, rows, samples).reshape(shape)


def _multinomial_by_exponential_race(generator, probabilities, samples):
    """PyTorch's no-replacement path: p / E with E ~ Exp(1) drawn in p's memory order,
    then the largest `samples` ratios of each row (argmax for one)."""
    with np.errstate(invalid="ignore"):
        valid = bool((probabilities.max() < np.inf) & (probabilities.min() >= 0))
    if not valid:
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    rows = probabilities.reshape(-1, probabilities.shape[-1])
    if (rows.sum(axis=1, dtype=probabilities.dtype) == 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    race = empty_like(probabilities)
    fill_in_memory_order(race, exponential(generator, race.size, race.dtype, 1.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = (probabilities / race).reshape(-1, probabilities.shape[-1])
    if samples == 1:
        return np.argmax(ratios, axis=1).reshape(-1, 1)
    return largest_indices(ratios, samples)


def largest_indices(rows, count):
    """The indices of the `count` largest values of each row, largest first (NaN counts as
    the largest), in the order torch.topk returns them, ties included."""
    nan = np.isnan(rows)
    positions = np.broadcast_to(np.arange(rows.shape[1]), rows.shape)
    order = np.lexsort((positions, -np.where(nan, np.inf, rows), ~nan), axis=1)
    ranked = np.take_along_axis(rows, order, 1)[:, :count + 1]
    ranked_nan = np.isnan(ranked)
    tied = (ranked[:, 1:] == ranked[:, :-1]) | (ranked_nan[:, 1:] & ranked_nan[:, :-1])
    result = order[:, :count].copy()
    for row in np.flatnonzero(tied.any(axis=1)):
        result[row] = topk_indices(rows[row], count)
    return result


def _multinomial_by_inversion(generator, rows, samples):
    """PyTorch's with-replacement path: per row, the running sum of p in p's dtype (float32
    for float16), divided by the total, searched for double uniforms drawn row by row."""
    accumulate = _f32 if rows.dtype == _f16 else rows.dtype
    values = rows.astype(accumulate)
    # PyTorch checks each row before drawing its samples: a bad row raises after the
    # earlier rows have drawn.
    negative = ~(values >= 0)
    infinite = ~negative & ~np.isfinite(values)
    cumulative = np.cumsum(values, axis=1, dtype=accumulate)
    totals = cumulative[:, -1]
    for row in range(rows.shape[0]):
        first_bad = np.flatnonzero(negative[row] | infinite[row])
        problem = None
        if first_bad.size:
            problem = ("invalid multinomial distribution (encountering probability entry < 0)"
                       if negative[row, first_bad[0]] else
                       "invalid multinomial distribution (encountering probability entry = "
                       "infinity or NaN)")
        elif not totals[row] > 0:
            problem = "invalid multinomial distribution (sum of probabilities <= 0)"
        if problem:
            generator.words64(row * samples)
            raise RuntimeError(problem)
    cumulative = cumulative / totals[:, None]
    cumulative[:, -1] = 1
    uniforms = standard_float64(generator, rows.shape[0] * samples).reshape(-1, samples)
    return np.stack([np.searchsorted(c.astype(_f64), u, side="left")
                     for c, u in zip(cumulative, uniforms)]).astype(np.int64)


def memory_order(array, follower=None):
    """A view of `array` whose C order is the order of its elements in memory (PyTorch's
    TensorIterator visits a tensor's elements so), or that view's axes applied to
    `follower`, an array of the same shape."""
    axes = sorted(range(array.ndim), key=lambda axis: -abs(array.strides[axis]))
    flips = tuple(slice(None, None, -1) if array.strides[axis] < 0 else slice(None)
                  for axis in axes)
    return (array if follower is None else follower).transpose(axes)[flips]


def fill_in_memory_order(array, values):
    """Write the flat `values` into `array` in the order its elements lie in memory."""
    view = memory_order(array)
    view[...] = values.reshape(view.shape)


def empty_like(array):
    """An uninitialised array laid out as torch.empty_like lays out a copy of `array`: with
    its strides when its elements fill their memory without gaps, else row-major."""
    view = memory_order(array)
    dense = np.empty(view.shape, array.dtype)
    if view.strides != dense.strides:
        return np.empty(array.shape, array.dtype)
    return np.empty_like(array, order="K")

