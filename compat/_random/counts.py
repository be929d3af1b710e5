"""Counts drawn as PyTorch's CPU kernels draw them: geometric_, torch.poisson, torch.binomial.

* geometric: ``ceil(log(u) / log1p(-p))`` in double from one double uniform per element.
* poisson (one element after another, each using as many double uniforms as it needs):
  rates below 10 multiply uniforms until the product falls to exp(-rate) or below (Knuth);
  rates of 10 and more use Hoermann's transformed rejection (PTRS, 1993), two uniforms a
  try.
* binomial: counts with ``count * p < 10`` add up geometric gaps until they pass the count
  (inversion); larger ones use Hoermann's BTRS rejection with a Stirling-series bound;
  p > 0.5 draws the count of failures. A float32 tensor's count and p stay float32 where
  the kernel computes in float (its scalar type) and go to double where it does.
"""
import math

import numpy as np

from .continuous import cast, standard_float64
from .exact import libm

_f32 = np.float32
_BLOCK = 256  # uniforms drawn ahead at a time by a _UniformStream


class _UniformStream:
    """Double uniforms handed out one at a time, for samplers whose number of draws depends
    on the values drawn. They are drawn ahead in blocks from a copy of the generator;
    `finish` then advances the generator itself by exactly the draws used."""

    def __init__(self, generator):
        self._generator = generator
        self._ahead = generator.clone_state()
        self._values, self._next, self.used = [], 0, 0

    def __call__(self):
        if self._next == len(self._values):
            self._values, self._next = standard_float64(self._ahead, _BLOCK).tolist(), 0
        value = self._values[self._next]
        self._next += 1
        self.used += 1
        return value

    def finish(self):
        self._generator.words64(self.used)


def geometric(generator, count, p):
    """geometric_(p) as int64-valued doubles (the caller casts to the tensor's dtype)."""
    return np.ceil(libm(math.log, standard_float64(generator, count)) / math.log1p(-p))


def _each(generator, arguments, sample):
    """``sample(uniform, *row)`` for each row of `arguments`, in order, from one stream."""
    uniform = _UniformStream(generator)
    values = [sample(uniform, *row) for row in zip(*(a.tolist() for a in arguments))]
    uniform.finish()
    return np.array(values, np.float64)


def poisson(generator, rates, dtype):
    """torch.poisson of the flat float64 `rates` (non-negative and finite)."""
    return cast(_each(generator, (rates,), _poisson), dtype)


def _poisson(uniform, rate):
    if rate >= 10:
        return _poisson_rejection(uniform, rate)
    if rate == 0:
        return 0
    threshold, product, k = math.exp(-rate), 1.0, 0
    while True:
        product *= uniform()
        if product <= threshold:
            return k
        k += 1


def _poisson_rejection(uniform, rate):
    root, log_rate = math.sqrt(rate), math.log(rate)
    b = 0.931 + 2.53 * root
    a = -0.059 + 0.02483 * b
    inverse_alpha = 1.1239 + 1.1328 / (b - 3.4)
    v_r = 0.9277 - 3.6224 / (b - 2)
    while True:
        u = uniform() - 0.5
        v = uniform()
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + rate + 0.43)
        if us >= 0.07 and v <= v_r:
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        if (math.log(v) + math.log(inverse_alpha) - math.log(a / (us * us) + b)
                <= -rate + k * log_rate - math.lgamma(k + 1.0)):
            return k


def binomial(generator, counts, probabilities, dtype):
    """torch.binomial of flat `counts` and `probabilities` of `dtype` (float32 or float64;
    finite)."""
    scalar = _f32 if dtype == np.float32 else float
    return cast(_each(generator, (counts, probabilities),
                      lambda uniform, n, p: _binomial(uniform, scalar(n), scalar(p), scalar)),
                dtype)


def _binomial(uniform, n, p, scalar):
    if n <= 0 or p <= 0:
        return 0.0
    if p >= 1:
        return float(n)
    if p <= 0.5:
        return _successes(uniform, n, p, scalar)
    return float(n - scalar(_successes(uniform, n, scalar(1 - p), scalar)))


def _successes(uniform, n, p, scalar):
    if n * p >= 10:
        return _btrs(uniform, n, p, scalar)
    log_q = float(scalar(math.log1p(-float(p))))  # log1p in the scalar type
    total, k = 0.0, 0
    while True:
        total += math.ceil(math.log(uniform()) / log_q)
        if total > n:
            return float(k)
        k += 1


def _btrs(uniform, n, p, scalar):
    """Hoermann's BTRS for n * p >= 10, p <= 1/2."""
    spread = float(scalar(math.sqrt(float(n * p * (1 - p)))))
    b = 1.15 + 2.53 * spread
    a = -0.0873 + 0.0248 * b + 0.01 * float(p)
    c = float(n * p) + 0.5
    v_r = 0.92 - 4.2 / b
    odds = float(p / (1 - p))
    alpha = (2.83 + 5.1 / b) * spread
    mode = math.floor(float((n + 1) * p))
    n = float(n)
    while True:
        u = uniform() - 0.5
        v = uniform()
        us = 0.5 - abs(u)
        k = float(scalar(math.floor((2 * a / us + b) * u + c)))
        if k < 0 or k > n:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        log_v = math.log(v * alpha / (a / (us * us) + b))
        bound = ((mode + 0.5) * math.log((mode + 1) / (odds * (n - mode + 1)))
                 + (n + 1) * math.log((n - mode + 1) / (n - k + 1))
                 + (k + 0.5) * math.log(odds * (n - k + 1) / (k + 1))
                 + _stirling_tail(mode) + _stirling_tail(n - mode)
                 - _stirling_tail(k) - _stirling_tail(n - k))
        if log_v <= bound:
            return k


def _stirling_tail(k):
    """log(k!) less Stirling's approximation of it: exact below 10, the series above."""
    if k <= 9:
        return (math.lgamma(k + 1) - (k + 0.5) * math.log(k + 1) + (k + 1)
                - 0.5 * math.log(2 * math.pi))
    square = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / square) / square) / (k + 1)
