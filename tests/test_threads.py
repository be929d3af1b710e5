"""Transforms run in 4 threads at once give what they give alone: each call's trace,
boxes and tape are its own, and a jitted function shared by the threads traces and
caches its programs safely."""
import gc
import threading

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

THREADS = 4
REPEATS = 15


def loss(x):
    h = fnp.tanh(fnp.outer(x, x) @ x + x[::-1])
    return fnp.sum(h ** 2) + fnp.prod(fnp.cos(x))


def vector(x):
    return fnp.sin(x) * fnp.cumsum(x)


SHARED_JIT = fg.jit(fg.grad(loss))
SHARED_JIT_VMAP = fg.jit(fg.vmap(fg.grad(loss)))

WORKLOADS = {
    "grad": lambda x: fg.grad(loss)(x),
    "value_and_grad": lambda x: fg.value_and_grad(loss)(x),
    "vjp": lambda x: fg.vjp(vector, x)[1](np.cos(x)),
    "jvp": lambda x: fg.jvp(vector, (x,), (np.cos(x),)),
    "linearize": lambda x: fg.linearize(vector, x)[1](np.cos(x)),
    "hessian": lambda x: fg.hessian(loss)(x),
    "hvp": lambda x: fg.hvp(loss, (x,), (np.cos(x),)),
    "jacfwd": lambda x: fg.jacfwd(vector)(x),
    "jacrev": lambda x: fg.jacrev(vector)(x),
    "vmap(grad)": lambda x: fg.vmap(fg.grad(loss))(np.stack([x, -x, 2 * x])),
    "checkpoint": lambda x: fg.grad(fg.checkpoint(loss))(x),
    "jit(grad), own": lambda x: fg.jit(fg.grad(loss))(x),
    "jit(grad), shared": lambda x: SHARED_JIT(x),
    "jit(vmap(grad)), shared": lambda x: SHARED_JIT_VMAP(np.stack([x, -x])),
    "make_graph(grad)": lambda x: str(fg.make_graph(fg.grad(loss))(x)),
}


def run_in_threads(work):
    """``work(thread)`` in THREADS threads, started together; fails with what any raised."""
    start = threading.Barrier(THREADS)
    errors = []

    def run(thread):
        try:
            start.wait()
            work(thread)
        except BaseException as error:  # reported by the main thread
            errors.append((thread, error))

    threads = [threading.Thread(target=run, args=(t,)) for t in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


def _input(thread):
    return np.linspace(-1.0, 1.0, 4) * (0.5 + 0.25 * thread)


def _assert_same(got, expected, what):
    if isinstance(expected, str):
        assert got == expected, what
        return
    for a, b in zip(fg.tree_util.tree_leaves(got), fg.tree_util.tree_leaves(expected)):
        np.testing.assert_array_equal(a, b, err_msg=what)


def test_transforms_in_four_threads_give_what_they_give_alone():
    alone = {(name, t): run(_input(t)) for name, run in WORKLOADS.items()
             for t in range(THREADS)}
    SHARED_JIT.clear_cache()
    SHARED_JIT_VMAP.clear_cache()
    results = {}

    def work(thread):
        names = list(WORKLOADS)
        names = names[thread:] + names[:thread]  # each thread in another order
        for repeat in range(REPEATS):
            for name in names:
                results[name, thread, repeat] = WORKLOADS[name](_input(thread))

    run_in_threads(work)
    for (name, thread, repeat), got in results.items():
        _assert_same(got, alone[name, thread], f"{name} in thread {thread}, run {repeat}")
    assert len(results) == len(WORKLOADS) * THREADS * REPEATS
    assert gc.isenabled()


def test_a_failing_transform_in_one_thread_leaves_the_others_alone():
    """One thread's transforms keep failing while three others differentiate."""
    expected = fg.grad(loss)(_input(1))
    results = []

    def failing(x):
        fnp.sin(x)
        raise ValueError("this thread's function fails")

    def work(thread):
        for _ in range(50):
            if thread == 0:
                with pytest.raises(ValueError, match="this thread's function fails"):
                    fg.jit(fg.grad(failing))(_input(0))
            else:
                results.append(fg.grad(loss)(_input(1)))

    run_in_threads(work)
    assert len(results) == 150
    for got in results:
        np.testing.assert_array_equal(got, expected)
    assert gc.isenabled()
