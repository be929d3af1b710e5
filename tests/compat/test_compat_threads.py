"""Grad mode per thread, against PyTorch: no_grad, enable_grad, set_grad_enabled and
inference_mode in one thread leave the other threads' recording alone; a new thread starts
with recording on. (Anomaly mode is process-wide in PyTorch, and in compat.)"""
import threading
import warnings

import pytest

from compat_harness import check

THREADS = 4
ROUNDS = 300


def _in_threads(workers):
    """Run each worker in its own thread, all started together; re-raise the first error."""
    start = threading.Barrier(len(workers))
    errors = []

    def run(worker):
        start.wait()
        try:
            worker()
        except BaseException as error:  # reported in the main thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(worker,)) for worker in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


@pytest.mark.parametrize("mode", ["no_grad()", "set_grad_enabled(False)", "inference_mode()"])
def test_one_thread_without_grad_leaves_the_others_recording(mode):
    """The issue's case: 4 threads, one inside `mode`, each running backward ROUNDS times;
    every recording thread's backward succeeds and gives the right gradient."""
    def case(torch):
        results = {}

        def recording(index):
            def work():
                grads = []
                for _ in range(ROUNDS):
                    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
                    (x * x * index).sum().backward()
                    grads.append(x.grad)
                results[index] = (torch.is_grad_enabled(), grads[0], len(grads),
                                  all(torch.equal(g, grads[0]) for g in grads))
            return work

        def not_recording():
            with eval(f"torch.{mode}", {"torch": torch}):
                outs = []
                for _ in range(ROUNDS):
                    x = torch.tensor([1.0, 2.0], requires_grad=True)
                    outs.append((x * 2).requires_grad)
                results["off"] = (torch.is_grad_enabled(), any(outs))

        _in_threads([recording(1), recording(2), recording(3), not_recording])
        return results
    check(case)


@pytest.mark.parametrize("mode", ["no_grad()", "set_grad_enabled(False)", "inference_mode()",
                                  "enable_grad()", "inference_mode(False)"])
def test_a_new_thread_starts_with_grad_enabled(mode):
    """Whatever the starting thread's mode, a new thread records, and is not in
    inference mode; the starting thread's mode is untouched."""
    def case(torch):
        seen = {}

        def child():
            x = torch.ones(2, requires_grad=True)
            seen["child"] = (torch.is_grad_enabled(), torch.is_inference_mode_enabled(),
                             (x * 2).requires_grad)

        with torch.no_grad():
            with eval(f"torch.{mode}", {"torch": torch}):
                thread = threading.Thread(target=child)
                thread.start()
                thread.join()
                seen["parent"] = (torch.is_grad_enabled(), torch.is_inference_mode_enabled())
        return seen
    check(case)


def test_modes_switched_in_threads_concurrently_stay_per_thread():
    """Threads entering and leaving modes in an interleaving forced by barriers each see
    their own mode at every step."""
    def case(torch):
        step = threading.Barrier(THREADS)
        modes = ["no_grad()", "enable_grad()", "set_grad_enabled(False)", "inference_mode()"]
        seen = {}

        def worker(index):
            def work():
                trail = []
                with torch.no_grad() if index % 2 else torch.enable_grad():
                    step.wait()
                    with eval(f"torch.{modes[index]}", {"torch": torch}):
                        step.wait()
                        trail.append((torch.is_grad_enabled(),
                                      torch.is_inference_mode_enabled()))
                        step.wait()
                    trail.append(torch.is_grad_enabled())
                    step.wait()
                trail.append(torch.is_grad_enabled())
                seen[index] = trail
            return work

        for _ in range(20):
            _in_threads([worker(i) for i in range(THREADS)])
        return seen
    check(case)


def test_anomaly_mode_is_process_wide_like_torch():
    """PyTorch's anomaly mode is one switch for the process (not per thread): a thread
    sees the mode another thread turned on."""
    def case(torch):
        seen = {}
        entered, leave = threading.Event(), threading.Event()

        def in_anomaly_mode():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # both warn that anomaly mode is slow
                with torch.autograd.detect_anomaly():
                    entered.set()
                    leave.wait(10)

        def looking():
            entered.wait(10)
            seen["other thread"] = torch.is_anomaly_enabled()
            leave.set()

        _in_threads([in_anomaly_mode, looking])
        seen["after"] = torch.is_anomaly_enabled()
        return seen
    check(case)
