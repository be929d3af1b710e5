"""The order in which torch.topk (CPU) returns tied values, needed by multinomial.

PyTorch's CPU topk puts (value, index) pairs in a vector and calls the C++ standard
library: ``partial_sort`` when k * 64 <= n, else ``nth_element`` at k - 1 followed by
``sort`` of the first k - 1. Distinct values come out largest first whatever the algorithm;
equal values (multinomial's zero-probability categories) come out in the order those
algorithms leave them, which depends on their exact steps. This module replays the steps
of GNU libstdc++'s versions (introsort with median-of-three pivots and a 16-element
insertion-sort cutoff, introselect, heap selection with a sift-down-then-up heap), which is
the library PyTorch's Linux wheels are built with. It runs in Python, element by element,
so multinomial uses it only for rows whose top values tie.
"""
import math

_INSERTION_CUTOFF = 16


def _before(x, y):
    """topk(largest=True)'s comparison: NaN first, then larger values."""
    return (math.isnan(x[0]) and not math.isnan(y[0])) or x[0] > y[0]


def topk_indices(values, k):
    """The indices torch.topk(values, k) returns (values: a sequence of floats)."""
    items = [(float(value), index) for index, value in enumerate(values)]
    n = len(items)
    if k * 64 <= n:
        _heap_select(items, 0, k, n)
        _sort_heap(items, 0, k)
    else:
        _nth_element(items, 0, k - 1, n)
        _sort(items, 0, k - 1)
    return [index for _, index in items[:k]]


# ---- heaps (a max-heap under _before: the root is the item that sorts last) -------------


def _adjust_heap(items, first, hole, length, value):
    """Sift the hole at `hole` down to a leaf, then push `value` up from there."""
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if _before(items[first + child], items[first + child - 1]):
            child -= 1
        items[first + hole] = items[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        items[first + hole] = items[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and _before(items[first + parent], value):
        items[first + hole] = items[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    items[first + hole] = value


def _make_heap(items, first, last):
    length = last - first
    if length < 2:
        return
    for parent in range((length - 2) // 2, -1, -1):
        _adjust_heap(items, first, parent, length, items[first + parent])


def _pop_heap(items, first, last, result):
    value = items[result]
    items[result] = items[first]
    _adjust_heap(items, first, 0, last - first, value)


def _heap_select(items, first, middle, last):
    _make_heap(items, first, middle)
    for i in range(middle, last):
        if _before(items[i], items[first]):
            _pop_heap(items, first, middle, i)


def _sort_heap(items, first, last):
    while last - first > 1:
        last -= 1
        _pop_heap(items, first, last, last)


# ---- quicksort partitioning --------------------------------------------------------------


def _move_median_to_first(items, result, a, b, c):
    if _before(items[a], items[b]):
        if _before(items[b], items[c]):
            chosen = b
        elif _before(items[a], items[c]):
            chosen = c
        else:
            chosen = a
    elif _before(items[a], items[c]):
        chosen = a
    elif _before(items[b], items[c]):
        chosen = c
    else:
        chosen = b
    items[result], items[chosen] = items[chosen], items[result]


def _partition_around_first(items, first, last):
    """Median of three moved to `first`, then Hoare partitioning of the rest around it;
    returns the cut."""
    _move_median_to_first(items, first, first + 1, first + (last - first) // 2, last - 1)
    pivot = items[first]
    low, high = first + 1, last
    while True:
        while _before(items[low], pivot):
            low += 1
        high -= 1
        while _before(pivot, items[high]):
            high -= 1
        if not low < high:
            return low
        items[low], items[high] = items[high], items[low]
        low += 1


def _insertion_sort(items, first, last):
    for i in range(first + 1, last):
        value = items[i]
        if _before(value, items[first]):
            items[first + 1:i + 1] = items[first:i]
            items[first] = value
        else:
            _linear_insert(items, i)


def _linear_insert(items, position):
    value = items[position]
    while _before(value, items[position - 1]):
        items[position] = items[position - 1]
        position -= 1
    items[position] = value


def _depth_limit(length):
    return 2 * (length.bit_length() - 1)


def _sort(items, first, last):
    if last - first < 2:
        return
    _introsort(items, first, last, _depth_limit(last - first))
    if last - first > _INSERTION_CUTOFF:
        _insertion_sort(items, first, first + _INSERTION_CUTOFF)
        for i in range(first + _INSERTION_CUTOFF, last):
            _linear_insert(items, i)
    else:
        _insertion_sort(items, first, last)


def _introsort(items, first, last, depth):
    while last - first > _INSERTION_CUTOFF:
        if depth == 0:
            _heap_select(items, first, last, last)
            _sort_heap(items, first, last)
            return
        depth -= 1
        cut = _partition_around_first(items, first, last)
        _introsort(items, cut, last, depth)
        last = cut


def _nth_element(items, first, nth, last):
    if first == last or nth == last:
        return
    depth = _depth_limit(last - first)
    while last - first > 3:
        if depth == 0:
            _heap_select(items, first, nth + 1, last)
            items[first], items[nth] = items[nth], items[first]
            return
        depth -= 1
        cut = _partition_around_first(items, first, last)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(items, first, last)
