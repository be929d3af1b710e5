"""The containers: Sequential, ModuleList and ModuleDict, which register the modules they
hold (so parameters(), state_dict(), train() and the printed model see them) under
PyTorch's names: "0", "1", ... in a list, kept contiguous as modules come and go; and
ParameterList and ParameterDict, which register parameters so (a plain tensor put in one
becomes a Parameter; other values are kept as they are)."""
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from itertools import chain

from .._tensor import Tensor
from .module import Module, _indented
from .parameter import Parameter


def _position(container, index):
    """`index` (negative from the end) as a position in `container`, or PyTorch's
    IndexError."""
    size = len(container)
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of range")
    return index % size


def _renumber(container):
    """Name the modules "0", "1", ... again after some were deleted."""
    modules = list(container._modules.values())
    container._modules.clear()
    for position, module in enumerate(modules):
        container._modules[str(position)] = module


def _shift_in(container, index, module):
    """Put `module` at position `index`, moving those from there one place on."""
    for position in range(len(container), index, -1):
        container._modules[str(position)] = container._modules[str(position - 1)]
    container._modules[str(index)] = module


class _ListOfModules(Module):
    """What Sequential and ModuleList share: a list of modules named by position."""

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __setitem__(self, index, module):
        key = list(self._modules)[_position(self, index)]
        setattr(self, key, module)

    def __delitem__(self, index):
        keys = list(self._modules)
        for key in (keys[index] if isinstance(index, slice) else [keys[_position(self, index)]]):
            delattr(self, key)
        _renumber(self)

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def pop(self, index):
        module = self[index]
        del self[index]
        return module

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]


class Sequential(_ListOfModules):
    """Modules applied in order: ``Sequential(a, b)`` or ``Sequential(OrderedDict(...))``;
    indexing gives a module (or a Sequential of a slice)."""

    def __init__(self, *modules):
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], OrderedDict):
            for name, module in modules[0].items():
                self.add_module(name, module)
        else:
            for index, module in enumerate(modules):
                self.add_module(str(index), module)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)(OrderedDict(list(self._modules.items())[index]))
        return list(self._modules.values())[_position(self, index)]

    def insert(self, index, module):
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        size = len(self)
        if not -size <= index <= size:
            raise IndexError(f"Index out of range: {index}")
        _shift_in(self, index + size if index < 0 else index, module)
        return self

    def extend(self, sequential):
        for module in sequential:
            self.append(module)
        return self

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(f"add operator supports only objects of Sequential class, but "
                             f"{type(other)} is given.")
        return Sequential(*self, *other)

    def forward(self, input):
        for module in self:
            input = module(input)
        return input


class ModuleList(_ListOfModules):
    """A list of modules, registered as submodules "0", "1", ...; it has no forward (index
    or iterate over it in yours)."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)(list(self._modules.values())[index])
        return self._modules[str(_position(self, index))]

    def insert(self, index, module):
        _shift_in(self, index, module)

    def extend(self, modules):
        if not isinstance(modules, Iterable):
            raise TypeError(f"ModuleList.extend should be called with an iterable, but got "
                            f"{type(modules).__name__}")
        for module in modules:
            self.append(module)
        return self

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        return ModuleList(chain(self, other))

    def __repr__(self):
        """As a Module prints, but a run of modules that print alike is one line:
        ``(1-3): 3 x Linear(...)``."""
        if not len(self):
            return self._get_name() + "()"
        runs = []  # [first, last, text] of each run of equal reprs
        for position, module in enumerate(self):
            text = repr(module)
            if runs and runs[-1][2] == text:
                runs[-1][1] = position
            else:
                runs.append([position, position, text])
        lines = [_indented(f"({first}): {text}" if first == last else
                           f"({first}-{last}): {last - first + 1} x {text}", 2)
                 for first, last, text in runs]
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """A dict of modules, registered as submodules under their keys, in insertion order."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def clear(self):
        self._modules.clear()

    def pop(self, key):
        module = self[key]
        del self[key]
        return module

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules):
        """Add (or replace) modules from a mapping or from (key, module) pairs."""
        if not isinstance(modules, Iterable):
            raise TypeError(f"ModuleDict.update should be called with an iterable of "
                            f"key/value pairs, but got {type(modules).__name__}")
        if isinstance(modules, (Mapping, ModuleDict)):
            for key, module in modules.items():
                self[key] = module
            return
        for index, pair in enumerate(modules):
            _check_pair(index, pair)
            self[pair[0]] = pair[1]


def _check_pair(index, pair):
    if not isinstance(pair, Iterable):
        raise TypeError(f"ModuleDict update sequence element #{index} should be Iterable; "
                        f"is{type(pair).__name__}")
    if len(pair) != 2:
        raise ValueError(f"ModuleDict update sequence element #{index} has length "
                         f"{len(pair)}; 2 is required")


# ---- containers of parameters ------------------------------------------------------------


def _as_parameter(value):
    """A plain tensor as the Parameter a parameter container stores; anything else as is."""
    if isinstance(value, Tensor) and not isinstance(value, Parameter):
        return Parameter(value)
    return value


def _entry_line(key, value, describe_dtype):
    """How a parameter container prints one entry (a tensor by its kind, dtype and size)."""
    if not isinstance(value, Tensor):
        return f"  ({key}): Object of type: {type(value).__name__}"
    kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
    size = "x".join(str(n) for n in value.shape)
    return f"  ({key}): {kind} containing: [{describe_dtype(value)} of size {size}]"


class ParameterList(Module):
    """A list of parameters, registered under their positions "0", "1", ..."""

    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            self.extend(values)

    def __len__(self):
        return self._size

    def __getitem__(self, index):
        if isinstance(index, slice):
            return ParameterList([self[i] for i in range(len(self))[index]])
        return getattr(self, str(_position(self, index)))

    def __setitem__(self, index, value):
        setattr(self, str(_position(self, index)), _as_parameter(value))

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __iadd__(self, values):
        return self.extend(values)

    def append(self, value):
        self._size += 1
        self[-1] = value
        return self

    def extend(self, values):
        if not isinstance(values, Iterable) or isinstance(values, Tensor):
            raise TypeError(f"ParameterList.extend should be called with an iterable, but "
                            f"got {type(values).__name__}")
        for value in values:
            self.append(value)
        return self

    def extra_repr(self):
        return "\n".join(_entry_line(position, value, lambda t: t.dtype)
                         for position, value in enumerate(self))


class ParameterDict(Module):
    """A dict of parameters, registered under their keys, in insertion order."""

    def __init__(self, parameters=None):
        super().__init__()
        self._keys = {}  # (a dict for its order)
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key):
        return getattr(self, key)

    def __setitem__(self, key, value):
        self._keys[key] = None
        setattr(self, key, _as_parameter(value))

    def __delitem__(self, key):
        del self._keys[key]
        delattr(self, key)

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __contains__(self, key):
        return key in self._keys

    def keys(self):
        return self._keys.keys()

    def items(self):
        return [(key, self[key]) for key in self._keys]

    def values(self):
        return [self[key] for key in self._keys]

    def get(self, key, default=None):
        return self[key] if key in self else default

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def clear(self):
        for key in list(self._keys):
            del self[key]

    def update(self, parameters):
        """Add (or replace) entries from (key, value) pairs, or from a mapping: in its
        order if it keeps one on purpose (an OrderedDict, a ParameterDict), else sorted by
        key (PyTorch's order for a plain dict)."""
        if not isinstance(parameters, Iterable):
            raise TypeError(f"ParametersDict.update should be called with an iterable of "
                            f"key/value pairs, but got {type(parameters).__name__}")
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = parameters.items()
        elif isinstance(parameters, Mapping):
            pairs = sorted(parameters.items())
        else:
            pairs = parameters
        for key, value in pairs:
            self[key] = value

    def extra_repr(self):
        return "\n".join(_entry_line(key, value, lambda t: t.type())
                         for key, value in self.items())
