"""Tensor: a mutable NumPy array plus the autograd state that ties it to funcgrad's eager tape.

A tensor holds

* ``_data``: its storage, an ndarray that views, ``.data``, ``detach()`` and
  ``from_numpy`` may share and that in-place operations overwrite;
* ``_box``: when it requires grad, a box of the eager tape (`_tape.TAPE`) whose value
  is ``_data`` and whose node is its history: a leaf node for a leaf, else the node of the
  operation that made it; None when it does not require grad;
* ``_version_counter``: the counter of in-place modifications of its storage, shared with
  its views, which lets the backward pass notice values changed after they were saved
  (``_version`` reads it, an int as PyTorch's); under a tensor's id it also holds the
  name of the history a recorded in-place update gave it, for the errors of nodes that
  saved it (`_record._saved_entry`);
* ``_grad``, ``_base`` (the tensor it is a view of), ``_views`` (weak references to the
  views of it, whose history a recorded in-place update of it replaces) and
  ``_retains_grad``.

Operations (``_ops``) call funcgrad.numpy on ``_box`` (or on ``_data`` when nothing is
recorded), so the eager tape records funcgrad primitives and the derivatives are funcgrad's.
"""
import numbers
import warnings
import weakref

import numpy as np

from funcgrad.core import ReverseBox

from . import _device, _dtypes, _layout, _memory_formats
from ._dim_args import no_dimensions
from ._grad_mode import (OPEN_INFERENCE_BLOCKS, STATE, is_inference,
                         is_inference_mode_enabled, note_if_inference)
from ._tape import ALIAS_OF, INFERENCE, TAPE, VERSION, InvalidatedBox, leaf_node, privatize

_new = object.__new__


def typename(value):
    """torch.typename: how PyTorch's messages name the type of a value. 'torch.FloatTensor'
    for a float32 tensor, else the type's qualified name ('numpy.ndarray'), without a
    module for builtins ('float')."""
    if isinstance(value, Tensor):
        return f"torch.{value.dtype.legacy_name}"
    kind = type(value)
    if kind.__module__ in ("", "builtins"):
        return kind.__qualname__
    return f"{kind.__module__}.{kind.__qualname__}"


def require_tensor(x, function, argument, position):
    """PyTorch's error for a non-tensor `x` given as `function`'s tensor `argument` (at
    `position`, counted as PyTorch's message counts it)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{function}(): argument '{argument}' (position {position}) must be "
                        f"Tensor, not {typename(x)}")


def make(data, box=None, version=None, base=None):
    """A tensor over the ndarray `data` (no copy)."""
    # `_record._recorded` sets these fields in place (no call): keep the two in step.
    t = _new(Tensor)
    t._data = data
    t._box = box
    t._version_counter = {VERSION: 0} if version is None else version  # (version_counter's)
    t._grad = None
    t._base = base
    t._views = None
    t._retains_grad = False
    if base is not None:
        _note_view(base, t)
    if OPEN_INFERENCE_BLOCKS[0]:  # (one check outside inference_mode)
        note_if_inference(t, version is None)
    return t


def _note_view(base, view):
    views = base._views
    if views is None:
        base._views = [weakref.ref(view)]
        return
    views.append(weakref.ref(view))
    count = len(views)
    if count >= 32 and count & (count - 1) == 0:  # at each power of two: amortized O(1)
        views[:] = [ref for ref in views if ref() is not None]


def views_of(base):
    """The live views of tensor `base`."""
    found = []
    for ref in base._views or ():
        view = ref()
        if view is not None:
            found.append(view)
    return found


def make_leaf(data, requires_grad):
    t = make(data)
    if requires_grad:
        t._require_grad(True, "Only Tensors of floating point and complex dtype can require "
                              "gradients")
    return t


class Size(tuple):
    """The shape of a tensor: a tuple that prints as PyTorch's ``torch.Size([2, 3])``."""

    __slots__ = ()

    def __repr__(self):
        return f"torch.Size({list(self)})"

    # A slice, a concatenation (on either side) and a repetition are Sizes, as PyTorch's.
    def __getitem__(self, index):
        part = tuple.__getitem__(self, index)
        return Size(part) if isinstance(index, slice) else part

    def __add__(self, other):
        return Size(tuple.__add__(self, other)) if isinstance(other, tuple) else NotImplemented

    def __radd__(self, other):
        return Size(other + tuple(self)) if isinstance(other, tuple) else NotImplemented

    def __mul__(self, count):
        return Size(tuple.__mul__(self, count))

    __rmul__ = __mul__

    def numel(self):
        return int(np.prod(self, dtype=np.int64))


class Tensor:
    """An n-dimensional array with PyTorch's autograd API (see the module docstring).

    ``Tensor(2, 3)`` makes an uninitialised float tensor of that shape and
    ``Tensor([1.0, 2.0])`` one holding those values (PyTorch's legacy constructor); use
    ``compat.tensor`` to choose dtype and requires_grad.

    The members that need the layers above this module are installed by them: the legacy
    constructor by `_factories`, `grad_fn`, `register_hook` and `backward` by `_graph`, the
    operations, operators and printing by `_methods`.
    """

    __slots__ = ("_data", "_box", "_version_counter", "_grad", "_base", "_views",
                 "_retains_grad", "__weakref__")
    # NumPy operators and functions defer to ours: `ndarray * tensor` is a tensor operation.
    __array_ufunc__ = None
    __hash__ = object.__hash__  # tensors compare elementwise, so hash by identity

    # ---- metadata ----------------------------------------------------------------------

    @property
    def _version(self):
        """How many in-place updates its storage has had (through it or a view sharing its
        counter): read-only, as PyTorch's."""
        if is_inference(self):
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._version_counter[VERSION]

    @property
    def dtype(self):
        return _dtypes.of_array(self._data)

    @property
    def shape(self):
        return Size(self._data.shape)

    def size(self, dim=None):
        """The shape (a Size), or the length of dimension `dim`."""
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[self._existing_dim(dim)]

    def dim(self):
        return self._data.ndim

    ndimension = dim

    @property
    def ndim(self):
        return self._data.ndim

    def numel(self):
        return self._data.size

    nelement = numel

    def element_size(self):
        return self._data.itemsize

    @property
    def itemsize(self):
        return self._data.itemsize

    @property
    def nbytes(self):
        """The bytes of the tensor's elements (not of the storage a view shares)."""
        return self._data.size * self._data.itemsize

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def is_complex(self):
        return self.dtype.is_complex

    def is_signed(self):
        return self.dtype.is_signed

    # compat conjugates and negates eagerly (no lazy bits), keeps tensors on the CPU and in
    # unshared, unpinned memory, and has no sparse, quantized, meta, mkldnn or nested
    # layouts: these are all false.
    def is_conj(self):
        return False

    is_neg = is_shared = is_pinned = is_conj
    is_sparse = is_quantized = is_meta = is_mkldnn = is_nested = property(is_conj)

    def is_nonzero(self):
        """Whether the one element is not 0 (NaN counts as nonzero)."""
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with "
                               + ("no values" if not self._data.size else "more than one value")
                               + " is ambiguous")
        return bool(self._data.reshape(()) != 0)

    def is_same_size(self, other):
        require_tensor(other, "is_same_size", "other", 1)
        return self._data.shape == other._data.shape

    def is_set_to(self, tensor):
        """Whether both view the same elements: storage, offset, sizes and strides."""
        require_tensor(tensor, "is_set_to", "tensor", 1)
        a, b = self._data, tensor._data
        return (a.shape == b.shape and a.strides == b.strides
                and a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
                and np.may_share_memory(a, b))

    def is_contiguous(self, memory_format=_memory_formats.contiguous_format):
        """Whether the elements lie in memory in row-major order (or `memory_format`'s)
        without gaps (dimensions of length 1 and empty tensors do not count, as in
        PyTorch)."""
        return _memory_formats.is_in(self._data, memory_format)

    @property
    def layout(self):
        return _memory_formats.strided

    def stride(self, dim=None):
        """The steps, in elements, between neighbours along each dimension (or `dim`)."""
        itemsize = self._data.itemsize
        if dim is None:
            return tuple([step // itemsize for step in self._data.strides])
        return self._data.strides[self._existing_dim(dim)] // itemsize

    @property
    def device(self):
        return _device.CPU

    @property
    def is_cuda(self):
        return False

    @property
    def is_cpu(self):
        return True

    def get_device(self):
        """-1: the index PyTorch gives the CPU."""
        return -1

    def cpu(self, memory_format=None):
        return self

    def cuda(self, device=None, non_blocking=False, memory_format=None):
        """PyTorch's error of a build without CUDA (compat computes on the CPU)."""
        _device.check("cuda" if device is None else device)

    def data_ptr(self):
        return self._data.__array_interface__["data"][0]

    is_inference = is_inference

    def storage_offset(self):
        """The element of its storage (the tensor it views, or its own) where it starts."""
        base = self if self._base is None else self._base
        return (self.data_ptr() - _layout.storage_start(base._data)) // self._data.itemsize

    def _dim(self, dim, extra=0):
        """`dim` as a non-negative axis of this tensor (plus `extra` new axes)."""
        ndim = max(self._data.ndim + extra, 1)
        if type(dim) is not int and (not isinstance(dim, numbers.Integral)
                                     or isinstance(dim, bool)):  # (int first: ~0.3 us)
            raise TypeError(f"compat: dim must be an int, got {type(dim).__name__}")
        if not -ndim <= dim < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-ndim}, {ndim - 1}], but got {dim})")
        return int(dim) % ndim

    def _existing_dim(self, dim):
        """`_dim(dim)`, which must exist: PyTorch's error for any dim of a 0-d tensor."""
        if not self._data.ndim and isinstance(dim, numbers.Integral):
            raise no_dimensions(dim)
        return self._dim(dim)

    # ---- autograd state ----------------------------------------------------------------

    @property
    def requires_grad(self):
        return self._box is not None

    @requires_grad.setter
    def requires_grad(self, value):
        self._require_grad(value, "only Tensors of floating point and complex dtype can "
                                  "require gradients")

    def requires_grad_(self, requires_grad=True):
        """Start (or stop) recording operations on this leaf tensor; returns it."""
        return self._require_grad(requires_grad, "only Tensors of floating point dtype can "
                                                 "require gradients")

    def _require_grad(self, requires_grad, refusal):
        """requires_grad_, refusing an integer tensor with `refusal` (PyTorch's wording
        depends on the way the flag was set)."""
        if not self.is_leaf:
            if requires_grad:
                return self
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use "
                "a computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach().")
        if requires_grad and self._box is None:
            if not _dtypes.differentiable(self.dtype):
                raise RuntimeError(refusal)
            if is_inference(self) and not is_inference_mode_enabled():
                raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                                   "InferenceMode is not allowed.")
            self._box = TAPE.box(self._data, leaf_node(weakref.ref(self)))
        elif not requires_grad:
            self._box = None
        return self

    @property
    def is_leaf(self):
        box = self._box
        return box is None or not box.node.parents

    @property
    def creator(self):
        """Deprecated 2017 name of `grad_fn`."""
        warnings.warn("Tensor.creator is deprecated; use Tensor.grad_fn", DeprecationWarning,
                      stacklevel=2)
        return self.grad_fn

    @property
    def volatile(self):
        """Always False: `volatile` was removed from PyTorch; use `with no_grad():`."""
        warnings.warn("volatile was removed and has no effect; use `with compat.no_grad():` "
                      "instead", DeprecationWarning, stacklevel=2)
        return False

    @property
    def grad(self):
        """The gradient accumulated by backward(): set on leaves (and on tensors that called
        retain_grad()); None until then."""
        box = self._box
        # (not a leaf: a piece of a modified storage has no readable node, and is none)
        if box is not None and not self._retains_grad and (
                type(box) is not ReverseBox or box.node.parents):
            warnings.warn(
                "The .grad attribute of a tensor that is not a leaf is being accessed; it is "
                "not populated by backward(). Call .retain_grad() on it first if you want its "
                "gradient, or access the leaf tensor instead.", UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad must be a Tensor or None, got "
                                f"{type(value).__name__}")
            if value.shape != self.shape:
                raise RuntimeError(f"attempting to assign a gradient of size "
                                   f"'{list(value.shape)}' to a tensor of size "
                                   f"'{list(self.shape)}'. Please ensure that the gradient and "
                                   f"the tensor are the same size")
            if value.dtype is not self.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{value.dtype.cpp_name}' to a "
                    f"tensor with grad_dtype '{self.dtype.scalar_name}'. The gradient must match "
                    f"the tensor's grad_dtype (defaults to the tensor's dtype). You can set the "
                    f"tensor's grad_dtype attribute with a specific dtype, or None to allow any "
                    f"dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and "
                    f"its gradient may break downstream systems that assume they match.")
        self._grad = value

    @property
    def retains_grad(self):
        return self._retains_grad

    def retain_grad(self):
        """Keep this non-leaf tensor's gradient in .grad after backward()."""
        box = self._box
        if box is None:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if type(box) is InvalidatedBox and box.name is None:  # (a leaf, to PyTorch's check)
            return
        if not self.is_leaf and not self._retains_grad:
            self._retains_grad = True
            self._box.node.sink = weakref.ref(self)

    def detach(self):
        """The same storage, without history (shares the version counter)."""
        if self._box is not None:
            self._version_counter[ALIAS_OF] = weakref.ref(self)
        return make(self._data, None, self._version_counter)

    def detach_(self):
        if self._base is not None and self._base.requires_grad:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
        if self._box is not None:  # (later writes reach no node: it keeps what it holds)
            privatize(self._box.node, self._data)
        self._box = None
        if self._base is None:  # (a node that saved it refuses backward: _tape._Visit)
            self._version_counter[id(self)] = None
        return self

    @property
    def data(self):
        """The same storage, without history; changes made through it are not tracked."""
        counter = {VERSION: 0}
        if is_inference(self):  # (an inference tensor, with a counter of its own)
            counter[INFERENCE] = True
        if self._box is not None:
            counter[ALIAS_OF] = weakref.ref(self)
        return make(self._data, None, counter)

    @data.setter
    def data(self, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"compat: .data must be set to a tensor, got {type(value).__name__}")
        if value._data is self._data:
            return
        self._data = value._data
        if self._box is not None:
            self._box = TAPE.box(self._data, self._box.node)

    # ---- conversion --------------------------------------------------------------------

    def numpy(self, force=False):
        """The storage as an ndarray (shared, not copied)."""
        if self._box is not None and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        return self._data

    def __array__(self, dtype=None, copy=None):
        array = self.numpy()
        return array if dtype is None else array.astype(dtype, copy=False)

    def item(self):
        """The value of a one-element tensor as a Python number."""
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted "
                               f"to Scalar")
        return self._data.item() if self._data.ndim == 0 else self._data.reshape(()).item()

    def tolist(self):
        return self._data.tolist()

    def __bool__(self):
        if self._data.size != 1:
            amount = "no values" if self._data.size == 0 else "more than one value"
            raise RuntimeError(f"Boolean value of Tensor with {amount} is ambiguous")
        return bool(self.item())

    def __float__(self):
        if self._box is not None and STATE.enabled:
            _warn_of_a_scalar_that_requires_grad()
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        if self.dtype.is_floating_point or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        return int(self.item())

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))  # (PyTorch's rows: UnbindBackward0's pieces)

    def __contains__(self, element):
        return bool((self == element).any())

    def __format__(self, spec):
        if self._data.ndim == 0:
            return format(self.item(), spec)
        return super().__format__(spec)

    def __reduce_ex__(self, protocol):
        return (_rebuild, (self._data.copy(), self._box is not None))

    def __deepcopy__(self, memo):
        if not self.is_leaf:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) "
                               "support the deepcopy protocol at the moment.  If you were "
                               "attempting to deepcopy a module, this may be because of a "
                               "torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        copy = make_leaf(self._data.copy(), self._box is not None)
        if self._grad is not None:
            copy._grad = make(self._grad._data.copy())
        return copy

    def __copy__(self):
        raise TypeError("copy.copy of a tensor is not supported; use clone() or deepcopy")




_scalar_warning_given = False


def _warn_of_a_scalar_that_requires_grad():
    """float(t) (and '%f' % t) of a tensor that requires grad, with grad mode on:
    PyTorch's warning, given once per process as PyTorch's TORCH_WARN_ONCE gives it (item()
    and int() give none)."""
    global _scalar_warning_given
    if not _scalar_warning_given:
        _scalar_warning_given = True
        warnings.warn("Converting a tensor with requires_grad=True to a scalar may lead to "
                      "unexpected behavior.\nConsider using tensor.detach() first.",
                      UserWarning, stacklevel=3)


def _rebuild(data, requires_grad):
    return make_leaf(data, requires_grad)


__all__ = ["Tensor", "Size"]
