"""compat.nn's attention against torch 2.13: F.scaled_dot_product_attention (boolean and
float masks, causal, scale, grouped-query heads, dropout drawn as PyTorch draws it, the
node of PyTorch's fused CPU kernel where it runs it), F.multi_head_attention_forward and
nn.MultiheadAttention, and the Transformer layers (encoder, decoder, both, with masks,
padding, norm_first, batch_first, activations): after the same seed, the same parameters
(names, shapes, values bit for bit); on the same inputs, the same outputs, gradients
(inputs and every parameter) and grad_fn names, in training mode; printed reprs, state
dicts and error texts; a small Transformer language model trained with Adam; and what
PyTorch's eval "fast path" gives."""

import pytest

from compat_harness import assert_same_error, check, seeded

# float32 sums (PyTorch's fused attention kernel sums in blocks) differ in the last bits.
TOLERANCES = {"float32": {"rtol": 1e-4, "atol": 1e-5}, "float64": {"rtol": 1e-10, "atol": 1e-12}}


def _weighted_backward(torch, tensors):
    """Backward from the tensors, each weighted by a draw (so that each element counts)."""
    sum(((t * torch.randn(t.shape, dtype=t.dtype)).sum() for t in tensors)).backward()


# ---- scaled_dot_product_attention ------------------------------------------------------------

# (query, key, value shapes): PyTorch's fused kernel takes the 4-d ones, its math the others.
SHAPES = {
    "4-d": ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8)),
    "3-d": ((3, 4, 8), (3, 5, 8), (3, 5, 8)),
    "2-d": ((4, 8), (5, 8), (5, 8)),
    "4-d, value of another size": ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 6)),
    "4-d, one batch of queries": ((1, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8)),
}

# The masks: boolean (True attends) or float (added), of the scores' shape (L, S) or
# broadcast over the leading dimensions; one with a row that attends to nothing.
MASKS = {
    "bool": lambda torch, L, S, dtype: torch.rand(L, S) > 0.3,
    "bool with an empty row": lambda torch, L, S, dtype: (torch.arange(L)[:, None] != 1)
    & (torch.rand(L, S) > 0.2),
    "float": lambda torch, L, S, dtype: torch.randn(L, S, dtype=dtype),
    "float, 4-d": lambda torch, L, S, dtype: torch.randn(2, 1, L, S, dtype=dtype),
}

OPTIONS = [{}, {"is_causal": True}, {"scale": 0.3}, {"scale": -0.5}, {"dropout_p": 0.4}]


def _sdpa_case(shapes, mask, options, dtype):
    def case(torch):
        dtype_ = getattr(torch, dtype)
        q, k, v = (torch.randn(shape, dtype=dtype_, requires_grad=True) for shape in shapes)
        attn_mask = None if mask is None else mask(torch, q.size(-2), k.size(-2), dtype_)
        out = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask, **options)
        _weighted_backward(torch, [out])
        return out, q.grad, k.grad, v.grad
    return seeded(case)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("options", OPTIONS, ids=str)
@pytest.mark.parametrize("shapes", list(SHAPES))
def test_sdpa_computes_what_torch_computes(shapes, options, dtype):
    check(_sdpa_case(SHAPES[shapes], None, options, dtype), **TOLERANCES[dtype])


MASKED = [(mask, shapes) for mask in MASKS
          for shapes in ("4-d", "3-d", "2-d") if mask != "float, 4-d" or shapes == "4-d"]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("mask, shapes", MASKED)
def test_sdpa_masks_as_torch(mask, shapes, dtype):
    check(_sdpa_case(SHAPES[shapes], MASKS[mask], {}, dtype), **TOLERANCES[dtype])


def test_sdpa_with_a_float_mask_that_requires_grad():
    """PyTorch gives such a mask to its math kernel, and a gradient."""
    def case(torch):
        q, k, v = (torch.randn(2, 2, 3, 4, dtype=torch.float64, requires_grad=True)
                   for _ in range(3))
        mask = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
        out = torch.nn.functional.scaled_dot_product_attention(q, k, v, mask)
        _weighted_backward(torch, [out])
        return out, q.grad, mask.grad
    check(seeded(case), **TOLERANCES["float64"])


def test_sdpa_causal_with_a_mask_as_torchs_fused_kernel():
    """PyTorch's fused kernel applies both the causal mask and attn_mask; its math kernel
    refuses the pair."""
    def case(torch):
        q, k, v = (torch.randn(2, 2, 4, 8, dtype=torch.float64, requires_grad=True)
                   for _ in range(3))
        out = torch.nn.functional.scaled_dot_product_attention(
            q, k, v, torch.randn(4, 4, dtype=torch.float64), is_causal=True)
        _weighted_backward(torch, [out])
        return out, q.grad
    check(seeded(case), **TOLERANCES["float64"])


@pytest.mark.parametrize("key_heads", [1, 2])
def test_sdpa_grouped_query_attention(key_heads):
    def case(torch):
        q = torch.randn(2, 4, 3, 8, requires_grad=True)
        k, v = (torch.randn(2, key_heads, 5, 8, requires_grad=True) for _ in range(2))
        out = torch.nn.functional.scaled_dot_product_attention(q, k, v, enable_gqa=True)
        _weighted_backward(torch, [out])
        return out, q.grad, k.grad, v.grad
    check(seeded(case), **TOLERANCES["float32"])


def test_sdpa_dropout_draws_torchs_masks():
    def case(torch):
        q, k, v = (torch.randn(2, 3, 4, 8, requires_grad=True) for _ in range(3))
        out = torch.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
        everything = torch.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=1.0)
        _weighted_backward(torch, [out])
        return out, everything, q.grad, torch.rand(3)  # the stream goes on alike
    check(seeded(case), **TOLERANCES["float32"])


SDPA_MISUSES = {
    "dtypes differ": "F.scaled_dot_product_attention(q, q.double(), q)",
    "integer mask": "F.scaled_dot_product_attention(q, q, q, torch.ones(4, 4, dtype=torch.long))",
    "mask of another float dtype": ("F.scaled_dot_product_attention(q, q, q, torch.ones(4, 4, "
                                    "dtype=torch.float64))"),
    "1-d operands": ("F.scaled_dot_product_attention(torch.randn(8), torch.randn(8), "
                     "torch.randn(8))"),
    "dropout out of range": "F.scaled_dot_product_attention(q, q, q, dropout_p=1.5)",
    "causal with a mask, math kernel": ("F.scaled_dot_product_attention(q[0, 0], q[0, 0], "
                                        "q[0, 0], torch.randn(4, 4), is_causal=True)"),
    "key heads do not divide": ("F.scaled_dot_product_attention(q, torch.randn(2, 2, 4, 8), "
                                "torch.randn(2, 2, 4, 8), enable_gqa=True)"),
}


@pytest.mark.parametrize("misuse", list(SDPA_MISUSES))
def test_sdpa_misuse_raises_torchs_error(misuse):
    def case(torch):
        return eval(SDPA_MISUSES[misuse], {"torch": torch, "F": torch.nn.functional,
                                           "q": torch.randn(2, 3, 4, 8)})
    assert_same_error(case)
