"""torch.distributions: Normal, Uniform, Bernoulli, Categorical, Exponential, Laplace,
Cauchy, HalfNormal, LogNormal, Gumbel and Geometric, with sample (drawing from the random
streams as PyTorch does), rsample where PyTorch has it, log_prob, entropy, cdf/icdf where
PyTorch has them, moments, and PyTorch's argument validation. Built from compat's
differentiable operations, so log_prob and rsample carry gradients to the parameters."""
from . import constraints
from .bernoulli import Bernoulli
from .categorical import Categorical
from .cauchy import Cauchy
from .distribution import Distribution
from .exponential import Exponential
from .geometric import Geometric
from .gumbel import Gumbel
from .half_normal import HalfNormal
from .laplace import Laplace
from .log_normal import LogNormal
from .normal import Normal
from .uniform import Uniform

__all__ = ["constraints", "Distribution", "Normal", "Uniform", "Bernoulli", "Categorical",
           "Exponential", "Laplace", "Cauchy", "HalfNormal", "LogNormal", "Gumbel",
           "Geometric"]
