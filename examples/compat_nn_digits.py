"""A small classifier for scikit-learn's handwritten digits, written as a PyTorch script
with compat.nn and compat.optim, and its training loss plotted to a PNG.

Run:  python examples/compat_nn_digits.py [loss.png]
(default: compat_nn_digits_loss.png in the system's temporary directory; needs
scikit-learn, and matplotlib for the plot). With ``import torch`` in place of the compat
import it is a PyTorch script and prints the same.
"""
import os
import sys
import tempfile

from sklearn.datasets import load_digits

import compat as torch

nn, F = torch.nn, torch.nn.functional


class DigitClassifier(nn.Module):
    def __init__(self, pixels, hidden, classes):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(pixels, hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(hidden, classes))

    def forward(self, images):
        return self.layers(images)


def accuracy(model, images, labels):
    model.eval()
    with torch.no_grad():
        correct = (model(images).argmax(dim=1) == labels).sum().item()
    model.train()
    return f"{correct}/{len(labels)}"


def plot(losses, path):
    try:
        import matplotlib
        matplotlib.use("Agg")  # draw to a file; no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        print("no plot: it needs matplotlib (pip install matplotlib)")
        return
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot(losses)
    axes.set_xlabel("step")
    axes.set_ylabel("cross-entropy")
    axes.set_title("digits classifier: training loss (compat.nn + compat.optim)")
    figure.savefig(path, dpi=80)
    plt.close(figure)
    print(f"wrote {os.path.basename(path)}")


def main(output):
    torch.manual_seed(0)
    digits = load_digits()
    images = torch.tensor(digits.data, dtype=torch.float32) / 16
    labels = torch.tensor(digits.target)
    order = torch.randperm(len(labels))
    train, test = order[:1500], order[1500:]

    model = DigitClassifier(64, 32, 10)
    print(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=4, gamma=0.5)
    loss_function = nn.CrossEntropyLoss()

    losses = []
    for epoch in range(8):
        shuffled = train[torch.randperm(len(train))]
        for start in range(0, len(shuffled), 100):
            batch = shuffled[start:start + 100]
            optimizer.zero_grad()
            loss = loss_function(model(images[batch]), labels[batch])
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        scheduler.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}, lr {scheduler.get_last_lr()[0]:.4f}, "
              f"test accuracy {accuracy(model, images[test], labels[test])}")
    print("last loss:", loss)
    plot(losses, output)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-")
         else os.path.join(tempfile.gettempdir(), "compat_nn_digits_loss.png"))
