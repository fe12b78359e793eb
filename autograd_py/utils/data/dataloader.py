"""``DataLoader``: batches from a dataset, in order or shuffled, in this process (no workers)."""
from .collate import default_collate, default_convert
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler


class DataLoader:
    """Iterates over a dataset in batches.

    Args:
        dataset (Dataset): where the samples come from.
        batch_size (int, optional): samples per batch. Defaults to ``1``; ``None`` yields samples
            one by one, uncollated.
        shuffle (bool, optional): a new random order every epoch. Defaults to ``False``.
        sampler (Sampler, optional): the order of indices; excludes ``shuffle``.
        batch_sampler (Sampler, optional): yields lists of indices; excludes the options above.
        collate_fn (callable, optional): merges a list of samples. Defaults to ``default_collate``.
        drop_last (bool, optional): drop a last, smaller batch. Defaults to ``False``.
        generator (Generator, optional): the generator for shuffling.

    Example::

        >>> loader = DataLoader(TensorDataset(torch.arange(5.)), batch_size=2)
        >>> [batch[0].tolist() for batch in loader]
        [[0.0, 1.0], [2.0, 3.0], [4.0]]
    """

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        self.dataset = dataset
        self.num_workers = num_workers  # accepted; batches are always made in this process
        self.generator = generator
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in {False, None}:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                                 f"shuffle={shuffle}")
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                                 "and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with "
                             "drop_last")
        if sampler is None and not self._iterable:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None and not self._iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size, self.drop_last = batch_size, drop_last
        self.sampler, self.batch_sampler = sampler, batch_sampler
        self._auto_collation = batch_sampler is not None or (self._iterable and batch_size is not None)
        self.collate_fn = collate_fn if collate_fn is not None else (
            default_collate if self._auto_collation else default_convert)

    def __iter__(self):
        from ... import empty, int64

        indices = iter(self.batch_sampler if self.batch_sampler is not None else self.sampler or ())
        # PyTorch draws a base seed for worker processes on every new iterator, even with none.
        empty((), dtype=int64).random_(generator=self.generator)
        if self._iterable:
            return _LoaderIter(self._iterate_stream(), self)
        return _LoaderIter((self._fetch(index) for index in indices), self)

    def _fetch(self, index):
        if not self._auto_collation:
            return self.collate_fn(self.dataset[index])
        getitems = getattr(self.dataset, "__getitems__", None)
        samples = getitems(index) if getitems else [self.dataset[i] for i in index]
        return self.collate_fn(samples)

    def _iterate_stream(self):
        stream = iter(self.dataset)
        if not self._auto_collation:
            yield from (self.collate_fn(sample) for sample in stream)
            return
        while True:
            batch = [sample for _, sample in zip(range(self.batch_size), stream)]
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield self.collate_fn(batch)

    def __len__(self):
        if self._iterable:
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)


class _LoaderIter:
    """What ``iter(loader)`` returns: the batches, and ``len()`` as the loader has it."""

    def __init__(self, batches, loader):
        self._batches, self._loader = batches, loader

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._batches)

    def __len__(self):
        return len(self._loader)


def get_worker_info():
    """Information about the current worker process: always ``None``, since batches are made here."""
    return None
