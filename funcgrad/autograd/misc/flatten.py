"""autograd's ``flatten`` and ``flatten_func``, on `funcgrad.flatten_util.ravel_pytree`.

Any pytree works, as in funcgrad's transforms: also integer leaves (autograd's fails on
them), None, namedtuples and registered classes.
"""
from ...flatten_util import ravel_pytree


def flatten(value):
    """``(flat, unflatten)``: the leaves of ``value`` (nested lists, tuples and dicts of
    arrays and scalars; dict entries in sorted key order) as one 1-D array, and the
    function that rebuilds ``value``'s structure from such an array."""
    return ravel_pytree(value)


def flatten_func(func, example):
    """``(flat_func, unflatten, flat_example)``: ``flat_func(flat_x, *args)`` is
    ``func(unflatten(flat_x), *args)`` flattened, for optimizers that want vectors."""
    flat_example, unflatten = flatten(example)

    def flat_func(flat_x, *args):
        return flatten(func(unflatten(flat_x), *args))[0]

    return flat_func, unflatten, flat_example
