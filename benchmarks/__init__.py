"""Benchmarks: funcgrad against HIPS autograd, PyTorch eager and hand-written NumPy.

Run ``python -m benchmarks`` (after ``pip install -e ".[bench]"``). Never part of the tests.
"""
import os

# One BLAS thread for every peer unless told otherwise (set before NumPy or torch load
# their BLAS): on a shared machine, threaded matmuls' times vary by 100x, which would
# swamp the ratios, and a peer with more threads would not be compared like for like.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")
