"""PyTorch's ``*_copy`` functions (view_copy, transpose_copy, unbind_copy, ...): what the
view operation gives, as new row-major tensors of their own memory. The node of each is
named after the view's, with ``_copy`` (``TransposeBackward0_copy``), and its inputs are
the view's input; the gradient is the view's, through the copy.
"""
import numpy as np

import funcgrad.numpy as fnp

from . import _layout, _ops, _pieces, _strided
from ._complex_build import check_view_as_complex
from ._grad_mode import STATE
from ._not_implemented import not_implemented
from ._record import check_tensor, wrap
from ._tensor import Tensor, make
from ._torch_names import FUNCTIONS
from ._view_scatters import slice_index


def _copied(view, input, label):
    """A row-major copy of tensor `view`, made from tensor `input`; its node named `label`
    (None: the view's node's name with ``_copy``)."""
    if view._box is None or not STATE.enabled:
        return make(np.array(view._data, order="C", copy=True))
    label = label or view._box.node.label + "_copy"
    return wrap(_layout.relaid(fnp.positive(view._box), _layout.row_major), label, (input,))


def copy_of(view_function, name, label=None):
    """torch.`name`: `view_function`'s results (a tensor, or a tuple of them) copied."""
    def copy(input, *args, **kwargs):
        check_tensor(input, name)
        view = view_function(input, *args, **kwargs)
        if isinstance(view, tuple):
            return tuple(_copied(piece, input, label) for piece in view)
        return _copied(view, input, label)
    copy.__name__ = copy.__qualname__ = name
    copy.__doc__ = f"torch.{name}: a copy of what the view gives."
    return copy


def _slice(input, dim=0, start=None, end=None, step=1):
    return input[slice_index(input._data, dim, start, end, step)]


def _view_as_complex(input):
    check_view_as_complex(input)
    if input.requires_grad and STATE.enabled:
        raise RuntimeError("view_as_complex_copy does not support automatic differentiation "
                           "for outputs with complex dtype.")
    return FUNCTIONS["view_as_complex"](input)


_DETACH_COPY = not_implemented("detach_copy")


def detach_copy(input):
    """torch.detach_copy: a row-major copy of input's values. PyTorch records it, with a node
    whose backward raises, where input requires grad."""
    check_tensor(input, "detach_copy")
    copy = make(np.array(input._data, order="C", copy=True))
    return _DETACH_COPY.apply(input, copy) if input._box is not None and STATE.enabled \
        else copy


view_copy = copy_of(_ops.reshape, "view_copy", "ViewBackward0_copy")  # (a reshape's values)
transpose_copy = copy_of(_ops.transpose, "transpose_copy")
permute_copy = copy_of(_ops.permute, "permute_copy")
expand_copy = copy_of(lambda input, size, *, implicit=False: _ops.expand(input, size),
                      "expand_copy")
t_copy = copy_of(_ops.t, "t_copy", "TBackward0_copy")
diagonal_copy = copy_of(FUNCTIONS["diagonal"], "diagonal_copy")
select_copy = copy_of(FUNCTIONS["select"], "select_copy")
slice_copy = copy_of(_slice, "slice_copy", "SliceBackward0_copy")
squeeze_copy = copy_of(_ops.squeeze, "squeeze_copy")
unsqueeze_copy = copy_of(_ops.unsqueeze, "unsqueeze_copy")
unbind_copy = copy_of(_pieces.unbind, "unbind_copy")
split_copy = copy_of(_pieces.split, "split_copy")
split_with_sizes_copy = copy_of(_pieces.split_with_sizes, "split_with_sizes_copy")
unfold_copy = copy_of(Tensor.unfold, "unfold_copy")
alias_copy = copy_of(lambda input: input, "alias_copy", "AliasBackward0_copy")
as_strided_copy = copy_of(_strided.as_strided, "as_strided_copy")
view_as_real_copy = copy_of(FUNCTIONS["view_as_real"], "view_as_real_copy")
view_as_complex_copy = copy_of(_view_as_complex, "view_as_complex_copy")
