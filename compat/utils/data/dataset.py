"""Datasets: `Dataset`, `TensorDataset`, `Subset`, `ConcatDataset`, and `random_split`,
which permutes the indices with the random streams as PyTorch does (the same split after
the same seed)."""
import bisect
import itertools
import math
import warnings

from ..._random import default_generator, randperm


class Dataset:
    """A map-style dataset: ``dataset[i]`` is one sample; subclasses define __getitem__
    (and __len__ for samplers that need it)."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A dataset that is iterated rather than indexed (subclasses define __iter__)."""

    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")


class TensorDataset(Dataset):
    """Samples are the i-th rows of the given tensors, as a tuple."""

    def __init__(self, *tensors):
        if any(tensors[0].size(0) != t.size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The samples of `dataset` at `indices`, in that order."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, index):
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __len__(self):
        return len(self.indices)


class ConcatDataset(Dataset):
    """The samples of several datasets one after the other."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, index):
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, index)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][index - start]


def _lengths(total, lengths):
    """Lengths given as fractions summing to 1 become counts (floor, the remainder handed
    out one by one from the first), as PyTorch computes them."""
    if not (math.isclose(sum(lengths), 1) and sum(lengths) <= 1):
        return list(lengths)
    counts = []
    for i, fraction in enumerate(lengths):
        if not 0 <= fraction <= 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        counts.append(math.floor(total * fraction))
    for i in range(total - sum(counts)):
        counts[i % len(counts)] += 1
    for i, count in enumerate(counts):
        if count == 0:
            warnings.warn(f"Length of split at index {i} is 0. This might result in an empty "
                          f"dataset.", stacklevel=3)
    return counts


def random_split(dataset, lengths, generator=default_generator):
    """`dataset` split at random into non-overlapping Subsets of the given lengths (or
    fractions)."""
    lengths = _lengths(len(dataset), lengths)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = randperm(sum(lengths), generator=generator).tolist()
    return [Subset(dataset, indices[end - length:end])
            for end, length in zip(itertools.accumulate(lengths), lengths)]


__all__ = ["Dataset", "IterableDataset", "TensorDataset", "Subset", "ConcatDataset",
           "random_split"]
