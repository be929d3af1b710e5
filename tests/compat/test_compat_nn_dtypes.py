"""torch.nn.functional over every dtype: each call gives PyTorch's result and result dtype,
or raises PyTorch's error, never a computation in another dtype (compat computed integer
normalisations in float32, float16 GELU in float64 and integer losses in float64)."""
import math

import pytest

from compat_harness import check, module_output, seeded

DTYPES = ["uint8", "int8", "int16", "int32", "int64", "bool", "float16", "float32",
          "float64", "complex64"]
CALLS = [
    "F.avg_pool2d(x, 2)", "F.max_pool1d(x[0], 2)", "F.max_pool1d(x[0], 2, return_indices=True)",
    "F.max_pool2d(x, 2)", "F.adaptive_avg_pool2d(x, 3)", "F.adaptive_max_pool2d(x, 3)",
    "F.pad(x, (1, 1), mode='reflect')", "F.pad(x, (1, 1), value=2)", "F.unfold(x, 2)",
    "F.fold(F.unfold(x, 2), (5, 6), 2)", "F.fold(x[0, :, :4], (3, 3), 2, stride=1)",
    "F.relu(x)", "F.relu6(x)", "F.hardtanh(x)", "F.hardtanh(x, 0.0, 2.0)",
    "F.threshold(x, 1, 2)", "F.leaky_relu(x)", "F.gelu(x)", "F.gelu(x, approximate='tanh')",
    "F.silu(x)", "F.elu(x)", "F.softplus(x)", "F.softmax(x, -1)", "F.glu(x)",
    "F.normalize(x)", "F.layer_norm(x, (6,))", "F.group_norm(x, 1)", "F.instance_norm(x)",
    "F.batch_norm(x, None, None, training=True)", "F.rms_norm(x, (6,))",
    "F.local_response_norm(x, 2)", "F.pixel_shuffle(x, 1)", "F.channel_shuffle(x, 2)",
    "F.dropout(x, training=False)", "F.one_hot(x)", "F.softsign(x)", "F.pdist(x[0, 0])",
    "F.conv_transpose1d(x[0], y[0, :, :, :2].transpose(0, 1))",
    "F.embedding_bag(torch.tensor([[0, 1]]), x[0, 0])",
    # losses of an input and a target of its dtype
    "F.mse_loss(x, y)", "F.l1_loss(x, y)", "F.smooth_l1_loss(x, y)", "F.huber_loss(x, y)",
    "F.soft_margin_loss(x, y)", "F.margin_ranking_loss(x, y, y)", "F.kl_div(x, y)",
    "F.poisson_nll_loss(x, y)", "F.binary_cross_entropy(x, y)",
    "F.binary_cross_entropy_with_logits(x, y)", "F.hinge_embedding_loss(x, y)",
    "F.multilabel_soft_margin_loss(x[0, 0], y[0, 0])", "F.triplet_margin_loss(x, y, x)",
    "F.nll_loss(x[0, 0], torch.tensor([0, 1, 2, 0, 1]))",
    "F.cross_entropy(x[0, 0], torch.tensor([0, 1, 2, 0, 1]))",
    "F.multi_margin_loss(x[0, 0], torch.tensor([0, 1, 2, 0, 1]))",
    "F.cosine_embedding_loss(x[0, 0], y[0, 0], torch.ones(5))",
]


@pytest.mark.filterwarnings("ignore:reduction. 'mean' divides the total loss:UserWarning")
@pytest.mark.parametrize("call", CALLS)
def test_functional_calls_take_the_dtypes_torch_takes(call):
    for dtype in DTYPES:
        def case(torch, dtype=dtype):
            x = torch.randint(0, 4, (1, 2, 5, 6)).to(getattr(torch, dtype))
            y = torch.randint(0, 2, (1, 2, 5, 6)).to(getattr(torch, dtype))
            result = eval(call, {"F": torch.nn.functional, "torch": torch, "x": x, "y": y})
            return result, (result[0] if isinstance(result, tuple) else result).dtype
        check(seeded(case), rtol=2e-3, atol=2e-3, messages=True)


# (a module, the input's shape): layers of float32 parameters given inputs of every dtype
MODULES = [
    ("nn.Linear(3, 2)", (2, 3)), ("nn.Conv1d(2, 2, 2)", (1, 2, 5)),
    ("nn.Conv2d(2, 2, 2)", (1, 2, 4, 4)), ("nn.ConvTranspose2d(2, 2, 2)", (1, 2, 3, 3)),
    ("nn.BatchNorm1d(3)", (2, 3)), ("nn.BatchNorm2d(2)", (2, 2, 3, 3)),
    ("nn.BatchNorm1d(3).eval()", (2, 3)), ("nn.LayerNorm(3)", (2, 3)),
    ("nn.LayerNorm(3, elementwise_affine=False)", (2, 3)), ("nn.GroupNorm(1, 2)", (2, 2, 3)),
    ("nn.InstanceNorm1d(2)", (2, 2, 3)), ("nn.RMSNorm(3)", (2, 3)),
    ("nn.Embedding(5, 2)", (2, 3)), ("nn.LSTM(3, 2)", (2, 1, 3)), ("nn.GRU(3, 2)", (2, 1, 3)),
    ("nn.MaxPool2d(2)", (1, 2, 4, 4)), ("nn.AvgPool2d(2)", (1, 2, 4, 4)),
    ("nn.AdaptiveAvgPool2d(2)", (1, 2, 4, 4)), ("nn.PReLU()", (2, 3)),
    ("nn.Upsample(scale_factor=2)", (1, 2, 3)),
]


@pytest.mark.filterwarnings("ignore:Mismatch dtype between input and weight:UserWarning")
@pytest.mark.parametrize("module, shape", MODULES)
def test_layers_take_the_input_dtypes_torch_takes(module, shape):
    """A float16 input of float32 parameters stays float16 (compat gave float32) where
    PyTorch computes it; other mixes are refused with PyTorch's texts."""
    for dtype in DTYPES:
        def case(torch, dtype=dtype):
            layer = eval(module, {"nn": torch.nn})
            x = (torch.arange(math.prod(shape)) % 4).reshape(shape).to(getattr(torch, dtype))
            return module_output(layer, x)
        check(seeded(case), rtol=2e-3, atol=2e-3, messages=True)
