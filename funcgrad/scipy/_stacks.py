"""SciPy's linalg functions on empty stacks of matrices (a vmap over a batch of size 0)."""
import functools

import numpy as np


def answering_empty_stacks(impl, right_hand_sides=()):
    """``impl``, a function of stacks of matrices (leading axes, broadcast), with an empty
    stack answered here: SciPy refuses one ("does not support zero-size batches") or gets
    its shapes wrong (lu's P). The answer is the empty stack of the results for one
    well-posed problem: identity matrices, zeros at the positions ``right_hand_sides``."""
    @functools.wraps(impl)
    def impl_or_empty(*arrays, **params):
        batch = np.broadcast_shapes(*(a.shape[:-2] for a in arrays))
        if 0 not in batch:
            return impl(*arrays, **params)
        one = [np.zeros(a.shape[-2:], a.dtype) if k in right_hand_sides
               else np.eye(*a.shape[-2:], dtype=a.dtype) for k, a in enumerate(arrays)]
        result = impl(*one, **params)
        if isinstance(result, tuple):
            return tuple(np.empty(batch + np.shape(r), np.result_type(r)) for r in result)
        return np.empty(batch + np.shape(result), np.result_type(result))
    return impl_or_empty
