"""ParametrizationList: the parametrizations registered on one tensor of a module, in
order, and the unconstrained tensor(s) they are computed from (``original``, or
``original0``, ``original1``, ... when the first one takes several)."""
from collections.abc import Sequence

from ... import _inplace
from ..._grad_mode import no_grad
from ..._tensor import Tensor
from ..containers import ModuleList
from ..parameter import Parameter

_NOT_TENSORS = ("'right_inverse' must return a Tensor or a Sequence of tensors "
                "(list, tuple...). Got ")


def register_parameter_or_buffer(module, name, tensor):
    """Register `tensor` in `module` as what it is: a Parameter as one, else a buffer."""
    if isinstance(tensor, Parameter):
        module.register_parameter(name, tensor)
    else:
        module.register_buffer(name, tensor)


def take_values(destination, source):
    """Make `destination` hold `source`'s storage (and shape), keeping its identity (an
    optimizer holding it keeps updating it): PyTorch's set_, an in-place update of
    `destination`, which refuses another dtype."""
    if source.dtype != destination.dtype:
        raise RuntimeError(f"Could not set tensor of type {source.dtype.cpp_name} to a "
                           f"tensor of type {destination.dtype.cpp_name}")
    destination.data = source
    _inplace.count_update(destination)


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor (``module.parametrizations[name]``) and the
    tensors they start from. Made by `register_parametrization`, not by users."""

    def __init__(self, modules, original, unsafe=False):
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        original_shape, original_dtype = original.shape, original.dtype
        with no_grad():
            unconstrained = self._unconstrained(original)
        if isinstance(unconstrained, Tensor):
            self._keep_original(original, unconstrained)
        elif isinstance(unconstrained, Sequence):
            self._keep_originals(original, unconstrained)
        else:
            raise ValueError(_NOT_TENSORS + type(unconstrained).__name__)
        if not self.unsafe:
            self._check_consistent(original_shape, original_dtype)

    def _unconstrained(self, value):
        """`value` through the right inverses, last parametrization first; one that has
        none, or raises NotImplementedError, counts as the identity."""
        for parametrization in reversed(list(self)):
            if hasattr(parametrization, "right_inverse"):
                try:
                    value = parametrization.right_inverse(value)
                except NotImplementedError:
                    pass
        return value

    def _keep_original(self, original, unconstrained):
        """One unconstrained tensor: the module's own tensor takes its values and is kept
        as ``original`` (so an optimizer given it still updates it)."""
        self.is_tensor, self.ntensors = True, 1
        if original.dtype != unconstrained.dtype:
            raise ValueError(
                f"When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                f"original.dtype: {original.dtype}\n"
                f"right_inverse(original).dtype: {unconstrained.dtype}")
        with no_grad():
            take_values(original, unconstrained)
        register_parameter_or_buffer(self, "original", original)

    def _keep_originals(self, original, unconstrained):
        """Several unconstrained tensors: new ``original0``, ``original1``, ... (Parameters
        if the module's tensor was one), requiring grad as it did."""
        self.is_tensor, self.ntensors = False, len(unconstrained)
        for i, tensor in enumerate(unconstrained):
            if not isinstance(tensor, Tensor):
                raise ValueError(f"{_NOT_TENSORS}element {i} of the sequence with type "
                                 f"{type(tensor).__name__}.")
            if isinstance(original, Parameter):
                tensor = Parameter(tensor, original.requires_grad)
            tensor.requires_grad_(original.requires_grad)
            register_parameter_or_buffer(self, f"original{i}", tensor)

    def _check_consistent(self, original_shape, original_dtype):
        """The parametrized tensor must keep the module's tensor's dtype and shape."""
        value = self()
        if not isinstance(value, Tensor):
            raise ValueError(f"A parametrization must return a tensor. Got "
                             f"{type(value).__name__}.")
        if value.dtype != original_dtype:
            raise ValueError(
                f"Registering a parametrization may not change the dtype of the tensor, "
                f"unless `unsafe` flag is enabled.\n"
                f"unparametrized dtype: {original_dtype}\n"
                f"parametrized dtype: {value.dtype}")
        if value.shape != original_shape:
            raise ValueError(
                f"Registering a parametrization may not change the shape of the tensor, "
                f"unless `unsafe` flag is enabled.\n"
                f"unparametrized shape: {original_shape}\n"
                f"parametrized shape: {value.shape}")

    def originals(self):
        """The unconstrained tensor(s), as the first parametrization takes them."""
        if self.is_tensor:
            return (self.original,)
        return tuple(getattr(self, f"original{i}") for i in range(self.ntensors))

    def forward(self):
        first, *rest = self
        value = first(*self.originals())
        for parametrization in rest:
            value = parametrization(value)
        return value

    def right_inverse(self, value):
        """Set the unconstrained tensor(s) so that the parametrized tensor is `value`
        (what assigning ``module.<name> = value`` does): every parametrization must have
        a right_inverse."""
        with no_grad():
            for parametrization in reversed(list(self)):
                if not hasattr(parametrization, "right_inverse"):
                    raise RuntimeError(f"parametrization {type(parametrization).__name__} "
                                       f"does not implement right_inverse.")
                value = parametrization.right_inverse(value)
            if self.is_tensor:
                self._set_original(value)
            else:
                self._set_originals(value)

    def _set_original(self, value):
        if not isinstance(value, Tensor):
            raise ValueError(f"`right_inverse` should return a tensor. Got "
                             f"{type(value).__name__}")
        if value.dtype != self.original.dtype:
            raise ValueError(f"The tensor returned by `right_inverse` has dtype {value.dtype} "
                             f"while `original` has dtype {self.original.dtype}")
        take_values(self.original, value)

    def _set_originals(self, values):
        if not isinstance(values, Sequence):
            raise ValueError(f"'right_inverse' must return a sequence of tensors. Got "
                             f"{type(values).__name__}.")
        if len(values) != self.ntensors:
            raise ValueError(f"'right_inverse' must return a sequence of tensors of length "
                             f"{self.ntensors}. Got a sequence of length {len(values)}.")
        for i, (original, value) in enumerate(zip(self.originals(), values)):
            if not isinstance(value, Tensor):
                raise ValueError(f"'right_inverse' must return a sequence of tensors or "
                                 f"reference-type opaques. Got element {i} of type "
                                 f"{type(value).__name__}.")
            if value.dtype != original.dtype:
                raise ValueError(f"Tensor {i} returned by `right_inverse` has dtype "
                                 f"{value.dtype} while `original{i}` has dtype "
                                 f"{original.dtype}")
            take_values(original, value)
