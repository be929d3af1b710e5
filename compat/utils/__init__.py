"""torch.utils: `data` (datasets, samplers and the DataLoader) and `dlpack`."""
from . import data, dlpack

__all__ = ["data", "dlpack"]
