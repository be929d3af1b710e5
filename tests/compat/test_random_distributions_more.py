"""cauchy_, log_normal_, geometric_, torch.poisson and torch.binomial against PyTorch 2.13's
CPU generator, bit for bit (values and the generator's state afterwards; see
test_random_streams). Sizes straddle 16 (normal's vectorised fill, which log_normal_ does
not use), 624 (the Mersenne Twister's state) and the 256 uniforms compat's rejection
samplers draw ahead."""
import warnings

import numpy as np
import pytest
import torch

import compat
from compat_harness import assert_same_error, check
from test_random_streams import assert_same_draws, dtype_of

FLOATS = ("float32", "float64")
SIZES = (1, 15, 16, 17, 100, 624, 625, 3001)


@pytest.mark.parametrize("dtype", FLOATS + ("float16",))
@pytest.mark.parametrize("size", SIZES)
def test_cauchy_log_normal_geometric(size, dtype):
    assert_same_draws(lambda L: [L.empty(size, dtype=dtype_of(L, dtype)).cauchy_(),
                                 L.empty(size, dtype=dtype_of(L, dtype)).cauchy_(-1.5, 0.25),
                                 L.empty(size, dtype=dtype_of(L, dtype)).log_normal_(),
                                 L.empty(size, dtype=dtype_of(L, dtype)).log_normal_(0.5, 0.3),
                                 L.empty(size, dtype=dtype_of(L, dtype)).geometric_(0.3),
                                 L.empty(size, dtype=dtype_of(L, dtype)).geometric_(0.97)])


def test_log_normal_shares_the_cached_normal():
    """An odd number of scalar normals leaves one cached; log_normal_ uses it next."""
    assert_same_draws(lambda L: [L.empty(3, dtype=L.float64).normal_(),
                                 L.empty(4).log_normal_(), L.empty(5).normal_(),
                                 L.empty(2, dtype=L.float64).log_normal_()])


@pytest.mark.parametrize("dtype", ("int64", "int32", "int16", "uint8"))
def test_geometric_of_integer_tensors(dtype):
    assert_same_draws(lambda L: L.empty(300, dtype=dtype_of(L, dtype)).geometric_(0.2))


def test_in_place_draws_fill_memory_order_and_take_a_generator():
    def case(L):
        g = L.Generator().manual_seed(77)
        t = L.empty(5, 4).t()
        return [t.cauchy_(generator=g), L.empty(3, 7)[:, ::2].log_normal_(generator=g),
                t.geometric_(0.4, generator=g), L.poisson(L.full((6,), 12.5), generator=g),
                L.binomial(L.full((4,), 30.0), L.full((4,), 0.7), generator=g),
                L.rand(3)]
    assert_same_draws(case)


@pytest.mark.parametrize("dtype", FLOATS + ("float16",))
@pytest.mark.parametrize("size", SIZES)
def test_poisson_small_and_large_rates(size, dtype):
    """Rates below 10 (multiplied uniforms), at and above 10 (rejection), and zero."""
    def case(L):
        rates = L.rand(size, dtype=L.float64) * 40
        rates[::7] = 0.0
        rates[1::9] = 10.0
        return L.poisson(rates.to(dtype_of(L, dtype)))
    assert_same_draws(case)


def test_poisson_of_huge_rates_and_layouts():
    assert_same_draws(lambda L: [L.poisson(L.tensor([1e4, 3e6, 1e12, 0.5], dtype=L.float64)),
                                 L.poisson(L.rand(4, 5).t() * 20), L.poisson(L.empty(0, 3))])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("size", SIZES)
def test_binomial_inversion_and_rejection(size, dtype):
    """count * p below 10 (inversion) and above (BTRS), p on both sides of 1/2, and the
    edges p = 0, p = 1 and count = 0."""
    def case(L):
        count = L.randint(0, 400, (size,)).to(dtype_of(L, dtype))
        prob = L.rand(size, dtype=dtype_of(L, dtype))
        prob[::11] = 0.0
        prob[3::13] = 1.0
        return L.binomial(count, prob)
    assert_same_draws(case)


def test_binomial_of_large_counts_and_broadcasting():
    """A count smaller than the broadcast shape: PyTorch warns that it resizes its result."""
    def case(L):
        return [L.binomial(L.tensor([1e6, 2.5e7, 123.0], dtype=L.float64),
                           L.tensor([0.3, 0.999, 0.5], dtype=L.float64)),
                L.binomial(L.tensor([[40.0], [7.0]]), L.tensor([0.1, 0.6, 0.9])),
                L.binomial(L.tensor(5.0), L.tensor([0.5, 0.25]))]
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "An output with one or more elements was resized")
        assert_same_draws(case)
    for shapes in [((2, 1), (3,)), ((), (2,))]:
        said = []
        for library in (torch, compat):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                library.binomial(library.ones(shapes[0]), library.ones(shapes[1]))
            said.append([str(w.message).split(" (Triggered internally")[0] for w in caught])
        assert said[0] == said[1] and len(said[0]) == 1


def test_gradients_poisson_zero_binomial_not_implemented():
    def poisson(L):
        rates = L.tensor([3.0, 14.0], requires_grad=True)
        L.manual_seed(0)
        counts = L.poisson(rates)
        counts.sum().backward()
        return counts, rates.grad
    check(poisson)

    def binomial(L):
        L.manual_seed(0)
        return L.binomial(L.tensor([5.0], requires_grad=True), L.tensor([0.5]))
    check(binomial)
    assert compat.binomial(compat.ones(1, requires_grad=True), compat.ones(1)).grad_fn.name() \
        == torch.binomial(torch.ones(1, requires_grad=True), torch.ones(1)).grad_fn.name()
    assert_same_error(lambda L: binomial(L).sum().backward())


@pytest.mark.parametrize("case", [
    lambda L: L.empty(3).cauchy_(0, 0),
    lambda L: L.empty(3).cauchy_(0, -1),
    lambda L: L.empty(3, dtype=L.long).cauchy_(),
    lambda L: L.empty(3).log_normal_(0, 0),
    lambda L: L.empty(3, dtype=L.long).log_normal_(),
    lambda L: L.empty(3).geometric_(0),
    lambda L: L.empty(3).geometric_(1),
    lambda L: L.empty(3, dtype=L.bool).geometric_(0.5),
    lambda L: L.empty(3, requires_grad=True).cauchy_(),
    lambda L: L.poisson(L.tensor([1.0, -1.0])),
    lambda L: L.poisson(L.tensor([1, 2])),
    lambda L: L.binomial(L.tensor([5]), L.tensor([1])),
    lambda L: L.binomial(L.tensor([5.0]), L.tensor([0.5], dtype=L.float64)),
    lambda L: L.binomial(L.tensor([1.0], dtype=L.half), L.tensor([1.0], dtype=L.half)),
    lambda L: L.binomial(L.ones(2, 3), L.ones(4)),
], ids=range(15))
def test_errors(case):
    assert_same_error(case)


@pytest.mark.parametrize("case", [
    lambda: compat.poisson(compat.tensor([1.0, float("inf")])),
    lambda: compat.poisson(compat.tensor([float("nan")])),
    lambda: compat.binomial(compat.tensor([float("nan")]), compat.tensor([0.5])),
    lambda: compat.binomial(compat.tensor([5.0]), compat.tensor([float("inf")])),
])
def test_arguments_on_which_pytorch_never_returns_are_refused(case):
    """PyTorch's kernels loop forever on a NaN or infinite count or rate (a NaN rate fails
    its non-negativity check instead)."""
    with pytest.raises(RuntimeError, match="must be finite|non-negative"):
        case()


def test_poisson_counts_have_the_poisson_distribution():
    """The rejection sampler's mean and variance at a large rate (a check of the algorithm
    beyond agreement with torch)."""
    compat.manual_seed(3)
    counts = compat.poisson(compat.full((20000,), 50.0, dtype=compat.float64)).numpy()
    assert abs(counts.mean() - 50) < 0.2 and abs(counts.var() - 50) < 2.5
    assert np.array_equal(counts, np.round(counts))
