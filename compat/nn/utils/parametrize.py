"""nn.utils.parametrize: a tensor of a module computed, at each access, by modules
("parametrizations") from unconstrained tensors that the optimizer updates.

Registering the first parametrization on a module gives the module a class of its own,
``Parametrized<Class>``, a subclass of its class with a property per parametrized name;
the parametrizations and the unconstrained tensors live in the ModuleDict
``module.parametrizations`` (one ParametrizationList per name), so the state_dict holds
``parametrizations.<name>.original``. Removing the last one restores the class.
"""
import copy
import copyreg
from contextlib import contextmanager

from ..._grad_mode import no_grad
from ..._tensor import Tensor
from ..containers import ModuleDict
from ..parameter import Parameter
from ._parametrization_list import (ParametrizationList, register_parameter_or_buffer,
                                    take_values)

__all__ = ["cached", "ParametrizationList", "register_parametrization", "is_parametrized",
           "remove_parametrizations", "type_before_parametrizations",
           "transfer_parametrizations_and_params"]


class _Cache:
    """The parametrized tensors computed inside `cached()` blocks (open ones counted),
    by (id of the module, name)."""
    depth = 0
    values = {}


@contextmanager
def cached():
    """Compute each parametrized tensor once inside the block (the first access), not at
    every access; the values are forgotten when the outermost block ends."""
    _Cache.depth += 1
    try:
        yield
    finally:
        _Cache.depth -= 1
        if not _Cache.depth:
            _Cache.values = {}


def _parametrized_value(module, name):
    parametrizations = module.parametrizations[name]
    if not _Cache.depth:
        return parametrizations()
    key = (id(module), name)
    value = _Cache.values.get(key)
    if value is None:
        value = _Cache.values[key] = parametrizations()
    return value


def _parametrized_property(name):
    """Reading ``module.<name>`` computes it; assigning sets the unconstrained tensors
    through the right inverses."""
    def parametrized(module):
        return _parametrized_value(module, name)

    def assign(module, value):
        module.parametrizations[name].right_inverse(value)

    return property(parametrized, assign)


def _refuse_pickling(module):
    raise RuntimeError(
        "Serialization of parametrized modules is only supported through state_dict(). "
        "See:\nhttps://pytorch.org/tutorials/beginner/saving_loading_models.html"
        "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training")


def _deepcopy(module, memo):
    """A deep copy made member by member (the copy protocol would ask __getstate__,
    which refuses)."""
    replica = memo.get(id(module))
    if replica is None:
        replica = memo[id(module)] = object.__new__(type(module))
        object.__setattr__(replica, "__dict__", copy.deepcopy(module.__dict__, memo))
        for slot in copyreg._slotnames(type(module)):
            if hasattr(module, slot):
                setattr(replica, slot, copy.deepcopy(getattr(module, slot), memo))
    return replica


def _give_parametrized_class(module):
    """Make `module` an instance of a new subclass of its class, which its parametrized
    properties are added to; pickling it is refused (its class cannot be found by name),
    deep copies are allowed."""
    cls = type(module)
    members = {"__getstate__": _refuse_pickling, "__module__": __name__}
    if not hasattr(cls, "__deepcopy__"):
        members["__deepcopy__"] = _deepcopy
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), members)


def register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    """Make ``module.<tensor_name>`` the output of `parametrization` (a Module), applied
    after those already registered on it. The first one's ``right_inverse`` (if any) turns
    the current tensor into the unconstrained one(s). Unless `unsafe`, the dtype and shape
    of the tensor must not change. Returns `module`."""
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            _check_keeps_dtype_and_shape(module, tensor_name, parametrization)
        parametrizations = module.parametrizations[tensor_name]
        parametrizations.append(parametrization)
        parametrizations.unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        # The list is made first: its checks may refuse before the module is touched.
        parametrizations = ParametrizationList([parametrization],
                                               getattr(module, tensor_name), unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _give_parametrized_class(module)
            module.parametrizations = ModuleDict()
        setattr(type(module), tensor_name, _parametrized_property(tensor_name))
        module.parametrizations[tensor_name] = parametrizations
    else:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a "
                         f"parametrized element with name '{tensor_name}'")
    return module


def _check_keeps_dtype_and_shape(module, tensor_name, parametrization):
    """A parametrization added to a chain maps the current tensor to one of the same dtype
    and shape, and so does its right_inverse (if it has one)."""
    current = getattr(module, tensor_name)
    value = parametrization(current)
    if not isinstance(value, Tensor):
        raise ValueError(f"A parametrization must return a tensor. Got {type(value).__name__}.")
    _check_same(current, value, tensor_name,
                lambda what: f"Registering a parametrization may not change the {what} of "
                             f"the tensor, unless the `unsafe` flag is enabled.",
                lambda what: f"parametrization(module.{tensor_name}).{what}")
    if not hasattr(parametrization, "right_inverse"):
        return
    try:
        inverse = parametrization.right_inverse(value)
    except NotImplementedError:
        return
    if not isinstance(inverse, Tensor):
        raise ValueError(f"parametrization.right_inverse must return a tensor. Got: "
                         f"{type(inverse).__name__}")
    _check_same(current, inverse, tensor_name,
                lambda what: f"The tensor returned by parametrization.right_inverse must have "
                             f"the same {what} as module.{tensor_name}, unless the `unsafe` "
                             f"flag is enabled.",
                lambda what: f"returned {what}")


def _check_same(current, other, tensor_name, headline, label):
    """PyTorch's error if `other`'s dtype, then its shape, is not `current`'s (`headline`
    and `label` word it for the property checked)."""
    for what in ("dtype", "shape"):
        if getattr(other, what) != getattr(current, what):
            raise ValueError(f"{headline(what)}\n"
                             f"module.{tensor_name}.{what}: {getattr(current, what)}\n"
                             f"{label(what)}: {getattr(other, what)}")


def is_parametrized(module, tensor_name=None):
    """Whether `module` has a parametrization on `tensor_name` (on anything if None)."""
    parametrizations = getattr(module, "parametrizations", None)
    if not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    """Make ``module.<tensor_name>`` a plain parameter or buffer again: with its current
    (parametrized) value if `leave_parametrized`, else the unconstrained ``original``
    (possible only where there is one). The tensor object kept is ``original`` where
    there is one, so an optimizer holding it keeps updating it. Returns `module`."""
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    parametrizations = module.parametrizations[tensor_name]
    if parametrizations.is_tensor:
        original = parametrizations.original
        if leave_parametrized:
            _leave_parametrized_value(module, tensor_name, original)
    elif leave_parametrized:
        # (Outside no_grad: whether it requires grad says whether it is to be a Parameter.)
        value = getattr(module, tensor_name)
        original = Parameter(value) if value.requires_grad else value
    else:
        raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor "
                         "that is parametrized in terms of a sequence of tensors.")
    delattr(type(module), tensor_name)
    del module.parametrizations[tensor_name]
    register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = type(module).__bases__[0]
    return module


def _leave_parametrized_value(module, tensor_name, original):
    """`original` takes the current value of ``module.<tensor_name>`` (an unsafe
    parametrization may have changed its dtype, which PyTorch's set_ refuses: for a
    Parameter, in words about tensor subclasses)."""
    try:
        with no_grad():
            take_values(original, getattr(module, tensor_name))
    except RuntimeError as error:
        if not isinstance(original, Parameter):
            raise
        raise RuntimeError(
            "Calling remove_parametrizations() with leave_parametrized=True for a parameter "
            "that is an instance of a tensor subclass requires set_() to be implemented "
            "correctly for the tensor subclass.Alternatively, one can opt into the "
            "swap_tensors pathEither set leave_parametrized=False or provide a working "
            "implementationfor set_() in the tensor subclass or set "
            "torch.__future__.set_swap_module_params_on_conversion(True).") from error


def type_before_parametrizations(module):
    """The class `module` had before its first parametrization (its class if it has
    none)."""
    if is_parametrized(module):
        return type(module).__bases__[0]
    return type(module)


def transfer_parametrizations_and_params(from_module, to_module, tensor_name=None):
    """Register on `to_module` the parametrizations of `from_module` (those of
    `tensor_name`, or all), sharing the parametrization modules and the unconstrained
    tensors; a parametrized name `to_module` lacks is first made a Parameter holding the
    current value. Returns `to_module`."""
    if not is_parametrized(from_module):
        return to_module
    names = list(from_module.parametrizations) if tensor_name is None else [tensor_name]
    for name in names:
        source = from_module.parametrizations[name]
        if not hasattr(to_module, name):
            setattr(to_module, name, Parameter(getattr(from_module, name)))
        for parametrization in source:
            register_parametrization(to_module, name, parametrization)
        target = to_module.parametrizations[name]
        if hasattr(source, "original"):
            target.original = source.original
        else:
            for i in range(source.ntensors):
                setattr(target, f"original{i}", getattr(source, f"original{i}"))
    return to_module
