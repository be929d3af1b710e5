"""autograd.Function: an operation whose backward the user writes.

``MyFn.apply(*args)`` runs ``forward(ctx, *args)`` without recording, then records one
node on the eager tape for all its outputs. That node's VJP calls the user's
``backward(ctx, *grad_outputs)`` (the one place in compat where a derivative is user code,
as with funcgrad's custom_vjp), checks what it returns, and hands each input its gradient.
Under ``create_graph=True`` backward runs with recording on and receives gradients that
require grad, so a backward written with differentiable operations can be differentiated
again.
"""
import numpy as np

from funcgrad.core import NO_PARAMS, Primitive, defvjp_rule, tuple_get

from .. import _dtypes, _ops, _record
from .._graph import cotangent_of, tensor_of_cotangent
from .._grad_mode import STATE, no_grad, refuse_saving_inference
from .._quiet import as_user
from .._tape import RULES_TAKING_NONE, TAPE, VERSION
from .._inplace import alias_of, count_update, take_history
from .._tensor import Tensor, make
from .._view_modes import note_function_output


class FunctionCtx:
    """The `ctx` of forward and backward: saves tensors for backward and carries any
    attribute the user sets on it."""

    def __init__(self):
        self._saved = ()
        self._saved_versions = ()
        self._non_differentiable = ()
        self._dirty = ()
        self._materialize_grads = True
        self.needs_input_grad = ()

    def save_for_backward(self, *tensors):
        """Keep tensors for backward; they must not be modified in place until then."""
        for t in tensors:
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(f"save_for_backward can only save tensors (or None), got "
                                f"{type(t).__name__}")
            if t is not None:
                refuse_saving_inference(t._version_counter)
        self._saved = tensors
        self._saved_versions = tuple(
            None if t is None else (t._version_counter, t._version_counter[VERSION])
            for t in tensors)

    @property
    def saved_tensors(self):
        for t, version in zip(self._saved, self._saved_versions):
            if version is not None and version[0][VERSION] != version[1]:
                raise RuntimeError(
                    f"one of the tensors saved with save_for_backward was modified by an "
                    f"in-place operation: it is at version {version[0][VERSION]}, but "
                    f"{version[1]} was expected. Save a clone() instead, or modify it after "
                    f"calling backward.")
        return self._saved

    saved_variables = saved_tensors

    def mark_non_differentiable(self, *outputs):
        """These outputs get no gradient (they will not require grad)."""
        self._non_differentiable = outputs

    def mark_dirty(self, *tensors):
        """These inputs were modified in place by forward (and are returned): each takes
        the Function's node as its history, as after an in-place operation."""
        self._dirty = tensors

    def set_materialize_grads(self, value):
        """With False, backward receives None (not zeros) for outputs that got no gradient."""
        self._materialize_grads = bool(value)


def _run_user_backward(residuals, params, g):
    """The backward rule of a Function's node."""
    (call,) = residuals
    return call.run(g)


class _FunctionMeta(type):
    def __init__(cls, name, bases, namespace):
        super().__init__(name, bases, namespace)
        # Kept out of funcgrad's registry: the node type of the user's operation, whose
        # backward rule runs the user's backward.
        cls._primitive = Primitive(f"{name}Backward", None, register=False)
        defvjp_rule(cls._primitive, None, _run_user_backward)
        RULES_TAKING_NONE.add(cls._primitive)


class Function(metaclass=_FunctionMeta):
    """Subclass with static ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)``
    (returning one gradient, or None, per forward argument), then call ``.apply(*args)``."""

    def __call__(self, *args):
        raise RuntimeError(
            f"{type(self).__name__}: calling an instance of an autograd Function is the "
            f"removed legacy style; make forward and backward @staticmethods taking ctx and "
            f"call {type(self).__name__}.apply(...) instead.")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    @classmethod
    def apply(cls, *args):
        ctx = FunctionCtx()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._box is not None
                                     for a in args)
        with no_grad():
            if _overrides(cls, "setup_context"):
                outputs = cls.forward(*args)
                cls.setup_context(ctx, args, outputs)
            else:
                outputs = cls.forward(ctx, *args)
        if not (STATE.enabled and any(ctx.needs_input_grad)):
            return _unrecorded(ctx, args, outputs)
        return _attach_node(cls, ctx, args, outputs)

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError


def _overrides(cls, name):
    return getattr(cls, name) is not getattr(Function, name)


def _unrecorded(ctx, args, outputs):
    """forward's outputs when nothing is recorded, as PyTorch returns them: an input marked
    dirty counts one more update and comes back itself; any other input returned as it is
    comes back as a view of it, refused in place as the Function's views are; under
    no_grad, an input that requires grad comes back as a new tensor sharing its storage,
    without its history."""
    single = not isinstance(outputs, tuple)
    outs = [outputs] if single else list(outputs)
    for i, out in enumerate(outs):
        if isinstance(out, Tensor) and any(out is a for a in args):
            dirty = any(out is t for t in ctx._dirty)
            if dirty:
                count_update(out)
            if not STATE.enabled and out._box is not None:
                outs[i] = make(out._data, None, out._version_counter)
            elif not dirty:
                outs[i] = make(out._data, None, out._version_counter,
                               out if out._base is None else out._base)
                note_function_output(outs[i], several=len(outs) > 1)
    return outs[0] if single else tuple(outs)


def _attach_node(cls, ctx, args, outputs):
    """Tie the outputs of forward to one new node whose backward rule runs cls.backward."""
    single = not isinstance(outputs, tuple)
    outs = [outputs] if single else list(outputs)
    excluded = {id(t) for t in ctx._non_differentiable}
    differentiable = [i for i, out in enumerate(outs)
                      if isinstance(out, Tensor) and _dtypes.differentiable(out.dtype)
                      and id(out) not in excluded]
    dirty = [i for i in differentiable if any(outs[i] is t for t in ctx._dirty)]
    viewing = set()  # the outputs that are inputs or views of them (not marked dirty)
    for i in differentiable:
        if i not in dirty:
            source = _viewed_input(outs[i], args)
            if source is not None:
                viewing.add(i)
                outs[i] = make(outs[i]._data, None, source._version_counter,
                               source if source._base is None else source._base)
            elif outs[i]._box is not None:  # (a tensor with history, from outside forward)
                outs[i] = make(outs[i]._data, None, outs[i]._version_counter)
    parents = [a._box.node if needs else None for a, needs in zip(args, ctx.needs_input_grad)]
    for i in dirty:
        if outs[i]._base is not None:
            _refuse_several_outputs(len(outs))
            j = next(j for j, a in enumerate(args) if a is outs[i])
            if parents[j] is not None and outs[i]._base._box is not None:
                # As PyTorch's CopySlices: the view's gradient reaches its base's history,
                # past the view's node (and the hooks registered on it).
                parents[j] = alias_of(outs[i])._box.node
    parents = tuple(parents)
    call = _Call(cls, ctx, args, outs, differentiable, packed=not single)
    values = tuple(outs[i]._data for i in differentiable)
    box = TAPE.record(cls._primitive, NO_PARAMS, parents, (call,),
                      values[0] if single and differentiable else values)
    node = box.node
    node.label = cls._primitive.name
    node.edges = tuple(_record.edge(a) for a in args if isinstance(a, Tensor))
    node.frees = True  # backward releases ctx and the tensors it saved
    if single:
        boxes = [box] if differentiable else []
    else:
        boxes = [tuple_get(box, index=k) for k in range(len(differentiable))]
    for i, result in zip(differentiable, boxes):
        if i in dirty:
            take_history(outs[i], result)
        else:
            outs[i]._box = result
            if i in viewing:
                note_function_output(outs[i], several=len(outs) > 1)
    return outs[0] if single else tuple(outs)


def _refuse_several_outputs(count):
    if count > 1:
        raise RuntimeError(
            "If your Function modifies inplace an input that is a view of another Tensor, your "
            "Function cannot return more than one Tensor. This is not supported by the current "
            "autograd engine. You should either make sure the input is not a view (using "
            ".clone() for example) or make your Function only return one Tensor (potentially "
            "splitting it into two Functions: one doing the inplace that returns a single "
            "Tensor and a second one that does the other operations). You can ask on the "
            "forum https://discuss.pytorch.org/ if you need help to do this change.")


def _viewed_input(output, args):
    """The input tensor among `args` that `output` is, or is a view of (PyTorch's view
    outputs of a custom Function), or None."""
    for a in args:
        if isinstance(a, Tensor) and (output is a or (
                output._base is not None and output._version_counter is a._version_counter)):
            return a
    return None


class _Call:
    """One application of a Function: calls the user's backward and checks what it gives,
    one gradient per forward argument."""

    def __init__(self, cls, ctx, args, outs, differentiable, packed):
        self.cls = cls
        self.ctx = ctx
        self.inputs = [(a._data.shape, a.dtype) if isinstance(a, Tensor) else None
                       for a in args]
        self.outputs = [(outs[i]._data.shape, outs[i]._data.dtype) for i in differentiable]
        self.slots = {i: k for k, i in enumerate(differentiable)}
        self.n_outputs = len(outs)
        self.packed = packed  # forward returned a tuple: the node's cotangent is one too

    def run(self, g):
        """The user's backward for cotangent `g` (a tuple if `packed`). None: the node was
        reached only by zeros, which PyTorch's backward gets as zeros tensors whatever
        ctx.set_materialize_grads says (the outputs that got nothing are zeros too)."""
        if g is None:
            cts = tuple([np.zeros(shape, dtype) for shape, dtype in self.outputs])
        else:
            cts = g if self.packed else (g,)
        grad_outputs = []
        for i in range(self.n_outputs):
            k = self.slots.get(i)
            ct = None if k is None else cts[k]
            if ct is None and k is not None and self.ctx._materialize_grads:
                shape, dtype = self.outputs[k]
                ct = np.zeros(shape, dtype)
            grad_outputs.append(None if ct is None else _writeable_tensor(ct))
        result = as_user(self.cls.backward, self.ctx, *grad_outputs)
        return self._checked(result if isinstance(result, tuple) else (result,))

    def _checked(self, grads):
        name = self.cls._primitive.name
        expected = len(self.inputs)
        if len(grads) > expected and all(g is None for g in grads[expected:]):
            grads = grads[:expected]
        if len(grads) != expected:
            raise RuntimeError(f"function {name} returned an incorrect number of gradients "
                               f"(expected {expected}, got {len(grads)})")
        cotangents = []
        for i, (grad, meta) in enumerate(zip(grads, self.inputs)):
            if grad is None:
                cotangents.append(None)
            elif meta is None:
                raise RuntimeError(f"function {name} returned a gradient different than None "
                                   f"at position {i + 1}, but the corresponding forward input "
                                   f"was not a Tensor")
            elif not isinstance(grad, Tensor):
                raise TypeError(f"function {name} returned a {type(grad).__name__} as the "
                                f"gradient at position {i + 1}; gradients must be tensors or "
                                f"None")
            else:
                cotangents.append(cotangent_of(_fitted(grad, meta, name, i)))
        return cotangents


def _writeable_tensor(ct):
    t = tensor_of_cotangent(ct)
    if t._box is None and not t._data.flags.writeable:
        t = make(t._data.copy())
    return t


def _fitted(grad, meta, name, index):
    """The gradient with its input's shape (summing broadcast dimensions) and dtype."""
    shape, dtype = meta
    if grad._data.shape != shape:
        if not _expands_to(shape, grad._data.shape):
            raise RuntimeError(f"Function {name} returned an invalid gradient at index {index} "
                               f"- got {list(grad.shape)} but expected shape compatible with "
                               f"{list(shape)}")
        lead = grad.dim() - len(shape)
        dims = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape)
                                          if n == 1 and grad._data.shape[lead + i] != 1)
        grad = _ops.reshape(_ops.sum(grad, dims, keepdim=True), shape)
    return _ops.to_dtype(grad, dtype)


def _expands_to(shape, target):
    if len(shape) > len(target):
        return False
    return all(n == m or n == 1 for n, m in zip(shape[::-1], target[::-1]))


__all__ = ["Function", "FunctionCtx"]
