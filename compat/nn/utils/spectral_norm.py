"""The legacy spectral normalization (``nn.utils.spectral_norm``; the modern form is
nn.utils.parametrizations.spectral_norm): parameter ``<name>`` becomes ``<name>_orig``,
the power iteration's vectors the buffers ``<name>_u`` and ``<name>_v``, and a forward
pre-hook sets ``<name>`` (a plain attribute) to ``<name>_orig / sigma`` before every
forward, stepping the iteration in training mode.

compat's state_dicts carry no metadata, so the load hook cannot tell a checkpoint's
version: it reads one with ``<name>_orig``, ``_u`` and ``_v`` and no ``<name>`` as the
current format and converts the version-0 format, as PyTorch does for a state_dict without
metadata."""
from ... import linalg
from ..._grad_mode import no_grad
from ..conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..functional import normalize
from ..parameter import Parameter, UninitializedParameter

__all__ = ["SpectralNorm", "SpectralNormLoadStateDictPreHook", "spectral_norm",
           "remove_spectral_norm"]


class SpectralNorm:
    """The forward pre-hook of one normalized parameter."""

    _version = 1

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError(f"Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight):
        """`weight` as a matrix with a row per index of `dim` (moved to the front)."""
        if self.dim != 0:
            weight = weight.permute(self.dim,
                                    *[d for d in range(weight.dim()) if d != self.dim])
        return weight.reshape(weight.size(0), -1)

    def compute_weight(self, module, do_power_iteration):
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        matrix = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                # The buffers are updated in place (v first here, unlike the
                # parametrization), then copied: the next step must not change what this
                # weight's backward reads.
                for _ in range(self.n_power_iterations):
                    v.copy_(normalize(matrix.t().mv(u), dim=0, eps=self.eps))
                    u.copy_(normalize(matrix.mv(v), dim=0, eps=self.eps))
                u, v = u.clone(), v.clone()
        sigma = u.dot(matrix.mv(v))
        return weight / sigma

    def remove(self, module):
        with no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        for suffix in ("", "_u", "_v", "_orig"):
            delattr(module, self.name + suffix)
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module, inputs):
        setattr(module, self.name,
                self.compute_weight(module, do_power_iteration=module.training))

    def _solve_v_and_rescale(self, matrix, u, target_sigma):
        """The v with u^T W v = target_sigma, W^T W v along W^T u (a version-0 checkpoint
        kept no v)."""
        v = linalg.multi_dot([matrix.t().mm(matrix).pinverse(), matrix.t(),
                              u.unsqueeze(1)]).squeeze(1)
        return v.mul_(target_sigma / u.dot(matrix.mv(v)))

    @staticmethod
    def apply(module, name, n_power_iterations, dim, eps):
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same "
                                   f"parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        if isinstance(weight, UninitializedParameter):
            raise ValueError("The module passed to `SpectralNorm` can't have uninitialized "
                             "parameters. Make sure to run the dummy forward before applying "
                             "spectral normalization")
        with no_grad():
            rows, columns = fn.reshape_weight_to_matrix(weight).size()
            u = normalize(weight.new_empty(rows).normal_(0, 1), dim=0, eps=fn.eps)
            v = normalize(weight.new_empty(columns).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(fn))
        return fn


class SpectralNormLoadStateDictPreHook:
    """Before loading: a version-0 state_dict (``<name>``, ``<name>_orig``, ``<name>_u``,
    no ``<name>_v``) gets the ``<name>_v`` that gives its sigma."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, state_dict, prefix, local_metadata, strict, missing_keys,
                 unexpected_keys, error_msgs):
        fn = self.fn
        weight_key = prefix + fn.name
        if (all(weight_key + suffix in state_dict for suffix in ("_orig", "_u", "_v"))
                and weight_key not in state_dict):
            return
        absent = [weight_key + suffix for suffix in ("_orig", "", "_u")
                  if weight_key + suffix not in state_dict]
        if absent:
            if strict:
                missing_keys.extend(absent)
            return
        with no_grad():
            weight_orig = state_dict[weight_key + "_orig"]
            weight = state_dict.pop(weight_key)
            sigma = (weight_orig / weight).mean()
            matrix = fn.reshape_weight_to_matrix(weight_orig)
            u = state_dict[weight_key + "_u"]
            state_dict[weight_key + "_v"] = fn._solve_v_and_rescale(matrix, u, sigma)


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Replace parameter ``module.<name>`` by ``<name>_orig`` divided by its spectral norm
    (power iteration on the buffers ``<name>_u``, ``<name>_v``), recomputed before every
    forward; `dim` is the output dimension, by default 1 for a ConvTranspose and 0
    otherwise. Returns `module`."""
    if dim is None:
        transposed = (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)
        dim = 1 if isinstance(module, transposed) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module, name="weight"):
    """Make ``module.<name>`` a plain parameter again, holding its current value (no
    further power iteration)."""
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    # PyTorch 2.13 leaves the load_state_dict pre-hook registered (its removal looks for
    # the hook among wrappers of it and misses): a later load_state_dict still runs it.
    return module
