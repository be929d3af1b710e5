"""torch.backends, as far as scripts probe it to choose a device: no MPS, no cuDNN."""
from . import cudnn, mps

__all__ = ["cudnn", "mps"]
