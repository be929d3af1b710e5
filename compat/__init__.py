"""compat: PyTorch's stateful autograd API (Tensor, Variable, backward, .grad,
autograd.Function) on funcgrad's engine.

Scripts written for PyTorch run with their imports changed::

    import compat as torch
    from compat.autograd import Variable

Every operation is computed with funcgrad.numpy on the tensors' boxes of funcgrad's eager
tape (funcgrad.core.eager), so derivatives come from funcgrad's registered VJP rules.
Tensors are float32 by default and follow PyTorch's type promotion, printing and errors.
"""
import math as _math
import os as _os

from funcgrad import debug as _debug

from . import _dtypes, _graph, _methods  # noqa: F401 -- _methods installs Tensor's methods
from . import (accelerator, autograd, backends, cuda, distributions, fft, func, linalg, nn,
               optim, random, special, testing, utils)
from ._defaults import (get_default_device, get_device, set_default_device,
                        set_default_tensor_type)
from ._device import device
from ._dtypes import (bfloat16, bool, complex64, complex128, dtype, float16, float32, float64,
                      get_default_dtype, int8, int16, int32, int64, promote_types,
                      set_default_dtype, uint8)
from ._factories import (BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor, HalfTensor,
                         IntTensor, LongTensor, ShortTensor, arange, as_tensor, asarray, empty,
                         empty_like, empty_strided, eye, from_numpy, full, full_like, linspace,
                         ones, ones_like, scalar_tensor, tensor, zeros, zeros_like)
from ._grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference,
                         is_inference_mode_enabled, no_grad, set_grad_enabled)
from ._info import finfo, iinfo
from ._interchange import from_dlpack, frombuffer
from ._interchange import install_tensor_methods as _install_interchange_methods
from .autograd.anomaly import is_anomaly_enabled
from ._inplace import fill, fill_, zero_
from ._ops import (abs, add, all, allclose, amax, amin, any, argmax, argmin, bitwise_and,
                   bitwise_left_shift, bitwise_not, bitwise_or, bitwise_right_shift, bitwise_xor,
                   bmm, broadcast_shapes, cat, clamp, clamp_max, clamp_min, clone, concat,
                   concatenate, conj, conj_physical, cos, cumsum, div, dot, eq, equal, exp,
                   flatten, floor_divide, ge, gt, isnan, le, log, log_softmax, logical_not, lt,
                   masked_fill, matmul, max, maximum, mean, min, minimum, mm, mul, mv, ne, neg,
                   norm, positive, permute, pow, prod, reciprocal, relu, remainder, reshape, rsub,
                   sigmoid, sin, softmax, sqrt, square, squeeze, stack, std, sub, sum, t, tanh,
                   transpose, unsqueeze, var, where)
from ._histogramdd import histogramdd
from ._householder import geqrf
from ._legacy_linalg_api import eig, lstsq, lu, matrix_rank, solve, svd, symeig
from ._legacy_linalg_api import install_tensor_methods as _install_legacy_linalg_methods
from ._memory_formats import (channels_last, channels_last_3d, contiguous_format, layout,
                              memory_format, preserve_format, strided)
from ._methods import adjoint
from ._native_functions import (gru_cell, lstm_cell, native_batch_norm, native_dropout,
                                native_layer_norm, rnn_relu_cell, rnn_tanh_cell)
from ._pieces import (chunk, dsplit, hsplit, split, split_with_sizes, tensor_split, unbind,
                      unsafe_chunk, unsafe_split, unsafe_split_with_sizes, vsplit)
from ._printing import get_printoptions, set_printoptions
from ._random import (Generator, bernoulli, binomial, default_generator, get_rng_state,
                      initial_seed, manual_seed, multinomial, normal, poisson, rand, rand_like,
                      randint, randint_like, randn, randn_like, randperm, seed, set_rng_state)
from ._record import result_type
from ._runtime import (are_deterministic_algorithms_enabled, get_float32_matmul_precision,
                       get_num_interop_threads, get_num_threads,
                       is_deterministic_algorithms_warn_only_enabled, is_warn_always_enabled,
                       set_float32_matmul_precision, set_flush_denormal,
                       set_num_interop_threads, set_num_threads, set_warn_always,
                       use_deterministic_algorithms)
from ._serialization import load, save
from ._strided import as_strided, as_strided_scatter
from ._tensor import Size, Tensor, typename
from ._tensor import require_tensor as _require_tensor
from ._view_copies import (alias_copy, as_strided_copy, detach_copy, diagonal_copy,
                           expand_copy, permute_copy, select_copy, slice_copy, split_copy,
                           split_with_sizes_copy, squeeze_copy, t_copy, transpose_copy,
                           unbind_copy, unfold_copy, unsqueeze_copy, view_as_complex_copy,
                           view_as_real_copy, view_copy)
from . import _functional_names
from ._torch_names import namespace as _namespace
from ._windows import (bartlett_window, blackman_window, hamming_window, hann_window,
                       kaiser_window, logspace)
from ._windows import range  # noqa: A004 -- torch.range

globals().update(_namespace(""))  # the table's torch functions: einsum, gather, topk, ...
globals().update(_functional_names.functions())  # torch.conv2d, torch.dropout, torch.sin_, ...
_functional_names.install_tensor_methods()
_install_legacy_linalg_methods()
_install_interchange_methods()

float = float32  # noqa: A001 -- torch's aliases
double = float64
half = float16
long = int64
int = int32  # noqa: A001
short = int16
cfloat = complex64
cdouble = complex128

pi = _math.pi
e = _math.e
inf = _math.inf
nan = _math.nan
newaxis = None

clip = clamp
multiply = mul
divide = div
true_divide = div
subtract = sub
negative = neg
absolute = abs


def can_cast(from_, to):
    """Whether PyTorch's casting rules allow an in-place result of dtype `from_` to be
    written into a tensor of dtype `to` (not from floating to integer, nor to bool)."""
    return _dtypes.can_cast(from_, to)


def is_tensor(obj):
    """True if `obj` is a compat Tensor."""
    return isinstance(obj, Tensor)


def is_floating_point(input):
    return input.dtype.is_floating_point


def is_complex(input):
    return input.dtype.is_complex


def is_nonzero(input):
    return input.is_nonzero()


def is_conj(input):
    return input.is_conj()


def is_neg(input):
    return input.is_neg()


def is_signed(input):
    return input.is_signed()


def resolve_conj(input):
    return input.resolve_conj()


def resolve_neg(input):
    return input.resolve_neg()


def is_same_size(input, other):
    _require_tensor(other, "is_same_size", "other", 2)
    return input.is_same_size(other)


def detach(input):
    return input.detach()


def is_storage(obj):
    """False: compat has no storage objects (a tensor's memory is its NumPy array)."""
    return False


def numel(input):
    return input.numel()


# Lines recorded for anomaly detection and errors are the user's, not compat's own.
_debug.register_internal_path(_os.path.dirname(_os.path.abspath(__file__)))

__version__ = "0.1.0"
