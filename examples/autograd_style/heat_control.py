"""Optimal control of a simulation: find the initial temperature profile of a rod that,
after many explicit diffusion steps, best matches a target profile, by differentiating
through the whole simulation (``np.roll`` stencils, a Python loop of steps) with
``value_and_grad`` and SciPy's L-BFGS.

Written against funcgrad.autograd; runs unchanged on HIPS autograd once
``funcgrad.autograd`` reads ``autograd`` (tests/test_examples_autograd_style.py checks).

Run:  python examples/autograd_style/heat_control.py
"""
from scipy.optimize import minimize

import funcgrad.autograd.numpy as np
from funcgrad.autograd import value_and_grad


def simulate(temperature, steps, rate=0.2):
    """Periodic rod: each step moves every cell towards the mean of its neighbours."""
    for _ in range(steps):
        neighbours = np.roll(temperature, 1) + np.roll(temperature, -1)
        temperature = temperature + rate * (neighbours - 2.0 * temperature)
    return temperature


def objective(initial, target, steps, smoothness=0.01):
    mismatch = simulate(initial, steps) - target
    roughness = np.sum((initial - np.roll(initial, 1)) ** 2)
    return np.sum(mismatch ** 2) + smoothness * roughness


if __name__ == "__main__":
    cells, steps = 40, 15
    grid = np.linspace(0.0, 1.0, cells, endpoint=False)
    target = np.exp(-((grid - 0.3) / 0.08) ** 2) + 0.5 * np.exp(-((grid - 0.7) / 0.05) ** 2)

    start = np.zeros(cells)
    print(f"initial mismatch {objective(start, target, steps):.6f}")
    result = minimize(value_and_grad(objective), start, args=(target, steps), jac=True,
                      method="L-BFGS-B", options={"maxiter": 60})
    final = simulate(result.x, steps)
    print(f"optimized mismatch {result.fun:.6f} after {result.nit} iterations")
    print(f"largest error after the simulation {np.max(np.abs(final - target)):.5f}")
    print("initial profile (every 5th cell):", np.round(result.x[::5], 3))
