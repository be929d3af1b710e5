"""The Distribution API of compat's distributions against PyTorch's: draws after a seed,
log_prob, entropy, moments, cdf/icdf (NotImplementedError where PyTorch has none),
perplexity, mode and expand (compat had neither perplexity nor expand, nor Uniform's and
Bernoulli's mode), argument validation, in float32 and float64."""
import pytest

from compat_harness import check, seeded

DISTRIBUTIONS = [
    'D.Normal(a, b)', 'D.Uniform(a - 1, a + b)', 'D.Bernoulli(probs=b / 3)',
    'D.Bernoulli(logits=a)', 'D.Categorical(probs=b)', 'D.Categorical(logits=a)',
    'D.Cauchy(a, b)', 'D.Exponential(b)', 'D.Geometric(probs=b / 3)', 'D.Gumbel(a, b)',
    'D.HalfNormal(b)', 'D.Laplace(a, b)', 'D.LogNormal(a, b)', 'D.Independent(D.Normal(a, b), 1)',
    'D.MultivariateNormal(a, torch.diag(b))', 'D.Normal(a, -b)', 'D.Bernoulli(probs=b)',
    'D.Categorical(probs=-b)',
]

USES = [
    'd.sample()', 'd.sample((2,))', 'd.rsample() if d.has_rsample else d.sample()',
    'd.log_prob(d.sample())', 'd.entropy()', 'd.mean', 'd.variance', 'd.stddev',
    'd.cdf(d.sample())', 'd.icdf(torch.tensor(0.3))', 'd.batch_shape', 'd.event_shape', 'd.mode',
    'd.perplexity()', 'd.log_prob(torch.tensor(0.5))',
    'd.log_prob(torch.tensor([5.0, 7.0, 9.0]))', 'repr(d)', 'd.expand((2, 3)).sample()',
    'd.support',
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("distribution", DISTRIBUTIONS)
def test_every_use_of_a_distribution_is_torchs(distribution, dtype):
    for use in USES:
        def case(torch, use=use):
            D = torch.distributions
            a = torch.tensor([0.5, -1.0, 2.0], dtype=getattr(torch, dtype))
            b = torch.tensor([1.0, 0.5, 2.0], dtype=getattr(torch, dtype))
            d = eval(distribution, {"torch": torch, "D": D, "a": a, "b": b})
            result = eval(use, {"torch": torch, "d": d})
            return str(result) if isinstance(result, (tuple, str)) or not hasattr(
                result, "dtype") else result
        check(seeded(case), rtol=1e-4, atol=1e-5, messages=True)
