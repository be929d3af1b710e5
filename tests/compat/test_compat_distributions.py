"""compat.distributions against torch.distributions: samples after the same seed, rsample,
log_prob, entropy, cdf/icdf with their gradients, moments, shapes, printed forms, and the
validation errors."""
import pytest

from compat_harness import check

SETUP = """
loc = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
scale = torch.tensor([1.0, 0.5, 3.0], requires_grad=True)
p = torch.tensor([0.2, 0.7, 0.5], requires_grad=True)
logits = torch.tensor([[0.1, -1.2, 2.0], [1.5, 0.3, -0.7]], requires_grad=True)
low = torch.tensor([0.0, -2.0, 1.0], requires_grad=True)
rate = torch.tensor([2.0, 0.5, 1.5], requires_grad=True)
loc64 = torch.tensor([[0.3], [-2.0]], dtype=torch.float64, requires_grad=True)
scale64 = torch.tensor([0.7, 2.0, 1.2], dtype=torch.float64, requires_grad=True)
x = torch.tensor([0.0, 1.0, 2.5])
q = torch.tensor([0.1, 0.5, 0.9])
"""

# The moments, shapes and printed forms every family is compared on.
SUMMARY = ["d.mean", "d.mode", "d.variance", "d.stddev", "d.batch_shape", "d.event_shape",
           "d.has_rsample", "repr(d)", "repr(d.support)"]

# Expressions in d (a distribution) and value; each row: (construction, expressions).
FAMILIES = {
    "Normal(loc, scale)": ["d.log_prob(torch.tensor([0.0, 1.0, 2.5]))", "d.entropy()",
                           "d.cdf(torch.tensor([0.0, 1.0, 2.5]))",
                           "d.icdf(torch.tensor([0.1, 0.5, 0.9]))", "d.rsample()",
                           "d.rsample((2,))", "d.sample((4,))", "d.mean", "d.stddev",
                           "d.variance", "d.batch_shape", "d.event_shape", "repr(d)"],
    "Normal(0.0, 2.0)": ["d.sample()", "d.sample((2, 3))", "d.log_prob(torch.tensor(1.0))",
                         "d.entropy()", "repr(d)", "d.batch_shape"],
    "Normal(loc, 1.5)": ["d.rsample((3,))", "d.log_prob(torch.ones(2, 3))"],
    "Uniform(low, low + 2)": ["d.rsample((3,))", "d.sample()", "d.entropy()",
                              "d.log_prob(low + 0.5)", "d.cdf(low + 0.5)", "d.icdf(p)",
                              "d.mean", "d.variance", "repr(d)"],
    "Uniform(0.0, 5.0)": ["d.sample((5,))", "d.log_prob(torch.tensor([1.0, 4.0]))", "repr(d)"],
    "Bernoulli(probs=p)": ["d.sample()", "d.sample((4,))", "d.entropy()",
                           "d.log_prob(torch.tensor([1.0, 0.0, 1.0]))", "d.mean", "d.variance",
                           "d.logits", "repr(d)"],
    "Bernoulli(logits=logits)": ["d.sample((2,))", "d.log_prob(torch.ones(2, 3))",
                                 "d.entropy()", "d.probs"],
    "Bernoulli(0.3)": ["d.sample((6,))", "repr(d)"],
    "Categorical(logits=logits)": ["d.sample()", "d.sample((5,))",
                                   "d.log_prob(torch.tensor([2, 0]))", "d.entropy()", "d.probs",
                                   "d.mode", "d.batch_shape", "repr(d)",
                                   "d.log_prob(torch.tensor([[1], [2]]))"],
    "Categorical(probs=p)": ["d.sample((7,))", "d.log_prob(torch.tensor(1))", "d.entropy()",
                             "d.logits", "d.mean", "repr(d)"],
    "Exponential(rate)": ["d.log_prob(x)", "d.entropy()", "d.cdf(x)", "d.icdf(q)",
                          "d.rsample()", "d.rsample((2, 2))", "d.sample((4,))", *SUMMARY],
    "Exponential(2.5)": ["d.sample((5,))", "d.log_prob(torch.tensor(1.0))", "d.entropy()",
                         *SUMMARY],
    "Exponential(rate.double())": ["d.rsample((3,))", "d.log_prob(x.double())", "d.icdf(q)"],
    "Laplace(loc, scale)": ["d.log_prob(x)", "d.entropy()", "d.cdf(x)", "d.icdf(q)",
                            "d.rsample()", "d.rsample((2,))", "d.sample((4,))", *SUMMARY],
    "Laplace(loc64, scale64)": ["d.rsample((2,))", "d.log_prob(x.double())", "d.cdf(x)",
                                "d.icdf(q.double())", "d.entropy()", *SUMMARY],
    "Laplace(0.0, 2.0)": ["d.sample((6,))", "d.log_prob(torch.tensor(-1.0))", *SUMMARY],
    "Cauchy(loc, scale)": ["d.log_prob(x)", "d.entropy()", "d.cdf(x)", "d.icdf(q)",
                           "d.rsample()", "d.rsample((2,))", "d.sample((4,))", *SUMMARY],
    "Cauchy(loc, 2.0)": ["d.rsample((2,))", "d.log_prob(torch.ones(2, 1))", "repr(d)"],
    "HalfNormal(scale)": ["d.log_prob(x)", "d.entropy()", "d.cdf(x)", "d.icdf(q)",
                          "d.rsample()", "d.rsample((2,))", "d.sample((4,))", "d.scale",
                          "repr(d.base_dist)", *SUMMARY],
    "HalfNormal(2.0)": ["d.sample((5,))", "d.log_prob(torch.tensor(1.0))", *SUMMARY],
    "HalfNormal(scale64, validate_args=False)": ["d.log_prob(-x.double())", "d.cdf(-x)",
                                                 "d.rsample()"],
    "LogNormal(loc, scale)": ["d.log_prob(x + 0.5)", "d.entropy()", "d.cdf(x + 0.5)",
                              "d.icdf(q)", "d.rsample()", "d.rsample((2,))", "d.sample((4,))",
                              "d.loc", "d.scale", "repr(d.base_dist)", *SUMMARY],
    "LogNormal(loc64, 0.5)": ["d.rsample((2,))", "d.log_prob(x.double() + 1)", "d.cdf(x + 1)",
                              "d.entropy()", *SUMMARY],
    "LogNormal(0.0, scale)": ["d.sample((3,))", "d.log_prob(x + 1)", "d.mean"],
    "Gumbel(loc, scale)": ["d.log_prob(x)", "d.entropy()", "d.cdf(x)", "d.icdf(q)",
                           "d.rsample()", "d.rsample((2,))", "d.sample((4,))", *SUMMARY],
    "Gumbel(loc64, scale64)": ["d.rsample((2,))", "d.sample()", "d.log_prob(x.double())",
                               "d.cdf(x.double())", "d.icdf(q.double())", *SUMMARY],
    "Gumbel(1.0, 2.0)": ["d.sample((5,))", "d.rsample()", "d.log_prob(torch.tensor(0.5))",
                         "d.cdf(torch.tensor(0.5))", "d.icdf(torch.tensor(0.3))", *SUMMARY],
    "Gumbel(loc, scale.reshape(3, 1))": ["d.rsample((2,))", "d.log_prob(x)", "d.batch_shape"],
    "Geometric(probs=p)": ["d.sample()", "d.sample((4,))", "d.entropy()",
                           "d.log_prob(torch.tensor([0.0, 2.0, 1.0]))", "d.logits", *SUMMARY],
    "Geometric(logits=logits)": ["d.sample((2,))", "d.log_prob(torch.ones(2, 3))",
                                 "d.entropy()", "d.probs", "d.mean", "repr(d)"],
    "Geometric(0.3)": ["d.sample((6,))", "d.log_prob(torch.tensor(4.0))", *SUMMARY],
    "Geometric(probs=p.clamp(max=0.5) * 2)": ["d.log_prob(torch.tensor([1.0, 0.0, 0.0]))"],
    "Geometric(probs=p.double())": ["d.sample((3,))", "d.log_prob(torch.tensor(2.0))"],
}
ERRORS = [
    "Normal(loc, -scale)", "Normal(torch.tensor([float('nan')]), 1.0)", "Uniform(1.0, 0.0)",
    "Uniform(torch.tensor([1., 0.]), torch.tensor([0.5, 1.]))", "Uniform(0., low)",
    "Bernoulli(probs=torch.tensor([1.5]))", "Bernoulli()", "Bernoulli(probs=p, logits=p)",
    "Categorical(probs=torch.tensor(0.5))", "Categorical(probs=torch.tensor([0.5, -0.5]))",
    "Normal(loc, scale).log_prob(torch.ones(2))", "Normal(loc, scale).log_prob([1.0])",
    "Uniform(0.0, 1.0).log_prob(torch.tensor(2.0))",
    "Bernoulli(probs=p).log_prob(torch.tensor([0.5, 1.0, 0.0]))",
    "Categorical(logits=logits).log_prob(torch.tensor([3, 0]))",
    "Normal(loc, scale, validate_args=False).log_prob(torch.ones(3)) * 0",
    "Uniform(0.0, 1.0, validate_args=False).log_prob(torch.tensor(2.0))",
    "Exponential(-rate)", "Exponential(0.0)", "Exponential(rate).log_prob(-x)",
    "Laplace(loc, -scale)", "Laplace(loc, scale).log_prob(torch.ones(2))",
    "Cauchy(loc, 0.0)", "Cauchy(torch.tensor([float('nan')]), 1.0)",
    "HalfNormal(-scale)", "HalfNormal(scale).log_prob(-x)", "HalfNormal(scale).cdf(x - 1)",
    "LogNormal(loc, -scale)", "LogNormal(loc, scale).log_prob(x)",
    "LogNormal(loc, scale).cdf(x - 1)", "Gumbel(loc, -scale)", "Gumbel(loc, [1.0])",
    "Gumbel(loc, scale).cdf(torch.tensor([-100.0, 0.0, 1.0]))",
    "Geometric(probs=torch.tensor([0.0, 0.5]))", "Geometric(probs=torch.tensor([1.5]))",
    "Geometric()", "Geometric(probs=p, logits=p)",
    "Geometric(probs=p).log_prob(torch.tensor([0.5, 1.0, 2.0]))",
    "Geometric(probs=p).log_prob(torch.tensor([-1.0, 1.0, 2.0]))",
]


def _leaves(env):
    return [env[name] for name in ("loc", "scale", "p", "logits", "low", "rate", "loc64",
                                   "scale64")]


def _case(construction, expression, seed):
    def case(torch):
        env = {"torch": torch, **vars(torch.distributions)}
        exec(SETUP, env)
        torch.manual_seed(seed)
        env["d"] = eval(construction, env)
        result = eval(expression, env)
        if isinstance(result, torch.Tensor) and result.requires_grad:
            weights = torch.linspace(0.5, 1.5, result.numel()).reshape(result.shape)
            (result * weights).sum().backward()
            return result, [leaf.grad for leaf in _leaves(env)]
        return result
    return case


CASES = [(c, e) for c, expressions in FAMILIES.items() for e in expressions]


@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.parametrize("construction, expression", CASES)
def test_distribution_matches_torch(construction, expression, seed):
    check(_case(construction, expression, seed), rtol=1e-5, atol=1e-6, grad_fn_names=False)


@pytest.mark.parametrize("expression", ERRORS)
def test_distribution_refuses_what_torch_refuses(expression):
    check(_case(expression, "None", 0), messages=True, grad_fn_names=False)
