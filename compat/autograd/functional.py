"""vjp, jvp, jacobian, hessian, vhp and hvp of a function of tensors, as in
torch.autograd.functional, computed on compat's tape with `grad`.

The function sees new tensor objects standing for its inputs (so that it is differentiated
with respect to them, not to tensors it captured), and the results are detached unless
``create_graph=True``. Products that only forward mode would give (jvp, hvp, the
forward-mode Jacobian) come from the double-backward trick: the gradient of
``u -> J^T u`` with respect to a zero cotangent ``u`` is ``J``. compat has no vmap, so
``vectorize=True`` computes the same rows of the identity one at a time.
"""
from .._factories import eye, zeros_like
from .._grad_mode import enable_grad
from .._graph import grad
from .._ops import stack
from .._tensor import Tensor

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]

_USER_OUTPUTS = "outputs of the user-provided function"
_SINGLE_V = ("The vector v can only be None if the input to the user-provided function is a "
             "single Tensor with a single element.")

# PyTorch's strict-mode refusals, by what was found not to depend on the inputs.
_OUTPUT_INDEPENDENT = ("The output of the user-provided function is independent of input {i}."
                       " This is not allowed in strict mode.")
_OUTPUT_WITHOUT_GRAD = ("Output {i} of the user-provided function does not require gradients."
                        " The outputs must be computed in a differentiable manner from the "
                        "input when running in strict mode.")
_GRADIENT_CONSTANT = ("The gradient with respect to input {i} is independent of the inputs of "
                      "the user-provided function. This is not allowed in strict mode.")
_JACOBIAN_CONSTANT = ("While computing the hessian, found that the jacobian of the user-provided"
                      " function with respect to input {i} is independent of the input. This is"
                      " not allowed in strict mode. You should ensure that your function is "
                      "twice differentiable and that the jacobian depends on the inputs (this "
                      "would be violated by a linear function for example).")
_JACOBIAN_NOT_DIFFERENTIABLE = ("The jacobian of the user-provided function is independent of "
                                "input {i}. This is not allowed in strict mode when "
                                "create_graph=True.")
_HESSIAN_NOT_DIFFERENTIABLE = ("The hessian of the user-provided function is independent of "
                               "input {i}. This is not allowed in strict mode when "
                               "create_graph=True.")

# Per backward pass: (a gradient that is missing, one that cannot be differentiated further).
_BACK = (_OUTPUT_INDEPENDENT, _JACOBIAN_NOT_DIFFERENTIABLE)
_BACK_TRICK = ("The gradient with respect to the input is independent of entry {i} in the "
               "grad_outputs when using the double backward trick to compute forward mode "
               "gradients. This is not allowed in strict mode.", _JACOBIAN_NOT_DIFFERENTIABLE)
_DOUBLE_BACK = ("The jacobian of the user-provided function is independent of input {i}. This "
                "is not allowed in strict mode.", _HESSIAN_NOT_DIFFERENTIABLE)
_DOUBLE_BACK_TRICK = ("The hessian of the user-provided function is independent of entry {i} "
                      "in the grad_jacobian. This is not allowed in strict mode as it prevents "
                      "from using the double backward trick to replace forward mode AD.",
                      _HESSIAN_NOT_DIFFERENTIABLE)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(*inputs), v^T J)``: the vector-Jacobian product, shaped as the inputs.
    ``v`` may be left out when func returns one single-element tensor."""
    with enable_grad():
        inputs_tuple, inputs = _tupled(inputs, "inputs", "vjp")
        inputs = _stand_ins(inputs, create_graph, True)
        outputs_tuple, outputs = _tupled(func(*inputs), _USER_OUTPUTS, "vjp")
        _require_grad(outputs, _OUTPUT_WITHOUT_GRAD, strict)
        v = _vector(v, outputs, outputs_tuple, "vjp", create_graph,
                    "The vector v can only be None if the user-provided function returns a "
                    "single Tensor with a single element.")
        product = _filled(_grads(outputs, inputs, v, create_graph), inputs, strict,
                          create_graph, _BACK)
    return _returned(create_graph, outputs, outputs_tuple, product, inputs_tuple)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(*inputs), J v)``: the Jacobian-vector product, shaped as the outputs.
    ``v`` may be left out when the input is one single-element tensor."""
    with enable_grad():
        inputs_tuple, inputs = _tupled(inputs, "inputs", "jvp")
        inputs = _stand_ins(inputs, create_graph, True)
        v = _vector(v, inputs, inputs_tuple, "jvp", create_graph, _SINGLE_V)
        outputs_tuple, outputs = _tupled(func(*inputs), _USER_OUTPUTS, "jvp")
        _require_grad(outputs, _OUTPUT_WITHOUT_GRAD, strict)
        seeds = tuple(zeros_like(out, requires_grad=True) for out in outputs)
        pulled = _grads(outputs, inputs, seeds, True)
        _require_grad(pulled, _GRADIENT_CONSTANT, strict)
        product = _filled(_grads(pulled, seeds, v, create_graph), outputs, strict,
                          create_graph, _BACK_TRICK)
    return _returned(create_graph, outputs, outputs_tuple, product, outputs_tuple)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian of func at inputs: for output i and input j a tensor shaped
    ``outputs[i].shape + inputs[j].shape`` (nested tuples as the inputs and outputs are)."""
    return _jacobian(func, inputs, create_graph, strict, vectorize, strategy, False)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a function with one single-element output: the Jacobian of its
    gradient, for inputs i and j shaped ``inputs[i].shape + inputs[j].shape``."""
    inputs_tuple, inputs = _tupled(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar(*args):
        out = func(*args)
        is_tuple, outputs = _tupled(out, _USER_OUTPUTS, "hessian")
        _require_grad(outputs, _OUTPUT_WITHOUT_GRAD, strict)
        _single_element(outputs, is_tuple, "hessian")
        return out.squeeze()

    def gradient(*args):
        gradients = jacobian(scalar, args, create_graph=True)
        _require_grad(gradients, _JACOBIAN_CONSTANT, strict)
        return gradients

    # The gradient's inputs require grad, so a forward-mode Hessian keeps its history.
    blocks = _jacobian(gradient, inputs, create_graph, strict, vectorize,
                       outer_jacobian_strategy, True)
    return _untupled_blocks(blocks, inputs_tuple, inputs_tuple)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(*inputs), v^T H)`` for a function with one single-element output."""
    with enable_grad():
        inputs_tuple, inputs, v, outputs, gradients = _second_order_setup(
            func, inputs, v, create_graph, strict, "vhp")
        product = _filled(_grads(gradients, inputs, v, create_graph), inputs, strict,
                          create_graph, _DOUBLE_BACK)
    return _returned(create_graph, outputs, False, product, inputs_tuple)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(*inputs), H v)`` for a function with one single-element output."""
    with enable_grad():
        inputs_tuple, inputs, v, outputs, gradients = _second_order_setup(
            func, inputs, v, create_graph, strict, "hvp")
        seeds = tuple(zeros_like(x, requires_grad=True) for x in inputs)
        pulled = _grads(gradients, inputs, seeds, True)
        product = _filled(_grads(pulled, seeds, v, create_graph), inputs, strict,
                          create_graph, _DOUBLE_BACK_TRICK)
    return _returned(create_graph, outputs, False, product, inputs_tuple)


def _second_order_setup(func, inputs, v, create_graph, strict, caller):
    """vhp's and hvp's common start: stand-ins, v, the function's one output and its
    gradient (with history)."""
    inputs_tuple, inputs = _tupled(inputs, "inputs", caller)
    inputs = _stand_ins(inputs, create_graph, True)
    v = _vector(v, inputs, inputs_tuple, caller, create_graph, _SINGLE_V)
    outputs_tuple, outputs = _tupled(func(*inputs), _USER_OUTPUTS, caller)
    _require_grad(outputs, _OUTPUT_WITHOUT_GRAD, strict)
    _single_element(outputs, outputs_tuple, caller)
    gradients = _grads(outputs, inputs, None, True)
    _require_grad(gradients, _JACOBIAN_CONSTANT, strict)
    return inputs_tuple, inputs, v, outputs, gradients


def _jacobian(func, inputs, create_graph, strict, vectorize, strategy, sees_grad):
    """jacobian, where `sees_grad` says that func makes its inputs require grad (hessian's
    gradient does), which keeps a forward-mode Jacobian's history."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more '
            'performant. Otherwise, prefer to use "reverse-mode".')
    if strategy == "reverse-mode":
        return _reverse_jacobian(func, inputs, create_graph, strict, vectorize)
    if create_graph:
        raise NotImplementedError(
            'torch.autograd.functional.jacobian: `create_graph=True` and `strategy="forward-'
            'mode"` are not supported together (yet). Please either set `create_graph=False` '
            'or `strategy="reverse-mode"`.')
    return _forward_jacobian(func, inputs, strict, vectorize, sees_grad)


def _forward_jacobian(func, inputs, strict, vectorize, sees_grad):
    """The Jacobian by columns: J e is the gradient, with respect to a zero cotangent u, of
    the inputs' gradient J^T u. It keeps its history where an input requires grad (or
    `sees_grad`), as PyTorch's forward-mode tangents do."""
    if strict:
        raise RuntimeError(
            'torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` '
            'are not supported together (yet). Please either set `strict=False` or '
            '`strategy="reverse-mode"`.')
    inputs_tuple, inputs = _tupled(inputs, "inputs", "jacobian")
    if not vectorize:
        raise NotImplementedError(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly "
            "implemented for `vectorize=True`.")
    keep = sees_grad or any(x.requires_grad for x in inputs)
    with enable_grad():
        stand_ins = _stand_ins(inputs, True, True)
        # PyTorch's forward mode names no function when it checks the outputs ("given to
        # None").
        outputs_tuple, outputs = _tupled(func(*stand_ins), "outputs", None)
        seeds = tuple(zeros_like(out, requires_grad=True) if out.requires_grad else None
                      for out in outputs)
        pulled = _grads(outputs, stand_ins, seeds, True)
        blocks = tuple(_forward_blocks(out, seed, inputs, pulled, keep)
                       for out, seed in zip(outputs, seeds))
    return _untupled_blocks(blocks, outputs_tuple, inputs_tuple)


def _forward_blocks(out, seed, inputs, pulled, keep):
    """d out / d x for each input x, from one column (a Jacobian-vector product) per element
    of the inputs, split by input (so, as PyTorch's, each block of an output has history
    when one has)."""
    sizes = [x.numel() for x in inputs]
    if seed is None or not sum(sizes):
        return tuple(out.new_zeros(out.shape + x.shape) for x in inputs)
    columns = []
    for x, gradient in zip(inputs, pulled):
        for direction in eye(x.numel(), dtype=x.dtype):
            column = None if gradient is None else _grads(
                (gradient,), (seed,), (direction.view_as(x),), keep, retain_graph=True)[0]
            columns.append(zeros_like(out) if column is None else column)
    pieces = stack(columns, dim=-1).split(sizes, dim=-1)
    return tuple(piece.reshape(out.shape + x.shape) for piece, x in zip(pieces, inputs))


def _reverse_jacobian(func, inputs, create_graph, strict, vectorize):
    """The Jacobian by rows: one gradient per element of each output."""
    with enable_grad():
        inputs_tuple, inputs = _tupled(inputs, "inputs", "jacobian")
        inputs = _stand_ins(inputs, create_graph, True)
        outputs_tuple, outputs = _tupled(func(*inputs), _USER_OUTPUTS, "jacobian")
        _require_grad(outputs, _OUTPUT_WITHOUT_GRAD, strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                "not supported together. Please either set `strict=False` or "
                "`vectorize=False`.")
        rows = [_reverse_rows(i, out, inputs, create_graph, strict)
                for i, out in enumerate(outputs)]
        if vectorize:
            blocks = _blocks_by_input(rows, outputs, inputs)
        else:  # PyTorch stacks each block's rows, which refuses an output with no elements
            blocks = tuple(tuple(stack(row).view(out.shape + x.shape)
                                 for row, x in zip(per_input, inputs))
                           for per_input, out in zip(rows, outputs))
    return _untupled_blocks(blocks, outputs_tuple, inputs_tuple)


def _reverse_rows(i, out, inputs, create_graph, strict):
    """For each input, the gradient of each element of out (the rows of d out / d x)."""
    rows = tuple([] for _ in inputs)
    flat = out.reshape(-1)
    for element in range(out.numel()):
        gradients = _grads((flat[element],), inputs, None, create_graph, retain_graph=True)
        for j, (row, gradient, x) in enumerate(zip(rows, gradients, inputs)):
            if gradient is None:
                if strict:
                    raise RuntimeError(f"Output {i} of the user-provided function is "
                                       f"independent of input {j}. This is not allowed in "
                                       f"strict mode.")
                gradient = zeros_like(x)
            elif strict and create_graph and not gradient.requires_grad:
                # PyTorch names the output's index here.
                raise RuntimeError(_JACOBIAN_NOT_DIFFERENTIABLE.format(i=i))
            row.append(gradient)
    return rows


def _blocks_by_input(rows, outputs, inputs):
    """The blocks from the rows of every output stacked per input and split by output (so,
    as PyTorch's vectorized ones, each block of an input has history when one has)."""
    sizes = [out.numel() for out in outputs]
    by_input = []
    for j, x in enumerate(inputs):
        column = [row for per_input in rows for row in per_input[j]]
        pieces = stack(column).split(sizes) if column else \
            [x.new_zeros((size,) + x.shape) for size in sizes]
        by_input.append([piece.view(out.shape + x.shape)
                         for piece, out in zip(pieces, outputs)])
    return tuple(zip(*by_input))


def _tupled(value, what, caller):
    """(whether value is a tuple, value as a tuple), refusing what is not a tensor."""
    is_tuple = isinstance(value, tuple)
    items = value if is_tuple else (value,)
    for index, item in enumerate(items):
        if not isinstance(item, Tensor):
            where = f"the value at index {index}" if is_tuple else f"the given {what}"
            raise TypeError(f"The {what} given to {caller} must be either a Tensor or a tuple "
                            f"of Tensors but {where} has type {type(item)}.")
    return is_tuple, items


def _untupled(tensors, is_tuple):
    return tensors if is_tuple else tensors[0]


def _untupled_blocks(blocks, outer_tuple, inner_tuple):
    """Jacobian blocks (a tuple per output of a tuple per input) unwrapped where the
    outputs or the inputs were single tensors."""
    return _untupled(tuple(_untupled(row, inner_tuple) for row in blocks), outer_tuple)


def _stand_ins(tensors, create_graph, requires_grad):
    """New tensor objects for the given ones: views keeping the history when the result
    should carry it, detached copies otherwise."""
    return tuple(t.view_as(t) if create_graph and t.requires_grad else
                 t.detach().requires_grad_(requires_grad) for t in tensors)


def _returned(create_graph, outputs, outputs_tuple, product, product_tuple):
    """(outputs, product), each a tuple or one tensor as given, with history only under
    create_graph."""
    return (_untupled(_kept(outputs, create_graph), outputs_tuple),
            _untupled(_kept(product, create_graph), product_tuple))


def _kept(tensors, create_graph):
    """The results with their history only when the caller asked for it."""
    return tuple(t if create_graph else t.detach() for t in tensors)


def _vector(v, like, like_tuple, caller, create_graph, none_message):
    """v as a tuple of stand-ins checked against the shapes of `like`; None only where
    `like` is one single-element tensor."""
    if v is None:
        if len(like) != 1 or like[0].nelement() != 1:
            raise RuntimeError(none_message)
        return None
    v = _stand_ins(_tupled(v, "v", caller)[1], create_graph, False)
    if len(v) != len(like):
        raise RuntimeError(f"v is a tuple of invalid length: should be {len(like)} but got "
                           f"{len(v)}." if like_tuple else
                           "The given v should contain a single Tensor.")
    for index, (given, expected) in enumerate(zip(v, like)):
        if given.size() != expected.size():
            where = f"Entry {index} in " if like_tuple else ""
            raise RuntimeError(f"{where}v has invalid size: should be {expected.size()} but "
                               f"got {given.size()}.")
    return v


def _single_element(outputs, is_tuple, caller):
    if is_tuple:
        raise RuntimeError(f"The function given to {caller} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {caller} should "
                           f"contain a single element")


def _require_grad(tensors, message, strict):
    """In strict mode, refuse a missing tensor or one that does not require grad."""
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(_OUTPUT_INDEPENDENT.format(i=i))
        if not t.requires_grad:
            raise RuntimeError(message.format(i=i))


def _grads(outputs, inputs, cotangents, create_graph, retain_graph=None):
    """grad of the outputs that require grad (None for each input they do not reach, and
    for every input when none does)."""
    if cotangents is None:
        cotangents = (None,) * len(outputs)
    pairs = [(out, ct) for out, ct in zip(outputs, cotangents)
             if out is not None and out.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    outputs, cotangents = zip(*pairs)
    return grad(outputs, inputs, cotangents, retain_graph=retain_graph,
                create_graph=create_graph, allow_unused=True)


def _filled(gradients, like, strict, create_graph, messages):
    """The gradients with zeros for the missing ones, or (strict) PyTorch's refusal of a
    missing gradient or, under create_graph, of one without history."""
    missing, constant = messages
    filled = []
    for i, (gradient, reference) in enumerate(zip(gradients, like)):
        if gradient is None:
            if strict:
                raise RuntimeError(missing.format(i=i))
            gradient = zeros_like(reference)
        elif strict and create_graph and not gradient.requires_grad:
            raise RuntimeError(constant.format(i=i))
        filled.append(gradient)
    return tuple(filled)
