"""compat.distributions' MultivariateNormal, Independent and kl_divergence (each family
against its own kind) against torch.distributions: samples after the same seed, rsample,
log_prob, entropy and KL with their gradients, the derived matrices, shapes, printing and
validation errors."""
import pytest

from compat_harness import assert_same_error, check, seeded

SETUP = """
loc = torch.tensor([0.5, -1.0, 0.25], dtype=torch.float64, requires_grad=True)
cov = torch.tensor([[2.0, 0.3, 0.1], [0.3, 0.5, -0.2], [0.1, -0.2, 1.5]],
                   dtype=torch.float64, requires_grad=True)
tril = torch.tensor([[1.5, 0.0, 0.0], [0.4, 0.7, 0.0], [-0.3, 0.2, 1.1]],
                    dtype=torch.float64, requires_grad=True)
batch_loc = torch.tensor([[0.0, 1.0, -1.0], [2.0, 0.5, 0.0]], dtype=torch.float64,
                         requires_grad=True)
value = torch.tensor([[0.3, -0.2, 1.0], [1.5, 0.0, -0.5]], dtype=torch.float64)
mean = torch.tensor([[0.1, -0.5], [1.2, 0.3]], requires_grad=True)
spread = torch.tensor([[1.0, 0.5], [2.0, 0.25]], requires_grad=True)
"""

MULTIVARIATE = {
    "MultivariateNormal(loc, covariance_matrix=cov)": [
        "d.sample()", "d.sample((4,))", "d.rsample((2,))", "d.log_prob(value)",
        "d.entropy()", "d.mean", "d.mode", "d.variance", "d.stddev", "d.scale_tril",
        "d.covariance_matrix", "d.precision_matrix", "d.batch_shape", "d.event_shape",
        "repr(d)"],
    "MultivariateNormal(loc, precision_matrix=cov)": [
        "d.rsample((3,))", "d.log_prob(value)", "d.entropy()", "d.covariance_matrix",
        "d.scale_tril", "repr(d)"],
    "MultivariateNormal(batch_loc, scale_tril=tril)": [
        "d.sample((2,))", "d.rsample()", "d.log_prob(value)", "d.log_prob(value[0])",
        "d.entropy()", "d.variance", "d.covariance_matrix", "d.batch_shape", "repr(d)"],
    "MultivariateNormal(loc.float(), covariance_matrix=cov.float())": [
        "d.sample((3,))", "d.log_prob(value.float())", "d.entropy()"],
    "MultivariateNormal(loc, scale_tril=tril.expand(4, 3, 3))": [
        "d.batch_shape", "d.rsample()", "d.log_prob(value[1])", "d.entropy()"],
    "Independent(Normal(mean, spread), 1)": [
        "d.sample((3,))", "d.rsample()", "d.log_prob(torch.tensor([0.5, 0.5]))",
        "d.log_prob(torch.ones(2, 2))", "d.entropy()", "d.mean", "d.variance",
        "d.batch_shape", "d.event_shape", "repr(d)", "repr(d.support)", "d.has_rsample"],
    "Independent(Normal(mean, spread), 2)": [
        "d.log_prob(torch.zeros(2, 2))", "d.entropy()", "d.batch_shape", "d.event_shape",
        "repr(d.support)"],
    "Independent(Bernoulli(torch.tensor([[0.2, 0.9], [0.5, 0.5]])), 1)": [
        "d.sample((2,))", "d.log_prob(torch.tensor([1.0, 0.0]))", "d.entropy()",
        "d.has_rsample", "repr(d)"],
    "Independent(MultivariateNormal(batch_loc, scale_tril=tril), 1)": [
        "d.log_prob(value)", "d.entropy()", "d.batch_shape", "d.event_shape",
        "repr(d.support)"],
}

KL = [
    "kl_divergence(Normal(mean, spread), Normal(0.5, 2.0))",
    "kl_divergence(Normal(mean, spread), Normal(mean.detach() * 2, spread.detach()))",
    "kl_divergence(Categorical(logits=mean), Categorical(logits=spread))",
    "kl_divergence(Categorical(probs=torch.tensor([0.5, 0.5, 0.0])), "
    "Categorical(probs=torch.tensor([0.2, 0.0, 0.8])))",
    "kl_divergence(Categorical(probs=torch.tensor([0.2, 0.0, 0.8])), "
    "Categorical(probs=torch.tensor([0.5, 0.5, 0.0])))",
    "kl_divergence(Bernoulli(mean.sigmoid()), Bernoulli(logits=spread))",
    "kl_divergence(Bernoulli(torch.tensor([0.3, 0.0, 1.0, 1.0])), "
    "Bernoulli(torch.tensor([0.5, 0.5, 0.0, 1.0])))",
    "kl_divergence(Uniform(mean, mean + spread), Uniform(-1.0, 3.0))",
    "kl_divergence(Uniform(0.0, 1.0), Uniform(torch.tensor([-1.0, 0.5]), torch.tensor([2.0, "
    "3.0])))",
    "kl_divergence(Independent(Normal(mean, spread), 1), "
    "Independent(Normal(torch.zeros(2, 2), torch.ones(2, 2)), 1))",
    "kl_divergence(MultivariateNormal(loc, covariance_matrix=cov), "
    "MultivariateNormal(batch_loc, scale_tril=tril))",
    "kl_divergence(MultivariateNormal(batch_loc, scale_tril=tril), "
    "MultivariateNormal(loc, precision_matrix=cov))",
    "kl_divergence(Exponential(spread), Exponential(spread.detach().flip(0) + 0.5))",
    "kl_divergence(Laplace(mean, spread), Laplace(0.25, 1.5))",
    "kl_divergence(Cauchy(mean, spread), Cauchy(mean.detach() + 1.0, 2.0))",
    "kl_divergence(Gumbel(mean, spread), Gumbel(0.5, spread.detach() * 2))",
    "kl_divergence(Geometric(spread.sigmoid()), Geometric(torch.tensor([0.3, 0.9])))",
    "kl_divergence(HalfNormal(spread), HalfNormal(2.0))",
    "kl_divergence(LogNormal(mean, spread), LogNormal(torch.zeros(2), 1.5))",
]


def _scope(torch):
    scope = {"torch": torch, **vars(torch.distributions)}
    exec(SETUP, scope)
    return scope


def _cases():
    for construction, expressions in MULTIVARIATE.items():
        for expression in expressions:
            yield construction, expression


def _gradients(result, scope):
    """The result, and, where it carries history, the gradients of its sum."""
    if not hasattr(result, "grad_fn") or result.grad_fn is None:
        return result
    leaves = [scope[name] for name in ("loc", "cov", "tril", "batch_loc", "mean", "spread")]
    torch = scope["torch"]
    grads = torch.autograd.grad(result.sum(), leaves, allow_unused=True)
    return result, grads


@pytest.mark.parametrize("seed", [0, 7])
@pytest.mark.parametrize("construction, expression", list(_cases()))
def test_multivariate_and_independent_match_torch(construction, expression, seed):
    def case(torch):
        scope = _scope(torch)
        scope["d"] = eval(construction, scope)
        return _gradients(eval(expression, scope), scope)
    check(seeded(case, seed), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("expression", KL)
def test_kl_divergence_and_its_gradients_match_torch(expression):
    def case(torch):
        scope = _scope(torch)
        return _gradients(eval(expression, scope), scope)
    check(case, rtol=1e-5, atol=1e-7)  # (float32 parameters among them)


def test_register_kl_dispatches_to_the_nearest_registered_pair():
    def case(torch):
        D = torch.distributions

        class Wide(D.Normal):
            pass

        @D.register_kl(Wide, D.Normal)
        def _wide_normal(p, q):
            return p.scale * 0 + 42.0
        p, q = Wide(0.0, 1.0), D.Normal(1.0, 2.0)
        return [D.kl_divergence(p, q), D.kl_divergence(q, q),
                D.kl_divergence(q, Wide(1.0, 2.0)), D.kl_divergence(p, Wide(1.0, 2.0))]
    check(case)


@pytest.mark.parametrize("expression", [
    "MultivariateNormal(torch.tensor(1.0), covariance_matrix=cov)",
    "MultivariateNormal(loc)",
    "MultivariateNormal(loc, covariance_matrix=cov, scale_tril=tril)",
    "MultivariateNormal(loc, covariance_matrix=loc)",
    "MultivariateNormal(loc, scale_tril=loc)",
    "MultivariateNormal(loc, precision_matrix=loc)",
    "MultivariateNormal(loc, covariance_matrix=-cov)",
    "MultivariateNormal(loc, covariance_matrix=cov + torch.triu(torch.ones(3, 3), 1))",
    "MultivariateNormal(loc, scale_tril=tril.T)",
    "MultivariateNormal(loc, scale_tril=-tril)",
    "MultivariateNormal(loc, covariance_matrix=cov).log_prob(torch.ones(2))",
    "Independent(Normal(mean, spread), 3)",
    "kl_divergence(Categorical(logits=mean), Normal(mean, spread))",
    "kl_divergence(Independent(Normal(mean, spread), 1), Independent(Normal(mean, spread), 2))",
    "kl_divergence(MultivariateNormal(loc, covariance_matrix=cov), "
    "MultivariateNormal(mean[0], scale_tril=torch.eye(2)))",
])
def test_refusals_match_torch(expression):
    def case(torch):
        return eval(expression, _scope(torch))
    assert_same_error(case)
