"""nn.Module: the base class of layers and models, with PyTorch's bookkeeping.

A module keeps its parameters, buffers and submodules in three ordered dicts, filled by
assigning attributes (``self.fc = Linear(3, 4)``, ``self.w = Parameter(...)``); everything
that walks a model (parameters(), state_dict(), train(), repr) walks these dicts in
registration order, which is what makes names and orders match PyTorch's.
"""
import functools
from collections import OrderedDict, namedtuple

from .. import _device, _dtypes
from .._graph import RemovableHandle, clear_grad
from .._grad_mode import no_grad
from .._tensor import Tensor, typename
from .parameter import Buffer, Parameter, is_lazy


class _IncompatibleKeys(namedtuple("_IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _indented(text, spaces):
    """`text` with every line after the first indented by `spaces` (how a child's repr
    nests inside its parent's)."""
    first, *rest = text.split("\n")
    return "\n".join([first] + [" " * spaces + line for line in rest])


class Module:
    """Base class of all layers and models: subclass it, create submodules and parameters
    in ``__init__`` (after calling ``super().__init__()``) and compute in ``forward``."""

    training: bool

    def __init__(self):
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "_forward_pre_hooks", OrderedDict())
        object.__setattr__(self, "_forward_hooks", OrderedDict())
        object.__setattr__(self, "_load_state_dict_pre_hooks", OrderedDict())

    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function')

    # ---- calling -----------------------------------------------------------------------

    def __call__(self, *args, **kwargs):
        if self._forward_pre_hooks:
            for hook in list(self._forward_pre_hooks.values()):
                changed = hook(self, args)
                if changed is not None:
                    args = changed if isinstance(changed, tuple) else (changed,)
        output = self.forward(*args, **kwargs)
        if self._forward_hooks:
            for hook in list(self._forward_hooks.values()):
                changed = hook(self, args, output)
                if changed is not None:
                    output = changed
        return output

    def register_forward_pre_hook(self, hook):
        """Call ``hook(module, args)`` before each forward; a result that is not None
        replaces the arguments."""
        handle = RemovableHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle.id] = hook
        return handle

    def register_forward_hook(self, hook):
        """Call ``hook(module, args, output)`` after each forward; a result that is not None
        replaces the output."""
        handle = RemovableHandle(self._forward_hooks)
        self._forward_hooks[handle.id] = hook
        return handle

    # ---- registration ------------------------------------------------------------------

    def _check_initialised(self, what):
        if "_parameters" not in self.__dict__:
            raise AttributeError(f"cannot assign {what} before Module.__init__() call")

    def register_parameter(self, name, param):
        self._check_initialised("parameter")
        self._check_name(name, "parameter", self._parameters)
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter "
                            f"'{name}' (torch.nn.Parameter or None required)")
        if param is not None and not param.is_leaf:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model "
                             f"parameters must be created explicitly. To express '{name}' as "
                             f"a function of another Tensor, compute the value in the forward() "
                             f"method.")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        self._check_initialised("buffer")
        self._check_name(name, "buffer", self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            f"(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{typename(module)} is not a Module subclass")
        self._check_name(name, "module", self._modules)
        self._modules[name] = module

    register_module = add_module

    def _check_name(self, name, what, registry):
        if not isinstance(name, str):
            raise TypeError(f"{what} name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError(f'{what} name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError(f'{what} name can\'t be empty string ""')
        if hasattr(self, name) and name not in registry:
            raise KeyError(f"attribute '{name}' already exists")

    def __setattr__(self, name, value):
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            self._check_initialised("parameters")
            self._forget(name, keep="_parameters")
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                f"(torch.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            self._check_initialised("module")
            self._forget(name, keep="_modules")
            self._modules[name] = value
        elif name in self.__dict__.get("_modules", ()):
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module "
                                f"'{name}' (torch.nn.Module or None expected)")
            self._modules[name] = None
        elif isinstance(value, Buffer) or name in self.__dict__.get("_buffers", ()):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                f"(torch.nn.Buffer, torch.Tensor or None expected)")
            persistent = (value.persistent if isinstance(value, Buffer)
                          else name not in self._non_persistent_buffers_set)
            self.register_buffer(name, value, persistent)
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name, keep):
        """Remove `name` from the other registries (it is being registered in `keep`,
        where a member it replaces keeps its place, as PyTorch keeps it)."""
        self.__dict__.pop(name, None)
        for registry in ("_parameters", "_buffers", "_modules"):
            if registry != keep:
                self.__dict__[registry].pop(name, None)
        self._non_persistent_buffers_set.discard(name)

    def __getattr__(self, name):
        # Only called when normal lookup fails: the registered members.
        for registry in ("_parameters", "_buffers", "_modules"):
            members = self.__dict__.get(registry)
            if members is not None and name in members:
                return members[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for registry in ("_parameters", "_buffers", "_modules"):
            members = self.__dict__[registry]
            if name in members:
                del members[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._buffers)
                      | set(self._modules))

    # ---- walking the tree --------------------------------------------------------------

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """(name, module) for this module and every module below it, depth first."""
        memo = set() if memo is None else memo
        if remove_duplicate:
            if self in memo:
                return
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                child_prefix = prefix + ("." if prefix else "") + name
                yield from module.named_modules(memo, child_prefix, remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def _named_members(self, registry, prefix, recurse, remove_duplicate):
        modules = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                   if recurse else [(prefix, self)])
        seen = set()
        for module_prefix, module in modules:
            for name, value in module.__dict__[registry].items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def get_submodule(self, target):
        """The submodule at the dotted path `target` ("" is this module)."""
        module = self
        for name in target.split(".") if target else ():
            if not hasattr(module, name):
                raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
            module = getattr(module, name)
            if not isinstance(module, Module):
                raise AttributeError(f"`{name}` is not an nn.Module")
        return module

    def get_parameter(self, target):
        """The parameter at the dotted path `target`."""
        module, name = self._owner_of(target)
        if not isinstance(getattr(module, name), Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return getattr(module, name)

    def get_buffer(self, target):
        """The buffer at the dotted path `target`."""
        module, name = self._owner_of(target)
        if name not in module._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return getattr(module, name)

    def _owner_of(self, target):
        path, _, name = target.rpartition(".")
        module = self.get_submodule(path)
        if not hasattr(module, name):
            raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
        return module, name

    def apply(self, fn):
        """Call fn on every submodule (children first), then on this module."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ---- modes and gradients -----------------------------------------------------------

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Forget the gradients of all parameters (or zero them in place)."""
        for param in self.parameters():
            clear_grad(param, set_to_none)

    # ---- dtype conversion --------------------------------------------------------------

    def _apply_to_tensors(self, convert):
        """Convert every parameter (keeping it the same Parameter object, as PyTorch does),
        its gradient, and every buffer."""
        with no_grad():
            for module in self.modules():
                for param in module._parameters.values():
                    if param is None:
                        continue
                    param.data = convert(param.data)
                    if param._grad is not None:
                        param._grad = convert(param._grad)
                for name, buffer in module._buffers.items():
                    if buffer is not None:
                        module._buffers[name] = convert(buffer)
        return self

    def to(self, *args, **kwargs):
        """``to(dtype)``, ``to(device)`` or ``to(device, dtype)``: floating tensors take the
        dtype; only the CPU exists."""
        dtype = kwargs.pop("dtype", None)
        device = kwargs.pop("device", None)
        kwargs.pop("non_blocking", None)
        if kwargs:
            raise TypeError(f"to() got unexpected keyword arguments {sorted(kwargs)}")
        for arg in args:
            if isinstance(arg, _dtypes.dtype):
                dtype = arg
            else:
                device = arg
        _device.check(device)
        if dtype is None:
            return self
        if not dtype.is_floating_point:
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but "
                            f"got desired dtype={dtype}")
        return self._apply_to_tensors(
            lambda t: t.to(dtype) if t.dtype.is_floating_point else t)

    def float(self):
        return self.to(_dtypes.float32)

    def double(self):
        return self.to(_dtypes.float64)

    def half(self):
        return self.to(_dtypes.float16)

    def cpu(self):
        return self

    # ---- state_dict --------------------------------------------------------------------

    def state_dict(self, *, destination=None, prefix="", keep_vars=False):
        """An OrderedDict of every parameter and persistent buffer by dotted name, as
        tensors sharing the module's storage (detached unless `keep_vars`)."""
        destination = OrderedDict() if destination is None else destination
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".",
                                  keep_vars=keep_vars)
        return destination

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        """Put this module's own state_dict members (not its children's) in `destination`."""
        for name, tensor in self._state_members():
            destination[prefix + name] = tensor if keep_vars else tensor.detach()

    def load_state_dict(self, state_dict, strict=True):
        """Copy the values of `state_dict` into the parameters and buffers. With `strict`,
        missing and unexpected keys are an error, as are shapes that differ."""
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got "
                            f"{type(state_dict)}.")
        state_dict = OrderedDict(state_dict)  # (the pre-hooks may rename the caller's keys)
        missing, unexpected, errors, expected = [], [], [], set()
        with no_grad():
            for module_prefix, module in self.named_modules(remove_duplicate=False):
                prefix = module_prefix + ("." if module_prefix else "")
                # PyTorch's hooks are told strict=True whatever the caller asked.
                for hook in module._load_state_dict_pre_hooks.values():
                    hook(state_dict, prefix, {}, True, missing, unexpected, errors)
                module._load_from_state_dict(state_dict, prefix, expected, errors)
                missing += [prefix + name for name, _ in module._state_members()
                            if prefix + name not in state_dict]
        unexpected += [key for key in state_dict if key not in expected]
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{key}"' for key in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{key}"' for key in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        """Call ``hook(state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` (after `module` when `with_module`) before this
        module's members are loaded: it may rename or add keys of the (copied) state_dict.
        compat keeps no metadata: local_metadata is an empty dict."""
        handle = RemovableHandle(self._load_state_dict_pre_hooks)
        self._load_state_dict_pre_hooks[handle.id] = (
            functools.partial(hook, self) if with_module else hook)
        return handle

    def register_load_state_dict_pre_hook(self, hook):
        """Call ``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` before this module's members are loaded."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def _load_from_state_dict(self, state_dict, prefix, expected, errors):
        """Copy this module's own members' values from `state_dict` (keys under `prefix`),
        noting their keys in `expected` and what goes wrong in `errors`."""
        for name, target in self._state_members():
            key = prefix + name
            expected.add(key)
            if key in state_dict:
                _load_one(key, target, state_dict[key], errors)

    def _state_members(self):
        """(name, tensor) of what this module itself (not its children) puts in a
        state_dict."""
        for name, param in self._parameters.items():
            if param is not None:
                yield name, param
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistent_buffers_set:
                yield name, buffer

    # ---- printing ----------------------------------------------------------------------

    def extra_repr(self):
        """The text inside this module's parentheses when printed (its settings)."""
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): " + _indented(repr(module), 2)
                       for name, module in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if len(extra_lines) == 1 and not child_lines:
            text += extra_lines[0]
        elif lines:
            text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"


def _load_one(key, target, value, errors):
    if is_lazy(target):  # a lazy module materialized those it had a value for: empty to empty
        return
    if not isinstance(value, Tensor):
        errors.append(f'While copying the parameter named "{key}", expected torch.Tensor or '
                      f'Tensor-like object from checkpoint but received {type(value)}')
        return
    if value.shape != target.shape:
        errors.append(f"size mismatch for {key}: copying a param with shape {value.shape} "
                      f"from checkpoint, the shape in current model is {target.shape}.")
        return
    target.copy_(value)
