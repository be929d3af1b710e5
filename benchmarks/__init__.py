"""Benchmarks: funcgrad against HIPS autograd, PyTorch eager and hand-written NumPy.

Run ``python -m benchmarks`` (after ``pip install -e ".[bench]"``). Never part of the tests.
"""
