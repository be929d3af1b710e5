"""DataLoader: batches of a dataset, in order or shuffled by the random streams.

The batches are PyTorch's, draw for draw: each pass draws a base seed from the loader's
generator (PyTorch draws it for worker processes), then the sampler's own draws. compat
loads in the calling process; `num_workers` is accepted and changes nothing but that
(PyTorch's workers yield the same batches for a dataset that draws no random numbers).
"""
from ... import _dtypes
from ..._factories import empty
from .collate import default_collate, default_convert
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler


class DataLoader:
    """Iterate over `dataset` in batches of `batch_size` (None: one sample at a time)."""

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False,
                 timeout=0, worker_init_fn=None, multiprocessing_context=None,
                 generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 "
                             "to disable multiprocessing.")
        self.dataset = dataset
        self.num_workers = num_workers
        self.generator = generator
        iterable = isinstance(dataset, IterableDataset)
        if iterable:  # an iterable dataset has no indices to sample
            for name, value in (("shuffle", shuffle if shuffle else None), ("sampler", sampler),
                                ("batch_sampler", batch_sampler)):
                if value is not None:
                    raise ValueError(f"DataLoader with IterableDataset: expected unspecified "
                                     f"{name} option, but got {name}={value}")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with "
                                 "batch_size, shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if sampler is None and not iterable:
            sampler = (RandomSampler(dataset, generator=generator) if shuffle
                       else SequentialSampler(dataset))
        if batch_size is not None and batch_sampler is None and not iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size, self.drop_last = batch_size, drop_last
        self.sampler, self.batch_sampler = sampler, batch_sampler
        self.collate_fn = collate_fn or (default_collate if batch_size is not None or
                                         batch_sampler is not None else default_convert)

    def __iter__(self):
        # PyTorch's iterator draws a base seed for its workers before the sampler draws.
        empty((), dtype=_dtypes.int64).random_(generator=self.generator)
        if isinstance(self.dataset, IterableDataset):
            return self._iterable_batches()
        if self.batch_sampler is not None:
            return (self.collate_fn([self.dataset[i] for i in batch])
                    for batch in self.batch_sampler)
        return (self.collate_fn(self.dataset[i]) for i in self.sampler)

    def _iterable_batches(self):
        samples = iter(self.dataset)
        if self.batch_size is None:
            yield from (self.collate_fn(sample) for sample in samples)
            return
        while True:
            batch = [sample for _, sample in zip(range(self.batch_size), samples)]
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield self.collate_fn(batch)

    def __len__(self):
        if isinstance(self.dataset, IterableDataset):
            raise TypeError("len() of a DataLoader over an IterableDataset is not known "
                            "before iterating")
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        return len(self.sampler)


__all__ = ["DataLoader"]
