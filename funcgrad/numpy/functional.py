"""NumPy's functional programming helpers: `vectorize` (as ``jax.numpy.vectorize``: built
on `funcgrad.vmap`, so the function is traced once for the whole batch, and it is
differentiable), `fromfunction` and `apply_over_axes`. All are compositions: derivatives
come from the functions they call."""
import functools
import math
import re

import numpy as np

from ._axes import normalize_one_axis
from .creation import asarray
from .shape_ops import broadcast_to, expand_dims, reshape

# funcgrad.vmap, which the transforms define on funcgrad.numpy (so this module cannot
# import it): set by funcgrad/__init__.py once the transforms are loaded.
vmap = None

_DIMENSIONS = r"\((?:\w+(?:,\s*\w+)*)?\)"
_SIGNATURE = re.compile(rf"^{_DIMENSIONS}(?:,\s*{_DIMENSIONS})*->"
                        rf"{_DIMENSIONS}(?:,\s*{_DIMENSIONS})*$")


def _parse_signature(signature):
    """``"(m,n),(n)->(m)"`` as ([('m', 'n'), ('n',)], [('m',)])."""
    compact = signature.replace(" ", "")
    if not _SIGNATURE.match(compact):
        raise ValueError(f"funcgrad.numpy.vectorize: signature {signature!r} is not a "
                         f"generalized ufunc signature such as '(m,n),(n)->(m)'")
    inputs, outputs = compact.split("->")
    return [tuple(re.findall(r"\w+", group)) for group in re.findall(_DIMENSIONS, inputs)], \
        [tuple(re.findall(r"\w+", group)) for group in re.findall(_DIMENSIONS, outputs)]


def _core_sizes(args, core_dims):
    """The size of each named core dimension, checked to agree among the arguments."""
    sizes = {}
    for position, (arg, dims) in enumerate(zip(args, core_dims)):
        if arg.ndim < len(dims):
            raise ValueError(f"funcgrad.numpy.vectorize: argument {position} has "
                             f"{arg.ndim} dimension(s), fewer than its core dimensions "
                             f"{dims}")
        for name, size in zip(dims, arg.shape[arg.ndim - len(dims):]):
            if sizes.setdefault(name, size) != size:
                raise ValueError(f"funcgrad.numpy.vectorize: core dimension {name!r} has "
                                 f"sizes {sizes[name]} and {size}")
    return sizes


def _split_excluded(excluded, args, kwargs):
    """(the function of the vectorized arguments, those arguments): excluded positions and
    every keyword argument are passed as they are."""
    static = {i: arg for i, arg in enumerate(args) if i in excluded}
    dynamic = [arg for i, arg in enumerate(args) if i not in excluded]

    def restore(pyfunc):
        def with_static(*vectorized):
            full = list(vectorized)
            for i in sorted(static):
                full.insert(i, static[i])
            return pyfunc(*full, **kwargs)
        return with_static
    return restore, dynamic


class vectorize:
    """``numpy.vectorize`` as ``jax.numpy.vectorize``: ``pyfunc`` mapped over the loop
    dimensions of its (broadcast) arguments with `funcgrad.vmap`. ``signature``
    (``"(n),(n)->()"``) names the core dimensions each argument and output keeps;
    ``excluded`` holds positions (ints) or keyword names passed through unvectorized.
    Keyword arguments are always passed through."""

    def __init__(self, pyfunc, *, excluded=frozenset(), signature=None):
        if any(not isinstance(e, (int, str)) for e in excluded):
            raise TypeError(f"funcgrad.numpy.vectorize: excluded holds argument positions "
                            f"(int) or keyword names (str), got {set(excluded)!r}")
        if any(isinstance(e, int) and e < 0 for e in excluded):
            raise ValueError(f"funcgrad.numpy.vectorize: excluded={set(excluded)!r} holds a "
                             f"negative position")
        self.pyfunc = pyfunc
        self.excluded = frozenset(excluded)
        self.signature = signature
        self.core = None if signature is None else _parse_signature(signature)
        functools.update_wrapper(self, pyfunc)

    def __call__(self, *args, **kwargs):
        restore, dynamic = _split_excluded(self.excluded, args, kwargs)
        dynamic = [asarray(arg) for arg in dynamic]
        inputs, outputs = self.core or ([()] * len(dynamic), None)
        if len(inputs) != len(dynamic):
            raise TypeError(f"funcgrad.numpy.vectorize: signature {self.signature!r} has "
                            f"{len(inputs)} input(s), got {len(dynamic)} argument(s)")
        sizes = _core_sizes(dynamic, inputs)
        loop_shape = np.broadcast_shapes(*(a.shape[:a.ndim - len(d)]
                                           for a, d in zip(dynamic, inputs)))
        count = math.prod(loop_shape)
        flat = [reshape(broadcast_to(a, loop_shape + a.shape[a.ndim - len(d):]),
                        (count,) + a.shape[a.ndim - len(d):]) for a, d in zip(dynamic, inputs)]
        result = vmap(self._checked(restore(self.pyfunc), outputs, sizes))(*flat)
        if isinstance(result, tuple):
            return tuple(reshape(r, loop_shape + r.shape[1:]) for r in result)
        return reshape(result, loop_shape + result.shape[1:])

    def _checked(self, function, outputs, sizes):
        """``function``, whose outputs must have the signature's core dimensions."""
        if outputs is None:
            return function

        def checked(*args):
            out = function(*args)
            results = out if isinstance(out, tuple) else (out,)
            if len(results) != len(outputs) or (len(outputs) > 1 and not isinstance(out, tuple)):
                raise TypeError(f"funcgrad.numpy.vectorize: the function returned "
                                f"{len(results)} output(s); signature {self.signature!r} "
                                f"has {len(outputs)}")
            _core_sizes([asarray(r) for r in results], outputs)  # consistent among outputs
            for r, dims in zip(results, outputs):
                expected = tuple(sizes.get(name, size) for name, size in
                                 zip(dims, np.shape(r)[np.ndim(r) - len(dims):]))
                if np.ndim(r) != len(dims) or np.shape(r) != expected:
                    raise ValueError(f"funcgrad.numpy.vectorize: an output of shape "
                                     f"{np.shape(r)} does not match core dimensions {dims} "
                                     f"of signature {self.signature!r}")
            return out
        return checked


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """``numpy.fromfunction``: ``function`` called once with the index grids of ``shape``
    (as `numpy.indices` of ``dtype``)."""
    return function(*np.indices(shape, dtype=dtype), **kwargs)


def apply_over_axes(func, a, axes):
    """``numpy.apply_over_axes``: ``func(a, axis)`` applied for each of ``axes`` in turn;
    a result with one dimension fewer gets it back (size 1), as with keepdims."""
    value = asarray(a)
    for axis in np.atleast_1d(axes):
        axis = normalize_one_axis(axis, value.ndim, "apply_over_axes")
        result = asarray(func(value, axis))
        if result.ndim == value.ndim - 1:
            result = expand_dims(result, axis)
        if result.ndim != value.ndim:
            raise ValueError("funcgrad.numpy.apply_over_axes: func must return an array of "
                             "a's dimensions, or one fewer")
        value = result
    return value


__all__ = ["vectorize", "fromfunction", "apply_over_axes"]
