"""``funcgrad.numpy.random``: NumPy's random module, whose sampling functions also take
``like=``, as the creation functions do (the Array API's "functions that take no arrays
accept like=").

Without ``like=`` (or with a NumPy ``like``) each function is NumPy's, drawing from NumPy's
global stream: the same values, bit for bit, as ``numpy.random``. With ``like=`` another
library's array, the sample is that library's array (docs/arrays.md, "Random numbers"):

- Dask: drawn by ``dask.array.random.RandomState`` (one seed per chunk), with ``like``'s
  chunks where the sample has its shape, Dask's automatic chunks otherwise;
- CuPy: drawn by ``cupy.random.RandomState`` (cuRAND) on ``like``'s device;
- both are seeded by a draw from NumPy's global stream, so ``random.seed(s)`` makes them
  reproducible too. Their values differ from NumPy's (and from each other's).
- a function the library's generator lacks, and every other library: NumPy draws (the
  values it would draw without ``like=``) and the sample is converted (Dask: in
  ``like``'s chunks; CuPy: onto its device; others: ``np.asarray(sample, like=like)``).

Everything else (``seed``, ``get_state``, ``shuffle``, ``default_rng``, ``RandomState``,
``Generator``...) is NumPy's own object.
"""
import functools
import inspect

import numpy as np
from numpy.random import *  # noqa: F401,F403 -- the module is NumPy's, plus like= below

from ..core.values import is_array, unboxed

# NumPy's module-level samplers that make an array from parameters (not seed/state, not
# shuffle, which permutes an array in place, nor bytes).
_SAMPLERS = ("beta", "binomial", "chisquare", "choice", "dirichlet", "exponential", "f",
             "gamma", "geometric", "gumbel", "hypergeometric", "laplace", "logistic",
             "lognormal", "logseries", "multinomial", "multivariate_normal",
             "negative_binomial", "noncentral_chisquare", "noncentral_f", "normal", "pareto",
             "permutation", "poisson", "power", "rand", "randint", "randn", "random",
             "random_integers", "random_sample", "ranf", "rayleigh", "sample",
             "standard_cauchy", "standard_exponential", "standard_gamma", "standard_normal",
             "standard_t", "triangular", "uniform", "vonmises", "wald", "weibull", "zipf")
# Legacy names that libraries' RandomState classes may spell only as the function they
# alias (Dask's has no rand or randn: they are random_sample and standard_normal of a size).
_BY_SIZE = {"rand": "random_sample", "randn": "standard_normal"}
_ALIASES = {"random": "random_sample", "ranf": "random_sample", "sample": "random_sample"}


def _seed():
    """A seed for another library's generator, drawn from NumPy's global stream."""
    return int(np.random.randint(0, 2 ** 32, dtype=np.int64))


def _size(name, args, kwargs):
    """The sample's shape, where the arguments say it (None: from the parameters)."""
    size = kwargs.get("size")
    if size is None:
        try:
            size = inspect.signature(getattr(np.random, name)).bind(*args, **kwargs) \
                .arguments.get("size")
        except (TypeError, ValueError):  # NumPy's own call reports the bad arguments
            return None
    return None if size is None else tuple(np.atleast_1d(size).tolist())


def _drawer(generator_type, name, args, kwargs):
    """A bound method of a new ``generator_type`` (seeded by `_seed`) and the arguments it
    takes for NumPy's ``name(*args, **kwargs)``; None where the type lacks the function
    (then no seed is drawn, so NumPy's stream is untouched for NumPy's own draw)."""
    method_name = name if hasattr(generator_type, name) else _BY_SIZE.get(
        name, _ALIASES.get(name, name))
    if not hasattr(generator_type, method_name):
        return None
    method = getattr(generator_type(_seed()), method_name)
    if method_name != name and name in _BY_SIZE:  # rand(2, 3) -> random_sample(size=(2, 3))
        return method, (), {"size": tuple(args), **kwargs}
    return method, args, kwargs


def _dask_sample(name, like, args, kwargs):
    import dask.array as da

    def chunks(shape):
        return like.chunks if shape == like.shape else "auto"
    found = _drawer(da.random.RandomState, name, args, kwargs)
    if found is None:  # Dask lacks it: NumPy draws, in chunks for the graph
        sample = getattr(np.random, name)(*args, **kwargs)
        return da.from_array(sample, chunks=chunks(np.shape(sample)))
    method, args, kwargs = found
    if "chunks" in inspect.signature(method).parameters and "chunks" not in kwargs:
        kwargs = {**kwargs, "chunks": chunks(_size(name, args, kwargs))}
    sample = method(*args, **kwargs)
    if sample.shape == like.shape and sample.chunks != like.chunks:
        sample = sample.rechunk(like.chunks)  # a shape not given as size (multinomial's)
    return sample


def _cupy_sample(name, like, args, kwargs):
    import cupy
    with like.device:
        found = _drawer(cupy.random.RandomState, name, args, kwargs)
        if found is None:  # CuPy lacks it: NumPy draws, copied to like's device
            return cupy.asarray(getattr(np.random, name)(*args, **kwargs))
        method, args, kwargs = found
        return method(*args, **kwargs)


# The libraries with a generator of their own, by the top-level module of their array type.
_LIBRARY_SAMPLERS = {"dask": _dask_sample, "cupy": _cupy_sample}


def _sample_like(name, like, args, kwargs):
    library = type(like).__module__.partition(".")[0]
    sampler = _LIBRARY_SAMPLERS.get(library)
    sample = sampler(name, like, args, kwargs) if sampler is not None else None
    if sample is not None:
        return sample
    sample = getattr(np.random, name)(*args, **kwargs)
    try:
        return np.asarray(sample, like=like)
    except Exception as error:  # noqa: BLE001 -- each library fails in its own way
        raise TypeError(
            f"funcgrad.numpy.random.{name}: cannot make the sample a {type(like).__name__} "
            f"(like=): np.asarray(sample, like=...) failed with {type(error).__name__}: "
            f"{error}. Draw with that library's own generator, or convert the NumPy "
            f"sample with its asarray.") from error


def _with_like(name):
    numpy_sampler = getattr(np.random, name)

    @functools.wraps(numpy_sampler)
    def sampler(*args, like=None, **kwargs):
        if like is None:
            return numpy_sampler(*args, **kwargs)
        base = unboxed(like)
        if type(base) is np.ndarray:
            return numpy_sampler(*args, **kwargs)
        if not is_array(base):
            raise TypeError(
                f"funcgrad.numpy.random.{name}: like= must be an array (NumPy's, Dask's, "
                f"CuPy's...) whose library the sample is made in, got "
                f"{type(like).__name__}; leave like= out for a NumPy sample")
        return _sample_like(name, base, args, kwargs)

    sampler.__doc__ = (f"``numpy.random.{name}``; ``like=`` an array makes the sample in its "
                       f"library (see funcgrad.numpy.random).")
    parameters = list(inspect.signature(numpy_sampler).parameters.values())
    at = len(parameters) - (parameters[-1].kind is inspect.Parameter.VAR_KEYWORD
                            if parameters else 0)
    parameters.insert(at, inspect.Parameter("like", inspect.Parameter.KEYWORD_ONLY,
                                            default=None))
    sampler.__signature__ = inspect.Signature(parameters)
    return sampler


for _name in _SAMPLERS:
    globals()[_name] = _with_like(_name)
del _name

__all__ = list(np.random.__all__)
