"""Optimizer: the base class of compat.optim's optimizers, with PyTorch's parameter groups,
per-parameter state and state_dict format.

An optimizer's step reads each parameter's .grad and writes the parameter's new values in
place (counted as a modification, as PyTorch's in-place update is), computing in the
parameter's dtype with NumPy: updates are not recorded, as they are not under PyTorch's
no_grad.
"""
import warnings
from collections import defaultdict
from copy import deepcopy

import numpy as np

from .._grad_mode import enable_grad
from .._graph import clear_grad
from .._inplace import write
from .._tensor import Tensor, make, typename


def _as_pairs(values):
    """A view of complex `values` as their real and imaginary parts, on a last axis of 2."""
    return values[..., np.newaxis].view(values.real.dtype)


def _as_complex(pairs):
    """Real pairs (a last axis of 2) as complex numbers: a view where the pairs are
    contiguous."""
    pairs = np.ascontiguousarray(pairs)
    return pairs.view(np.result_type(pairs.dtype, np.complex64))[..., 0]


class _RequiredParameter:
    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        if isinstance(params, Tensor):
            raise TypeError(f"params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {typename(params)}")
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        """Add a group of parameters with its own settings (the defaults fill the rest)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        else:
            params = list(params)
        for param in params:
            if not isinstance(param, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params "
                                f"is {typename(param)}")
            if not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        group = dict(param_group, params=params)
        for name, default in self.defaults.items():
            if default is required and name not in group:
                raise ValueError(f"parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            group.setdefault(name, default)
        if len({id(p) for p in params}) != len(params):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          UserWarning, stacklevel=3)
        existing = {id(p) for g in self.param_groups for p in g["params"]}
        if existing & {id(p) for p in params}:
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none=True):
        """Forget the parameters' gradients (or, with set_to_none=False, zero them)."""
        for group in self.param_groups:
            for param in group["params"]:
                clear_grad(param, set_to_none)

    # The algorithm, which each subclass defines: _update(param, grad, state, group) gives
    # the parameter's new values (an array) from its values, gradient, state (a dict
    # updated in place) and group settings.
    _update = None

    def step(self, closure=None):
        """One update of every parameter that has a gradient; `closure`, if given,
        recomputes the loss (with gradients), which step returns."""
        if self._update is None:  # a subclass that defines neither: PyTorch's abstract step
            raise NotImplementedError
        loss = None if closure is None else self._evaluate(closure)
        for group in self.param_groups:
            for param in group["params"]:
                if param.grad is not None:
                    gradient = param.grad._data
                    if group.get("maximize"):
                        gradient = -gradient
                    state = self.state.get(param, {})
                    write(param, self._stepped(param._data, gradient, state, group))
                    if state:  # as in PyTorch, a parameter whose update keeps nothing has none
                        self.state[param] = state
        return loss

    @staticmethod
    def _evaluate(closure):
        """The loss the closure recomputes, with its gradients (grad mode on)."""
        with enable_grad():
            return closure()

    def _stepped(self, values, gradient, state, group):
        """`_update`; a complex parameter steps as pairs of reals, as in PyTorch (so
        that running squares are of the parts, not complex squares), its state kept
        complex, of the parameter's shape."""
        if values.dtype.kind != "c":
            return self._update(values, gradient, state, group)
        paired = {name: make(_as_pairs(t._data)) if t._data.dtype.kind == "c" else t
                  for name, t in state.items()}
        new = self._update(_as_pairs(values), _as_pairs(gradient), paired, group)
        for name, t in paired.items():
            if name not in state:
                state[name] = (make(_as_complex(t._data)) if t._data.shape == values.shape + (2,)
                               else t)
        return _as_complex(new)

    def __getstate__(self):
        """The optimizer without what a scheduler added (its wrapper of step() is bound to
        this instance): a copy or an unpickled optimizer steps itself, as in PyTorch."""
        return {key: value for key, value in self.__dict__.items()
                if key not in ("step", "_opt_called")}

    # ---- state_dict ----------------------------------------------------------------------

    def state_dict(self):
        """{'state': {index: {name: tensor}}, 'param_groups': [settings and 'params' as
        indices]}, parameters numbered across groups in order (as PyTorch does)."""
        index = {}
        groups = []
        for group in self.param_groups:
            packed = {key: value for key, value in group.items() if key != "params"}
            for param in group["params"]:
                index.setdefault(id(param), len(index))
            packed["params"] = [index[id(param)] for param in group["params"]]
            groups.append(packed)
        state = {index[id(param)]: value for param, value in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for saved, group in zip(saved_groups, self.param_groups):
            if len(saved["params"]) != len(group["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't "
                                 "match the size of optimizer's group")
        by_index = {saved_index: param
                    for saved, group in zip(saved_groups, self.param_groups)
                    for saved_index, param in zip(saved["params"], group["params"])}
        self.state = defaultdict(dict)
        for key, values in state_dict["state"].items():
            if key in by_index:
                param = by_index[key]
                self.state[param] = {name: _cast(param, name, value)
                                     for name, value in values.items()}
        self.param_groups = [dict(saved, params=group["params"])
                             for saved, group in zip(saved_groups, self.param_groups)]

    def __repr__(self):
        groups = [f"Parameter Group {i}\n" + "".join(
                      f"    {key}: {group[key]}\n" for key in sorted(group) if key != "params")
                  for i, group in enumerate(self.param_groups)]
        return type(self).__name__ + " (\n" + "\n".join(groups) + ")"


def check_at_least(value, minimum, what):
    if not minimum <= value:
        raise ValueError(f"Invalid {what}: {value}")


def _cast(param, name, value):
    """A loaded state value, in the parameter's dtype (PyTorch keeps 'step' as it is)."""
    if isinstance(value, Tensor) and name != "step" and param.is_floating_point():
        return value.to(param.dtype)
    return value


def zeros_like(param):
    """A new state tensor of zeros shaped like the parameter's array."""
    return make(np.zeros_like(param))


def step_counter():
    """The 'step' entry of PyTorch's state: a float32 0-d tensor."""
    return make(np.zeros((), np.float32))
