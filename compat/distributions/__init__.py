"""torch.distributions: Normal, Uniform, Bernoulli, Categorical, Exponential, Laplace,
Cauchy, HalfNormal, LogNormal, Gumbel, Geometric, MultivariateNormal and Independent, with
sample (drawing from the random streams as PyTorch does), rsample where PyTorch has it,
log_prob, entropy, cdf/icdf where PyTorch has them, moments, PyTorch's argument
validation, and kl_divergence (register_kl) between them. Built from compat's
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
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .log_normal import LogNormal
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .uniform import Uniform

__all__ = ["constraints", "Distribution", "Normal", "Uniform", "Bernoulli", "Categorical",
           "Exponential", "Laplace", "Cauchy", "HalfNormal", "LogNormal", "Gumbel",
           "Geometric", "MultivariateNormal", "Independent", "kl_divergence", "register_kl"]
