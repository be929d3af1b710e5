"""torch.utils.dlpack: tensors to and from DLPack capsules (compat._interchange)."""
from .._interchange import from_dlpack, to_dlpack

__all__ = ["from_dlpack", "to_dlpack"]
