"""randperm's Fisher-Yates shuffles, replayed with whole-array NumPy operations.

PyTorch swaps elements one draw at a time; a Python loop over a million swaps takes
seconds. Both of its variants are computed here from all the draws at once: the value each
swap moves is found by following "which earlier step last wrote this position" links, and
those chains are resolved by pointer doubling (about log2(n) array passes).
"""
import numpy as np

_int64 = np.int64


def _resolve(parent):
    """For a forest given as parent[i] (< i, or i itself at a root), the root of each i."""
    root = parent.copy()
    while True:
        step = root[root]
        if np.array_equal(step, root):
            return root
        root = step


def _previous_in_group(keys):
    """For each i, the largest j < i with keys[j] == keys[i] (-1 if none), and for each key
    value v in [0, len(keys) + 1), the largest i with keys[i] == v (-1 if none)."""
    count = keys.size
    order = np.argsort(keys, kind="stable")  # equal keys stay in step order
    sorted_keys = keys[order]
    same = np.zeros(count, bool)
    same[1:] = sorted_keys[1:] == sorted_keys[:-1]
    previous = np.full(count, -1, _int64)
    previous[order[1:][same[1:]]] = order[:-1][same[1:]]
    ends = np.ones(count, bool)
    ends[:-1] = ~same[1:]
    last = np.full(count + 1, -1, _int64)
    last[sorted_keys[ends]] = order[ends]
    return previous, last


def forward_shuffle(offsets):
    """The permutation PyTorch's randperm builds for n = len(offsets) + 1 by swapping
    position t with t + offsets[t] for t = 0, 1, ..., n - 2."""
    n = offsets.size + 1
    steps = np.arange(n - 1, dtype=_int64)
    targets = steps + offsets
    previous, last = _previous_in_group(targets)
    # held[p]: the value at position p just before step p swaps it away; it is the value
    # the last earlier swap into p brought there, or p itself.
    writer = last[:n].copy()  # the last step aimed at p, perhaps step p itself
    own = writer == np.arange(n)
    writer[own] = previous[writer[own]]
    parent = np.where(writer >= 0, writer, np.arange(n))
    held = _resolve(parent)
    moved = np.where(previous >= 0, held[np.maximum(previous, 0)], targets)
    result = np.empty(n, _int64)
    result[:-1] = np.where(targets == steps, held[:-1], moved)
    result[-1] = held[-1]
    return result


def inside_out_shuffle(choices):
    """The permutation PyTorch's randperm builds for large n = len(choices): for
    i = 0, ..., n - 1 it sets r[i] = r[choices[i]] and then r[choices[i]] = i."""
    n = choices.size
    positions = np.arange(n, dtype=_int64)
    previous, last = _previous_in_group(choices)
    # own[i]: what step i writes at position i, the value at choices[i] just before step i:
    # the latest earlier step aimed at the same position wrote its own index there;
    # otherwise that position still holds what its own step wrote.
    points_at_self = choices == positions
    parent = np.where(points_at_self | (previous >= 0), positions, choices)
    own_root = _resolve(parent)
    root_previous = previous[own_root]
    own = np.where(choices[own_root] == own_root, own_root, root_previous)
    later = last[:n]  # the last step aimed at position p wins if it came after step p
    return np.where(later > positions, later, own)
