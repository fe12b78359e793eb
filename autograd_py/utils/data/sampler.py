"""Samplers: the order in which a ``DataLoader`` visits a dataset's indices.

``RandomSampler`` draws its permutation exactly as PyTorch's does (a fresh generator seeded from
the global one), so ``DataLoader(..., shuffle=True)`` yields PyTorch's batches after ``manual_seed``.
"""
import itertools


class Sampler:
    """Base class: an iterable of indices (or of lists of indices, for batch samplers)."""

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """Indices ``0, 1, ..., len(data_source) - 1`` in order."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


def _seeded_generator():
    from ... import empty, int64
    from ...random import Generator

    seed = int(empty((), dtype=int64).random_().item())
    generator = Generator()
    generator.manual_seed(seed)
    return generator


class RandomSampler(Sampler):
    """A random permutation of the indices (or ``num_samples`` draws with replacement).

    Args:
        data_source (Dataset): the dataset to sample from.
        replacement (bool, optional): draw with replacement. Defaults to ``False``.
        num_samples (int, optional): how many indices. Defaults to ``len(data_source)``.
        generator (Generator, optional): the generator to use. Defaults to one seeded from the
            global generator at each new iteration, as in PyTorch.
    """

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={self.replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        from ...random.factories import randint, randperm

        n = len(self.data_source)
        generator = self.generator if self.generator is not None else _seeded_generator()
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from randint(high=n, size=(32,), generator=generator).tolist()
            yield from randint(high=n, size=(self.num_samples % 32,), generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from randperm(n, generator=generator).tolist()
            yield from randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights``.

    Args:
        weights (sequence): one non-negative weight per index.
        num_samples (int): how many indices to draw.
        replacement (bool, optional): draw with replacement. Defaults to ``True``.
        generator (Generator, optional): the generator to use.
    """

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        from ... import as_tensor, double

        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        weights = as_tensor(weights, dtype=double)
        if len(weights.shape) != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape {tuple(weights.shape)}")
        self.weights, self.num_samples = weights, num_samples
        self.replacement, self.generator = replacement, generator

    def __iter__(self):
        from ...random.factories import multinomial

        yield from multinomial(self.weights, self.num_samples, self.replacement, generator=self.generator).tolist()

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order."""

    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        from ...random.factories import randperm

        for i in randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class BatchSampler(Sampler):
    """Groups another sampler's indices into lists of ``batch_size``.

    Args:
        sampler (Sampler or iterable): the indices.
        batch_size (int): the size of each batch.
        drop_last (bool): drop the last batch if it is smaller.
    """

    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        indices = iter(self.sampler)
        if self.drop_last:
            yield from (list(batch) for batch in zip(*[indices] * self.batch_size))
            return
        batch = list(itertools.islice(indices, self.batch_size))
        while batch:
            yield batch
            batch = list(itertools.islice(indices, self.batch_size))

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
