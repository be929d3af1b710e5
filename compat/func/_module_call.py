"""functional_call: a module called with some of its parameters and buffers replaced by
given tensors for that call only: the gradient then reaches the given tensors (as in
meta-learning), and the module's own tensors are untouched."""
import contextlib

from .._tensor import Tensor


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    """``module(*args, **kwargs)`` with the tensors named in `parameters_and_buffers` (a
    dict of dotted names, or a tuple of dicts) in place of its own. With `tie_weights`, a
    tensor given for one of the names a module shares one tensor under stands for all of
    them; `strict` requires a tensor for every name, and no other."""
    replacements = _merged(parameters_and_buffers)
    if tie_weights:
        replacements = _with_tied_names(module, replacements)
    if strict:
        _check_keys(module, replacements)
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _replaced(module, replacements):
        return module(*args, **(kwargs or {}))


def _merged(parameters_and_buffers):
    dicts = (parameters_and_buffers if isinstance(parameters_and_buffers, (tuple, list))
             else (parameters_and_buffers,))
    merged, repeated = {}, []
    for names in dicts:
        for name, value in names.items():
            if name in merged:
                repeated.append(name)
            merged[name] = value
    if repeated:
        raise ValueError(f"{sorted(set(repeated))} appeared in multiple dictionaries; "
                         f"behavior of functional call is ambiguous")
    return merged


def _named_tensors(module):
    """(name, tensor) of every parameter and buffer of `module`, shared ones under each of
    their names, in order."""
    yield from module.named_parameters(remove_duplicate=False)
    yield from module.named_buffers(remove_duplicate=False)


def _with_tied_names(module, replacements):
    """`replacements` extended to every name of a tensor the module keeps under several,
    one of which is given (all given ones must be the same tensor)."""
    groups = {}
    for name, value in _named_tensors(module):
        groups.setdefault(id(value), []).append(name)
    extended = dict(replacements)
    for names in groups.values():
        given = [name for name in names if name in replacements]
        if len(names) < 2 or not given:
            continue
        if any(replacements[name] is not replacements[given[0]] for name in given):
            raise ValueError(f"functional_call got multiple values for keys {given}, which "
                             f"are tied. Consider using tie_weights=False")
        for name in names:
            extended[name] = replacements[given[0]]
    return extended


def _check_keys(module, replacements):
    names = [name for name, _ in _named_tensors(module)]
    unexpected = [name for name in replacements if name not in set(names)]
    missing = [name for name in names if name not in replacements]
    errors = [f"{kind} key(s): {', '.join(repr(name) for name in keys)}."
              for kind, keys in (("Unexpected", unexpected), ("Missing", missing)) if keys]
    if errors:
        raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n\t"
                           + "\n\t".join(errors))


@contextlib.contextmanager
def _replaced(module, replacements):
    """The module's tensors replaced for the block, and restored after it (a name that was
    not the module's is removed again)."""
    restore = []
    try:
        for name, value in replacements.items():
            owner, _, attribute = name.rpartition(".")
            owner = module.get_submodule(owner)
            restore.append((owner, attribute, _swap(owner, attribute, value)))
        yield
    finally:
        for owner, attribute, previous in reversed(restore):
            _swap(owner, attribute, previous)


_ABSENT = object()


def _swap(owner, attribute, value):
    """Put `value` (a tensor, or _ABSENT to remove it) in the place of owner's `attribute`
    (its parameter, its buffer, or a plain attribute), bypassing the checks that keep a
    parameter's place for Parameters; returns what was there."""
    for registry in (owner._parameters, owner._buffers):
        if attribute in registry:
            previous = registry[attribute]
            if value is _ABSENT:
                del registry[attribute]
            else:
                registry[attribute] = value
            return previous
    previous = owner.__dict__.pop(attribute, _ABSENT)
    if value is not _ABSENT:
        if not isinstance(value, Tensor):
            raise TypeError(f"functional_call: the value for {attribute!r} must be a Tensor, "
                            f"not {type(value).__name__}")
        owner.__dict__[attribute] = value
    return previous


__all__ = ["functional_call"]
