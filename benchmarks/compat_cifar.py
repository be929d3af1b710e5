"""Time per forward and backward pass of the network of PyTorch's "Training a Classifier"
tutorial (CIFAR-10: two 5x5 convolutions, 2x2 max pooling, three linear layers, cross
entropy) on a batch of 4 3x32x32 images, float32, under compat and PyTorch.

The two run interleaved, round after round, in one process, so machine noise hits them
alike; the report gives the median time per step and the ratio.

Run:  python benchmarks/compat_cifar.py [--rounds 7] [--steps 30] [--threads 1]

BLAS and PyTorch use --threads threads (default 1: steady timings on a shared machine).
"""
import argparse
import os
import statistics
import time

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--rounds", type=int, default=7)
parser.add_argument("--steps", type=int, default=30, help="steps per round")
parser.add_argument("--threads", type=int, default=1)
args = parser.parse_args()
for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[variable] = str(args.threads)  # before NumPy loads its BLAS

import torch  # noqa: E402

import compat  # noqa: E402

torch.set_num_threads(args.threads)


def trainer(library):
    """One forward and backward pass of the tutorial's network, written against PyTorch's
    API."""
    nn, F = library.nn, library.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 6, 5)
            self.pool = nn.MaxPool2d(2, 2)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = self.pool(F.relu(self.conv1(x)))
            x = self.pool(F.relu(self.conv2(x)))
            x = library.flatten(x, 1)
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            return self.fc3(x)

    library.manual_seed(0)
    net, criterion = Net(), nn.CrossEntropyLoss()
    images, labels = library.randn(4, 3, 32, 32), library.tensor([1, 2, 3, 4])

    def step():
        net.zero_grad()
        criterion(net(images), labels).backward()
    return step


def main():
    steps = {"compat": trainer(compat), "torch": trainer(torch)}
    times = {name: [] for name in steps}
    for step in steps.values():
        for _ in range(5):  # warm up
            step()
    for _ in range(args.rounds):
        for name, step in steps.items():
            start = time.perf_counter()
            for _ in range(args.steps):
                step()
            times[name].append((time.perf_counter() - start) / args.steps * 1e3)
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, median in medians.items():
        print(f"{name:>6}: {median:6.2f} ms a step (median of {args.rounds} rounds of "
              f"{args.steps})")
    print(f"compat / torch: {medians['compat'] / medians['torch']:.2f}")


if __name__ == "__main__":
    main()
