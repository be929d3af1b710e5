"""Which peers are installed. A missing one is skipped with a note, never an error."""
import importlib


def available(module):
    try:
        importlib.import_module(module)
        return True
    except Exception:  # noqa: BLE001 -- any import failure means "skip this peer"
        return False


PEERS = {
    "numpy": "numpy",              # hand-written, the floor
    "funcgrad": "funcgrad",
    "compat": "compat",
    "autograd": "autograd",        # HIPS autograd
    "torch": "torch",              # PyTorch eager
}


def installed_peers():
    found, missing = [], []
    for peer, module in PEERS.items():
        (found if available(module) else missing).append(peer)
    if "compat" in found:
        import compat
        if not hasattr(compat, "tensor"):
            found.remove("compat")
            missing.append("compat")
    return found, missing
