"""compat.nn.EmbeddingBag and F.embedding_bag against torch.nn 2.13: seeded weights, the
bags' sums, means and maxima (padding, empty bags, per-sample weights, include_last_offset,
2-d inputs), gradients, reprs and error texts; and the text-classification tutorial's model
trained a few steps."""
import pytest

from compat_harness import assert_same_error, check, check_printed, gradients, seeded

BAGS = [  # (input, offsets): bags of 4, 0, 4, 1 and 3 indices
    ([1, 2, 4, 5, 4, 3, 2, 9, 0, 7, 7, 1], [0, 4, 4, 8, 9]),
    ([3, 3, 3], [0]), ([6, 1], [0, 1]),
]


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("bags", BAGS)
@pytest.mark.parametrize("padding_idx", [None, 3, -8])
def test_bags_of_a_flat_input(mode, bags, padding_idx):
    def case(torch):
        bag = torch.nn.EmbeddingBag(10, 3, mode=mode, padding_idx=padding_idx)
        out = bag(torch.tensor(bags[0]), torch.tensor(bags[1]))
        out.backward(torch.randn(out.shape))
        return repr(bag), out, gradients(bag)
    check(seeded(case))


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_bags_of_a_2d_input_and_the_last_offset(mode):
    def case(torch):
        bag = torch.nn.EmbeddingBag(8, 4, mode=mode, include_last_offset=True)
        rows = bag(torch.tensor([[1, 2, 3], [7, 7, 0]]))
        last = bag(torch.tensor([1, 2, 3, 7, 7, 0]), torch.tensor([0, 2, 2, 6]))
        (rows.sum() + (last * 2).sum()).backward()
        return rows, last, gradients(bag)
    check(seeded(case))


def test_per_sample_weights_and_their_gradients():
    def case(torch):
        bag = torch.nn.EmbeddingBag(10, 3, mode="sum")
        weights = torch.rand(8, requires_grad=True)
        out = bag(torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 4, 4]),
                  per_sample_weights=weights)
        out.backward(torch.randn(out.shape))
        return out, weights.grad, gradients(bag)
    check(seeded(case))


def test_functional_form_and_from_pretrained():
    def case(torch):
        table = torch.randn(6, 2, dtype=torch.float64)
        F = torch.nn.functional
        frozen = torch.nn.EmbeddingBag.from_pretrained(table, mode="max")
        trained = torch.nn.EmbeddingBag.from_pretrained(table, freeze=False, padding_idx=0)
        x, offsets = torch.tensor([0, 5, 5, 2]), torch.tensor([0, 1])
        return (F.embedding_bag(x, table, offsets, mode="sum"), frozen(x, offsets),
                frozen.weight.requires_grad, trained(x, offsets), repr(trained))
    check(seeded(case))


def test_reprs():
    def case(torch):
        nn = torch.nn
        print(nn.EmbeddingBag(10, 3), nn.EmbeddingBag(10, 3, mode="max", padding_idx=0),
              nn.EmbeddingBag(10, 3, norm_type=1.0, mode="sum", padding_idx=-1))
    check_printed(case)


def test_the_text_classification_tutorials_model_trains_as_torchs():
    """EmbeddingBag(mean) into Linear, SGD with a StepLR schedule and gradient clipping,
    over batches of token lists of different lengths (PyTorch's torchtext tutorial)."""
    def case(torch):
        nn = torch.nn

        class TextClassificationModel(nn.Module):
            def __init__(self, vocab_size, embed_dim, num_class):
                super().__init__()
                self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
                self.fc = nn.Linear(embed_dim, num_class)
                initrange = 0.5
                self.embedding.weight.data.uniform_(-initrange, initrange)
                self.fc.weight.data.uniform_(-initrange, initrange)
                self.fc.bias.data.zero_()

            def forward(self, text, offsets):
                return self.fc(self.embedding(text, offsets))

        model = TextClassificationModel(50, 8, 4)
        optimizer = torch.optim.SGD(model.parameters(), lr=5.0)
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1, gamma=0.1)
        criterion = nn.CrossEntropyLoss()
        losses = []
        for _ in range(4):
            lengths = torch.randint(1, 6, (5,))
            text = torch.randint(0, 50, (int(lengths.sum()),))
            offsets = torch.cat([torch.tensor([0]), lengths[:-1]]).cumsum(dim=0)
            label = torch.randint(0, 4, (5,))
            optimizer.zero_grad()
            loss = criterion(model(text, offsets), label)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
            optimizer.step()
            scheduler.step()
            losses.append(loss)
        return losses, list(model.named_parameters())
    check(seeded(case))


MISUSES = {
    "no offsets": "bag(x)",
    "2-d offsets": "bag(x, off[None])",
    "2-d input with offsets": "bag(x.reshape(2, 4), off)",
    "3-d input": "bag(x.reshape(2, 2, 2))",
    "weights shape": "bag(x, off, per_sample_weights=torch.rand(3))",
    "weights in mean mode": "torch.nn.EmbeddingBag(10, 3)(x, off, "
                            "per_sample_weights=torch.rand(8))",
    "first offset": "bag(x, torch.tensor([1, 4]))",
    "last offset": "bag(x, torch.tensor([0, 9]))",
    "index range": "bag(torch.tensor([1, 20]), torch.tensor([0]))",
    "float input": "bag(x.float(), off)",
    "float offsets": "bag(x, off.float())",
    "mode": "torch.nn.functional.embedding_bag(x, bag.weight, off, mode='median')",
    "max with frequency scaling": "torch.nn.functional.embedding_bag(x, bag.weight, off, "
                                  "mode='max', scale_grad_by_freq=True)",
    "weight rank": "torch.nn.functional.embedding_bag(x, bag.weight[0], off)",
    "padding index": "torch.nn.EmbeddingBag(10, 3, padding_idx=10)",
}


@pytest.mark.parametrize("misuse", list(MISUSES))
def test_misuse_raises_torchs_error(misuse):
    def case(torch):
        names = {"torch": torch, "bag": torch.nn.EmbeddingBag(10, 3, mode="sum"),
                 "x": torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), "off": torch.tensor([0, 4])}
        return eval(MISUSES[misuse], names)
    assert_same_error(seeded(case))
