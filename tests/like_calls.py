"""Calls of every funcgrad.numpy function that takes no array and accepts ``like=``: the
creation functions and the samplers of funcgrad.numpy.random, each as a function of
``like`` (None: NumPy), for the tests of each array library (tests/test_arrays_*.py)."""
import io

import numpy as np

import funcgrad.numpy as fnp

CREATION = {
    "array": lambda like: fnp.array([[1.0, 2.0]], like=like),
    "asarray": lambda like: fnp.asarray([1, 2], like=like),
    "asanyarray": lambda like: fnp.asanyarray([1.0, 2.0], dtype=np.float32, like=like),
    "ascontiguousarray": lambda like: fnp.ascontiguousarray(3.0, like=like),
    "asfortranarray": lambda like: fnp.asfortranarray([[1.0, 2.0], [3.0, 4.0]], like=like),
    "zeros": lambda like: fnp.zeros((2, 3), like=like),
    "ones": lambda like: fnp.ones(3, dtype=int, like=like),
    "empty": lambda like: fnp.empty(3, like=like),  # (its values are not compared)
    "full": lambda like: fnp.full((2, 2), 7.5, like=like),
    "arange": lambda like: fnp.arange(1.0, 4.0, 0.5, like=like),
    "eye": lambda like: fnp.eye(3, 4, k=1, dtype=np.int32, like=like),
    "eye_square": lambda like: fnp.eye(3, like=like),
    "identity": lambda like: fnp.identity(3, like=like),
    "tri": lambda like: fnp.tri(3, 2, -1, like=like),
    "frombuffer": lambda like: fnp.frombuffer(np.arange(3.0).tobytes(), like=like),
    "fromiter": lambda like: fnp.fromiter(range(4), float, like=like),
    "fromstring": lambda like: fnp.fromstring("1 2 3", sep=" ", like=like),
    "loadtxt": lambda like: fnp.loadtxt(io.StringIO("1 2\n3 4"), like=like),
    "genfromtxt": lambda like: fnp.genfromtxt(io.StringIO("1 2\n3 4"), like=like),
}
UNCOMPARED = {"empty"}

# Each sampler of funcgrad.numpy.random: (args, kwargs) whose sample is 2x3 (the shape of
# the `like` the tests pass) where the function lets the caller choose.
SAMPLERS = {
    "beta": ((2.0, 3.0, (2, 3)), {}),
    "binomial": ((10, 0.3, (2, 3)), {}),
    "chisquare": ((3.0, (2, 3)), {}),
    "choice": ((5, (2, 3)), {}),
    "dirichlet": (([1.0, 2.0, 3.0], 2), {}),
    "exponential": ((2.0, (2, 3)), {}),
    "f": ((3.0, 4.0, (2, 3)), {}),
    "gamma": ((2.0, 1.5, (2, 3)), {}),
    "geometric": ((0.3, (2, 3)), {}),
    "gumbel": ((0.0, 1.0, (2, 3)), {}),
    "hypergeometric": ((5, 7, 4, (2, 3)), {}),
    "laplace": ((0.0, 1.0, (2, 3)), {}),
    "logistic": ((0.0, 1.0, (2, 3)), {}),
    "lognormal": ((0.0, 1.0, (2, 3)), {}),
    "logseries": ((0.5, (2, 3)), {}),
    "multinomial": ((10, [0.2, 0.3, 0.5], 2), {}),
    "multivariate_normal": (([0.0, 1.0, 2.0], np.eye(3), 2), {}),
    "negative_binomial": ((3, 0.4, (2, 3)), {}),
    "noncentral_chisquare": ((3.0, 1.0, (2, 3)), {}),
    "noncentral_f": ((3.0, 4.0, 1.0, (2, 3)), {}),
    "normal": ((1.0, 2.0), {"size": (2, 3)}),
    "pareto": ((3.0, (2, 3)), {}),
    "permutation": ((6,), {}),
    "poisson": ((3.0, (2, 3)), {}),
    "power": ((3.0, (2, 3)), {}),
    "rand": ((2, 3), {}),
    "randint": ((2, 9, (2, 3)), {}),
    "randn": ((2, 3), {}),
    "random": (((2, 3),), {}),
    "random_integers": ((1, 6, (2, 3)), {}),
    "random_sample": (((2, 3),), {}),
    "ranf": (((2, 3),), {}),
    "rayleigh": ((2.0, (2, 3)), {}),
    "sample": (((2, 3),), {}),
    "standard_cauchy": (((2, 3),), {}),
    "standard_exponential": (((2, 3),), {}),
    "standard_gamma": ((2.0, (2, 3)), {}),
    "standard_normal": (((2, 3),), {}),
    "standard_t": ((4.0, (2, 3)), {}),
    "triangular": ((0.0, 1.0, 3.0, (2, 3)), {}),
    "uniform": ((-1.0, 2.0, (2, 3)), {}),
    "vonmises": ((0.0, 2.0, (2, 3)), {}),
    "wald": ((1.0, 2.0, (2, 3)), {}),
    "weibull": ((2.0, (2, 3)), {}),
    "zipf": ((2.5, (2, 3)), {}),
}


def draw(module, name, seed, **like):
    """``module.<name>`` (funcgrad.numpy.random's or numpy.random's) of the arguments
    above, after ``module.seed(seed)``; ``like=`` if given."""
    module.seed(seed)
    args, kwargs = SAMPLERS[name]
    return getattr(module, name)(*args, **kwargs, **like)


def assert_created_as_numpy_would(name, made, array_type, to_numpy):
    """``made``, CREATION[name] of some ``like``, is an ``array_type`` with the shape, dtype
    and values (``to_numpy`` brings them to the host) of the call without ``like``."""
    expected = CREATION[name](None)
    assert isinstance(made, array_type), type(made)
    assert (made.shape, made.dtype) == (expected.shape, expected.dtype)
    if name not in UNCOMPARED:
        np.testing.assert_array_equal(to_numpy(made), expected)
