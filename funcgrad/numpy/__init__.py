"""funcgrad.numpy: NumPy's API, differentiable. Write ``import funcgrad.numpy as np``.

Every function here accepts plain NumPy values (and then returns what NumPy would)
as well as values traced by funcgrad's transforms.
"""
import sys as _sys

from numpy import (e, euler_gamma, inf, nan, newaxis, pi, dtype, ndarray, iscomplexobj,
                   isscalar, ndim, shape, size, result_type, promote_types, finfo, iinfo)

from . import box as _box
from ._base import astype  # noqa: F401 -- (array, asarray: creation; real: elementwise)
from .scalar_types import *  # noqa: F401,F403
from .creation import *  # noqa: F401,F403
from .elementwise import *  # noqa: F401,F403
from .elementwise_special import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .products import *  # noqa: F401,F403
from .reductions import *  # noqa: F401,F403
from .statistics import *  # noqa: F401,F403
from .shape_ops import *  # noqa: F401,F403
from .padding import *  # noqa: F401,F403
from .sorting import *  # noqa: F401,F403
from .index_update import *  # noqa: F401,F403
from .polynomial import *  # noqa: F401,F403
from .array_extras import *  # noqa: F401,F403
from .index_tricks import *  # noqa: F401,F403
from .no_derivative import *  # noqa: F401,F403
from .set_routines import *  # noqa: F401,F403
from .histograms import *  # noqa: F401,F403
from .functional import *  # noqa: F401,F403
from .in_place import *  # noqa: F401,F403
from . import fft, lib, linalg, random  # noqa: E402 -- submodules use the functions above

_box.attach_array_interface(_sys.modules[__name__])  # now that every function exists
