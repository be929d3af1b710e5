"""torch.distributions: Normal, Uniform, Bernoulli and Categorical, with sample (drawing
from the random streams as PyTorch does), rsample where PyTorch has it, log_prob, entropy,
cdf/icdf, and PyTorch's argument validation. Built from compat's differentiable
operations, so log_prob and rsample carry gradients to the parameters."""
from . import constraints
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .normal import Normal
from .uniform import Uniform

__all__ = ["constraints", "Distribution", "Normal", "Uniform", "Bernoulli", "Categorical"]
