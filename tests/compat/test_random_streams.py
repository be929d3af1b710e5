"""compat's random streams against PyTorch 2.13's CPU generator, bit for bit.

A case is a function of the library (torch or compat) written once against torch's API.
`assert_same_draws` seeds both libraries alike, runs the case, and requires identical
results (dtype, shape, every bit of every value) and identical generator states afterwards
(torch.get_rng_state's 5056 bytes), so a case that consumed a different number of draws
fails even when its values happen to agree. Sizes straddle every threshold PyTorch's
kernels switch at: 16 (normal's vectorised fill), multiples of 16 (its refilled last
block), 624 (the Mersenne Twister's state), 2**28 (randint's 64-bit draws) and compat's
internal chunk of 32768 values.
"""
import warnings

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import compat

LIBRARIES = (torch, compat)
FLOAT_DTYPES = ("float32", "float64", "float16")
INT_DTYPES = ("int64", "int32", "int16", "int8", "uint8")
SIZES = (0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 47, 100, 623, 624, 625, 1000, 32769, 65553)
SEEDS = (0, 1, 1234, 2**32 + 7, 2**64 - 1)


def _array(value):
    if isinstance(value, torch.Tensor):
        return value.detach().numpy()
    return value.detach().numpy() if value.requires_grad else value.numpy()


def _outcome(library, case, seed):
    library.manual_seed(seed)
    try:
        result = case(library)
    except Exception as error:  # compared with the other library's error
        result = (type(error).__name__, str(error))
    return result, bytes(_array(library.get_rng_state()))


def _assert_equal_results(got, want, where):
    if isinstance(want, (torch.Tensor, compat.Tensor)):
        assert isinstance(got, (torch.Tensor, compat.Tensor)), (where, got, want)
        got, want = _array(got), _array(want)
        assert got.dtype == want.dtype and got.shape == want.shape, (where, got, want)
        assert (np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes()), (
            where, got, want)
    elif isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want), (where, got, want)
        for index, (g, w) in enumerate(zip(got, want)):
            _assert_equal_results(g, w, f"{where}[{index}]")
    else:
        assert got == want, (where, got, want)


def assert_same_draws(case, seed=2024):
    """`case` gives bit-identical results under torch and compat after manual_seed(seed),
    and leaves the two generators in the same state."""
    want, want_state = _outcome(torch, case, seed)
    got, got_state = _outcome(compat, case, seed)
    _assert_equal_results(got, want, "result")
    assert got_state == want_state, "the generators' states differ afterwards"


def dtype_of(library, name):
    return getattr(library, name)


# ---- factories ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("size", SIZES)
def test_rand_and_randn_of_every_size(size, dtype):
    assert_same_draws(lambda L: [L.rand(size, dtype=dtype_of(L, dtype)),
                                 L.randn(size, dtype=dtype_of(L, dtype)),
                                 L.randn(size, dtype=dtype_of(L, dtype))])


@pytest.mark.parametrize("seed", SEEDS)
def test_seeds_of_every_width(seed):
    assert_same_draws(lambda L: [L.rand(3), L.randn(20, dtype=L.float64), L.randn(5),
                                 L.randint(0, 100, (4,))], seed)


def test_a_million_float32_values_match():
    """The float32 normal fill repeats PyTorch's AVX2 log and sincos with FMA; a long run
    catches a rounding that differs once in 10**5."""
    assert_same_draws(lambda L: [L.randn(1_000_003), L.rand(1_000_000)])


def test_a_quarter_million_float64_normals_match():
    assert_same_draws(lambda L: [L.randn(250_001, dtype=L.float64),
                                 L.empty(1001, dtype=L.float64).normal_()])


@pytest.mark.parametrize("shape", [(), (0, 3), (2, 3), (4, 5, 6)])
def test_shapes_and_size_spellings(shape):
    assert_same_draws(lambda L: [L.rand(*shape) if shape else L.rand(shape), L.randn(shape),
                                 L.rand(size=shape), L.randn(list(shape), dtype=L.float64)])


@pytest.mark.parametrize("dtype", ("int64", "int32", "int16", "int8", "uint8", "float32",
                                   "float64", "float16"))
@pytest.mark.parametrize("bounds", [(10,), (0, 10), (-3, 7), (5, 6), (0, 2**28 - 1),
                                    (0, 2**28), (-2**40, 2**40)])
def test_randint(bounds, dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # float dtypes: beyond exact integers
        assert_same_draws(lambda L: L.randint(*bounds, (33,), dtype=dtype_of(L, dtype)))


def test_randint_spellings_and_wide_ranges():
    assert_same_draws(lambda L: [L.randint(5, (3,)), L.randint(2, 9, size=(2, 3)),
                                 L.randint(high=4, size=(5,)), L.randint(low=1, high=4,
                                                                         size=(5,)),
                                 L.randint(-2**63, 2**63 - 1, (9,))])


@pytest.mark.parametrize("n", [0, 1, 2, 3, 10, 623, 624, 625, 5000, 100_003])
def test_randperm(n):
    assert_same_draws(lambda L: L.randperm(n))


@pytest.mark.parametrize("dtype", ("int32", "int16", "uint8", "float32", "float64",
                                   "float16"))
def test_randperm_dtypes(dtype):
    assert_same_draws(lambda L: L.randperm(200, dtype=dtype_of(L, dtype)))


def test_randperm_inside_out_variant_for_huge_n():
    """PyTorch switches to an inside-out shuffle from n = 214748364 on (too big to compare
    here); compat's vectorised replay of it matches a direct loop."""
    from compat._random.shuffle import inside_out_shuffle
    rng = np.random.default_rng(0)
    for n in (1, 2, 7, 100, 3000):
        choices = np.array([rng.integers(0, i + 1) for i in range(n)], np.int64)
        expected = list(range(n))
        for i, choice in enumerate(choices):
            expected[i] = expected[choice]
            expected[choice] = i
        assert inside_out_shuffle(choices).tolist() == expected


@pytest.mark.parametrize("kind", ["contiguous", "transposed", "sliced"])
def test_like_factories_follow_the_input_layout(kind):
    def source(L):
        base = L.zeros(6, 20)
        return {"contiguous": base, "transposed": base.t(), "sliced": base[:, ::2]}[kind]
    assert_same_draws(lambda L: [L.rand_like(source(L)), L.randn_like(source(L)),
                                 L.randn_like(source(L), dtype=L.float64),
                                 L.randint_like(source(L), 10),
                                 L.randint_like(source(L).long(), -5, 5)])


# ---- normal -------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("size", [1, 7, 16, 17, 40, 1000])
@pytest.mark.parametrize("mean, std", [(0.0, 1.0), (0.3, 2.5), (-1e3, 1e-3), (0.0, 0.02),
                                       (5.0, 0.0), (1e30, 1e30)])
def test_normal_with_mean_and_std(size, dtype, mean, std):
    assert_same_draws(lambda L: [L.empty(size, dtype=dtype_of(L, dtype)).normal_(mean, std),
                                 L.normal(mean, std, (size,), dtype=dtype_of(L, dtype))])


def test_normal_overloads_with_tensors():
    assert_same_draws(lambda L: [
        L.normal(L.arange(20.0), 0.5), L.normal(L.arange(3.0), 2.0),
        L.normal(2.0, L.arange(1.0, 21.0)), L.normal(-1.0, L.ones(3, dtype=L.float64)),
        L.normal(L.zeros(3, 1), L.ones(1, 20)), L.normal(L.zeros(3), L.ones(3)),
        L.normal(L.zeros(18, dtype=L.float64), L.ones(18) * 3),
        L.normal(L.zeros(18), L.ones(18, dtype=L.float64) * 3),
        L.normal(L.zeros(5)), L.normal(mean=L.ones(2, 2), std=0.1)])


def test_normal_of_tensors_that_require_grad():
    """torch.normal records a node (NormalBackward1/2/3) whose gradient is zero."""
    def case(L):
        mean = L.zeros(2, 3, requires_grad=True)
        std = L.ones(3, dtype=L.float64, requires_grad=True)
        outs = [L.normal(mean, 0.5), L.normal(0.5, std), L.normal(mean, std)]
        sum(out.sum() for out in outs).backward()
        return [out.detach() for out in outs] + [type(out.grad_fn).__name__ for out in outs] + [
            mean.grad, std.grad]
    assert_same_draws(case)


def test_scalar_normals_cache_their_second_value():
    """Small tensors draw Box-Muller pairs one element at a time and keep the spare value
    for the next small draw; large contiguous fills leave that cache alone."""
    assert_same_draws(lambda L: [L.randn(3), L.randn(1), L.randn(20), L.randn(1),
                                 L.randn(1), L.empty(5, dtype=L.float64).normal_(2.0, 3.0),
                                 L.empty(4, 5).t().normal_()])


@pytest.mark.parametrize("view", ["transposed", "sliced", "permuted", "expanded_row"])
def test_in_place_fills_of_views_go_in_memory_order(view):
    def target(L, dtype):
        base = L.zeros(4, 6, 5, dtype=dtype)
        return {"transposed": base[0].t(), "sliced": base[:, ::2, 1:],
                "permuted": base.permute(2, 0, 1), "expanded_row": base[:, :1, :]}[view]
    assert_same_draws(lambda L: [
        target(L, L.float32).normal_(), target(L, L.float64).normal_(1.0, 2.0),
        target(L, L.float32).uniform_(-2.0, 3.0), target(L, L.float64).exponential_(),
        target(L, L.int64).random_(0, 1000), target(L, L.float32).bernoulli_(0.3),
        target(L, L.float32).bernoulli_(L.rand(5))])


def test_a_view_is_written_through_to_its_base():
    def case(L):
        base = L.zeros(4, 6)
        base[:, ::2].normal_()
        base.t()[1:3].uniform_()
        return base
    assert_same_draws(case)


# ---- complex values: each element's real and imaginary parts drawn as the pairs of its
# view_as_real, with normal's std divided by sqrt(2) --------------------------------------

COMPLEX_DTYPES = ("complex64", "complex128")


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES)
@pytest.mark.parametrize("size", [0, 1, 7, 8, 9, 16, 17, 100, 312, 313, 16385])
def test_complex_rand_and_randn(size, dtype):
    assert_same_draws(lambda L: [L.rand(size, dtype=dtype_of(L, dtype)),
                                 L.randn(size, dtype=dtype_of(L, dtype)),
                                 L.randn_like(L.zeros(size, dtype=dtype_of(L, dtype))),
                                 L.rand_like(L.zeros(size, dtype=dtype_of(L, dtype)))])


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES)
@pytest.mark.parametrize("view", ["whole", "transposed", "sliced", "permuted"])
def test_complex_fills_in_place_go_in_memory_order(view, dtype):
    def case(L):
        base = L.zeros(4, 6, 5, dtype=dtype_of(L, dtype))
        target = {"whole": base, "transposed": base[0].t(), "sliced": base[:, ::2, 1:],
                  "permuted": base.permute(2, 0, 1)}[view]
        target.normal_(0.5, 2.0)
        first = base.clone()
        target.uniform_(-1.0, 3.0)
        return [first, base, L.randn_like(target)]
    assert_same_draws(case)


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES)
def test_complex_normal_overloads_and_initialisers(dtype):
    def case(L):
        d = dtype_of(L, dtype)
        return [L.normal(0.5, 2.0, (40,), dtype=d), L.normal(L.ones(5, dtype=d) * 1j, 2.0),
                L.normal(L.zeros(3, dtype=d), L.ones(3)),
                L.nn.init.normal_(L.empty(3, 4, dtype=d), 1.0, 0.5),
                L.nn.init.uniform_(L.empty(3, 4, dtype=d), -1.0, 1.0),
                L.nn.init.xavier_normal_(L.empty(3, 4, dtype=d)),
                L.nn.init.kaiming_uniform_(L.empty(3, 4, dtype=d))]
    assert_same_draws(case)


# What PyTorch refuses to draw as complex values, with its errors (or, for some fills of
# no elements, draws nothing).
COMPLEX_REFUSALS = {
    "randint": lambda L, d: L.randint(0, 5, (3,), dtype=d),
    "randint_like": lambda L, d: L.randint_like(L.zeros(3, dtype=d), 5),
    "randperm": lambda L, d: L.randperm(3, dtype=d),
    "random_": lambda L, d: L.empty(3, dtype=d).random_(),
    "random_ of nothing": lambda L, d: L.empty(0, dtype=d).random_(),
    "random_ with bounds": lambda L, d: L.empty(3, dtype=d).random_(2, 5),
    "random_ of nothing with bounds": lambda L, d: L.empty(0, dtype=d).random_(5),
    "exponential_": lambda L, d: L.empty(3, dtype=d).exponential_(),
    "log_normal_": lambda L, d: L.empty(3, dtype=d).log_normal_(),
    "cauchy_": lambda L, d: L.empty(3, dtype=d).cauchy_(),
    "geometric_": lambda L, d: L.empty(3, dtype=d).geometric_(0.5),
    "geometric_ of nothing": lambda L, d: L.empty(0, dtype=d).geometric_(0.5),
    "bernoulli_": lambda L, d: L.empty(3, dtype=d).bernoulli_(),
    "bernoulli_ of nothing": lambda L, d: L.empty(0, dtype=d).bernoulli_(),
    "bernoulli_ of probabilities": lambda L, d: L.empty(3, dtype=d).bernoulli_(L.rand(3)),
    "bernoulli_ of complex probabilities": lambda L, d: L.empty(3).bernoulli_(
        L.zeros(3, dtype=d)),
    "bernoulli": lambda L, d: L.bernoulli(L.zeros(3, dtype=d)),
    "multinomial": lambda L, d: L.multinomial(L.ones(3, dtype=d), 2),
    "poisson": lambda L, d: L.poisson(L.ones(3, dtype=d)),
    "normal of a complex std": lambda L, d: L.normal(L.zeros(3), L.ones(3, dtype=d)),
    "normal of no complex std": lambda L, d: L.normal(0.0, L.ones(0, dtype=d)),
    "dropout": lambda L, d: L.nn.functional.dropout(L.ones(2, 3, dtype=d), 0.5),
    "dropout2d": lambda L, d: L.nn.functional.dropout2d(L.ones(2, 3, 4, 4, dtype=d), 0.5),
    "Dropout": lambda L, d: L.nn.Dropout(0.5)(L.ones(2, 3, dtype=d)),
}


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES)
@pytest.mark.parametrize("case", COMPLEX_REFUSALS)
def test_complex_draws_pytorch_refuses(case, dtype):
    assert_same_draws(lambda L: COMPLEX_REFUSALS[case](L, dtype_of(L, dtype)))


# ---- uniform, random_, exponential_, bernoulli ------------------------------------------------


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("low, high", [(0.0, 1.0), (-0.7, 1.3), (0.1, 0.2), (-2.5, 1e3),
                                       (3.0, 3.0), (0.0, 1e-40), (-1e30, 1e30)])
def test_uniform(low, high, dtype):
    assert_same_draws(lambda L: L.empty(50, dtype=dtype_of(L, dtype)).uniform_(low, high))


def test_uniform_as_nn_init_uses_it():
    """Initialisers draw in place under no_grad on parameters that require grad."""
    def case(L):
        weight = L.empty(64, 30, requires_grad=True)
        bias = L.empty(64, requires_grad=True)
        with L.no_grad():
            bound = 1 / 30 ** 0.5
            weight.uniform_(-bound, bound)
            bias.uniform_(-bound, bound)
            extra = L.empty(10, 10).normal_(0.0, 0.02)
        return [weight, bias, extra]
    assert_same_draws(case)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + INT_DTYPES + ("bool",))
def test_random_without_bounds(dtype):
    assert_same_draws(lambda L: L.empty(37, dtype=dtype_of(L, dtype)).random_())


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + INT_DTYPES)
@pytest.mark.parametrize("bounds", [(100,), (3, 20), (0, None), (5, None)])
def test_random_with_bounds(bounds, dtype):
    assert_same_draws(lambda L: L.empty(21, dtype=dtype_of(L, dtype)).random_(*bounds))


def test_random_at_the_edges_of_float_precision():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PyTorch's out-of-precision warning
        assert_same_draws(lambda L: [
            L.zeros(7).random_(0, 2**25), L.zeros(7).random_(2**40, 2**40 + 2**20),
            L.zeros(7, dtype=L.float16).random_(-100, 2000),
            L.zeros(7, dtype=L.float64).random_(-5, None), L.zeros(7).random_(5, None),
            L.zeros(7, dtype=L.int64).random_(-2**63, None),
            L.zeros(7).random_(-2**63, None), L.zeros(7, dtype=L.bool).random_(0, 2),
            L.zeros(7, dtype=L.int16).random_(300)])


def test_random_warns_as_pytorch_does_beyond_float_precision():
    for library in LIBRARIES:
        with pytest.warns(UserWarning, match=r"to - 1 is out of bounds \[-\(2\^24\), 2\^24\]\. "
                                             r"Due to precision limitations float can"):
            library.zeros(2).random_(0, 2**25)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("rate", [1.0, 0.7, 25.0])
def test_exponential(rate, dtype):
    assert_same_draws(lambda L: L.empty(40, dtype=dtype_of(L, dtype)).exponential_(rate))


@pytest.mark.parametrize("self_dtype", ("float32", "float64", "float16", "int64", "bool"))
def test_bernoulli_with_a_number(self_dtype):
    assert_same_draws(lambda L: [L.zeros(30, dtype=dtype_of(L, self_dtype)).bernoulli_(0.3),
                                 L.zeros(5, dtype=dtype_of(L, self_dtype)).bernoulli_(),
                                 L.bernoulli(L.zeros(9, dtype=dtype_of(L, self_dtype)), 0.8)])


@pytest.mark.parametrize("p_dtype", FLOAT_DTYPES)
def test_bernoulli_with_tensors_of_probabilities(p_dtype):
    assert_same_draws(lambda L: [
        L.bernoulli(L.rand(30).to(dtype_of(L, p_dtype))),
        L.rand(4, 5).to(dtype_of(L, p_dtype)).bernoulli(),
        L.zeros(4, 5, dtype=L.int64).bernoulli_(L.rand(5).to(dtype_of(L, p_dtype))),
        L.zeros(20, dtype=L.bool).bernoulli_(L.rand(20).to(dtype_of(L, p_dtype))),
        L.bernoulli(L.rand(6, 4).t().to(dtype_of(L, p_dtype))),
        L.rand(20, dtype=L.float64).bernoulli(0.7)])


# ---- multinomial --------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("replacement", [False, True])
@pytest.mark.parametrize("samples", [1, 2, 7])
def test_multinomial(samples, replacement, dtype):
    assert_same_draws(lambda L: [
        L.multinomial(L.rand(9).to(dtype_of(L, dtype)), samples, replacement),
        L.multinomial(L.rand(4, 7).to(dtype_of(L, dtype)), samples, replacement=replacement),
        L.rand(6, 3).t().to(dtype_of(L, dtype)).multinomial(samples, replacement)])


def test_multinomial_ties_come_out_in_topks_order():
    """Zero-probability categories tie; PyTorch returns them in the order its C++ library's
    partial_sort or nth_element + sort leaves them."""
    assert_same_draws(lambda L: [
        L.multinomial(L.tensor([0.0, 1, 0, 0, 1, 0]), 5),
        L.multinomial(L.tensor([[0.0, 1, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1]]), 6),
        L.multinomial(L.cat([L.zeros(700), L.ones(3)]), 9),
        L.multinomial(L.cat([L.zeros(70), L.ones(3)]), 40),
        L.multinomial(L.tensor([1.0, 1.0, 1.0, 1.0]), 4)])


@given(values=st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0, float("nan"), -1.0]), min_size=1,
                       max_size=300),
       fraction=st.floats(0, 1))
def test_tie_order_is_torch_topks(values, fraction):
    """The replay of PyTorch's topk (used for multinomial's ties) on values full of ties,
    for k on both sides of its partial_sort / nth_element switch."""
    from compat._random.topk_order import topk_indices
    k = max(1, round(fraction * len(values)))
    expected = torch.topk(torch.tensor(values), k).indices.tolist()
    assert topk_indices(values, k) == expected


def test_multinomial_many_samples_with_replacement():
    assert_same_draws(lambda L: [L.multinomial(L.rand(3, 50, dtype=L.float64), 1000, True),
                                 L.multinomial(L.tensor([0.0, 0.5, 0.0, 0.5]), 100, True)])


# ---- generators and state -----------------------------------------------------------------


def test_generator_objects_keep_their_own_streams():
    def case(L):
        g = L.Generator().manual_seed(5)
        h = L.Generator()
        return [L.rand(10, generator=g), L.randn(3, generator=g), L.rand(2),
                L.randint(0, 5, (4,), generator=g), L.randperm(7, generator=g),
                L.empty(20).normal_(generator=g), L.multinomial(L.ones(5), 3, generator=g),
                L.rand(5, generator=h), L.randn(5), L.rand_like(L.zeros(3), generator=h),
                L.bernoulli(L.rand(4), generator=g), L.normal(0.0, 1.0, (3,), generator=h),
                L.empty(5).exponential_(generator=h), L.empty(5).random_(generator=g),
                g.initial_seed(), h.initial_seed(), bytes(_array(g.get_state())),
                bytes(_array(h.get_state()))]
    assert_same_draws(case)


def test_manual_seed_returns_the_generator_and_wraps_negative_seeds():
    for library in LIBRARIES:
        assert library.manual_seed(3) is library.default_generator
        generator = library.Generator()
        assert generator.manual_seed(4) is generator
    assert_same_draws(lambda L: [L.manual_seed(-5).initial_seed(), L.rand(3),
                                 L.Generator().manual_seed(-2**63).initial_seed(),
                                 L.manual_seed(7.9).initial_seed(), L.manual_seed(True)
                                 .initial_seed(), L.Generator().initial_seed()])


def test_seed_and_initial_seed():
    for library in LIBRARIES:
        seed = library.seed()
        assert library.initial_seed() == seed and 0 <= seed < 2**64
        generator = library.Generator()
        assert generator.seed() == generator.initial_seed()
    seed = compat.seed()
    torch.manual_seed(seed)
    assert np.array_equal(compat.rand(20).numpy(), torch.rand(20).numpy())


@pytest.mark.parametrize("draws", [0, 1, 623, 624, 625, 1248, 5000])
def test_rng_state_bytes_match(draws):
    assert_same_draws(lambda L: [L.rand(draws), bytes(_array(L.get_rng_state())),
                                 L.randn(3), bytes(_array(L.get_rng_state()))])


def test_states_move_between_libraries():
    torch.manual_seed(7)
    torch.randn(5)  # leaves a cached normal in the state
    torch.rand(100)
    state = torch.get_rng_state()
    compat.set_rng_state(compat.tensor(state.numpy()))
    assert np.array_equal(compat.randn(33).numpy(), torch.randn(33).numpy())
    assert bytes(compat.get_rng_state().numpy()) == bytes(torch.get_rng_state().numpy())

    compat.manual_seed(11)
    compat.randn(1)
    compat.rand(700)
    torch.set_rng_state(torch.from_numpy(compat.get_rng_state().numpy().copy()))
    assert np.array_equal(torch.randn(3).numpy(), compat.randn(3).numpy())


def test_saving_and_restoring_state_replays_the_stream():
    def case(L):
        L.randn(3)
        saved = L.get_rng_state()
        first = [L.randn(5), L.rand(30), L.randint(0, 9, (3,))]
        L.set_rng_state(saved)
        again = [L.randn(5), L.rand(30), L.randint(0, 9, (3,))]
        g = L.Generator().manual_seed(3)
        L.randn(1, generator=g)
        h = L.Generator()
        h.set_state(g.get_state())
        twin = g.clone_state()
        return first + again + [L.randn(4, generator=h), L.randn(4, generator=g),
                                L.randn(4, generator=twin)]
    assert_same_draws(case)


def test_legacy_constructor_draws_nothing():
    """torch.Tensor(3, 4) is uninitialised memory and takes no draws; filling it draws as any
    tensor does."""
    assert_same_draws(lambda L: [tuple(L.Tensor(3, 4).shape), L.rand(2),
                                 L.Tensor(3, 4).uniform_(-1, 1), L.Tensor(3, 4).normal_(),
                                 L.FloatTensor(20).normal_(0, 0.02),
                                 L.DoubleTensor(3, 4).uniform_()])


def test_requires_grad_factories():
    def case(L):
        x = L.rand(3, requires_grad=True)
        y = L.randn(2, 2, requires_grad=True)
        return [x.requires_grad, y.requires_grad, x.detach(), y.detach()]
    assert_same_draws(case)


def _from_threads(draw, threads=8, calls=12):
    """The arrays ``draw()`` returns when 8 threads call it 12 times each."""
    import threading
    results = []

    def work():
        for _ in range(calls):
            results.append(draw().numpy())
    workers = [threading.Thread(target=work) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return results


@pytest.mark.parametrize("size", [1000, 3])
def test_threads_share_one_stream_safely(size):
    """Under PyTorch's generator mutex a call takes a consecutive run of draws whatever
    the threads do: 96 calls from 8 threads give the values of 96 calls made one after
    another (in some order) and leave the same state. Small normals share the cached
    second value, so for them the values as a whole are compared."""
    compat.manual_seed(5)
    ours = _from_threads(lambda: compat.randn(size))
    torch.manual_seed(5)
    theirs = [torch.randn(size).numpy() for _ in ours]
    if size >= 16:
        assert sorted(map(bytes, ours)) == sorted(map(bytes, theirs))
    else:
        assert sorted(np.concatenate(ours).tolist()) == sorted(np.concatenate(theirs).tolist())
    assert bytes(compat.get_rng_state().numpy()) == bytes(torch.get_rng_state().numpy())


# ---- interleaved streams, searched by Hypothesis ------------------------------------------

_OPERATIONS = {
    "rand": lambda L, n, d: L.rand(n, dtype=d),
    "randn": lambda L, n, d: L.randn(n, dtype=d),
    "normal_": lambda L, n, d: L.empty(n, dtype=d).normal_(0.5, 2.0),
    "uniform_": lambda L, n, d: L.empty(n, dtype=d).uniform_(-3.0, 0.5),
    "randint": lambda L, n, d: L.randint(-4, 2**30, (n,)),
    "randperm": lambda L, n, d: L.randperm(n),
    "bernoulli": lambda L, n, d: L.bernoulli(L.full((n,), 0.4, dtype=d)),
    "exponential_": lambda L, n, d: L.empty(n, dtype=d).exponential_(2.0),
    "transposed normal_": lambda L, n, d: L.empty(2, n, dtype=d).t().normal_(),
    "multinomial": lambda L, n, d: L.multinomial(L.ones(n + 1, dtype=d), 3, True),
}


@given(seed=st.integers(-2**63, 2**64 - 1),
       program=st.lists(st.tuples(st.sampled_from(sorted(_OPERATIONS)),
                                  st.integers(0, 70), st.sampled_from(["float32", "float64"])),
                        min_size=1, max_size=8))
def test_interleaved_calls_on_one_stream(seed, program):
    assert_same_draws(lambda L: [_OPERATIONS[name](L, n, dtype_of(L, d))
                                 for name, n, d in program], seed=seed)


_any_float = st.floats(allow_nan=True, allow_infinity=True)
_moderate = st.floats(-1e6, 1e6)


@given(seed=st.integers(0, 2**32 - 1), mean=_moderate | _any_float,
       std=st.floats(0, 1e6) | _any_float, size=st.sampled_from([3, 16, 21]),
       dtype=st.sampled_from(FLOAT_DTYPES))
def test_normal_parameters(seed, mean, std, size, dtype):
    """Any mean and std, the invalid ones included (both raise the same error)."""
    assert_same_draws(lambda L: L.empty(size, dtype=dtype_of(L, dtype)).normal_(mean, std),
                      seed=seed)


@given(seed=st.integers(0, 2**32 - 1), low=_moderate | _any_float,
       width=st.floats(0, 1e6) | _any_float, dtype=st.sampled_from(FLOAT_DTYPES))
def test_uniform_parameters(seed, low, width, dtype):
    """Any bounds, the invalid ones included (both raise the same error)."""
    assert_same_draws(lambda L: L.empty(19, dtype=dtype_of(L, dtype)).uniform_(low,
                                                                              low + width),
                      seed=seed)


# ---- errors: PyTorch's messages, and the draws taken before them ------------------------------

ERROR_CASES = {
    "rand of integers": lambda L: L.rand(3, dtype=L.int64),
    "randn of integers": lambda L: L.randn(3, dtype=L.int64),
    "normal_ of integers": lambda L: L.zeros(3, dtype=L.int32).normal_(),
    "uniform_ of bool": lambda L: L.zeros(3, dtype=L.bool).uniform_(),
    "exponential_ of integers": lambda L: L.zeros(3, dtype=L.int64).exponential_(),
    "exponential_ negative rate": lambda L: L.zeros(3).exponential_(-1),
    "exponential_ zero rate": lambda L: L.zeros(3).exponential_(0),
    "normal_ negative std": lambda L: L.zeros(3).normal_(0, -1),
    "normal_ nan std": lambda L: L.zeros(3).normal_(0, float("nan")),
    "normal with a negative std tensor": lambda L: L.normal(L.zeros(3), L.full((3,), -1.0)),
    "normal of mismatched shapes": lambda L: L.normal(L.zeros(3), L.ones(2)),
    "uniform_ from above to": lambda L: L.zeros(3).uniform_(2, 1),
    "uniform_ too wide": lambda L: L.zeros(3).uniform_(-3e38, 3e38),
    "uniform_ out of range": lambda L: L.zeros(3).uniform_(-1e39, 0),
    "randint empty range": lambda L: L.randint(5, 5, (3,)),
    "randint beyond int8": lambda L: L.randint(0, 300, (3,), dtype=L.int8),
    "random_ reversed": lambda L: L.zeros(3, dtype=L.int64).random_(5, 2),
    "random_ beyond bool": lambda L: L.zeros(3, dtype=L.bool).random_(0, 3),
    "random_ full range of int32": lambda L: L.zeros(3, dtype=L.int32).random_(-2**63, None),
    "randperm negative": lambda L: L.randperm(-1),
    "randperm beyond float16": lambda L: L.randperm(3000, dtype=L.float16),
    "randperm beyond int8": lambda L: L.randperm(300, dtype=L.int8),
    "randperm of bool": lambda L: L.randperm(3, dtype=L.bool),
    "bernoulli_ p above 1": lambda L: L.zeros(3).bernoulli_(1.5),
    "bernoulli_ p nan": lambda L: L.zeros(3).bernoulli_(float("nan")),
    "bernoulli with a probability above 1": lambda L: L.bernoulli(L.tensor([0.5, 0.5, 1.5])),
    "bernoulli with integer probabilities": lambda L: L.bernoulli(L.ones(3, dtype=L.int64)),
    "bernoulli_ with a wrong shape": lambda L: L.zeros(3).bernoulli_(L.full((2,), 0.5)),
    "multinomial negative": lambda L: L.multinomial(L.tensor([1.0, -1.0]), 1, True),
    "multinomial negative, 2 samples": lambda L: L.multinomial(L.tensor([1.0, -1.0]), 2,
                                                                True),
    "multinomial negative without replacement": lambda L: L.multinomial(L.tensor([1.0, -1.0]),
                                                                         1),
    "multinomial zero sum": lambda L: L.multinomial(L.tensor([0.0, 0.0]), 2, True),
    "multinomial zero sum without replacement": lambda L: L.multinomial(L.zeros(2), 1),
    "multinomial too many": lambda L: L.multinomial(L.tensor([1.0, 1.0]), 3),
    "multinomial no samples": lambda L: L.multinomial(L.tensor([1.0, 1.0]), 0),
    "multinomial 3-d": lambda L: L.multinomial(L.ones(2, 2, 2), 1),
    "multinomial 0-d": lambda L: L.multinomial(L.tensor(1.0), 1),
    "multinomial of integers": lambda L: L.multinomial(L.ones(2, dtype=L.int64), 1),
    "multinomial nan": lambda L: L.multinomial(L.tensor([1.0, float("nan")]), 2, True),
    "multinomial inf": lambda L: L.multinomial(L.tensor([1.0, float("inf")]), 2, True),
    "multinomial bad second row": lambda L: L.multinomial(L.tensor([[1.0, 2.0], [1.0, -1.0]]),
                                                          3, True),
    "set_rng_state of the wrong size": lambda L: L.set_rng_state(L.zeros(10, dtype=L.uint8)),
    "set_rng_state of floats": lambda L: L.set_rng_state(L.zeros(5056)),
    "set_rng_state invalid": lambda L: L.set_rng_state(L.zeros(5056, dtype=L.uint8)),
    "manual_seed too big": lambda L: L.manual_seed(2**64),
    "manual_seed too negative": lambda L: L.manual_seed(-2**63 - 1),
    "Generator.manual_seed of a float": lambda L: L.Generator().manual_seed(1.5),
    "Generator.manual_seed of a bool": lambda L: L.Generator().manual_seed(True),
    "get_offset": lambda L: L.Generator().get_offset(),
}


@pytest.mark.parametrize("name", sorted(ERROR_CASES))
def test_errors_match_pytorch(name):
    """Same exception type and message, and the same draws taken before raising."""
    assert_same_draws(lambda L: [L.rand(2), ERROR_CASES[name](L)])
