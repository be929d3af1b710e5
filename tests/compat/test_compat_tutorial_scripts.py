"""Code as PyTorch's classic tutorials and their readers write it (custom modules and
containers, training loops, losses, initialisation, gradient clipping), run under compat
and under torch 2.13: the same printed text, values, gradients, warnings and errors."""
import warnings

import pytest

from compat_harness import Raised, check, check_printed, run_both


def seeded(case, seed=0):
    """`case` run after manual_seed(seed) in its library."""
    def run(library):
        library.manual_seed(seed)
        return case(library)
    return run


def assert_same_error(case):
    """Both libraries raise the same exception type with the same message."""
    ours, theirs = run_both(case)
    assert isinstance(theirs, Raised), f"torch did not raise: {theirs!r}"
    assert isinstance(ours, Raised), f"compat did not raise; torch raised {theirs}"
    assert (ours.type, ours.message) == (theirs.type, theirs.message)


# ---- models and containers -----------------------------------------------------------------


def _two_layer_net(torch):
    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = torch.nn.Linear(4, 3)
            self.act = torch.nn.ReLU()
            self.fc2 = torch.nn.Linear(3, 2)

        def forward(self, x):
            return self.fc2(self.act(self.fc1(x)))
    return Net()


def test_replacing_a_layer_keeps_its_place():
    # The fine-tuning idiom (model.fc = nn.Linear(...)): the new layer takes the old one's
    # place in the printed model, the state_dict and the parameter order.
    def case(torch):
        model = _two_layer_net(torch)
        model.fc1 = torch.nn.Linear(4, 3, bias=False)
        model.fc1.weight = torch.nn.Parameter(torch.ones(3, 4))
        sequential = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
        sequential[0] = torch.nn.Tanh()
        print(model, sequential, list(model.state_dict()), sep="\n")
        print([name for name, _ in model.named_parameters()])
    check_printed(seeded(case))


def test_sequential_edits():
    def case(torch):
        nn = torch.nn
        model = nn.Sequential(nn.Linear(1, 2), nn.ReLU(), nn.Linear(2, 1))
        del model[1]
        model.insert(1, nn.Tanh())
        model.insert(-1, nn.Sigmoid())
        model.extend([nn.ReLU()])
        print(model.pop(0), model, model + nn.Sequential(nn.Identity()), sep="\n")
        for bad in (lambda: model.insert(9, nn.ReLU()), lambda: model + 3):
            try:
                bad()
            except (IndexError, ValueError) as error:
                print(type(error).__name__, error)
    check_printed(seeded(case))


def test_module_list_and_dict_register_print_and_train():
    def case(torch):
        nn = torch.nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.blocks = nn.ModuleList([nn.Linear(3, 3) for _ in range(3)])
                self.blocks.append(nn.ReLU())
                self.heads = nn.ModuleDict({"cls": nn.Linear(3, 2), "reg": nn.Linear(3, 1)})
                self.heads.update([("aux", nn.Tanh())])

            def forward(self, x):
                for block in self.blocks[:-1]:
                    x = self.blocks[-1](block(x))
                return sum(head(x).sum() for head in self.heads.values())

        net = Net()
        print(net, nn.ModuleList(), net.blocks[1:], list(net.heads), "reg" in net.heads,
              len(net.heads), list(net.state_dict()), sep="\n")
        loss = net(torch.randn(4, 3))
        loss.backward()
        print(loss, net.blocks[0].weight.grad)
        net.blocks.insert(0, nn.Sigmoid())
        del net.blocks[1:3]
        print(net.blocks.pop(-1), net.heads.pop("aux"), net.blocks + [nn.ReLU()], sep="\n")
    check_printed(seeded(case), rtol=1e-6)


@pytest.mark.parametrize("misuse", [
    "torch.nn.ModuleList()[0]",
    "torch.nn.ModuleList().extend(3)",
    "torch.nn.ModuleDict().update(5)",
    "torch.nn.ModuleDict().update([('a', torch.nn.ReLU()), ('b',)])",
    "torch.nn.ModuleDict().update([('a', torch.nn.ReLU()), 7])",
])
def test_container_misuse_raises_torchs_error(misuse):
    assert_same_error(lambda torch: eval(misuse))
