"""torch.accelerator of a build without one: ``current_accelerator()`` is None, so the
tutorials' ``device = ... if torch.accelerator.is_available() else "cpu"`` picks the CPU."""


def is_available():
    return False


def current_accelerator(check_available=False):
    return None


def device_count():
    return 0


__all__ = ["is_available", "current_accelerator", "device_count"]
