"""A 200,000-primitive chain, forward and backward: time and peak memory, one process per peer.

Each peer runs in a fresh subprocess so that its peak resident memory is its own: on
Linux the peak (VmHWM) is reset after imports and set-up, whose resident size is
subtracted. (ru_maxrss would not do: Linux carries it over from the parent across exec.)
"""
import json
import subprocess
import sys

LENGTH = 200_000

_PROGRAM = r"""
import json, resource, time
import numpy as np
peer, length = {peer!r}, {length}
x = np.linspace(0.1, 0.3, 3)
if peer in ("funcgrad", "autograd"):
    if peer == "funcgrad":
        import funcgrad as ad, funcgrad.numpy as anp
    else:
        import autograd as ad, autograd.numpy as anp
    def chain(y):
        for _ in range(length):
            y = anp.sin(y)
        return anp.sum(y)
    run = lambda: ad.grad(chain)(x)
else:
    torch = __import__("torch" if peer == "torch" else "compat")
    def run():
        leaf = torch.tensor(x, requires_grad=True)
        y = leaf
        for _ in range(length):
            y = torch.sin(y)
        y.sum().backward()
        return leaf.grad
def status_kib(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
try:
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")  # resets VmHWM to the current resident size
    base = status_kib("VmRSS")
    peak_kib = lambda: status_kib("VmHWM")
except OSError:  # not Linux: the process's own high-water mark, imports included
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    peak_kib = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
run()
seconds = time.perf_counter() - start
print(json.dumps({{"seconds": seconds, "peak_mib": (peak_kib() - base) / 1024}}))
"""


def measure(peer):
    """(seconds, peak MiB) of one forward+backward of the chain, or None on failure."""
    code = _PROGRAM.format(peer=peer, length=LENGTH)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600)
    if done.returncode != 0:
        return None, done.stderr.strip().splitlines()[-1] if done.stderr else "failed"
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return (result["seconds"], result["peak_mib"]), None
