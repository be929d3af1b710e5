"""Interleaved timing: every peer runs once per round, so machine noise hits all alike."""
import statistics
import time


def calibrate(run, target_seconds=0.02):
    """How many calls make one timing sample last about ``target_seconds``."""
    number = 1
    while True:
        start = time.perf_counter()
        for _ in range(number):
            run()
        if time.perf_counter() - start >= target_seconds or number >= 1 << 20:
            return number
        number *= 2


def interleaved_medians(runs, rounds=15, clock=time.perf_counter):
    """Median seconds per call of each callable in ``runs`` ({name: callable}), by
    ``clock`` (wall time; `time.thread_time` counts only this thread's CPU time, which
    other processes on a loaded machine do not inflate)."""
    numbers = {name: calibrate(run) for name, run in runs.items()}
    samples = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            number = numbers[name]
            start = clock()
            for _ in range(number):
                run()
            samples[name].append((clock() - start) / number)
    return {name: statistics.median(times) for name, times in samples.items()}
