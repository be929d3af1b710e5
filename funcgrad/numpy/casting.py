"""Changing dtypes: astype, and the real/imaginary parts of complex values."""
import numpy as np

from ._rules import aval, defvjp, primitive, unbroadcast

astype = primitive(lambda x, dtype: np.asarray(x).astype(dtype), name="astype")
# A cast's cotangent is cast back (integer targets are constants and never get here).
defvjp(astype, lambda ans, x, dtype: (lambda g, meta=aval(x): unbroadcast(g, *meta)))

__all__ = ["astype"]
