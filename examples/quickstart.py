"""funcgrad in one page: derivatives of ordinary NumPy-style code.

Run:  python examples/quickstart.py
"""
import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp


def loss(w, x, y):
    """Squared error of a one-layer tanh model."""
    prediction = fnp.tanh(x @ w)
    return fnp.mean((prediction - y) ** 2)


def main():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 3))
    true_w = np.array([0.5, -1.0, 2.0])
    y = np.tanh(x @ true_w)

    print("1. grad of a scalar function: d/dx sin(x) at 0 =", fg.grad(fnp.sin)(0.0))
    third = fg.grad(fg.grad(fg.grad(fnp.tanh)))
    print("2. derivatives compose: d3/dx3 tanh(x) at 0 =", third(0.0))

    w = np.zeros(3)
    value_and_grad = fg.value_and_grad(loss)
    print("3. fitting w by gradient descent on the loss:")
    for step in range(201):
        value, g = value_and_grad(w, x, y)
        if step % 50 == 0:
            print(f"   step {step:3d}  loss {value:.6f}  w {np.round(w, 3)}")
        w = w - 0.5 * g
    print("   true w was", true_w)

    out, pullback = fg.vjp(lambda w: fnp.tanh(x @ w), w)
    (cotangent_w,) = pullback(np.ones_like(out))
    print("4. vjp pulls a whole output cotangent back at once:", np.round(cotangent_w, 3))


if __name__ == "__main__":
    main()
