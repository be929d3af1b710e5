"""nn.utils: gradient clipping, the parameters as one vector, sequences of different
lengths (rnn), stateless's functional_call (deprecated for compat.func's), parametrized
tensors (parametrize, and weight and spectral normalization in parametrizations) and the
legacy weight_norm and spectral_norm hooks."""
from . import parametrizations, parametrize, rnn, stateless
from .clip_grad import (clip_grad_norm, clip_grad_norm_, clip_grad_value_,
                        clip_grads_with_norm_, get_total_norm)
from .convert_parameters import parameters_to_vector, vector_to_parameters
from .spectral_norm import remove_spectral_norm, spectral_norm
from .weight_norm import remove_weight_norm, weight_norm

__all__ = ["parametrizations", "parametrize", "rnn", "stateless", "clip_grad_norm",
           "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm",
           "parameters_to_vector", "vector_to_parameters", "remove_spectral_norm",
           "spectral_norm", "remove_weight_norm", "weight_norm"]
