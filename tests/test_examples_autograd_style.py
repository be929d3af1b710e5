"""Each program in examples/autograd_style/ (written against funcgrad.autograd) prints
exactly what it prints on HIPS autograd 1.9.1 once its imports read ``autograd``."""
import os
import sys

import pytest

from quiet import library_stays_quiet

FOLDER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples",
                      "autograd_style")
EXAMPLES = sorted(name for name in os.listdir(FOLDER) if name.endswith(".py"))


def run(path, source, capsys, monkeypatch):
    """Run ``source`` as the script at ``path`` would run; returns what it printed."""
    monkeypatch.setattr(sys, "argv", [path])
    namespace = {"__name__": "__main__", "__file__": path}
    exec(compile(source, path, "exec"), namespace)
    return capsys.readouterr().out


@pytest.mark.parametrize("name", EXAMPLES)
def test_prints_what_it_prints_on_autograd(name, capsys, monkeypatch):
    path = os.path.join(FOLDER, name)
    with open(path) as file:
        source = file.read()
    assert "import funcgrad.autograd" in source or "from funcgrad.autograd" in source
    with library_stays_quiet(name):
        ours = run(path, source, capsys, monkeypatch)
    theirs = run(path, source.replace("funcgrad.autograd", "autograd"), capsys, monkeypatch)
    assert ours.strip(), f"{name} printed nothing"
    assert ours == theirs

