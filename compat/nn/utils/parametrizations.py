"""nn.utils.parametrizations: weight normalization, spectral normalization and orthogonal
matrices as parametrizations (`parametrize.register_parametrization`); the first two are
the modern forms of the legacy hooks in nn.utils.weight_norm and nn.utils.spectral_norm."""
from ..._grad_mode import no_grad
from ..._tensor import Tensor
from ..conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..functional import normalize
from ..module import Module
from . import parametrize
from ._orthogonal import orthogonal
from ._weight_norm_kernel import norm_except_dim
from ._weight_norm_kernel import weight_norm as _scaled_to_norm

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


class _WeightNorm(Module):
    """w = g v / ||v||, the norms taken over every dimension but `dim` (None: over all):
    computed from (g, v), the two unconstrained tensors."""

    def __init__(self, dim=0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        return _scaled_to_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        return norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module, name="weight", dim=0):
    """Parametrize ``module.<name>`` as a magnitude ``original0`` (g) times a direction
    ``original1`` (v / ||v||). A state_dict of the legacy hook (``<name>_g``,
    ``<name>_v``) still loads. Returns `module`."""
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)

    def load_legacy_keys(state_dict, prefix, local_metadata, strict, missing_keys,
                         unexpected_keys, error_msgs):
        g_key, v_key = f"{prefix}{name}_g", f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            state_dict[f"{prefix}parametrizations.{name}.original0"] = state_dict.pop(g_key)
            state_dict[f"{prefix}parametrizations.{name}.original1"] = state_dict.pop(v_key)

    module._register_load_state_dict_pre_hook(load_legacy_keys)
    return module


def _as_matrix(weight, dim):
    """`weight` as a matrix whose rows run along `dim` (moved to the front), the other
    dimensions flattened into the columns."""
    if dim != 0:
        weight = weight.permute(dim, *(d for d in range(weight.dim()) if d != dim))
    return weight.flatten(1)


class _SpectralNorm(Module):
    """W / sigma(W), sigma the largest singular value of W as a matrix (`dim` its rows),
    estimated by power iteration with the vectors ``_u`` and ``_v`` (buffers): 15 steps
    when made, `n_power_iterations` at each access in training mode. A vector is
    normalized exactly."""

    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError(f"Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            matrix = _as_matrix(weight, self.dim)
            rows, columns = matrix.size()
            # Drawn in this order (u, then v), as PyTorch draws them.
            u = matrix.new_empty(rows).normal_(0, 1)
            v = matrix.new_empty(columns).normal_(0, 1)
            self.register_buffer("_u", normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", normalize(v, dim=0, eps=self.eps))
            self._power_method(matrix, 15)

    def _power_method(self, matrix, steps):
        """Move ``_u`` and ``_v`` (in place: they are buffers) towards the first singular
        vectors of `matrix`."""
        with no_grad():
            for _ in range(steps):
                self._u.copy_(normalize(matrix.mv(self._v), dim=0, eps=self.eps))
                self._v.copy_(normalize(matrix.H.mv(self._u), dim=0, eps=self.eps))

    def forward(self, weight):
        if weight.ndim == 1:
            return normalize(weight, dim=0, eps=self.eps)
        matrix = _as_matrix(weight, self.dim)
        if self.training:
            self._power_method(matrix, self.n_power_iterations)
        # Copies: a later step updates the buffers, which this result's backward reads.
        u, v = self._u.clone(), self._v.clone()
        sigma = u.vdot(matrix.mv(v))
        return weight / sigma

    def right_inverse(self, value):
        return value


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Parametrize ``module.<name>`` as itself divided by its spectral norm (estimated by
    power iteration; `dim` is the output dimension, by default 1 for a ConvTranspose and 0
    otherwise). Returns `module`."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        transposed = (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)
        dim = 1 if isinstance(module, transposed) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
