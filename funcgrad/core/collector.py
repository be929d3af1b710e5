"""Pausing Python's cyclic garbage collector while a graph is recorded or pulled back.

A recorded graph is acyclic and is freed by reference counting, but its nodes, closures
and boxes are container objects, so the collector scans them again and again as the
graph grows: on a 200,000-primitive chain that scanning was ~45% of the time of grad
(2.6 s with the collector, 1.5 s without; benchmarks/chain.py). Cycles that the user's
function creates are collected as usual once the transform returns.
"""
import gc


class collector_paused:
    """``with collector_paused():`` -- a class rather than a generator-based context
    manager, which costs ~2 us per use (every transform call enters it)."""

    __slots__ = ("was_enabled",)

    def __enter__(self):
        # Paused by an enclosing transform (or by the user): leave it paused on exit.
        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc_info):
        if self.was_enabled:
            gc.enable()
