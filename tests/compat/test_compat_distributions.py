"""compat.distributions against torch.distributions: samples after the same seed, rsample,
log_prob, entropy, cdf/icdf with their gradients, shapes, and the validation errors."""
import pytest

from compat_harness import check

SETUP = """
loc = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
scale = torch.tensor([1.0, 0.5, 3.0], requires_grad=True)
p = torch.tensor([0.2, 0.7, 0.5], requires_grad=True)
logits = torch.tensor([[0.1, -1.2, 2.0], [1.5, 0.3, -0.7]], requires_grad=True)
low = torch.tensor([0.0, -2.0, 1.0], requires_grad=True)
"""

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
    "Bernoulli(logits=logits)": ["d.sample((2,))", "d.log_prob(torch.ones(2, 3))", "d.entropy()",
                                 "d.probs"],
    "Bernoulli(0.3)": ["d.sample((6,))", "repr(d)"],
    "Categorical(logits=logits)": ["d.sample()", "d.sample((5,))",
                                   "d.log_prob(torch.tensor([2, 0]))", "d.entropy()", "d.probs",
                                   "d.mode", "d.batch_shape", "repr(d)",
                                   "d.log_prob(torch.tensor([[1], [2]]))"],
    "Categorical(probs=p)": ["d.sample((7,))", "d.log_prob(torch.tensor(1))", "d.entropy()",
                             "d.logits", "d.mean", "repr(d)"],
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
]


def _leaves(env):
    return [env[name] for name in ("loc", "scale", "p", "logits", "low")]


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
