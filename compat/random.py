"""torch.random: the default CPU generator's seeding and state (compat._random's
PyTorch-exact Mersenne Twister), and fork_rng, which restores the state on leaving."""
import contextlib

from ._random import (default_generator, get_rng_state, initial_seed, manual_seed, seed,
                      set_rng_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices",
             device_type=None):
    """Run the block and put the CPU generator back in the state it had before (compat has
    no other device whose generators to fork); `enabled=False` forks nothing."""
    if not enabled or device_type == "meta":
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)


__all__ = ["default_generator", "fork_rng", "get_rng_state", "initial_seed",
           "manual_seed", "seed", "set_rng_state"]
