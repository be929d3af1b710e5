"""torch.cuda of a build without CUDA: nothing is available, and asking for a device raises
PyTorch's own error. Seeding is accepted and does nothing, as in PyTorch, so scripts that
seed every generator run unchanged."""
from .. import _device


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


def _not_built(*args, **kwargs):
    _device.check("cuda")


current_device = get_device_name = get_device_properties = synchronize = set_device = \
    _not_built


def manual_seed(seed):
    """No CUDA generator to seed: does nothing, as PyTorch's CPU build."""


manual_seed_all = seed = seed_all = manual_seed


def empty_cache():
    """No CUDA memory to free: does nothing, as PyTorch's CPU build."""


__all__ = ["is_available", "device_count", "is_initialized", "current_device",
           "get_device_name", "get_device_properties", "synchronize", "set_device",
           "manual_seed", "manual_seed_all", "seed", "seed_all", "empty_cache"]
