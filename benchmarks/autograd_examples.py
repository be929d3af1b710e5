"""Run HIPS autograd's own examples under autograd and under funcgrad.autograd, and compare
what they print. A check run by hand, not a timing:

    python -m benchmarks.autograd_examples PATH/TO/autograd [example.py ...]

PATH is a git checkout of github.com/HIPS/autograd (nothing is downloaded). Each example
is copied twice into a scratch folder: as is, and with ``autograd`` imports rewritten to
``funcgrad.autograd``; iteration counts are cut (the PATCHES below), plotting goes to
matplotlib's Agg backend, MNIST is replaced by seeded synthetic digits, and the examples
that train on the text of example files read autograd's copy in both runs. The report says
per example whether the outputs are identical, equal up to a relative difference in the
numbers, or different, with each run's log in the scratch folder.
"""
import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PRELUDE = """import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as _plt
_plt.pause = lambda *args, **kwargs: None
_plt.show = lambda *args, **kwargs: None
import numpy as _np
_np.random.seed(0)
"""

SYNTHETIC_MNIST = '''import numpy as np


def mnist():
    rs = np.random.RandomState(1)

    def digits(n):
        labels = rs.randint(0, 10, n).astype(np.uint8)
        images = rs.randint(0, 60, (n, 28, 28)).astype(np.uint8)
        for k in range(10):
            images[labels == k, 2 * k:2 * k + 6, 4:24] += 180
        return images, labels

    return digits(600) + digits(100)
'''


def _at_most(value):
    return lambda match: re.sub(r"\d+", str(value), match.group(0))


# Per example, (regex, replacement) pairs that make it run in seconds.
PATCHES = {
    "bayesian_neural_net.py": [(r"num_iters=1000", "num_iters=12")],
    "bayesian_optimization.py": [(r"num_iters=20", "num_iters=2")],
    "black_box_svi.py": [(r"num_iters=2000", "num_iters=25"),
                         (r"num_samples=2000", "num_samples=200"),
                         (r"numticks=101", "numticks=21")],
    "deep_gaussian_process.py": [(r"callback=callback\)",
                                  'callback=callback, options={"maxiter": 4})')],
    "define_gradient.py": [],
    "fixed_points.py": [],
    "fluidsim/fluidsim.py": [(r"simulation_timesteps = \d+", "simulation_timesteps = 20"),
                             (r"maxiter\W+\d+", _at_most(3))],
    "fluidsim/wing.py": [(r"simulation_timesteps = \d+", "simulation_timesteps = 10"),
                         (r"maxiter\W+\d+", _at_most(3))],
    "gaussian_process.py": [(r"callback=callback\)",
                             'callback=callback, options={"maxiter": 8})')],
    "generative_adversarial_net.py": [(r"num_epochs = \d+", "num_epochs = 1"),
                                      (r"batch_size = \d+", "batch_size = 200")],
    "gmm.py": [(r"callback=callback,", 'callback=callback, options={"maxiter": 5},')],
    "gplvm.py": [(r"callback=callback\)", 'callback=callback, options={"maxiter": 4})')],
    "hmm_em.py": [(r"max_lines=60", "max_lines=8"), (r"num_states = 20", "num_states = 5")],
    "ica.py": [(r"callback=callback\)", 'callback=callback, options={"maxiter": 5})')],
    "logistic_regression.py": [(r"range\(100\)", "range(20)")],
    "lstm.py": [(r"num_iters=1000", "num_iters=12"), (r"iter % 10 == 0", "iter % 4 == 0"),
                (r"range\(20\)", "range(3)")],
    "mixture_variational_inference.py": [(r"num_iters=2000", "num_iters=15"),
                                         (r"numticks=101", "numticks=21")],
    "natural_gradient_black_box_svi.py": [(r"num_iters = 200", "num_iters = 20"),
                                          (r"t % 50 == 0", "t % 5 == 0"),
                                          (r"num_samples=2000", "num_samples=200")],
    "negative_binomial_maxlike.py": [],
    "neural_net.py": [(r"num_epochs = 5", "num_epochs = 1"),
                      (r"batch_size = 256", "batch_size = 100")],
    "neural_net_regression.py": [(r"num_iters=\d+", "num_iters=20")],
    "rnn.py": [(r"num_iters=1000", "num_iters=12"), (r"iter % 10 == 0", "iter % 4 == 0"),
               (r"range\(20\)", "range(3)")],
    "rosenbrock.py": [],
    "sinusoid.py": [(r"range\(1000\)", "range(30)")],
    "tanh.py": [],
    "variational_autoencoder.py": [(r"num_epochs = \d+", "num_epochs = 1"),
                                   (r"batch_size = \d+", "batch_size = 200")],
    # Both runs import convolve by name: the module path `autograd.scipy.signal` the
    # example spells out would not exist after its import is rewritten. Its weights are
    # drawn from an unseeded RandomState: seeded, so that the two runs can be compared.
    "convnet.py": [(r"num_epochs = \d+", "num_epochs = 2"),
                   (r"npr\.RandomState\(\)", "npr.RandomState(0)"),
                   (r"import autograd\.scipy\.signal\n",
                    "from autograd.scipy.signal import convolve\n"),
                   (r"convolve = autograd\.scipy\.signal\.convolve\n", "")],
    "ode_net.py": [(r"num_iters=\d+", "num_iters=8")],
    # Not expected to run on funcgrad: autograd internals.
    "rkhs.py": [], "print_trace.py": [], "dot_graph.py": [],
}

NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?|-?\d+e[-+]?\d+")


def _git(checkout, *args):
    return subprocess.run(["git", "-C", checkout, *args], capture_output=True,
                          check=True).stdout


def prepare(checkout, folder, library):
    """Copy examples/ of ``checkout`` into ``folder``, patched for ``library``."""
    for path in _git(checkout, "ls-tree", "-r", "--name-only", "HEAD", "examples/").split():
        path = path.decode()
        name = path[len("examples/"):]
        target = os.path.join(folder, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        data = _git(checkout, "show", "HEAD:" + path)
        if name.endswith(".py"):
            source = SYNTHETIC_MNIST if name == "data_mnist.py" else data.decode()
            for pattern, replacement in PATCHES.get(name, []):
                source = re.sub(pattern, replacement, source)
            if library == "funcgrad":
                source = re.sub(r"^(\s*)(from|import) autograd\b", r"\1\2 funcgrad.autograd",
                                source, flags=re.M)
                # Examples that train on example files' text read autograd's copy.
                source = re.sub(r"(?<![.\w])dirname\(__file__\)",
                                repr(os.path.join(os.path.dirname(folder), "autograd")), source)
            if name in PATCHES:
                source = PRELUDE + source
            data = source.encode()
        with open(target, "wb") as file:
            file.write(data)


def run(folder, name, timeout):
    env = dict(os.environ, PYTHONPATH=ROOT, MPLBACKEND="Agg")
    try:
        done = subprocess.run([sys.executable, os.path.basename(name)], capture_output=True,
                              text=True, timeout=timeout, env=env,
                              cwd=os.path.join(folder, os.path.dirname(name)))
        return done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


def compare(theirs, ours):
    """'identical', 'numbers within X' (same text around the numbers), or 'different'."""
    if theirs == ours:
        return "identical"
    a, b = NUMBER.findall(theirs), NUMBER.findall(ours)
    if NUMBER.sub("#", theirs) != NUMBER.sub("#", ours) or len(a) != len(b):
        return "different"
    worst = max(abs(float(x) - float(y)) / max(abs(float(x)), abs(float(y)), 1e-300)
                for x, y in zip(a, b))
    return f"numbers within a relative {worst:.1e}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", help="a git checkout of HIPS/autograd")
    parser.add_argument("examples", nargs="*", help="names under examples/ (default: all)")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="autograd_examples_")
    folders = {library: os.path.join(scratch, library) for library in ("autograd", "funcgrad")}
    for library, folder in folders.items():
        prepare(args.checkout, folder, library)
    for name in args.examples or sorted(PATCHES):
        (their_rc, theirs, their_err), (our_rc, ours, our_err) = (
            run(folders[library], name, args.timeout) for library in folders)
        if their_rc != 0 or our_rc != 0:
            verdict = f"failed (autograd: {their_rc}, funcgrad: {our_rc})"
        else:
            verdict = compare(theirs, ours)
        print(f"{name:36s} {verdict}", flush=True)
        with open(os.path.join(scratch, name.replace("/", "_") + ".log"), "w") as log:
            log.write(f"autograd (exit {their_rc}):\n{theirs}\n{their_err[-4000:]}\n"
                      f"funcgrad (exit {our_rc}):\n{ours}\n{our_err[-4000:]}\n")
            log.writelines(line + "\n" for line in difflib.unified_diff(
                theirs.splitlines(), ours.splitlines(), "autograd", "funcgrad", lineterm=""))
    print(f"logs in {scratch}")


if __name__ == "__main__":
    main()
