"""Tensor history as PyTorch presents it, and backward()/autograd.grad on the eager tape.

The eager tape (`_tape`) records funcgrad primitives. A compat operation
labels the node of its result with PyTorch's name (``MulBackward0``) and records its
tensor inputs as the node's `edges`; `grad_fn` objects are thin views of those nodes,
created on first access and cached on the node.
"""
import itertools
import sys
import warnings
import weakref

import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import ZERO_REACHED, Box, collector_paused, tuple_get

from . import _dtypes, _layout, _memory_formats, _ops, _tape
from ._factories import tensor
from ._grad_mode import STATE, set_grad_enabled
from ._quiet import as_user, quiet, quietly_calling_back
from ._tensor import Tensor, make
from ._view_modes import is_dropped_leaf

# Names of nodes recorded by funcgrad itself (VJP rules run under create_graph, casts).
_PRIMITIVE_LABELS = {
    "add": "AddBackward0", "subtract": "SubBackward0", "multiply": "MulBackward0",
    "true_divide": "DivBackward0", "divide": "DivBackward0", "negative": "NegBackward0",
    "power": "PowBackward1", "reciprocal": "ReciprocalBackward0", "square": "PowBackward0",
    "exp": "ExpBackward0", "log": "LogBackward0", "sin": "SinBackward0", "cos": "CosBackward0",
    "tanh": "TanhBackward0", "sqrt": "SqrtBackward0", "absolute": "AbsBackward0",
    "sign": "SgnBackward0", "matmul": "MmBackward0", "sum": "SumBackward1",
    "mean": "MeanBackward1", "prod": "ProdBackward1", "max": "AmaxBackward0",
    "min": "AminBackward0", "reshape": "ViewBackward0", "transpose": "PermuteBackward0",
    "broadcast_to": "ExpandBackward0", "concatenate": "CatBackward0",
    "getitem": "IndexBackward0", "add_at_zeros": "IndexPutBackward0",
    "astype": "ToCopyBackward0", "where": "WhereBackward0", "maximum": "MaximumBackward0",
    "minimum": "MinimumBackward0", "positive": "CloneBackward0", "stack": "StackBackward0",
    "split": "SplitBackward0", "unstack": "UnbindBackward0",
    "scatter_set": "IndexPutBackward0", "scatter_add": "IndexPutBackward0",
}


class Node:
    """A recorded operation, as ``tensor.grad_fn`` shows it (subclassed once per name)."""

    __slots__ = ("_node",)

    def __init__(self, node):
        self._node = node

    def name(self):
        name = type(self).__name__
        return _tape.CPP_NODE_NAMES.get(name, name)

    @property
    def next_functions(self):
        """The grad_fn of each input (None for inputs that need no gradient), with the
        index of the output of that node the input was."""
        node = self._node
        edges = node.edges if node.edges is not None else node.parents
        return tuple((None, 0) if edge is None else _target(edge) for edge in edges)

    @property
    def metadata(self):
        return {}

    def register_hook(self, hook):
        raise NotImplementedError("compat: hooks on grad_fn nodes are not supported; "
                                  "register them on tensors with Tensor.register_hook")

    def __repr__(self):
        return f"<{type(self).__name__} object at {id(self):#x}>"


class AccumulateGrad(Node):
    """The node that accumulates a leaf's gradient into its .grad."""

    __slots__ = ()

    @property
    def variable(self):
        return self._node.sink()

    @property
    def next_functions(self):
        return ()


_NODE_CLASSES = {"AccumulateGrad": AccumulateGrad}


def node_class(name):
    """The grad_fn class called `name` (made on first use)."""
    cls = _NODE_CLASSES.get(name)
    if cls is None:
        cls = _NODE_CLASSES[name] = type(name, (Node,), {"__slots__": ()})
    return cls


def _label(node):
    if node.label is not None:
        return node.label
    name = node.primitive.name
    return _PRIMITIVE_LABELS.get(name) or name.title().replace("_", "") + "Backward0"


def grad_fn_of(node):
    """The grad_fn object of a non-leaf node (one object per node)."""
    if node.primitive is tuple_get:  # one output of a multi-output node, named as its outputs
        output, node = node, node.parents[0]
        if node.label is None:
            node.label = output.label
    if node.meta is None:
        node.meta = node_class(_label(node))(node)
    return node.meta


def _target(node):
    if not node.parents:
        if is_dropped_leaf(node):  # (PyTorch's edge to nowhere)
            return None, 0
        if node.meta is None:
            node.meta = AccumulateGrad(node)
        return node.meta, 0
    if node.primitive is tuple_get:  # (named as grad_fn_of names it from this output)
        return grad_fn_of(node), node.params["index"]
    return grad_fn_of(node), 0


# ---- hooks -------------------------------------------------------------------------------

_hook_ids = itertools.count()


class RemovableHandle:
    """Returned by register_hook and nn.Module's hook registrations; remove() unregisters
    the hook, kept in `hooks` under `id`."""

    def __init__(self, hooks):
        self._hooks = hooks
        self.id = next(_hook_ids)

    def remove(self):
        self._hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.remove()


def register_tensor_hook(node, hook, value):
    """Call `hook` with the gradient of `node`'s tensor, whose array is `value` (its shape
    and dtype make the zeros of a gradient reached only as a zero)."""
    if node.hooks is None:
        node.hooks = {}
    handle = RemovableHandle(node.hooks)
    zeros_shape, zeros_dtype = value.shape, value.dtype

    def on_cotangent(ct):
        if ct is ZERO_REACHED or ct is None:  # (reached only by zeros: see _tape._Visit)
            ct = np.zeros(zeros_shape, zeros_dtype)
        new_grad = as_user(hook, tensor_of_cotangent(ct))
        if new_grad is None:
            return None
        if not isinstance(new_grad, Tensor):
            raise TypeError(f"a tensor hook must return a Tensor or None, got "
                            f"{type(new_grad).__name__}")
        dtype = np.result_type(ct.value if isinstance(ct, Box) else ct)
        if new_grad._data.dtype != dtype:
            raise RuntimeError(f"hook '{getattr(hook, '__name__', '<unknown>')}' has changed "
                               f"the type of value (was {_type_string(dtype)} got "
                               f"{_type_string(new_grad._data.dtype)})")
        if new_grad._data.shape != np.shape(ct):
            raise RuntimeError(f"hook returned a gradient of shape {list(new_grad.shape)}, "
                               f"but the tensor has shape {list(np.shape(ct))}")
        return cotangent_of(new_grad)

    node.hooks[handle.id] = on_cotangent
    return handle


def _type_string(numpy_dtype):
    return _dtypes.from_numpy_dtype(numpy_dtype).type_string


def clear_grad(param, set_to_none):
    """What zero_grad does to one parameter (nn.Module's and optimizers'): forget its
    gradient, or detach it and zero it in place."""
    if param.grad is None:
        return
    if set_to_none:
        param.grad = None
    else:
        param.grad.detach_()
        param.grad.zero_()


# ---- cotangents <-> tensors --------------------------------------------------------------


def pytorch_convention(ct):
    """A cotangent of the tape as PyTorch's gradient, or a PyTorch gradient as the tape's
    cotangent (the same map both ways). The tape's rules are funcgrad's, which follow JAX:
    a complex value's cotangent is the conjugate of PyTorch's gradient (for L = |z|^2,
    2 conj(z) where PyTorch gives 2z). Real values agree. Converting here, where gradients
    enter and leave the tape, keeps every derivative rule written once."""
    value = ct.value if isinstance(ct, Box) else ct
    if getattr(value, "dtype", None) is not None and value.dtype.kind == "c":
        return fnp.conj(ct)  # recorded under create_graph, as the tape's own computation
    return ct


def tensor_of_cotangent(ct, copy=False):
    """A tensor holding a cotangent of the tape, as PyTorch's gradient (one that requires
    grad under create_graph); `copy` gives a plain cotangent storage of its own (cotangents
    may share arrays)."""
    return _tensor_of(pytorch_convention(ct), copy)


def _tensor_of(ct, copy=False):
    if isinstance(ct, Box):
        if type(ct.value) is not np.ndarray:
            ct.value = np.asarray(ct.value)
        return make(ct.value, ct)
    return make(np.array(ct, copy=True) if copy else np.asarray(ct))


def cotangent_of(t):
    """What the tape computes with for a PyTorch gradient tensor `t`."""
    box = t._box
    return pytorch_convention(box if box is not None and STATE.enabled else t._data)


def _root_cotangent(output, gradient, index, create_graph):
    if gradient is None:
        if output._data.size != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        if output.dtype.is_complex:  # a complex output has no gradient of its own to seed
            raise RuntimeError(f"grad can be implicitly created only for real scalar outputs "
                               f"but got {output.dtype}")
        ones = np.empty(output._data.shape, output._data.dtype)
        ones.fill(1)  # np.ones is a Python function around these two calls (~1 us more)
        return ones
    if not isinstance(gradient, Tensor):
        gradient = tensor(gradient, dtype=output.dtype)
    if gradient._data.shape != output._data.shape:
        raise RuntimeError(f"Mismatch in shape: grad_output[{index}] has a shape of "
                           f"{gradient.shape} and output[{index}] has a shape of "
                           f"{output.shape}.")
    if gradient.dtype.is_complex != output.dtype.is_complex:
        raise RuntimeError(f"For complex Tensors, both grad_output and output are required to "
                           f"have the same dtype. Mismatch in dtype: grad_output[{index}] has "
                           f"a dtype of {gradient.dtype} and output[{index}] has a dtype of "
                           f"{output.dtype}.")
    value = gradient._box if create_graph and gradient._box is not None else gradient._data
    if gradient._data.dtype != output._data.dtype:
        value = fnp.astype(value, output._data.dtype)
    return pytorch_convention(value)


def _roots(outputs, gradients, create_graph):
    roots, cotangents = [], []
    for i, (output, gradient) in enumerate(zip(outputs, gradients)):
        if not isinstance(output, Tensor):
            raise TypeError(f"compat: can only differentiate tensors, got "
                            f"{type(output).__name__}")
        if output._box is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not "
                               f"have a grad_fn")
        roots.append(output._box.node)
        cotangents.append(_root_cotangent(output, gradient, i, create_graph))
    return roots, cotangents


def _as_tuple(x):
    if x is None:
        return None
    if isinstance(x, Tensor):
        return (x,)
    return tuple(x)


def _accumulate(t, ct, unshared=False):
    """Add a gradient (a cotangent made PyTorch's, `pytorch_convention`) into t.grad: in
    place for plain gradients (as PyTorch does), out of place (recorded) for gradients that
    require grad; None is a zero. `unshared` says nothing else refers to `ct`, which may
    then become t.grad itself if it is laid out as PyTorch's AccumulateGrad lays out a
    gradient: dense, writable, with the strides of `t` when `t` is dense
    (`_layout.preserved_order`). Any other cotangent (a broadcast view, a read-only array, a
    view of another tensor or of the user's storage) is copied."""
    if ct is None:
        if t._grad is None:
            t._grad = make(np.zeros_like(t._data, order=_layout.preserved_order(t._data)))
    elif isinstance(ct, Box) or (t._grad is not None and t._grad._box is not None
                                 and STATE.enabled):
        # (recorded, out of place, under create_graph; else PyTorch adds in place)
        new = _tensor_of(ct)
        if t._grad is not None:
            t._grad = t._grad + new
        elif new._box is not None:
            t._grad = _ops.copy_of(new)
        else:
            t._grad = make(_layout.copy_with_layout(new._data, t._data))
    elif t._grad is None:
        if unshared and _storage_of_its_own(ct, t._data):
            # Taken as it is, as PyTorch's AccumulateGrad takes an unshared gradient: no
            # copy (20 us for the seed network's 1000x100 float32 weight).
            t._grad = make(ct)
        else:
            t._grad = make(_layout.copy_with_layout(ct, t._data))
    else:
        np.add(t._grad._data, ct, out=t._grad._data)
        t._grad._version_counter[_tape.VERSION] += 1


def _storage_of_its_own(ct, like):
    """Whether cotangent `ct` is an array of `like`'s dtype that owns its memory, writable
    and laid out as `like`'s gradient must be."""
    return (type(ct) is np.ndarray and ct.base is None and ct.dtype == like.dtype
            and ct.flags.writeable and _layout.has_layout(ct, like))


def _pull_back(roots, cotangents, retain_graph, create_graph, wanted):
    """_tape.backward, with anomaly mode's NaN reports raised as PyTorch raises them, and
    NumPy's floating-point warnings off outside the user's hooks."""
    try:
        with collector_paused():
            return quietly_calling_back(_tape.backward, roots, cotangents, retain_graph,
                                        create_graph, wanted)
    except FloatingPointError as error:
        raise RuntimeError(str(error)) from error


def run_backward(outputs, gradients, retain_graph, create_graph, inputs=None):
    """backward(): accumulate the gradients of `outputs` into the leaves' .grad (or into
    the .grad of `inputs` only, when given)."""
    if retain_graph is None:
        retain_graph = create_graph
    roots, cotangents = _roots(outputs, gradients, create_graph)
    wanted = None
    targets = {}
    if inputs is not None:
        inputs = _as_tuple(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        for t in inputs:
            if t._box is None:  # PyTorch retains the inputs' gradients first
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
            targets[t._box.node] = t
        wanted = set(targets)
    with set_grad_enabled(create_graph):
        found = _pull_back(roots, cotangents, retain_graph, create_graph, wanted)
        _accumulate_found(found, targets, wanted)


def _accumulate_found(found, targets, wanted):
    """Add the cotangents a backward pass `found` into the .grad of their tensors: those of
    `targets` ({node: tensor}, backward's inputs) and those of the nodes' sinks: every sink
    when no nodes were `wanted`, else those of non-leaves that retain their gradient (as
    PyTorch's autograd.grad and backward(inputs=...) fill them on the way; a wanted leaf
    that is no target is autograd.grad's input, whose .grad stays as it is)."""
    for node in tuple(found):
        t = targets.get(node)
        if t is None:
            if node.sink is None or (wanted is not None and not node.parents):
                continue
            t = node.sink()
            if t is None:  # (a tensor that retained its gradient, gone since)
                continue
        # Once popped, `ct` is unshared if this frame is all that refers to it, as to a new
        # object: no other result, hook, view or user's tensor holds it.
        ct = pytorch_convention(found.pop(node))
        if node.parents:
            quiet().run(_retain, t, ct)
            continue
        alone = object()
        unshared = sys.getrefcount(ct) == sys.getrefcount(alone)
        quiet().run(_accumulate, t, ct, unshared)
        _after_accumulating(t)


def _retain(t, ct):
    """Keep a gradient (a cotangent made PyTorch's) of non-leaf `t` that retains its
    gradient, as PyTorch's retain_grad hook does: the first as a row-major copy (a recorded
    clone under create_graph), each later one added out of place, so that t.grad is a new
    tensor each time; None is a zero."""
    if ct is None:
        if t._grad is None:
            t._grad = make(np.zeros(t._data.shape, t._data.dtype))
        return
    new = _tensor_of(ct)
    if t._grad is not None:
        t._grad = t._grad + new
    elif new._box is not None:
        t._grad = _ops.clone(new, memory_format=_memory_formats.contiguous_format)
    else:
        t._grad = make(np.array(new._data, order="C"))


def _grad_fn(self):
    box = self._box
    if box is None or not box.node.parents:
        return None
    return grad_fn_of(box.node)


def _register_hook(self, hook):
    """Call ``hook(grad)`` whenever this tensor's gradient is computed; a tensor it
    returns replaces the gradient. Returns a handle whose remove() unregisters it."""
    if self._box is None:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require "
                           "gradient")
    return register_tensor_hook(self._box.node, hook, self._data)


# id(leaf) -> (a weak reference to the leaf, its post-accumulate-grad hooks by handle id);
# an entry leaves with its leaf.
_post_accumulate_hooks = {}


def _register_post_accumulate_grad_hook(self, hook):
    """Call ``hook(self)`` each time backward() has accumulated a gradient into this leaf's
    .grad (where an optimizer step may follow at once). Returns a handle whose remove()
    unregisters it."""
    if self._box is None:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require "
                           "gradient")
    if self._box.node.parents:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                           "tensors")
    key = id(self)
    if key not in _post_accumulate_hooks:
        _post_accumulate_hooks[key] = (
            weakref.ref(self, lambda _, entries=_post_accumulate_hooks: entries.pop(key, None)),
            {})
    hooks = _post_accumulate_hooks[key][1]
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    return handle


def _after_accumulating(t):
    entry = _post_accumulate_hooks.get(id(t))
    if entry is not None and entry[0]() is t:
        for hook in tuple(entry[1].values()):
            as_user(hook, t)


def _backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None,
              retain_variables=None):
    """Accumulate the gradient of this tensor into .grad of the leaves it depends on.

    `gradient` (a tensor of this tensor's shape) is required unless it holds one
    element. The graph's saved values are freed unless `retain_graph`;
    `create_graph` records the backward computation for higher derivatives.
    """
    if retain_variables is not None:
        warnings.warn("backward(retain_variables=...) is deprecated; use "
                      "backward(retain_graph=...)", DeprecationWarning, stacklevel=2)
        if retain_graph is None:
            retain_graph = retain_variables
    run_backward((self,), (gradient,), retain_graph, create_graph, inputs)


Tensor.grad_fn = property(_grad_fn)
Tensor.register_hook = _register_hook
Tensor.register_post_accumulate_grad_hook = _register_post_accumulate_grad_hook
Tensor.backward = _backward


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False,
         materialize_grads=False):
    """The gradients of `outputs` with respect to `inputs`, returned (not accumulated into
    .grad). `grad_outputs` plays the part of backward's `gradient`."""
    if is_grads_batched:
        raise NotImplementedError("compat.autograd.grad: is_grads_batched is not supported")
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    grad_outputs = _one_gradient_each(outputs, grad_outputs)
    if retain_graph is None:
        retain_graph = create_graph
    for t in inputs:
        if not isinstance(t, Tensor) or t._box is None:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    roots, cotangents = _roots(outputs, grad_outputs, create_graph)
    wanted = {t._box.node for t in inputs}
    with set_grad_enabled(create_graph):
        found = _pull_back(roots, cotangents, retain_graph, create_graph, wanted)
        reached = [_UNREACHED if is_dropped_leaf(t._box.node)
                   else found.get(t._box.node, _UNREACHED) for t in inputs]
        _accumulate_found(found, {}, wanted)  # (the retained gradients on the way)
    grads = []
    for t, ct in zip(inputs, reached):
        if ct is not _UNREACHED:  # a None cotangent is a zero
            grads.append(make(np.zeros_like(t._data)) if ct is None
                         else tensor_of_cotangent(ct, copy=True))
        elif materialize_grads:
            grads.append(make(np.zeros_like(t._data)))
        elif allow_unused:
            grads.append(None)
        else:
            raise RuntimeError(f"The differentiated Tensor at index {len(grads)} appears to "
                               f"not have been used in the graph. Set allow_unused=True if "
                               f"this is the desired behavior.")
    return tuple(grads)


_UNREACHED = object()


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
             grad_variables=None, inputs=None):
    """compat.autograd.backward: backward() from several outputs at once."""
    tensors = _as_tuple(tensors)
    if grad_variables is not None:
        grad_tensors = grad_variables
    run_backward(tensors, _one_gradient_each(tensors, grad_tensors), retain_graph, create_graph,
                 inputs)


def _one_gradient_each(outputs, gradients):
    """`gradients` (None: a None for each output) paired with `outputs` as PyTorch pairs
    them: gradients beyond the outputs are ignored, missing ones refused."""
    gradients = _as_tuple(gradients) or (None,) * len(outputs)
    if len(gradients) < len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(gradients)} gradients")
    return gradients[:len(outputs)]


__all__ = ["Node", "AccumulateGrad", "grad", "backward"]
