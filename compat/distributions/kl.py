"""kl_divergence(p, q) and register_kl: KL(p || q) by the pair of distribution types, the
most specific registered pair chosen along the classes' inheritance, as PyTorch does."""
import math

from .._ops import broadcast_shapes, exp, log
from .._torch_names import FUNCTIONS
from ..nn.functional import softplus
from .bernoulli import Bernoulli
from .categorical import Categorical
from .cauchy import Cauchy
from .exponential import Exponential
from .geometric import Geometric
from .gumbel import EULER_CONSTANT, Gumbel
from .half_normal import HalfNormal
from .independent import Independent, sum_rightmost
from .laplace import Laplace
from .log_normal import LogNormal
from .multivariate_normal import MultivariateNormal, half_log_det, mahalanobis
from .normal import Normal
from .uniform import Uniform

_solve_triangular = FUNCTIONS["linalg.solve_triangular"]

_REGISTRY = {}  # (type of p, type of q) -> function
_CHOSEN = {}  # the function chosen for a pair of types, once looked up


def register_kl(type_p, type_q):
    """A decorator registering ``fn(p, q)`` as KL(p || q) for distributions of these types
    (and their subclasses, where no more specific pair is registered)."""
    def register(fn):
        _REGISTRY[type_p, type_q] = fn
        _CHOSEN.clear()
        return fn
    return register


def kl_divergence(p, q):
    """KL(p || q), a tensor of the distributions' batch shape."""
    key = type(p), type(q)
    if key not in _CHOSEN:
        _CHOSEN[key] = _most_specific(*key)
    fn = _CHOSEN[key]
    if fn is None:
        raise NotImplementedError(f"No KL(p || q) is implemented for p type "
                                  f"{type(p).__name__} and q type {type(q).__name__}")
    return fn(p, q)


def _most_specific(type_p, type_q):
    """The registered function of the pair nearest to (type_p, type_q) up their
    inheritance: fewest steps for p, then for q."""
    matches = [(type_p.__mro__.index(super_p), type_q.__mro__.index(super_q), fn)
               for (super_p, super_q), fn in _REGISTRY.items()
               if issubclass(type_p, super_p) and issubclass(type_q, super_q)]
    return min(matches, key=lambda match: match[:2])[2] if matches else None


@register_kl(Normal, Normal)
def _normal_normal(p, q):
    variance_ratio = (p.scale / q.scale).pow(2)
    mean_term = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (variance_ratio + mean_term - 1 - log(variance_ratio))


@register_kl(HalfNormal, HalfNormal)
@register_kl(LogNormal, LogNormal)
def _of_the_bases(p, q):
    # One map of both (|x|, exp x) leaves KL as it is between the distributions it maps.
    return kl_divergence(p.base_dist, q.base_dist)


@register_kl(Exponential, Exponential)
def _exponential_exponential(p, q):
    rate_ratio = q.rate / p.rate
    return -log(rate_ratio) + rate_ratio - 1


@register_kl(Laplace, Laplace)
def _laplace_laplace(p, q):
    scale_ratio = p.scale / q.scale
    distance = (p.loc - q.loc).abs()
    return -log(scale_ratio) + distance / q.scale + scale_ratio * exp(-distance / p.scale) - 1


@register_kl(Cauchy, Cauchy)
def _cauchy_cauchy(p, q):
    return (log((p.scale + q.scale).pow(2) + (p.loc - q.loc).pow(2))
            - log(4 * p.scale * q.scale))


@register_kl(Gumbel, Gumbel)
def _gumbel_gumbel(p, q):
    scale_ratio = p.scale / q.scale
    q_loc, p_loc = q.loc / q.scale, p.loc / q.scale  # (in q's scale)
    return (-log(scale_ratio) - q_loc + p_loc + scale_ratio * EULER_CONSTANT
            + exp(q_loc + (1 + scale_ratio).lgamma() - p_loc) - (1 + EULER_CONSTANT))


@register_kl(Geometric, Geometric)
def _geometric_geometric(p, q):
    return -p.entropy() - (-q.probs).log1p() / p.probs - q.logits


@register_kl(Bernoulli, Bernoulli)
def _bernoulli_bernoulli(p, q):
    # Where q gives an outcome no probability that p gives some, KL is infinite; outcomes
    # p never has add nothing.
    ones = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    ones[q.probs == 0] = math.inf
    ones[p.probs == 0] = 0
    zeros = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    zeros[q.probs == 1] = math.inf
    zeros[p.probs == 1] = 0
    return ones + zeros


@register_kl(Categorical, Categorical)
def _categorical_categorical(p, q):
    terms = p.probs * (p.logits - q.logits)
    terms[(q.probs == 0).expand_as(terms)] = math.inf
    terms[(p.probs == 0).expand_as(terms)] = 0
    return terms.sum(-1)


@register_kl(Uniform, Uniform)
def _uniform_uniform(p, q):
    result = log((q.high - q.low) / (p.high - p.low))
    result[(q.low > p.low) | (q.high < p.high)] = math.inf  # p's support outside q's
    return result


@register_kl(Independent, Independent)
def _independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)


@register_kl(MultivariateNormal, MultivariateNormal)
def _multivariate_normal_multivariate_normal(p, q):
    if p.event_shape != q.event_shape:
        # (PyTorch's text keeps the indentation of its source's line continuation)
        raise ValueError(f"KL-divergence between two Multivariate Normals with{' ' * 26}"
                         f"different event shapes cannot be computed")
    p_factor, q_factor = p._unbroadcasted_scale_tril, q._unbroadcasted_scale_tril
    half_log_det_ratio = half_log_det(q_factor) - half_log_det(p_factor)
    n = p.event_shape[0]
    shape = broadcast_shapes(q_factor.shape[:-2], p_factor.shape[:-2]) + (n, n)
    # trace(q_cov^-1 p_cov) = |q_L^-1 p_L|^2 (Frobenius)
    trace = _solve_triangular(q_factor.expand(shape), p_factor.expand(shape),
                              upper=False).pow(2).sum((-2, -1))
    return half_log_det_ratio + 0.5 * (trace + mahalanobis(q_factor, q.loc - p.loc) - n)


__all__ = ["kl_divergence", "register_kl"]
