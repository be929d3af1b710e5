"""Tensor.apply_, map_ and map2_: a Python callable applied to each element (with the
elements of other tensors at the same position), its results written in place. PyTorch
records no derivative for them and refuses tensors that require grad."""
import numbers

import numpy as np

from ._tensor import Tensor


def _python_number(dtype):
    """The conversion of the callable's results to `dtype`'s numbers, with PyTorch's errors
    for results that do not convert."""
    if dtype.is_complex:
        return complex
    if dtype.is_floating_point:
        def real(value):
            if not isinstance(value, numbers.Real):
                raise TypeError(f"must be real number, not {type(value).__name__}")
            return float(value)
        return real
    if dtype.name == "bool":
        return bool

    def integer(value):
        if not isinstance(value, numbers.Real):
            raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an "
                            f"integer")
        return int(value)
    return integer


def _refuse_grad(name, tensors):
    if any(t.requires_grad for t in tensors):
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use "
                           f"var.detach().{name}() instead.")


def _mapped(self, name, others, argument_names, function):
    """Write ``function(x, *others at x's position)`` into each element x of `self`, in
    row-major order (the others broadcast to self's shape, of self's dtype)."""
    _refuse_grad(name, (self, *others))
    for other, argument in zip(others, argument_names):
        if other.dtype is not self.dtype:
            raise TypeError(f"{name}: expected torch.{self.dtype.legacy_name} for "
                            f"{argument} (got torch.{other.dtype.legacy_name})")
    columns = [self._data.ravel().tolist()]
    columns += [other.expand(self.shape)._data.ravel().tolist() for other in others]
    convert = _python_number(self.dtype)
    results = [convert(function(*values)) for values in zip(*columns)]
    # (written without counting a modification: PyTorch's version counter stays)
    self._data[...] = np.array(results, self._data.dtype).reshape(self._data.shape)
    return self


def apply_(self, callable):
    """Each element replaced by ``callable(element)``."""
    return _mapped(self, "apply_", (), (), callable)


def map_(self, tensor, callable):
    """Each element x replaced by ``callable(x, y)``, y the element of `tensor` there."""
    return _mapped(self, "map_", (tensor,), ("'other'",), callable)


def map2_(self, x, y, callable):
    """Each element replaced by ``callable(element, x's element, y's element)``."""
    return _mapped(self, "map2_", (x, y), ("argument 'x'", "argument 'y'"), callable)


def install_tensor_methods():
    Tensor.apply_ = apply_
    Tensor.map_ = map_
    Tensor.map2_ = map2_
