"""nn.utils: gradient clipping, the parameters as one vector, sequences of different
lengths (rnn), and stateless's functional_call (deprecated for compat.func's)."""
from . import rnn, stateless
from .clip_grad import (clip_grad_norm, clip_grad_norm_, clip_grad_value_,
                        clip_grads_with_norm_, get_total_norm)
from .convert_parameters import parameters_to_vector, vector_to_parameters

__all__ = ["rnn", "stateless", "clip_grad_norm", "clip_grad_norm_", "clip_grad_value_",
           "clip_grads_with_norm_", "get_total_norm", "parameters_to_vector",
           "vector_to_parameters"]
