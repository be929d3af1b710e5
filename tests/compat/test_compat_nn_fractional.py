"""compat.nn's FractionalMaxPool2d/3d and F.fractional_max_pool2d/3d against torch 2.13:
windows from given samples and from samples drawn after the same seed, values, indices and
gradients bit for bit, NaN and ties picked as PyTorch's kernel picks them, the modules and
the error texts."""
import pytest

from compat_harness import assert_same_error, check, seeded

POOLS = [
    (2, (2, 3, 7, 9), 2, (4, 5), None), (2, (3, 7, 9), (2, 3), None, (0.5, 0.6)),
    (2, (2, 2, 10, 10), 3, (8, 5), None), (2, (1, 1, 6, 6), 2, 5, None),
    (2, (1, 2, 5, 5), (1, 5), (5, 1), None),
    (3, (2, 2, 5, 6, 7), 2, (3, 4, 5), None), (3, (2, 5, 6, 7), (1, 2, 3), None, (0.5, 0.5, 0.7)),
]


@pytest.mark.parametrize("dims, shape, kernel_size, output_size, output_ratio", POOLS)
@pytest.mark.parametrize("given", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fractional_max_pool(dims, shape, kernel_size, output_size, output_ratio, given,
                             dtype):
    def case(torch):
        x = torch.randn(*shape, dtype=getattr(torch, dtype), requires_grad=True)
        pool = getattr(torch.nn.functional, f"fractional_max_pool{dims}d")
        samples = None
        if given:
            batch = shape[0] if len(shape) == dims + 2 else 1
            samples = torch.rand(batch, shape[-dims - 1], dims, dtype=x.dtype)
        out, indices = pool(x, kernel_size, output_size=output_size, output_ratio=output_ratio,
                            return_indices=True, _random_samples=samples)
        out.backward(torch.arange(out.numel(), dtype=out.dtype).reshape(out.shape))
        return out, indices, x.grad, torch.rand(2)
    check(seeded(case), rtol=0, atol=0)


def test_ties_and_nan():
    """The first of equal largest values, the last NaN of a window."""
    def case(torch):
        x = torch.tensor([[[[1.0, 3, 3, 0], [3, 2, float("nan"), 1],
                            [float("nan"), 0, 5, 5], [4, float("nan"), 5, 1]]]],
                         requires_grad=True)
        out, indices = torch.nn.functional.fractional_max_pool2d(
            x, 2, output_size=3, return_indices=True,
            _random_samples=torch.tensor([[[0.3, 0.6]]]))
        out.sum().backward()
        return out, indices, x.grad
    check(case, rtol=0, atol=0)


def test_functions_without_and_with_indices():
    def case(torch):
        x = torch.randn(2, 3, 8, 8)
        F = torch.nn.functional
        return (F.fractional_max_pool2d(x, 2, output_size=5),
                F.fractional_max_pool2d_with_indices(x, 2, output_size=5),
                F.fractional_max_pool3d(x, 2, output_size=(1, 5, 5)),
                F.fractional_max_pool3d_with_indices(x, 2, output_ratio=(0.5, 0.5, 0.5)))
    check(seeded(case), rtol=0, atol=0)


@pytest.mark.parametrize("dims", [2, 3])
def test_modules(dims):
    def case(torch):
        Pool = getattr(torch.nn, f"FractionalMaxPool{dims}d")
        x = torch.randn(2, 3, *([6] * dims), requires_grad=True)
        samples = torch.rand(2, 3, dims)
        drawn, given = Pool(2, output_ratio=0.5), Pool(3, output_size=3, return_indices=True,
                                                       _random_samples=samples)
        out = drawn(x)
        out.sum().backward()
        return (repr(drawn), drawn.kernel_size, drawn.output_ratio, given.output_size,
                list(given.state_dict()), out, x.grad, given(x))
    check(seeded(case), rtol=0, atol=0)


def _pool(shape=(2, 3, 7, 9), kernel_size=2, samples=None, **options):
    def case(torch):
        given = None if samples is None else torch.rand(*samples)
        return torch.nn.functional.fractional_max_pool2d(torch.randn(*shape), kernel_size,
                                                         _random_samples=given, **options)
    return case


@pytest.mark.parametrize("case", [
    _pool(), _pool(output_ratio=0.5), _pool(output_ratio=(0.5, 0.5, 0.5)),
    _pool(kernel_size=8, output_size=3), _pool(output_size=8), _pool(kernel_size=(2, 3),
                                                                     output_size=(6, 8)),
    _pool(shape=(7, 9), output_size=3), _pool(output_size=3, samples=(2, 3, 3)),
    _pool(output_size=3, samples=(1, 3, 2)), _pool(output_size=(3,)),
    _pool(shape=(2, 3, 0, 9), output_size=3),
    lambda torch: torch.nn.functional.fractional_max_pool2d(
        torch.randn(2, 3, 7, 9), 2, output_size=3, _random_samples=torch.rand(2, 3, 2).double()),
    lambda torch: torch.nn.functional.fractional_max_pool2d(
        torch.arange(9).view(1, 3, 3), 2, output_size=2),
    lambda torch: torch.nn.functional.fractional_max_pool2d(
        torch.randn(1, 1, 7, 7).long(), 2, output_size=5,
        _random_samples=torch.rand(1, 1, 2).long()),
    lambda torch: torch.nn.functional.fractional_max_pool3d(
        torch.randn(1, 1, 7, 7, 7).long(), 2, output_size=5,
        _random_samples=torch.rand(1, 1, 3).long()),
    _pool(output_size=3, samples=(1, 2, 3, 2)), _pool(output_size=3, samples=(2,)),
    lambda torch: torch.nn.functional.fractional_max_pool3d(torch.randn(1, 1, 7, 7, 7), 2,
                                                            output_size=(5, 6, 5)),
    lambda torch: torch.nn.functional.fractional_max_pool3d(torch.randn(7, 7, 7), 2,
                                                            output_size=5),
    lambda torch: torch.nn.functional.fractional_max_pool3d(torch.randn(1, 1, 0, 7, 7), 2,
                                                            output_size=5),
    lambda torch: torch.nn.FractionalMaxPool2d(2),
    lambda torch: torch.nn.FractionalMaxPool2d(2, 3, 0.5),
    lambda torch: torch.nn.FractionalMaxPool3d(2, output_ratio=1.5),
])
def test_errors(case):
    assert_same_error(seeded(case))


def test_samples_for_too_few_channels_are_refused():
    """PyTorch's kernel reads past them; compat refuses."""
    check(_pool(output_size=3, samples=(2, 3, 2)))
    with pytest.raises(RuntimeError, match="_random_samples.size"):
        _pool(output_size=3, samples=(2, 2, 2))(__import__("compat"))
