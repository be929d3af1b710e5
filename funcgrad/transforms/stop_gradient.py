"""stop_gradient: treat a value as a constant in every transform."""
from ..core import strip_derivatives
from ..tree_util import tree_map


def stop_gradient(x):
    """Return ``x`` (a pytree of arrays) with no derivative: every transform sees a constant."""
    return tree_map(strip_derivatives, x)
