"""The engine: boxes, trace levels, primitives and the backward pass.

Knows nothing about NumPy functions; `funcgrad.numpy` declares the primitives.
"""
from .box import EAGER_LEVEL, Box, Trace, find_top_trace, new_box, register_box_class, unbox_all
from .primitive import (Primitive, defjvp, defjvp_any_arg, defvjp, defvjp_any_arg, registry,
                        tuple_get)
from .reverse import LeakedBoxError, Node, ReverseTrace, backward_pass
from .values import (add_cotangents, dtype_of, is_differentiable, ones_like_value, shape_of,
                     zeros_like_value)
from .forward import JVPTrace, float0
