"""torch's random functions and Tensor methods on compat tensors.

Every function draws from a Generator (the default one unless ``generator=`` is given) in
the order PyTorch's CPU kernels do, so after the same seed compat and torch return the same
values. A kernel fills a tensor in the order its elements lie in memory; a new tensor is
row-major, except that ``*_like`` functions keep the layout of a dense input, as
torch.empty_like does.
"""
import math
import numbers
import warnings

import numpy as np


from .. import _device, _dtypes, _grad_mode, _ops
from .._factories import _dtype, _finish, _size
from .._inplace import initializer
from .._tensor import Tensor, make
from .._not_implemented import not_implemented
from ..autograd.function import Function
from . import continuous, counts, discrete
from .generator import generator_or_default

_VECTORISED_FROM = continuous.VECTOR_BLOCK


def _cpp(value):
    """A double as C++'s ostream prints it (6 significant digits, "-nan" for a NaN with its
    sign bit set), for PyTorch's messages."""
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    return f"{value:g}"


def _torch_name(dtype):
    return discrete.TORCH_NAMES[dtype.name]


def _not_implemented(kernel, dtype):
    return NotImplementedError(f'"{kernel}" not implemented for \'{_torch_name(dtype)}\'')


def _require_floating(array, kernel):
    if array.dtype.kind != "f":
        raise _not_implemented(kernel, array.dtype)


def _real_pairs(array):
    """A writable real view of complex `array` with a last axis of 2 (each element's real
    and imaginary parts): PyTorch's view_as_real, whose elements its kernels fill in the
    order they lie in memory."""
    parts = array.real
    return np.lib.stride_tricks.as_strided(parts, parts.shape + (2,),
                                           parts.strides + (parts.itemsize,))


def _as_complex(pairs, dtype):
    """The complex array of `dtype` whose parts are the last axis of `pairs`."""
    return np.ascontiguousarray(pairs).view(dtype)[..., 0]


def _check_no_out(out, name):
    if out is not None:
        raise TypeError(f"compat.{name}(): out= is not supported; assign the result instead")


def _shape(name, size, named):
    """The shape from ``f(2, 3)``, ``f((2, 3))`` or ``f(size=(2, 3))``."""
    unexpected = sorted(set(named) - {"size"})
    if unexpected:
        raise TypeError(f"{name}() got unexpected keyword arguments {unexpected}")
    if "size" in named:
        if size:
            raise TypeError(f"{name}(): the size is given twice, positionally and as size=")
        size = (named["size"],)
    if not size:
        raise TypeError(f"{name}() missing its size: {name}(2, 3) or {name}((2, 3))")
    return _size(size, name)


def _new(name, size, dtype, default, device, requires_grad, values_for):
    """A new row-major tensor of `size` (a shape) holding ``values_for(array)``."""
    _device.check(device)
    array = np.empty(size, _dtype(dtype, default).numpy)
    return _finish(values_for(array), requires_grad)


def _new_like(input, dtype, device, requires_grad, values_for):
    """A new tensor shaped and laid out like `input`, holding ``values_for(array)``."""
    _device.check(device)
    array = discrete.empty_like(input._data)
    if dtype is not None:
        array = np.empty_like(array, dtype=_dtypes.as_dtype(dtype).numpy, order="K")
    array[...] = values_for(array)
    return _finish(array, requires_grad)


def _sample(generator, name, draw):
    """``draw(source)`` on the generator given (or the default one), holding its lock: one
    operation's draws are consecutive, as under PyTorch's generator mutex."""
    source = generator_or_default(generator, name)
    with source.lock:
        return draw(source)


def _placed(target, flat):
    """The flat `values` (in the order a kernel writes `target`) as an array of target's
    shape: element i of memory goes where target keeps it."""
    if target.flags.c_contiguous:
        return flat.reshape(target.shape)
    values = np.empty(target.shape, flat.dtype)
    view = discrete.memory_order(target, values)
    view[...] = flat.reshape(view.shape)
    return values


# ---- values: each returns what a kernel would write into an ndarray ----------------------


def uniform_values(array, low=0.0, high=1.0, *, generator=None):
    if array.dtype.kind == "c":  # both parts of each element uniform in [low, high)
        return _as_complex(uniform_values(_real_pairs(array), low, high, generator=generator),
                           array.dtype)
    _require_floating(array, "check_uniform_bounds")
    low, high = float(low), float(high)
    lowest, highest = discrete.limits(array.dtype)
    name = discrete.CPP_NAMES[array.dtype.name]
    for value, label in ((low, "from"), (high, "to")):
        if not lowest <= value <= highest:
            raise RuntimeError(f"{label} is out of bounds for {name}")
    if not low <= high:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={_cpp(low)} > to={_cpp(high)}")
    if not high - low <= highest:
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<"
                           f"{_torch_name(array.dtype)}>::max(), but found to={_cpp(high)} "
                           f"and from={_cpp(low)} which result in to-from to exceed the limit")
    return _placed(array, _sample(generator, "uniform_", lambda source: continuous.uniform(
        source, array.size, array.dtype, low, high)))


def normal_values(array, mean=0.0, std=1.0, *, generator=None):
    mean, std = float(mean), float(std)
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_cpp(std)}")
    if array.size == 0:
        return array
    if array.dtype.kind == "c":  # both parts normal, with std / sqrt(2): a complex std of std
        return _as_complex(normal_values(_real_pairs(array), mean, std / math.sqrt(2),
                                         generator=generator), array.dtype)
    _require_floating(array, "normal_kernel_cpu")
    vectorised = array.size >= _VECTORISED_FROM and array.flags.c_contiguous
    return _placed(array, _sample(generator, "normal_", lambda source: continuous.normal(
        source, array.size, array.dtype, mean, std, vectorised)))


def random_values(array, *bounds, generator=None, **named):
    """random_(), random_(to), random_(from, to) and random_(from, None)."""
    low, high, full = _random_bounds(bounds, named)
    if array.dtype.kind == "c" and not full:
        raise RuntimeError("check_random_bounds handles only integral, floating-point and "
                           "boolean types")
    span = None if full else discrete.integer_range(array.dtype, low, high)
    if array.size == 0:
        return array
    if array.dtype.kind == "c":
        raise _not_implemented("random_kernel_cpu", array.dtype)
    if full:
        return _placed(array, _sample(generator, "random_", lambda source: (
            discrete.full_integers(source, array.size, array.dtype))))
    return _placed(array, _sample(generator, "random_", lambda source: discrete.integers(
        source, array.size, array.dtype, span)))


def _random_bounds(bounds, named):
    """(from, to, no bounds given) from random_'s positional and keyword arguments."""
    if len(bounds) > 2 or set(named) - {"from", "to"}:
        raise TypeError(f"random_() takes (from=0, to=None, *, generator=None), got "
                        f"{len(bounds)} positional arguments and {sorted(named)}")
    if not bounds and not named:
        return None, None, True
    if len(bounds) == 1 and "to" not in named and "from" not in named:
        low, high = 0, bounds[0]
    else:
        values = dict(zip(("from", "to"), bounds))
        values.update(named)
        low, high = values.get("from", 0), values.get("to")
    for value in (low, high):
        if value is not None and (isinstance(value, bool)
                                  or not isinstance(value, numbers.Integral)):
            raise TypeError(f"random_(): from and to must be integers, got "
                            f"{type(value).__name__}")
    return int(low), None if high is None else int(high), False


def exponential_values(array, lambd=1.0, *, generator=None):
    lambd = float(lambd)
    if not lambd > 0.0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda="
                           f"{_cpp(lambd)}")
    if array.size == 0:
        return array
    if array.dtype.kind != "f":
        raise RuntimeError(f"Exponential distribution is a continuous probability "
                           f"distribution. dtype must be a floating point but you specified "
                           f"{_torch_name(array.dtype)}")
    return _placed(array, _sample(generator, "exponential_", lambda source: (
        continuous.exponential(source, array.size, array.dtype, lambd))))


def cauchy_values(array, median=0.0, sigma=1.0, *, generator=None):
    median, sigma = float(median), float(sigma)
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_cpp(sigma)}")
    if array.size == 0:
        return array
    if array.dtype.kind != "f":
        raise RuntimeError(f"Cauchy distribution is a continuous probability distribution. "
                           f"dtype must be a floating point but you specified "
                           f"{discrete.CPP_NAMES[array.dtype.name]}")
    return _placed(array, _sample(generator, "cauchy_", lambda source: continuous.cauchy(
        source, array.size, array.dtype, median, sigma)))


def log_normal_values(array, mean=1.0, std=2.0, *, generator=None):
    mean, std = float(mean), float(std)
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_cpp(std)}")
    if array.size == 0:
        return array
    _require_floating(array, "log_normal_cpu")
    return _placed(array, _sample(generator, "log_normal_", lambda source: (
        continuous.log_normal(source, array.size, array.dtype, mean, std))))


def geometric_values(array, p, *, generator=None):
    p = float(p)
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_cpp(p)}")
    if array.size == 0:
        return array
    if array.dtype.kind in "bc":
        raise _not_implemented("geometric_cpu", array.dtype)
    draws = _sample(generator, "geometric_", lambda source: counts.geometric(
        source, array.size, p))
    values = (continuous.cast(draws, array.dtype) if array.dtype.kind == "f"
              else discrete.to_dtype(draws.astype(np.int64), array.dtype))
    return _placed(array, values)


def bernoulli_values(array, p=0.5, *, generator=None):
    """bernoulli_(p) for a float p or a tensor of probabilities broadcast to the array.
    A probability outside [0, 1] raises after the elements before it have drawn, as in
    PyTorch (which has also written those elements; here the tensor is left unchanged)."""
    if isinstance(p, Tensor):
        if array.size == 0:
            return array
        if array.dtype.kind == "c":
            raise _not_implemented("bernoulli_tensor_cpu_self_", array.dtype)
        probabilities = p._data
        if probabilities.dtype.kind != "f":
            raise _not_implemented("bernoulli_tensor_cpu_p_", probabilities.dtype)
        in_order = discrete.memory_order(array, _expanded(probabilities, array.shape))
        outcomes, error = _sample(generator, "bernoulli_", lambda source: (
            discrete.bernoulli_tensor(source, in_order.ravel())))
        if error is not None:
            raise error
    else:
        p = float(p)
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_cpp(p)}")
        if array.size == 0:
            return array
        if array.dtype.kind == "c":
            raise _not_implemented("bernoulli_scalar_cpu_", array.dtype)
        outcomes = _sample(generator, "bernoulli_", lambda source: (
            discrete.bernoulli_scalar(source, array.size, p)))
    return _placed(array, discrete.to_dtype(outcomes.astype(np.int64), array.dtype))


def _expanded(values, shape):
    """`values` broadcast to `shape` (PyTorch's expand, with its error)."""
    try:
        return np.broadcast_to(values, shape)
    except ValueError:
        source = values.shape
        offset = len(shape) - len(source)
        for dim in range(len(shape) - 1, -1, -1):
            have = source[dim - offset] if dim >= offset else 1
            if have != shape[dim] and have != 1:
                raise RuntimeError(
                    f"The expanded size of the tensor ({shape[dim]}) must match the existing "
                    f"size ({have}) at non-singleton dimension {dim}.  Target sizes: "
                    f"{list(shape)}.  Tensor sizes: {list(source)}") from None
        raise


# ---- torch functions -------------------------------------------------------------------


def rand(*size, generator=None, out=None, dtype=None, layout=None, device=None,
         requires_grad=False, pin_memory=False, **named):
    """Uniform samples in [0, 1), as torch.rand draws them."""
    _check_no_out(out, "rand")
    return _new("rand", _shape("rand", size, named), dtype, None, device, requires_grad,
                lambda array: uniform_values(array, generator=generator))


def randn(*size, generator=None, out=None, dtype=None, layout=None, device=None,
          requires_grad=False, pin_memory=False, **named):
    """Standard normal samples, as torch.randn draws them."""
    _check_no_out(out, "randn")
    return _new("randn", _shape("randn", size, named), dtype, None, device, requires_grad,
                lambda array: normal_values(array, generator=generator))


def randint(*args, size=None, low=None, high=None, generator=None, out=None, dtype=None,
            layout=None, device=None, requires_grad=False, pin_memory=False):
    """Integers drawn uniformly from [low, high): ``randint(high, size)`` or
    ``randint(low, high, size)`` (int64 unless `dtype` says otherwise)."""
    _check_no_out(out, "randint")
    low, high, size = _randint_arguments("randint", args, low, high, size)
    return _new("randint", _size((size,), "randint"), dtype, _dtypes.int64, device,
                requires_grad, lambda array: random_values(array, low, high,
                                                           generator=generator))


def _randint_arguments(name, args, low, high, size):
    given = list(args)
    if size is None and given and not isinstance(given[-1], numbers.Integral):
        size = given.pop()
    if len(given) == 2:
        low, high = given
    elif len(given) == 1:
        if high is None:
            high = given[0]
        else:
            low = given[0]
    elif given:
        raise TypeError(f"{name}() takes (low=0, high, size), got {len(args)} positional "
                        f"arguments")
    if high is None or (size is None and name == "randint"):
        raise TypeError(f"{name}() missing required arguments: high and size")
    low = 0 if low is None else low
    for value in (low, high):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name}(): low and high must be integers, got "
                            f"{type(value).__name__}")
    return int(low), int(high), size


def randperm(n, *, generator=None, out=None, dtype=None, layout=None, device=None,
             requires_grad=False, pin_memory=False):
    """A random permutation of 0, ..., n - 1, as torch.randperm shuffles it."""
    _check_no_out(out, "randperm")
    _device.check(device)
    d = _dtype(dtype, _dtypes.int64)
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"randperm(): argument 'n' must be int, not {type(n).__name__}")
    n = int(n)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    if d is _dtypes.bool or d.is_complex:
        raise _not_implemented("randperm", d.numpy)
    _check_permutation_size(n, d)
    values = _sample(generator, "randperm", lambda source: discrete.permutation(source, n))
    return _finish(discrete.to_dtype(values, d.numpy), requires_grad)


def _check_permutation_size(n, d):
    """PyTorch's limits on n for narrow result dtypes."""
    if d.is_floating_point:
        digits = discrete.DIGITS[d.name]
        if n > (1 << digits) + 1:
            names = {"float16": "Half", "float32": "Float", "float64": "Double"}
            raise RuntimeError(f"n cannot be greater than {(1 << digits) + 1} for "
                               f"{names[d.name]} type.")
    elif n > 0 and n - 1 > np.iinfo(d.numpy).max:
        ctype = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t",
                 "int32": "int32_t", "int64": "int64_t"}[d.name]
        raise RuntimeError(f"value cannot be converted to type {ctype} without overflow")


def rand_like(input, *, generator=None, dtype=None, layout=None, device=None,
              requires_grad=False, memory_format=None):
    _require_tensor(input, "rand_like")
    return _new_like(input, dtype, device, requires_grad,
                     lambda array: uniform_values(array, generator=generator))


def randn_like(input, *, generator=None, dtype=None, layout=None, device=None,
               requires_grad=False, memory_format=None):
    _require_tensor(input, "randn_like")
    return _new_like(input, dtype, device, requires_grad,
                     lambda array: normal_values(array, generator=generator))


def randint_like(input, *args, low=None, high=None, generator=None, dtype=None, layout=None,
                 device=None, requires_grad=False, memory_format=None):
    """``randint_like(input, high)`` or ``randint_like(input, low, high)``: integers in
    [low, high) in a tensor shaped like `input` (and of its dtype by default)."""
    _require_tensor(input, "randint_like")
    low, high, _ = _randint_arguments("randint_like", args, low, high, None)
    return _new_like(input, dtype, device, requires_grad,
                     lambda array: random_values(array, low, high, generator=generator))


def _require_tensor(value, name):
    if not isinstance(value, Tensor):
        raise TypeError(f"{name}(): argument 'input' must be Tensor, not "
                        f"{type(value).__name__}")


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None,
           device=None, requires_grad=False, pin_memory=False):
    """Normal samples with the given mean and standard deviation, as torch.normal draws them:
    ``normal(mean, std, size)`` for two numbers, or elementwise for tensors (broadcast)."""
    _check_no_out(out, "normal")
    mean_is_tensor, std_is_tensor = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not mean_is_tensor and not std_is_tensor:
        if size is None:
            raise TypeError("normal(): with a number mean and std, give the size: "
                            "normal(mean, std, size)")
        return _new("normal", _size((size,), "normal"), dtype, None, device, requires_grad,
                    lambda array: normal_values(array, mean, std, generator=generator))
    if size is not None:
        raise TypeError("normal(): size is only accepted with a number mean and std")
    if std_is_tensor and std._data.dtype.kind == "c":
        raise RuntimeError("normal expects standard deviation to be non-complex")
    if std_is_tensor and std._data.size and not std._data.min() >= 0:
        raise RuntimeError("normal expects all elements of std >= 0.0")
    # PyTorch draws into a tensor of mean's (else std's) dtype and scales and shifts it in
    # place. Its derivative is zero for both (torch.normal is not reparameterised).
    template = mean if mean_is_tensor else std
    shape = (_broadcast_shape(mean.shape, std.shape) if mean_is_tensor and std_is_tensor
             else template.shape)
    noise = np.empty(shape, template._data.dtype)
    with _grad_mode.no_grad():
        if not std_is_tensor:
            values = _ops.add(make(normal_values(noise, 0.0, std, generator=generator)), mean)
        else:
            scaled = _ops.mul(make(normal_values(noise, generator=generator)), std)
            values = _ops.add(_ops.to_dtype(scaled, template.dtype), mean)
    overload = _NORMAL_OVERLOADS[mean_is_tensor, std_is_tensor]
    return overload.apply(mean, std, values)


class _ZeroGradient(Function):
    """torch.normal with tensor arguments: the values computed outside, a zero gradient
    for each tensor argument."""

    @staticmethod
    def forward(ctx, mean, std, values):
        ctx.shapes = [argument.shape if isinstance(argument, Tensor) else None
                      for argument in (mean, std)]
        return values

    @staticmethod
    def backward(ctx, grad):
        return tuple(None if shape is None else _zeros(shape, grad)
                     for shape in ctx.shapes) + (None,)


def _zeros(shape, like):
    return make(np.zeros(shape, like.dtype.numpy))


def _named_node(name):
    """A _ZeroGradient whose node has PyTorch's name for that overload."""
    overload = type(name, (_ZeroGradient,), {})
    overload._primitive.name = name  # (a Function's node is otherwise named X + "Backward")
    return overload


_POISSON = _named_node("PoissonBackward0")
_BERNOULLI = _named_node("BernoulliBackward0")
_BERNOULLI_P = not_implemented("bernoulli")


_BINOMIAL = not_implemented("binomial")
_NORMAL_OVERLOADS = {(True, False): _named_node("NormalBackward1"),
                     (False, True): _named_node("NormalBackward2"),
                     (True, True): _named_node("NormalBackward3")}


def _broadcast_shape(a, b):
    try:
        return np.broadcast_shapes(a, b)
    except ValueError:
        for dim in range(1, max(len(a), len(b)) + 1):
            x = a[-dim] if dim <= len(a) else 1
            y = b[-dim] if dim <= len(b) else 1
            if x != y and 1 not in (x, y):
                raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor "
                                   f"b ({y}) at non-singleton dimension "
                                   f"{max(len(a), len(b)) - dim}") from None
        raise


def bernoulli(input, p=None, *, generator=None, out=None):
    """0/1 samples: ``bernoulli(probabilities)`` draws each element with its probability,
    ``bernoulli(input, p)`` with probability p; the result has input's shape and dtype."""
    _check_no_out(out, "bernoulli")
    _require_tensor(input, "bernoulli")
    if isinstance(p, Tensor):
        raise TypeError("bernoulli(): p must be a number; to draw with a tensor of "
                        "probabilities, pass it as the input")
    result = np.empty(input._data.shape, input._data.dtype)
    values = _finish(bernoulli_values(result, input if p is None else p, generator=generator),
                     False)
    # PyTorch's nodes: a zero derivative in the probabilities, none with a number p
    return _BERNOULLI.apply(input, None, values) if p is None else \
        _BERNOULLI_P.apply(input, values)


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """Indices sampled from the rows of `input` (weights), as torch.multinomial samples."""
    _check_no_out(out, "multinomial")
    _require_tensor(input, "multinomial")
    return make(_sample(generator, "multinomial", lambda source: discrete.multinomial(
        source, input._data, int(num_samples), bool(replacement))))


def poisson(input, generator=None):
    """Poisson counts with the rates in `input`, as torch.poisson draws them (a zero
    derivative, as in PyTorch). A NaN or infinite rate is refused: PyTorch's kernel never
    finishes on one."""
    _require_tensor(input, "poisson")
    rates = input._data
    if rates.dtype.kind != "f":
        raise _not_implemented("poisson_cpu", rates.dtype)
    if rates.size and not (rates >= 0).all():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    _refuse_infinite(rates, "poisson", "rate")
    # The result is a new row-major tensor, filled in its order.
    values = _sample(generator, "poisson", lambda source: counts.poisson(
        source, rates.ravel().astype(np.float64), rates.dtype))
    return _POISSON.apply(input, None, make(values.reshape(rates.shape)))


def binomial(count, prob, generator=None):
    """Binomial counts of successes in `count` trials of probability `prob` (broadcast),
    as torch.binomial draws them. A NaN or infinite argument is refused: PyTorch's kernel
    never finishes on one. Its derivative is not implemented, as in PyTorch."""
    _require_tensor(count, "binomial")
    _require_tensor(prob, "binomial")
    trials, chances = count._data, prob._data
    if trials.dtype.kind != "f":
        raise ValueError(f"binomial only supports floating-point dtypes for count, got: "
                         f"{_torch_name(trials.dtype)}")
    if chances.dtype != trials.dtype:
        raise RuntimeError(f"Found dtype {_torch_name(chances.dtype)} but expected "
                           f"{_torch_name(trials.dtype)}")
    if trials.dtype == np.float16:
        raise _not_implemented("binomial_cpu", trials.dtype)
    shape = _broadcast_shape(trials.shape, chances.shape)
    if shape != trials.shape and trials.size:
        # PyTorch's kernel writes into a result shaped like count, which it then resizes.
        warnings.warn(f"An output with one or more elements was resized since it had shape "
                      f"{list(trials.shape)}, which does not match the required output shape "
                      f"{list(shape)}. This behavior is deprecated, and in a future PyTorch "
                      f"release outputs will not be resized unless they have zero elements. "
                      f"You can explicitly reuse an out tensor t by resizing it, inplace, to "
                      f"zero elements with t.resize_(0).", UserWarning, stacklevel=2)
    for values, name in ((trials, "count"), (chances, "prob")):
        _refuse_infinite(values, "binomial", name)
    flat = [np.broadcast_to(values, shape).ravel() for values in (trials, chances)]
    result = _sample(generator, "binomial", lambda source: counts.binomial(
        source, *flat, trials.dtype)).reshape(shape)
    return _BINOMIAL.apply(count, prob, make(result))


def _refuse_infinite(values, name, argument):
    if not np.isfinite(values).all():
        raise RuntimeError(f"{name}(): every {argument} must be finite (PyTorch's CPU kernel "
                           f"does not return for a NaN or infinite {argument})")


# ---- Tensor methods --------------------------------------------------------------------


def install_tensor_methods():
    """Give Tensor uniform_, normal_, random_, exponential_, bernoulli_, cauchy_,
    log_normal_, geometric_, bernoulli and multinomial."""
    for name, values in (("uniform_", uniform_values), ("normal_", normal_values),
                         ("random_", random_values), ("exponential_", exponential_values),
                         ("bernoulli_", bernoulli_values), ("cauchy_", cauchy_values),
                         ("log_normal_", log_normal_values),
                         ("geometric_", geometric_values)):
        method = initializer(values)
        method.__name__ = name
        setattr(Tensor, name, method)
    Tensor.bernoulli = bernoulli
    Tensor.multinomial = multinomial
