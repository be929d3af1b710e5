"""tanh and its first six derivatives, by nesting grad, plotted to a PNG.

Run:  python examples/tanh_derivatives.py [output.png]
(default: tanh_derivatives.png in the system's temporary directory; needs matplotlib,
and says so and stops when it is not installed).
"""
import argparse
import os
import sys
import tempfile

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp


def derivative(f):
    """The derivative of an elementwise function, itself elementwise.

    grad needs a scalar output; since f acts on each element alone, the gradient of
    sum(f(x)) holds f'(x_i) at position i.
    """
    return fg.grad(lambda x: fnp.sum(f(x)))


def derivatives(f, count):
    """[f, f', f'', ...]: `count` derivatives, each the derivative of the one before."""
    functions = [f]
    for _ in range(count):
        functions.append(derivative(functions[-1]))
    return functions


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?",
                        default=os.path.join(tempfile.gettempdir(), "tanh_derivatives.png"))
    parser.add_argument("--orders", type=int, default=6, help="how many derivatives")
    args = parser.parse_args(argv)
    try:
        import matplotlib
        matplotlib.use("Agg")  # draw to a file; no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        print("skipped: this example needs matplotlib (pip install matplotlib)")
        return 0

    x = np.linspace(-7, 7, 300)
    figure, axes = plt.subplots(figsize=(8, 5))
    for order, f in enumerate(derivatives(fnp.tanh, args.orders)):
        y = f(x)
        print(f"derivative of order {order}: largest magnitude {np.max(np.abs(y)):8.4f}")
        axes.plot(x, y, label=f"order {order}")
    axes.set_title("tanh and its derivatives (funcgrad.grad nested)")
    axes.legend(loc="upper right", fontsize="small")
    figure.savefig(args.output, dpi=80)
    plt.close(figure)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
