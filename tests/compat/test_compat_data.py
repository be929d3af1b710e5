"""compat.utils.data against torch.utils.data: the same batches (shuffled ones included,
after the same seed), splits, collation and errors."""
import numpy as np
import pytest

from compat_harness import check

SETUP = """
torch.manual_seed(seed)
xs = torch.arange(20.).reshape(10, 2)
ys = torch.arange(10) % 3
ds = TensorDataset(xs, ys)
"""

LOADERS = [
    "list(DataLoader(ds, batch_size=4))", "list(DataLoader(ds, batch_size=4, drop_last=True))",
    "list(DataLoader(ds, batch_size=3, shuffle=True))",
    "[list(DataLoader(ds, batch_size=4, shuffle=True)) for epoch in range(3)]",
    "list(DataLoader(ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(5)))",
    "(list(DataLoader(ds, batch_size=2, shuffle=True)), torch.rand(2))",
    "list(DataLoader(ds))", "list(DataLoader(ds, batch_size=None))",
    "len(DataLoader(ds, batch_size=4)), len(DataLoader(ds, batch_size=4, drop_last=True))",
    "list(DataLoader(ds, sampler=RandomSampler(ds, replacement=True, num_samples=40), "
    "batch_size=8))",
    "list(DataLoader(ds, sampler=SubsetRandomSampler([1, 4, 7]), batch_size=2))",
    "list(DataLoader(ds, sampler=WeightedRandomSampler([0.1, 0.9, 0.5, 2.0], 12), "
    "batch_size=5))",
    "list(WeightedRandomSampler(np.arange(1., 8.), 5, replacement=False, "
    "generator=torch.Generator().manual_seed(3)))",
    "list(DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 3, True)))",
    "list(DataLoader(ds, batch_size=4, collate_fn=lambda batch: len(batch)))",
    "list(DataLoader(ds, batch_size=4, num_workers=0, shuffle=False))",
    "[len(s) for s in random_split(ds, [3, 7])] + [list(random_split(ds, [3, 7])[0].indices)]",
    "[list(s.indices) for s in random_split(ds, [0.3, 0.3, 0.4])]",
    "[list(s.indices) for s in random_split(range(7), [0.5, 0.5], "
    "torch.Generator().manual_seed(1))]",
    "list(DataLoader(random_split(ds, [4, 6])[1], batch_size=4, shuffle=True))",
    "ds[3], len(ds), ds[-1], Subset(ds, [2, 0])[1], len(ConcatDataset([ds, ds])), (ds + ds)[12]",
    "list(DataLoader(Squares(), batch_size=3))",
    "list(DataLoader(Squares(), batch_size=3, drop_last=True))",
    "list(DataLoader(Pairs(), batch_size=3))", "list(DataLoader(Stream(), batch_size=4))",
    "default_collate([(torch.ones(2), 1, 2.0, 'a'), (torch.zeros(2), 3, 4.0, 'b')])",
    "default_collate([{'a': torch.ones(1), 'b': True}, {'a': torch.zeros(1), 'b': False}])",
    "default_collate([np.ones(2), np.zeros(2)])", "default_collate([np.float32(1), np.float32(2)])",
    "default_collate([[1, 2], [3, 4]])",
    # refused as PyTorch refuses
    "TensorDataset(torch.ones(3), torch.ones(4))", "DataLoader(ds, batch_size=0)",
    "DataLoader(ds, shuffle=True, sampler=SequentialSampler(ds))",
    "DataLoader(ds, batch_size=None, drop_last=True)", "random_split(ds, [3, 3])",
    "DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 3, False), batch_size=2)",
    "RandomSampler(ds, num_samples=0)", "DataLoader(Stream(), shuffle=True)",
    "WeightedRandomSampler([1.0, 2.0], 0)", "WeightedRandomSampler([1.0, 2.0], 2, 1)",
    "WeightedRandomSampler([[1.0, 2.0]], 2)",
    "default_collate([[1, 2], [3]])",
]


def _classes(library):
    data = library.utils.data

    class Squares(data.Dataset):
        def __len__(self):
            return 7

        def __getitem__(self, i):
            return library.tensor([float(i) ** 2])

    class Pairs(data.Dataset):
        def __len__(self):
            return 5

        def __getitem__(self, i):
            return {"x": library.full((2,), float(i)), "label": i % 2}

    class Stream(data.IterableDataset):
        def __iter__(self):
            return iter(library.arange(10.).reshape(5, 2))

    return {"Squares": Squares, "Pairs": Pairs, "Stream": Stream}


@pytest.mark.parametrize("seed", [0, 7])
@pytest.mark.parametrize("expression", LOADERS)
def test_data_loading_matches_torch(expression, seed):
    def case(torch):
        env = {"torch": torch, "np": np, "seed": seed, **_classes(torch),
               **{name: getattr(torch.utils.data, name) for name in torch.utils.data.__all__
                  if name in ("DataLoader", "TensorDataset", "Subset", "ConcatDataset",
                              "random_split", "RandomSampler", "SequentialSampler",
                              "SubsetRandomSampler", "WeightedRandomSampler",
                              "BatchSampler", "default_collate")}}
        exec(SETUP, env)
        return eval(expression, env)
    check(case, messages=True)
