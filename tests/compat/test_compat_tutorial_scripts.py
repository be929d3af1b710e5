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
