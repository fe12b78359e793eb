"""torch.utils.data: batches, collation, and shuffling that draws from the generators as PyTorch's does."""
import subprocess
import sys

import pytest

import autograd_py as torch
from autograd_py.utils.data import (BatchSampler, ChainDataset, DataLoader, IterableDataset, RandomSampler,
                                    SequentialSampler, TensorDataset, WeightedRandomSampler, get_worker_info,
                                    random_split)


def epoch_order_by_hand(n):
    """PyTorch's draws for one shuffled epoch: the loader's base seed, the sampler's seed, a permutation."""
    torch.empty((), dtype=torch.int64).random_()
    seed = int(torch.empty((), dtype=torch.int64).random_().item())
    return torch.randperm(n, generator=torch.Generator().manual_seed(seed)).tolist()


def test_shuffled_epochs_follow_pytorch_draw_order():
    data = TensorDataset(torch.arange(10) * 10)
    loader = DataLoader(data, batch_size=4, shuffle=True)
    torch.manual_seed(7)
    seen = [[int(v) // 10 for batch in loader for v in batch[0]] for _ in range(2)]
    after = torch.rand(3).tolist()
    torch.manual_seed(7)
    expected = [epoch_order_by_hand(10) for _ in range(2)]
    assert seen == expected
    assert torch.rand(3).tolist() == after  # exactly the same number of draws


def test_an_explicit_generator_leaves_the_global_one_alone():
    torch.manual_seed(3)
    before = torch.rand(2).tolist()
    torch.manual_seed(3)
    g = torch.Generator().manual_seed(11)
    order = [b.tolist() for b in DataLoader(range(6), batch_size=6, shuffle=True, generator=g)]
    assert torch.rand(2).tolist() == before
    g2 = torch.Generator().manual_seed(11)
    torch.empty((), dtype=torch.int64).random_(generator=g2)
    assert order == [torch.randperm(6, generator=g2).tolist()]


def test_batches_are_collated_per_field_as_lists():
    loader = DataLoader(TensorDataset(torch.arange(5.), torch.arange(5)), batch_size=2)
    batches = list(loader)
    assert len(loader) == 3 and len(batches) == 3
    assert all(type(b) is list and len(b) == 2 for b in batches)
    assert batches[2][0].tolist() == [4.] and batches[2][1].dtype is torch.int64
    it = iter(loader)
    assert len(it) == 3 and next(it)[0].tolist() == [0., 1.]


def test_samplers_and_split():
    assert list(BatchSampler(SequentialSampler(range(7)), 3, drop_last=True)) == [[0, 1, 2], [3, 4, 5]]
    assert sorted(RandomSampler(range(5))) == [0, 1, 2, 3, 4]
    picks = list(WeightedRandomSampler([0., 1., 0.], 4))
    assert picks == [1, 1, 1, 1]
    a, b = random_split(range(10), [0.7, 0.3], generator=torch.Generator().manual_seed(0))
    assert len(a) == 7 and len(b) == 3 and sorted(list(a) + list(b)) == list(range(10))
    assert get_worker_info() is None


def test_iterable_datasets_chain():
    class Count(IterableDataset):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(range(self.n))

    chained = Count(2) + Count(3)
    assert isinstance(chained, ChainDataset) and list(chained) == [0, 1, 0, 1, 2]
    assert [b.tolist() for b in DataLoader(chained, batch_size=4)] == [[0, 1, 0, 1], [2]]
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        DataLoader(chained, shuffle=True)


def test_utils_loads_lazily_and_under_the_torch_name():
    code = ("import sys, autograd_py; assert 'autograd_py.utils' not in sys.modules; "
            "autograd_py.install_as_torch(); from torch.utils import data; import torch; "
            "assert torch.utils.data.DataLoader is data.DataLoader")
    subprocess.run([sys.executable, "-c", code], check=True)
