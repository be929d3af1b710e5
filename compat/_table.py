"""The torch-name table's machinery: a `Row` says how one torch name is computed with
funcgrad.numpy, and `operation` turns a row into the torch function (and `install` into
the Tensor method and its in-place form). The rows themselves are in `_torch_names`.

A row's `compute` has torch's signature, written in funcgrad.numpy: it receives the
tensors' values (boxes of the eager tape while recording, else arrays) where torch
receives tensors, and everything else as given; it renames arguments (``dim`` ->
``axis``, ``keepdim`` -> ``keepdims``). The operation around it

* runs the row's `check`, if any, on the arguments as torch receives them (errors PyTorch
  raises from the arguments' own dtypes, which the cast below would hide);
* casts the tensors to the row's dtype rule (`FLOAT`: PyTorch's result type, integers
  computing in the default float dtype; `PROMOTE`: PyTorch's result type; `KEEP`: as they
  are, so index tensors stay integers; `DATA`: their arrays, nothing recorded, for
  results without a derivative such as comparisons);
* wraps each result as a tensor whose grad_fn carries PyTorch's name (`label`, or a
  `Labels` where PyTorch's name depends on the overload a call takes) and, as
  next_functions, the tensors among its arguments but its `indices`, a view of
  the input where PyTorch's result is one (`view`), and gathers several results in
  PyTorch's named tuple (`returns`); an input funcgrad returns unchanged becomes a new
  tensor, or stays the input tensor itself where PyTorch returns it (`passes_input`);
  lays it out as PyTorch does where NumPy's layout differs (`contiguous`, `keeps_layout`);
* raises NumPy's complaints as PyTorch's error types (an axis out of range is
  PyTorch's IndexError, other bad arguments its RuntimeError).

No derivative is written here: every one comes from the funcgrad primitives `compute` calls.
"""
import inspect

import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import Box, unbox_all

from . import _dtypes, _layout
from ._dtypes import DEFAULTS
from ._inplace import inplace
from ._quiet import quiet
from ._record import engine, operand, result_type, wrap
from ._tensor import Tensor

FLOAT, PROMOTE, KEEP, DATA = "float", "promote", "keep", "data"
_FLOAT_CATEGORY = _dtypes.FLOAT
_SEQUENCES = (list, tuple)


class Row:
    """One torch name: where it lives (``"linalg.inv"`` is torch.linalg.inv), how it is
    computed, and which forms exist (``torch.f``, ``Tensor.f``, ``Tensor.f_``)."""

    __slots__ = ("name", "compute", "dtypes", "label", "function", "method", "inplace",
                 "view", "returns", "passes_input", "saves_inputs", "saves_result",
                 "contiguous", "keeps_layout", "elementwise", "lapack_layout", "check",
                 "indices", "no_derivative")

    def __init__(self, name, compute, dtypes=KEEP, label=None, *, function=True, method=None,
                 inplace=False, view=False, returns=None, passes_input=False,
                 saves_inputs=False, saves_result=False, contiguous=False, keeps_layout=False,
                 elementwise=False, lapack_layout=False, check=None, indices=(),
                 no_derivative=None):
        self.name = name
        self.compute = compute
        self.dtypes = dtypes
        self.label = label or default_label(name)
        self.function = function
        self.method = "." not in name if method is None else method
        # Tensor.f_ exists: True, or the options of `_inplace.inplace` for it (a fill that
        # PyTorch writes into an expanded tensor, with a warning).
        self.inplace = inplace
        self.view = view
        self.returns = returns
        self.passes_input = passes_input
        # PyTorch's backward reads the inputs (an in-place update of one before backward is
        # an error), where funcgrad's rule may keep only what it needs (indices, masks):
        # True, or the names of the nodes that do (fmod's by a tensor, not by a number).
        self.saves_inputs = saves_inputs
        # PyTorch's backward reads the result (an in-place update of it before backward is
        # an error): True, or the names of the nodes that do (median's over all elements).
        self.saves_result = saves_result
        # PyTorch's result is contiguous, where NumPy's is a view or of another layout
        # (roll's, index_select's along dimension 1, topk's values).
        self.contiguous = contiguous
        # PyTorch's result has the first input's order of dimensions in memory (sort's
        # values and indices of a transposed input), where NumPy's is row-major.
        self.keeps_layout = keeps_layout
        # An elementwise function: PyTorch lays out its result of several tensors as its
        # TensorIterator does (`_layout.iterator_order`), where NumPy's is row-major.
        self.elementwise = elementwise
        # PyTorch's matrices are column-major (LAPACK's layout: .view(-1) of an inverse is
        # an error), where NumPy's are row-major: True, or the places of the matrices among
        # several results (svd's U and Vh, not its batches of singular values).
        self.lapack_layout = lapack_layout
        self.check = check  # called with torch's arguments before any cast: PyTorch's errors
        # The names of compute's arguments that are index tensors or masks, which PyTorch
        # does not differentiate and lists in no next_functions.
        self.indices = indices
        # For a row without a derivative whose first result PyTorch records all the same:
        # called with the call's arguments, the Function (`_not_implemented`) of its node.
        self.no_derivative = no_derivative

    @property
    def namespace(self):
        """The torch namespace of the function: '' for torch itself, else 'linalg', ..."""
        return self.name.rpartition(".")[0]

    @property
    def short_name(self):
        return self.name.rpartition(".")[2]


class Labels:
    """The grad_fn names of a torch name whose overloads PyTorch names apart (lerp's
    ``LerpBackward0`` for a number weight, ``LerpBackward1`` for a tensor): `choose` is
    called with the call's arguments and returns one of `names`."""

    __slots__ = ("choose", "names")

    def __init__(self, choose, *names):
        self.choose = choose
        self.names = names


def default_label(name):
    """PyTorch's usual grad_fn name for an operation: ``index_select`` ->
    ``IndexSelectBackward0``, ``linalg.inv`` -> ``LinalgInvBackward0``."""
    words = name.replace(".", "_").split("_")
    return "".join(word[:1].upper() + word[1:] for word in words) + "Backward0"


def _tensors_in(args, kwargs):
    """The tensors among the arguments, looking one level into lists and tuples."""
    found = []
    for group in (args, kwargs.values()):
        for arg in group:
            if isinstance(arg, Tensor):  # (nn.Parameter included)
                found.append(arg)
            elif isinstance(arg, _SEQUENCES):
                found.extend([item for item in arg if isinstance(item, Tensor)])
    return found


def _dtype_of(rule, tensors, name, args):
    """The dtype the tensors are cast to (None: each keeps its own): PyTorch's result type
    of the tensors and, for PROMOTE, the Python numbers among the positional arguments
    after the first (its operands: ``fmod(int_tensor, 0.4)`` computes in float32)."""
    if rule is KEEP or rule is DATA:
        return None
    if not tensors:
        raise TypeError(f"{name}(): expected at least one Tensor argument")
    if rule is PROMOTE:
        numbers = [a for a in args[1:] if isinstance(a, (int, float)) and type(a) is not bool]
        dtype = result_type(*tensors, *numbers)
    else:
        dtype = result_type(*tensors)
    if rule is FLOAT and dtype.category < _FLOAT_CATEGORY:  # complex stays complex
        return DEFAULTS.float
    return dtype


def _array(x):
    return x._data


def _converter(rule, dtype):
    if rule is DATA:
        return _array
    if dtype is None:
        return engine
    return lambda x: operand(x, dtype)


def _values(arg, convert):
    if isinstance(arg, Tensor):
        return convert(arg)
    if isinstance(arg, _SEQUENCES) and any(isinstance(item, Tensor) for item in arg):
        return [convert(item) if isinstance(item, Tensor) else item for item in arg]
    return arg


def _computed(row, args, kwargs):
    """The row's result on the arguments' values, with NumPy's errors as PyTorch's."""
    try:
        return quiet().run(row.compute, *args, **kwargs)
    except np.exceptions.AxisError as error:
        low, high = -max(error.ndim, 1), max(error.ndim, 1) - 1
        raise IndexError(f"Dimension out of range (expected to be in range of [{low}, "
                         f"{high}], but got {error.axis})") from None
    except np.linalg.LinAlgError as error:
        raise _LinAlgError(f"{row.name}: {error}") from None
    except ValueError as error:
        raise RuntimeError(f"{row.name}(): {error}") from None


class _LinAlgError(RuntimeError):
    """A matrix the factorisation or solve cannot handle (singular, not positive-definite):
    PyTorch's torch.linalg.LinAlgError, a RuntimeError (named as PyTorch's class is)."""


def _index_places(row):
    """Where the row's index arguments are: (position in compute's signature, name)."""
    if not row.indices:  # (NumPy's ufuncs, some rows' compute, have no signature to read)
        return ()
    parameters = list(inspect.signature(row.compute).parameters)
    return tuple((parameters.index(name), name) for name in row.indices)


def _split_indices(tensors, places, args, kwargs):
    """The tensors among the arguments as (the node's inputs, the index tensors): those at
    `places` (which `_index_places` found) are index tensors."""
    if not places:
        return tuple(tensors), ()
    indices = []
    for position, name in places:
        arg = args[position] if position < len(args) else kwargs.get(name)
        if isinstance(arg, Tensor):
            indices.append(arg)
        elif isinstance(arg, _SEQUENCES):  # index_put's tuple of index tensors
            indices.extend(item for item in arg if isinstance(item, Tensor))
    # (An index tensor is an integer or bool tensor: never one that requires grad too.)
    inputs = [x for x in tensors if all(x is not index for index in indices)]
    return tuple(inputs), tuple(indices)


def operation(row):
    """The torch function of `row`."""
    rule, name = row.dtypes, row.name
    index_places = _index_places(row)
    index_positions = {position for position, _ in index_places}
    index_names = {name for _, name in index_places}

    def op(*args, **kwargs):
        if row.check is not None:
            row.check(*args, **kwargs)
        tensors = _tensors_in(args, kwargs)
        dtype = _dtype_of(rule, tensors, name, args)
        convert = _converter(rule, dtype)
        # (index tensors as they are: an integer tensor cast to the operation's dtype would
        # no longer index)
        out = _computed(row, [_values(a, _array if i in index_positions else convert)
                              for i, a in enumerate(args)],
                        {key: _values(v, _array if key in index_names else convert)
                         for key, v in kwargs.items()})
        label = row.label if type(row.label) is str else row.label.choose(*args, **kwargs)
        computing = dtype.numpy if dtype is not None and dtype.category == _FLOAT_CATEGORY \
            else None
        edges, indices = _split_indices(tensors, index_places, args, kwargs)
        results = _results(row, label, out, edges, indices, computing)
        if row.no_derivative is not None and edges[0].requires_grad:
            node = row.no_derivative(*args, **kwargs)
            if isinstance(results, tuple):
                return (node.apply(edges[0], results[0]),) + results[1:]
            return node.apply(edges[0], results)
        return results
    op.__name__ = row.short_name
    op.__qualname__ = row.short_name
    op.__doc__ = f"torch.{name}, computed with funcgrad.numpy (see compat._torch_names)."
    return op


def _results(row, label, out, edges, indices, computing):
    if isinstance(out, tuple):
        items = [_result(row, label, item, edges, indices, computing, place)
                 for place, item in enumerate(out)]
        return row.returns(*items) if row.returns is not None else tuple(items)
    if isinstance(out, list):
        return [_result(row, label, item, edges, indices, computing) for item in out]
    return _result(row, label, out, edges, indices, computing)


def _result(row, label, value, edges, indices, computing, place=0):
    """`value` (the row's result, or its result at `place`) as the row's tensor, with the
    tensors `edges` as its node's inputs and the index tensors `indices` as tensors it
    read. `computing` is the float dtype the tensors were cast to (None if not a float):
    PyTorch's result has it, where funcgrad's special functions (as SciPy's) may return a
    wider one (float32 for float16, float64 for a float32 and a Python float)."""
    if computing is not None:
        dtype = fnp.result_type(value)
        if dtype.kind == "f" and dtype.itemsize > computing.itemsize:
            value = fnp.astype(value, computing)
    if row.passes_input:  # PyTorch returns an input as it was (broadcast_tensors)
        for x in edges:
            if value is x._box or value is x._data:
                return x
    if not row.view and _shares_memory(value, edges):
        # An input as it was, or a NumPy view of one (flip's, rot90's), where PyTorch's
        # result is a new tensor: a copy, recorded with a node of its own.
        value = fnp.positive(value) if isinstance(value, Box) else np.array(value, copy=True)
    if row.contiguous:
        value = _layout.relaid(value, _layout.row_major)
    elif row.keeps_layout and edges:
        order = _layout.order_of_dimensions(edges[0]._data)
        value = _layout.relaid(value, lambda raw: _layout.laid_out(raw, order))
    elif row.elementwise and len(edges) > 1:
        value = _layout.laid_out_as_iterator(value, [x._data for x in edges])
    elif row.lapack_layout is True or place in (row.lapack_layout or ()):
        value = _layout.relaid(value, _layout.matrices_column_major)
    view_of = _viewed(value, edges) if row.view else None
    saves_inputs, saves_result = row.saves_inputs, row.saves_result
    if type(saves_inputs) is not bool:
        saves_inputs = label in saves_inputs
    if type(saves_result) is not bool:
        saves_result = label in saves_result
    return wrap(value, label, edges, others=indices, view_of=view_of,
                saves_inputs=saves_inputs, saves_result=saves_result)


def _shares_memory(value, tensors):
    raw = unbox_all(value)
    if not isinstance(raw, np.ndarray):
        return False
    if raw.base is None:  # memory of its own, unless it is an input's array itself
        return any(raw is x._data for x in tensors)
    return any(np.may_share_memory(raw, x._data) for x in tensors)


def _viewed(value, tensors):
    """The input a view row's result views (the first input for one of one input; the
    one whose memory it shares for several, as each of meshgrid's results views one)."""
    if len(tensors) < 2:
        return tensors[0] if tensors else None
    raw = unbox_all(value)
    return next((x for x in tensors if np.may_share_memory(raw, x._data)), None)


def install(rows):
    """The torch functions of `rows`, by full name; the top-level ones that are also
    methods become Tensor methods (with an in-place form where PyTorch has one), unless
    Tensor already has a method of that name."""
    functions = {}
    for row in rows:
        op = operation(row)
        if row.function:
            functions[row.name] = op
        if row.method and not hasattr(Tensor, row.short_name):
            setattr(Tensor, row.short_name, op)
        if row.inplace and not hasattr(Tensor, row.short_name + "_"):
            options = row.inplace if isinstance(row.inplace, dict) else {}
            setattr(Tensor, row.short_name + "_", inplace(op, **options))
    return functions


LinAlgError = _LinAlgError

__all__ = ["Row", "Labels", "LinAlgError", "FLOAT", "PROMOTE", "KEEP", "DATA", "operation",
           "install", "default_label"]
