"""torch.distributions: Normal, Uniform, Bernoulli, Categorical, MultivariateNormal and
Independent, with sample (drawing from the random streams as PyTorch does), rsample where
PyTorch has it, log_prob, entropy, cdf/icdf, PyTorch's argument validation, and
kl_divergence (register_kl) between them. Built from compat's differentiable
operations, so log_prob and rsample carry gradients to the parameters."""
from . import constraints
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .independent import Independent
from .kl import kl_divergence, register_kl
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .uniform import Uniform

__all__ = ["constraints", "Distribution", "Normal", "Uniform", "Bernoulli", "Categorical",
           "MultivariateNormal", "Independent", "kl_divergence", "register_kl"]
