"""torch.nn.functional over every dtype: each call gives PyTorch's result and result dtype,
or raises PyTorch's error, never a computation in another dtype (compat computed integer
normalisations in float32 and float16 GELU in float64)."""
import pytest

from compat_harness import check, seeded

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
    "F.dropout(x, training=False)", "F.one_hot(x)",
]


@pytest.mark.parametrize("call", CALLS)
def test_functional_calls_take_the_dtypes_torch_takes(call):
    for dtype in DTYPES:
        def case(torch, dtype=dtype):
            x = torch.randint(0, 4, (1, 2, 5, 6)).to(getattr(torch, dtype))
            result = eval(call, {"F": torch.nn.functional, "x": x})
            return result, (result[0] if isinstance(result, tuple) else result).dtype
        check(seeded(case), rtol=2e-3, atol=2e-3, messages=True)
