"""Every example runs as a script (in this process, for speed), prints what it should and
makes no warning on a library line."""
import importlib.util
import os
import runpy
import sys

import pytest

from quiet import library_stays_quiet

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


def run_example(name, *argv, monkeypatch, capsys):
    """Run examples/<name> as ``python examples/<name> *argv``; returns its output."""
    path = os.path.join(EXAMPLES, name)
    monkeypatch.setattr(sys, "argv", [path, *argv])
    try:
        with library_stays_quiet(name):
            runpy.run_path(path, run_name="__main__")
    except SystemExit as done:
        assert done.code in (0, None), f"{name} exited with {done.code}"
    return capsys.readouterr().out


def skip_if_missing(module, output):
    if importlib.util.find_spec(module) is None:
        assert "skipped: this example needs" in output
        pytest.skip(f"{module} is not installed (the example said so)")


def test_quickstart(monkeypatch, capsys):
    output = run_example("quickstart.py", monkeypatch=monkeypatch, capsys=capsys)
    assert "grad of a scalar function" in output


def test_tanh_derivatives_writes_a_png(monkeypatch, capsys, tmp_path):
    png = tmp_path / "tanh.png"
    output = run_example("tanh_derivatives.py", str(png), "--orders", "4",
                         monkeypatch=monkeypatch, capsys=capsys)
    skip_if_missing("matplotlib", output)
    assert "derivative of order 4" in output
    assert png.read_bytes().startswith(b"\x89PNG")


def test_logistic_regression_is_accurate(monkeypatch, capsys):
    output = run_example("logistic_regression.py", monkeypatch=monkeypatch, capsys=capsys)
    skip_if_missing("sklearn", output)
    test_accuracy = float(output.split("test accuracy")[1].split()[0])
    assert test_accuracy > 0.93


def test_neural_network_prints_a_line_per_epoch(monkeypatch, capsys):
    output = run_example("neural_network.py", "--epochs", "3", monkeypatch=monkeypatch,
                         capsys=capsys)
    lines = [line for line in output.splitlines() if line.startswith("epoch")]
    assert len(lines) == 3 and lines[-1].startswith("epoch   3/3  loss")
    losses = [float(line.split("loss")[1].split()[0]) for line in lines]
    assert losses[-1] < losses[0]


def test_per_example_gradients_writes_a_png(monkeypatch, capsys, tmp_path):
    png = tmp_path / "norms.png"
    output = run_example("per_example_gradients.py", str(png), "--steps", "20",
                         monkeypatch=monkeypatch, capsys=capsys)
    skip_if_missing("matplotlib", output)
    assert "vmap(grad) equals a loop of grad" in output
    assert "after 20 DP-SGD steps" in output
    assert png.read_bytes().startswith(b"\x89PNG")


def test_out_of_core_fits_a_chunked_dask_matrix(monkeypatch, capsys):
    output = run_example("out_of_core.py", "--size", "2MB", "--chunk", "200KB", "--features",
                         "10", "--steps", "4", "--check", monkeypatch=monkeypatch, capsys=capsys)
    skip_if_missing("dask", output)
    assert "25,000 x 10 float64: 1.91 MiB virtual" in output
    assert "10 chunks of 2,500 rows (195.31 kiB)" in output
    losses = [float(line.split("loss")[1].split()[0]) for line in output.splitlines()
              if line.startswith("step")]
    assert len(losses) == 4 and losses[-1] < losses[0]
    difference = float(output.split("max |difference|")[1].split(",")[0])
    assert difference < 1e-12
    assert float(output.split("cosine(fitted, true weights) =")[1].split(";")[0]) > 0.9
