"""compat.func: torch.func's functional_call. torch.func's transforms (grad, vmap, jacrev,
...) are not part of compat: funcgrad's own (funcgrad.grad, funcgrad.vmap, ...) transform
functions of NumPy arrays, and compat.autograd.grad differentiates compat tensors."""
from ._module_call import functional_call

# torch.func's transforms, by funcgrad's name for each (None: funcgrad has none)
_TRANSFORMS = {"grad": "grad", "grad_and_value": "value_and_grad", "vjp": "vjp",
               "jvp": "jvp", "jacrev": "jacrev", "jacfwd": "jacfwd", "hessian": "hessian",
               "vmap": "vmap", "linearize": "linearize", "functionalize": None,
               "stack_module_state": None, "replace_all_batch_norm_modules_": None}


def __getattr__(name):
    if name not in _TRANSFORMS:
        raise AttributeError(f"module 'compat.func' has no attribute '{name}'")
    instead = (f"; funcgrad.{_TRANSFORMS[name]} is one for functions written with "
               f"funcgrad.numpy" if _TRANSFORMS[name] else "")
    raise AttributeError(f"compat.func has no {name}: compat implements torch.func's "
                         f"functional_call only (compat.autograd.grad differentiates compat "
                         f"tensors){instead}")


__all__ = ["functional_call"]
