"""The engine: traces and boxes, primitives and their rules, the backward pass.

Knows nothing about NumPy functions; `funcgrad.numpy` declares the primitives.
"""
from .batching import (BatchBox, BatchTrace, BatchingFallbackWarning, DiagonalBatchBox,
                       defbatch, defdiagonal, diagonal_batch)
from .errors import ConversionError, LeakedValueError
from .forward import JVPBox, JVPTrace, float0
from .primitive import NO_PARAMS, Primitive, registry, tuple_get
from .reverse import ZERO_REACHED, Node, ReverseBox, ReverseTrace, backward_pass, leaf_node
from .rules import (ZERO, ArgVJP, defjvp, defjvp_any_arg, defvjp, defvjp_any_arg,
                    defvjp_rule)
from .trace import (EAGER_LEVEL, Box, Trace, collector_paused, every_value, find_top_trace,
                    instruments, new_trace, strip_derivatives, unbox_all)
from .values import (PYTHON_NUMBERS, add_cotangents, as_dtype, constant_like, dtype_of, full_of_part,
                     has_memory, is_array, is_differentiable, library_array, ones_like_value,
                     quiet_floating_point, shape_of, unboxed, zeros_in_library_of,
                     zeros_like_value)
