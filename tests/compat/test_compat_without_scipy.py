"""compat needs NumPy only: without SciPy it imports and trains, and only the operations
of SciPy's (erf, lgamma, xlogy, ...) raise, with the ImportError that names the extra."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# A few SGD steps of a small network with compat.nn's common layers and losses; prints
# the losses.
TRAINING = """
import compat as torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.SiLU(), torch.nn.Linear(8, 8),
                            torch.nn.Sigmoid(), torch.nn.Linear(8, 1))
lstm = torch.nn.LSTM(4, 3)
optimizer = torch.optim.SGD(list(model.parameters()) + list(lstm.parameters()), lr=0.1)
x, y = torch.randn(16, 4), torch.randn(16, 1)
for _ in range(3):
    optimizer.zero_grad()
    out, _ = lstm(x.unsqueeze(1))
    loss = (torch.nn.functional.mse_loss(model(x), y) + out.pow(2).mean()
            + torch.nn.functional.kl_div(x.log_softmax(1), x.softmax(1).detach() * 0.9,
                                         reduction="batchmean")
            + torch.nn.functional.cross_entropy(model(x).expand(16, 2), (y > 0).long()[:, 0])
            + x.logsumexp(1).mean())
    loss.backward()
    optimizer.step()
    print(repr(loss.item()))
"""


def _run(script, hide_scipy):
    prefix = "import sys; sys.modules['scipy'] = None\n" if hide_scipy else ""
    return subprocess.run([sys.executable, "-c", prefix + script], capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": ROOT})


def test_compat_trains_without_scipy_as_with_it():
    without, with_ = _run(TRAINING, hide_scipy=True), _run(TRAINING, hide_scipy=False)
    assert without.returncode == 0, without.stderr
    assert without.stdout == with_.stdout and len(without.stdout.split()) == 3


def test_an_operation_of_scipys_names_the_extra_without_scipy():
    result = _run("import compat as torch\ntorch.erf(torch.ones(2))", hide_scipy=True)
    assert result.returncode == 1
    assert "ImportError: funcgrad.scipy (and funcgrad.autograd.scipy) needs SciPy" in (
        result.stderr)
