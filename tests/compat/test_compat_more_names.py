"""torch names outside the table (compat._torch_names) against PyTorch 2.13: aliases, shape
helpers, in-place views, bitwise operations, in-place comparisons, torch-level spellings of
nn.functional, windows and other factories. Each expression runs under compat and torch;
results, dtypes, grad_fn names, the leaves' gradients and the errors' texts are compared."""
import numpy as np
import pytest

from compat_harness import check, seeded, weighted_gradients


def _inputs(torch):
    return {
        "torch": torch,
        "a": torch.tensor([[0.5, -1.2, 2.0], [1.5, 0.3, -0.7]], requires_grad=True),
        "p": torch.tensor([[0.2, 0.5, 0.9], [0.1, 0.7, 0.4]], requires_grad=True),
        "u": torch.tensor([[[0.3, -0.5, 1.1, 0.2]], [[0.9, 0.4, -0.8, 1.3]]],
                          requires_grad=True),
        "n": torch.tensor([[1, -2, 3], [0, 5, -6]]),
        "k": torch.tensor([1, 2, 3, 60]),
        "b": torch.tensor([True, False, True]),
        "x": torch.tensor(np.linspace(-1, 1, 24).reshape(2, 3, 4).tolist(), requires_grad=True),
        "w": torch.tensor(np.linspace(-1, 1, 18).reshape(3, 3, 2).tolist(), requires_grad=True),
    }


_LEAVES = "apuxw"


def _case(expression):
    return weighted_gradients(expression, _inputs, _LEAVES)


SHAPES = [
    "torch.concatenate([a, p], 1)", "torch.concatenate((a, p))",
    "torch.concatenate([a, p], axis=1)", "torch.fill(a, torch.ones(2))",
    "torch.broadcast_shapes((2, 1), (3,))", "torch.broadcast_shapes(2, (3, 1), ())",
    "torch.broadcast_shapes()",
    "torch.split_with_sizes(a, [1, 2], 1)", "a.split_with_sizes([2, 0])",
    "torch.hsplit(a, 3)", "a.hsplit([1, 2])", "torch.hsplit(a[0], [2])",
    "torch.vsplit(a, 2)", "u.vsplit([1])", "torch.dsplit(u, 2)", "u.dsplit([1, 3])",
    "a.sum_to_size(1, 3)", "a.sum_to_size(3)", "u.sum_to_size((2, 1, 1))",
    "u.sum_to_size(1, 4)", "a.sum_to_size(2, 3)",
    "torch.detach(a)", "torch.fill(a, 2.5)", "torch.fill(a, torch.tensor(3.0))",
    "torch.fill(n, 7)", "torch.fill_(a.clone(), 2.0)", "torch.zero_(a.clone())",
    "a.nbytes", "n.itemsize", "u[1:, :, 2:].nbytes", "a.storage_offset()",
    "a[1].storage_offset()", "u[1, :, 2:].storage_offset()",
    "(a.new_empty_strided((2, 3), (1, 2)).stride(), a.new_empty_strided((2, 3), (1, 2)).dtype)",
    "a.new_empty_strided((2, 2), (2, 1), dtype=torch.float64).shape",
    "a.new_empty_strided((2, 3), (1,))",
]

INPLACE_VIEWS = [
    "a.clone().t_()", "a.clone().transpose_(0, 1)", "u.clone().swapaxes_(0, 2)",
    "u.clone().swapdims_(1, 2)", "a.clone().unsqueeze_(1)", "u.clone().squeeze_()",
    "u.clone().squeeze_(1)", "u.clone().squeeze_((0, 1))", "a.detach().clone().t_()",
    "a.clone()[0].unsqueeze_(0)", "a.t_()", "a[0].unsqueeze_(0)",
]

BITWISE = [
    "torch.bitwise_and(n, 6)", "n.bitwise_or(k[:3])", "torch.bitwise_xor(n, n.int())",
    "torch.bitwise_not(n)", "b.bitwise_not()", "n & 3", "b ^ b", "torch.bitwise_and(b, b)",
    "torch.bitwise_left_shift(k, 2)", "k.bitwise_right_shift(1)", "k << k", "k >> 1",
    "3 << k", "100 >> k", "-k >> 70", "k << 64", "k.bitwise_left_shift(-1)", "b << 1",
    "k.int() << 31", "n.clone().bitwise_and_(5)", "n.clone().bitwise_or_(k[:3])",
    "n.clone().bitwise_xor_(-1)", "n.clone().bitwise_not_()", "b.clone().bitwise_not_()",
    "k.clone().bitwise_left_shift_(3)", "k.clone().bitwise_right_shift_(k)",
    "torch.bitwise_and(a, 1)", "a.bitwise_not()", "torch.bitwise_left_shift(a, 1)",
    "b.bitwise_right_shift(b)", "k.bitwise_left_shift(1.5)", "a << 1", "n.clone() >> 0.5",
]

COMPARISONS_IN_PLACE = [
    "a.clone().eq_(0.5)", "a.clone().ne_(p)", "a.clone().lt_(p)", "a.clone().le_(0.3)",
    "a.clone().gt_(torch.tensor(0.0))", "a.clone().ge_(p[0])", "a.clone().greater_(p)",
    "a.clone().less_(0)", "a.clone().greater_equal_(p)", "a.clone().less_equal_(p)",
    "a.clone().not_equal_(0.5)", "n.clone().eq_(1)", "n.clone().lt_(2.5)",
    "a.detach().clone().gt_(p)", "b.clone().eq_(b)", "a.clone().eq_(torch.ones(3, 1))",
    "a.clone().logical_not_()", "n.clone().logical_not_()", "b.clone().logical_and_(b)",
    "a.clone().cumsum_(0)", "n.clone().cumsum_(dim=1)", "a.clone().fill_diagonal_(0.0)",
    "torch.zeros(7, 3).fill_diagonal_(5, wrap=True)", "torch.zeros(7, 3).fill_diagonal_(5)",
    "torch.zeros(2, 3).fill_diagonal_(torch.tensor(1.0))",
    "torch.zeros(2, 2, 2).fill_diagonal_(1)", "n.clone().fill_diagonal_(9)",
    "torch.zeros(3).fill_diagonal_(1)", "torch.zeros(2, 3, 4).fill_diagonal_(1)",
    "a.fill_diagonal_(1.0)", "p.polygamma(1)", "p.clone().polygamma_(2)",
    "(p + 1).double().float_power_(p)", "a.clone().float_power_(2)",
]

# torch's spellings of nn.functional, with PyTorch's native signatures.
FUNCTIONAL = [
    "torch.conv1d(x, w, None, 1, 1)", "torch.conv2d(x[None], w[None].expand(2, 3, 3, 2))",
    "torch.conv3d(x[None, None], w[None, None])", "torch.conv_transpose1d(x, w, stride=2)",
    "torch.conv_transpose2d(x[None], w[:, None])",
    "torch.conv_transpose3d(x[None, None], w[None, None])",
    "torch.dropout(x, 0.5, True)", "torch.dropout(x, 0.5, False)",
    "torch.dropout_(x.clone(), 0.3, True)", "torch.alpha_dropout(x, 0.3, True)",
    "torch.alpha_dropout_(x.clone(), 0.3, True)", "torch.feature_alpha_dropout(x, 0.3, True)",
    "torch.feature_alpha_dropout_(x.clone(), 0.3, True)", "torch.feature_dropout(x, 0.5, True)",
    "torch.feature_dropout_(x.clone(), 0.5, True)", "torch.dropout(x, 1.5, True)",
    "torch.alpha_dropout(x, -0.5, False)",
    "torch.layer_norm(x, [4]) ** 2",
    "torch.layer_norm(x, (3, 4), w.reshape(-1)[:12].reshape(3, 4), None, 1e-3, False)", "torch.group_norm(x, 3, w[:, 0, 0], w[:, 1, 1]) ** 2",
    "torch.batch_norm(x, w[:, 0, 0], None, None, None, True, 0.1, 1e-5, False)",
    "torch.batch_norm(x, None, None, torch.zeros(3), torch.ones(3), False, 0.1, 1e-5, True)",
    "torch.instance_norm(x, None, None, None, None, True, 0.1, 1e-5, False)",
    "torch.embedding(x[0], torch.tensor([0, 2, 1]))",
    "torch.embedding(x[0], torch.tensor([[0, 2], [1, 1]]), 1, True)",
    "torch.bilinear(x[0], x[1], w.reshape(-1)[:16].reshape(1, 4, 4), None)",
    "torch.bilinear(x[0], x[1], w.reshape(-1)[:16].reshape(1, 4, 4), w[0, 0, :1])",
    "torch.pdist(x[0])", "torch.pdist(x[0], 1)", "torch.pairwise_distance(x[0], x[1], 3)",
    "torch.pixel_shuffle(x.reshape(1, 4, 2, 3), 2)",
    "torch.pixel_unshuffle(x.reshape(1, 1, 4, 6), 2)", "torch.channel_shuffle(x, 3)",
    "torch.prelu(x, torch.tensor([0.25]))", "torch.selu(x)", "torch.selu_(x.clone())",
    "torch.celu(x, 2.0)", "torch.celu_(x.clone())", "torch.rrelu(x)",
    "torch.rrelu(x, 0.1, 0.3, True)", "torch.rrelu_(x.clone(), 0.1, 0.3, True)",
    "torch.threshold(x, 0.1, 5.0)", "torch.threshold_(x.clone(), 0.0, -1.0)",
    "torch.hardshrink(x)", "torch.hardshrink(x, 0.3)", "torch.relu_(x.clone())",
    "torch.kl_div(x, x.exp())", "torch.kl_div(x, x, 2, log_target=True)",
    "torch.margin_ranking_loss(x, x * 2, torch.ones(2, 3, 4))",
    "torch.margin_ranking_loss(x, x * 2, -torch.ones(2, 3, 4), 0.5, 1)",
    "torch.hinge_embedding_loss(x, torch.ones(2, 3, 4))",
    "torch.hinge_embedding_loss(x, -torch.ones(2, 3, 4), 1.0, 2)",
    "torch.cosine_embedding_loss(x[0], x[1], torch.ones(3))",
    "torch.cosine_embedding_loss(x[0], x[1], -torch.ones(3), 0.1, 1)",
    "torch.triplet_margin_loss(x[0], x[1], x[0] * 2)",
    "torch.triplet_margin_loss(x[0], x[1], x[0] * 2, 0.5, 1.0, 1e-6, True, 2)",
    "torch.poisson_nll_loss(x, x.abs(), True, False, 1e-8, 1)",
    "torch.poisson_nll_loss(x.abs(), x.abs(), False, True, 1e-8, 0)",
    "torch.ctc_loss(x.permute(2, 0, 1).log_softmax(2), torch.tensor([[1, 2], [1, 1]]), [4, 4], "
    "[2, 1])", "torch.ctc_loss(x.permute(2, 0, 1).log_softmax(2), torch.tensor([[1, 2], [1, 1]]),"
    " torch.tensor([4, 4]), torch.tensor([2, 2]), 0, 1, True)",
    "torch.binary_cross_entropy_with_logits(x, x.sigmoid())",
    "torch.binary_cross_entropy_with_logits(x, x.sigmoid(), None, torch.ones(4) * 2, 1)",
    "torch.max_pool1d(x, 2)", "torch.max_pool1d(x, 3, 1, 1, 1, True)",
    "torch.max_pool2d(x, 2)", "torch.max_pool2d(x, (2, 3), (1, 1))",
    "torch.max_pool3d(x[None], (1, 2, 2))", "torch.avg_pool1d(x, 2)",
    "torch.avg_pool1d(x, 3, 1, 1, False, False)", "torch.adaptive_avg_pool1d(x, 3)",
    "torch.adaptive_max_pool1d(x, 3)", "torch.constant_pad_nd(x, [1, 2])",
    "torch.constant_pad_nd(x, (1, 0, 0, 2), 3.5)", "torch.rms_norm(x, [4])",
    "torch.sin_(x.clone())", "torch.exp_(x.clone())", "torch.clamp_(x.clone(), min=0)",
    "torch.xlogy_(x.clone(), 2.0)", "torch.ldexp_(x.clone(), torch.tensor([1, 2, 3, 4]))",
    "torch.nan_to_num_(x.clone().log())", "torch.detach_(x.clone())",
    "torch.index_put_(x.clone(), (torch.tensor([1]),), x[0] * 0)", "torch.sin_(x)",
]

WINDOWS = [
    "torch.hann_window(5)", "torch.hann_window(6, False, dtype=torch.float64)",
    "torch.hann_window(0)", "torch.hann_window(1)", "torch.hann_window(4, requires_grad=True)",
    "torch.hann_window(5, dtype=torch.int64)", "torch.hann_window(-1)",
    "torch.hamming_window(7)", "torch.hamming_window(5, True, 0.5, 0.4)",
    "torch.hamming_window(4, False, dtype=torch.float64)", "torch.blackman_window(6)",
    "torch.blackman_window(5, False)", "torch.bartlett_window(5)",
    "torch.bartlett_window(2, False)", "torch.bartlett_window(6, dtype=torch.float64)",
    "torch.kaiser_window(6)", "torch.kaiser_window(6, False, 5.0)", "torch.kaiser_window(1)",
    "torch.kaiser_window(7, True, 2.5, dtype=torch.float64, requires_grad=True)",
    "torch.range(1, 4)", "torch.range(0, 1, 0.1)", "torch.range(0, 1, 0.25, dtype=torch.float64)",
    "torch.range(1, 4, dtype=torch.int64)", "torch.range(5, 1, -2)", "torch.range(4, 1)",
    "torch.range(1, 4, 0)", "torch.range(1, float('inf'))",
    "torch.logspace(0, 2, 3)", "torch.logspace(0, 2, 4, dtype=torch.float64)",
    "torch.logspace(0, 2, 3, base=2)", "torch.logspace(0, 2, 3, dtype=torch.int64)",
    "torch.logspace(-1.0, 1.0, 5, 3.0, requires_grad=True)", "torch.logspace(0, 1, 1)",
    "torch.logspace(0, 1, 0)", "torch.logspace(0, 1, -1)",
]

EXPRESSIONS = SHAPES + INPLACE_VIEWS + BITWISE + COMPARISONS_IN_PLACE + WINDOWS


@pytest.mark.filterwarnings("ignore:torch.range is deprecated:UserWarning")
@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_name_matches_torch(expression):
    check(_case(expression), rtol=1e-5, atol=1e-6, messages=True)


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning",
                            "ignore:divide by zero encountered:RuntimeWarning")
@pytest.mark.parametrize("expression", FUNCTIONAL)
def test_top_level_spelling_of_functional_matches_torch(expression):
    check(seeded(_case(expression)), rtol=1e-4, atol=1e-5, messages=True)


def test_every_inplace_method_torch_spells_as_a_function_is_one():
    import torch

    import compat
    from compat import _functional_names
    assert set(_functional_names.IN_PLACE) == {
        name for name in dir(torch) if name.endswith("_") and not name.startswith("_")
        and hasattr(compat.Tensor, name) and name not in ("fill_", "zero_", "dropout_")
        and getattr(compat, name) is getattr(compat.Tensor, name)}


def _layout(expression):
    def case(torch):
        out = eval(expression, _inputs(torch))
        return out.shape, out.stride(), out._version, out.is_contiguous()
    return case


@pytest.mark.parametrize("expression", INPLACE_VIEWS[:10] + ["a.clone().t_().t_()"])
def test_inplace_views_take_torchs_strides_and_count_a_version(expression):
    check(_layout(expression))


def test_bitwise_operators_in_place_update_the_tensor_itself():
    def case(torch):
        n = torch.tensor([[1, -2, 3], [0, 5, -6]])
        alias = n
        n &= 6
        n |= torch.tensor([1, 0, 8])
        n ^= 3
        n <<= 2
        n >>= torch.tensor([1, 2, 3])
        return n is alias, n
    check(case)


def test_inplace_view_changes_the_tensor_itself_and_its_views_see_its_memory():
    def case(torch):
        x = torch.arange(6.0).reshape(2, 3)
        row = x[0]
        same = x.t_()
        x[0, 1] = 10.0  # the element at row 1, column 0 before the transpose
        return same is x, x.shape, row._base is x, x.storage_offset(), row, x
    check(case)


def test_inplace_view_of_an_updated_tensor_differentiates_its_history():
    def case(torch):
        w = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        x = w * 2
        x.t_().unsqueeze_(0)
        (x * torch.arange(6.0).reshape(1, 3, 2)).sum().backward()
        return x.grad_fn.name(), x.grad_fn.next_functions[0][0].name(), w.grad
    check(case)


def test_comparison_in_place_gives_both_inputs_zero_gradients():
    def case(torch):
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = torch.tensor([1.0, 5.0, 3.0], requires_grad=True)
        z = x.clone().eq_(y)
        (z * 2).sum().backward()
        return z, [f[0].name() for f in z.grad_fn.next_functions], x.grad, y.grad
    check(case)


def test_the_result_of_a_comparison_must_fit_the_tensor():
    check(lambda torch: torch.zeros(3).lt_(torch.zeros(2, 3)), messages=True)


def test_range_warns_that_it_is_deprecated_as_torch():
    import torch

    import compat
    for library in (compat, torch):
        with pytest.warns(UserWarning, match="torch.range is deprecated") as caught:
            library.range(0, 3)
        assert caught[0].filename == __file__


MISC = [
    "torch.scalar_tensor(3)", "torch.scalar_tensor(3, dtype=torch.int64)",
    "torch.scalar_tensor(True)", "torch.scalar_tensor(2.5, requires_grad=True)",
    "torch.scalar_tensor(torch.tensor(2.0), dtype=torch.float64)",
    "torch.typename(a)", "torch.typename(n.double())", "torch.typename(3)",
    "torch.typename(np.float64(1))", "torch.typename(torch.nn.Parameter(torch.ones(1)))",
    "torch.is_inference(a)", "a.is_inference()", "torch.get_float32_matmul_precision()",
    "torch.set_flush_denormal(1)", "torch.set_num_interop_threads(0)",
    "torch.set_num_interop_threads(2.0)", "torch.set_num_interop_threads(True)",
    "torch.asarray(a) is a", "torch.asarray(n, copy=False) is n", "torch.asarray(a, copy=True)",
    "torch.asarray(a, dtype=torch.float64)", "torch.asarray(n, dtype=torch.float64, copy=False)",
    "torch.asarray(a * 2, requires_grad=True)", "torch.asarray(a, requires_grad=False)",
    "torch.asarray(a, dtype=torch.float64, requires_grad=False)",
    "torch.asarray(n.detach(), requires_grad=True)", "torch.asarray([1, 2])",
    "torch.asarray([1.0, 2.0], dtype=torch.float64)", "torch.asarray(3)",
    "torch.asarray([[1, 2], [3, 4]], copy=False)", "torch.asarray([1, 2], requires_grad=True)",
    "torch.asarray(np.ones(2), requires_grad=True)",
    "torch.asarray(np.arange(3), dtype=torch.float32, copy=False)",
    "torch.asarray(np.arange(3), dtype=torch.float32)",
]


@pytest.mark.filterwarnings("ignore:torch.asarray. unspecified requires_grad:UserWarning")
@pytest.mark.parametrize("expression", MISC)
def test_misc_name_matches_torch(expression):
    check(_case(expression), messages=True)


def test_asarray_shares_memory_as_torch():
    def case(torch):
        array = np.arange(4.0)
        t = torch.tensor([1.0, 2.0])
        shared = torch.asarray(array)
        array[0] = 7.0
        copied = torch.asarray(array, copy=True)
        array[1] = 8.0
        return shared, copied, torch.asarray(t[1:])._base is t, torch.asarray(t) is t
    check(case)


def test_asarray_warns_when_it_returns_a_tensor_that_requires_grad():
    import torch

    import compat
    for library in (compat, torch):  # (once a process: every time while warn_always is set)
        x = library.ones(2, requires_grad=True)
        library.set_warn_always(True)
        try:
            with pytest.warns(UserWarning, match="unspecified requires_grad now defaults"):
                library.asarray(x)
        finally:
            library.set_warn_always(False)


def test_tensors_made_in_inference_mode_are_inference_tensors():
    def case(torch):
        before = torch.ones(2)
        with torch.inference_mode():
            inside = torch.ones(2) * 3
            with torch.inference_mode(False):
                normal = torch.ones(1)
        return (inside.is_inference(), torch.is_inference(inside), before.is_inference(),
                normal.is_inference(), (before * 2).is_inference())
    check(case)


def test_views_and_aliases_of_inference_tensors_are_inference_tensors():
    def case(torch):
        before = torch.ones(3)
        with torch.inference_mode():
            inside = torch.ones(3)
            view_of_normal = before[1:]
        return [t.is_inference() for t in (inside.view(3), inside[1:], inside.detach(),
                                           inside.data, inside.clone(), view_of_normal)]
    check(case)


_INFERENCE_USES = [
    # saved for backward: refused
    "w * t", "t * w", "w / t", "w.exp() * t", "w.matmul(t)", "w.dot(t)", "w[n]",
    "w.gather(0, n)", "w.index_select(0, n)", "w.clamp(min=t)", "w.pow(t)", "t.pow(w)",
    "w.expand(2, 3) * t", "w * t.view(3)", "w * t.detach()", "w * t.data", "w * t[0]",
    "torch.nn.functional.linear(t, w.view(1, 3))", "w.log_softmax(0) * t",
    # read but not saved, or not recorded: accepted
    "w + t", "t + w", "w - t", "torch.sin(t) * w", "t.sin()", "w * t.clone()",
    "torch.where(t > 0, w, 0)", "torch.cat([w, t])", "torch.stack([t, w])", "t * 2",
    "w.add(t, alpha=2)", "torch.addcmul(t, w, w)", "t.sum()", "t.norm()",
    "torch.nn.functional.relu(t)",
    # in place outside inference_mode: refused on t and its views, not on detach()/.data
    "t.requires_grad_()", "t.add_(1)", "t.mul_(w)", "t.zero_()", "t.view(3).add_(1)",
    "t.copy_(w)", "t.__setitem__(0, 5)", "t.detach().__setitem__(0, 1)", "t.sub_(t.clone())",
    "t.detach().add_(1)", "t.data.add_(1)", "t.clone().add_(1)", "w.detach().add_(t)",
    "t._version", "t.view(3)._version",
]


@pytest.mark.parametrize("expression", _INFERENCE_USES)
def test_inference_tensors_used_outside_inference_mode_as_in_torch(expression):
    def case(torch):
        with torch.inference_mode():
            t = torch.ones(3)
            n = torch.arange(3)
        w = torch.ones(3, requires_grad=True)
        result = eval(expression)
        return result, t
    check(case, messages=True)


def test_inference_tensors_update_in_place_and_under_no_grad():
    def case(torch):
        with torch.inference_mode():
            t = torch.ones(3)
        with torch.inference_mode():
            t.add_(1)
        with torch.no_grad():
            t.mul_(2)
    check(case, messages=True)


def test_inference_tensors_cannot_be_saved_by_a_function():
    def case(torch):
        class Twice(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                ctx.save_for_backward(b)
                return a * 2

            @staticmethod
            def backward(ctx, grad):
                return grad * 2, None
        with torch.inference_mode():
            t = torch.ones(3)
        return Twice.apply(torch.ones(3, requires_grad=True), t)
    check(case, messages=True)


def test_settings_are_kept_and_reported():
    def case(torch):
        torch.set_float32_matmul_precision("high")
        high = torch.get_float32_matmul_precision()
        torch.set_float32_matmul_precision("highest")
        return high, torch.get_float32_matmul_precision()
    check(case)


def test_an_unknown_matmul_precision_warns_and_changes_nothing():
    import torch

    import compat
    for library in (compat, torch):
        with pytest.warns(UserWarning, match="foo is not one of 'highest', 'high', or "
                                             "'medium'; the currentsetFloat32MatmulPrecision"):
            library.set_float32_matmul_precision("foo")
        assert library.get_float32_matmul_precision() == "highest"


def test_post_accumulate_grad_hook_runs_after_grad_is_accumulated():
    def case(torch):
        seen = []
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        handle = x.register_post_accumulate_grad_hook(
            lambda t: seen.append((t is x, t.grad.clone())))
        (x * 2).sum().backward()
        (x * 3).sum().backward()
        handle.remove()
        (x * 5).sum().backward()
        torch.autograd.grad((x * 2).sum(), x)  # no accumulation: no hook
        return seen, x.grad
    check(case)


def test_post_accumulate_grad_hook_steps_an_optimizer_in_backward():
    """The 'optimizer step in backward' recipe: each parameter steps as soon as its
    gradient is ready, and drops it."""
    def case(torch):
        torch.manual_seed(0)
        model = torch.nn.Linear(3, 2)
        optimizers = {p: torch.optim.SGD([p], lr=0.1) for p in model.parameters()}

        def step(p):
            optimizers[p].step()
            optimizers[p].zero_grad()
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(step)
        for _ in range(2):
            model(torch.ones(4, 3)).pow(2).sum().backward()
        return [p.detach().clone() for p in model.parameters()], [p.grad for p in
                                                                 model.parameters()]
    check(case)


@pytest.mark.parametrize("expression", [
    "(a * 2).register_post_accumulate_grad_hook(print)",
    "n.register_post_accumulate_grad_hook(print)"])
def test_post_accumulate_grad_hook_only_on_leaves_that_require_grad(expression):
    check(lambda torch: eval(expression, _inputs(torch)), messages=True)
