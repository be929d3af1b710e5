"""compat.nn's attention against torch 2.13: F.scaled_dot_product_attention (boolean and
float masks, causal, scale, grouped-query heads, dropout drawn as PyTorch draws it, the
node of PyTorch's fused CPU kernel where it runs it), F.multi_head_attention_forward and
nn.MultiheadAttention, and the Transformer layers (encoder, decoder, both, with masks,
padding, norm_first, batch_first, activations): after the same seed, the same parameters
(names, shapes, values bit for bit); on the same inputs, the same outputs, gradients
(inputs and every parameter) and grad_fn names, in training mode; printed reprs, state
dicts and error texts; a small Transformer language model trained with Adam; and what
PyTorch's eval "fast path" gives."""

import warnings

import pytest

from compat_harness import assert_same_error, check, gradients, seeded

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


def test_dropout_of_a_transposed_input_draws_torchs_mask():
    """PyTorch draws dropout's noise in the input's memory order (the outputs of a
    batch_first MultiheadAttention are transposed)."""
    def case(torch):
        x = torch.randn(3, 4, 5)
        return [torch.nn.functional.dropout(t, 0.5) for t in
                (x.transpose(0, 1), x.permute(2, 0, 1), x[:, ::2], x[:, :1].transpose(1, 2),
                 torch.randn(()))]
    check(seeded(case))


# ---- MultiheadAttention -------------------------------------------------------------------

L, S, N, E = 4, 5, 2, 8
BATCHED = ((L, N, E), (S, N, E), (S, N, E))

# (constructor options, forward options, shapes of query, key and value or "self")
ATTENTIONS = [
    ({}, {}, BATCHED),
    ({}, {"need_weights": False}, BATCHED),
    ({}, {}, "self"),
    ({}, {"need_weights": False}, "self"),
    ({}, {"average_attn_weights": False}, BATCHED),
    ({"batch_first": True}, {}, ((N, L, E), (N, S, E), (N, S, E))),
    ({"batch_first": True}, {"need_weights": False}, ((N, L, E), (N, S, E), (N, S, E))),
    ({}, {}, ((L, E), (S, E), (S, E))),  # unbatched
    ({}, {"need_weights": False, "average_attn_weights": False}, ((L, E), (S, E), (S, E))),
    ({"kdim": 3, "vdim": 5}, {}, ((L, N, E), (S, N, 3), (S, N, 5))),
    ({"kdim": 3, "vdim": 5}, {"need_weights": False}, ((L, N, E), (S, N, 3), (S, N, 5))),
    ({"bias": False}, {"attn_mask": "float"}, "self"),
    ({"add_bias_kv": True}, {"key_padding_mask": "bool", "attn_mask": "bool"}, BATCHED),
    ({"add_zero_attn": True}, {"key_padding_mask": "bool", "attn_mask": "bool",
                               "need_weights": False}, BATCHED),
    ({"add_bias_kv": True, "add_zero_attn": True}, {"attn_mask": "float, per head"}, BATCHED),
    ({}, {"attn_mask": "float, per head", "need_weights": False}, BATCHED),
    ({}, {"key_padding_mask": "float"}, BATCHED),
    ({"batch_first": True}, {"key_padding_mask": "bool", "need_weights": False},
     ((N, L, E), (N, S, E), (N, S, E))),
    ({}, {"key_padding_mask": "bool"}, ((L, E), (S, E), (S, E))),
    ({}, {"attn_mask": "causal", "is_causal": True}, "self"),
    ({}, {"attn_mask": "causal", "is_causal": True, "need_weights": False}, "self"),
    ({}, {"attn_mask": "causal", "is_causal": True, "need_weights": False,
          "key_padding_mask": "bool"}, "self"),
    ({"dropout": 0.3}, {}, BATCHED),
    ({"dropout": 0.3}, {"need_weights": False}, BATCHED),
]


def _masks(torch, options, target, source, dtype):
    """The forward options with the masks named in them drawn: padding of the last two
    keys of the first sample; attention masks (L, S) or per head (N * heads, L, S)."""
    masks = {
        "bool": {"key_padding_mask": lambda: torch.arange(source) >= source - (
            torch.arange(N)[:, None] == 0) * 2,
                 "attn_mask": lambda: torch.rand(target, source) > 0.8},
        "float": {"key_padding_mask": lambda: torch.randn(N, source, dtype=dtype),
                  "attn_mask": lambda: torch.randn(target, source, dtype=dtype)},
        "float, per head": {"attn_mask": lambda: torch.randn(N * 2, target, source,
                                                             dtype=dtype)},
        "causal": {"attn_mask": lambda: torch.ones(target, source, dtype=torch.bool).triu(1)},
    }
    drawn = dict(options)
    for name in ("key_padding_mask", "attn_mask"):
        if name in options:
            drawn[name] = masks[options[name]][name]()
    if "key_padding_mask" in drawn and not (target == L and source == S):
        drawn["key_padding_mask"] = drawn["key_padding_mask"][0]  # unbatched
    return drawn


def _attention_case(options, forward_options, shapes, dtype):
    def case(torch):
        dtype_ = getattr(torch, dtype)
        layer = torch.nn.MultiheadAttention(E, 2, dtype=dtype_, **options)
        if shapes == "self":
            query = key = value = torch.randn(L, N, E, dtype=dtype_, requires_grad=True)
        else:
            query, key, value = (torch.randn(shape, dtype=dtype_, requires_grad=True)
                                 for shape in shapes)
        sequence_dim = 1 if options.get("batch_first") else 0
        with warnings.catch_warnings():  # (tested in test_mismatched_masks_warn_as_torch)
            warnings.simplefilter("ignore")
            out, weights = layer(query, key, value, **_masks(
                torch, forward_options, query.size(sequence_dim), key.size(sequence_dim),
                dtype_))
        _weighted_backward(torch, [t for t in (out, weights) if t is not None])
        inputs = {id(t): t for t in (query, key, value)}.values()  # each once
        return out, weights, [t.grad for t in inputs], gradients(layer)
    return seeded(case)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("options, forward_options, shapes", ATTENTIONS, ids=str)
def test_multihead_attention_computes_what_torch_computes(options, forward_options, shapes,
                                                           dtype):
    check(_attention_case(options, forward_options, shapes, dtype), **TOLERANCES[dtype])


def test_functional_multi_head_attention_forward_with_static_keys():
    def case(torch):
        query = torch.randn(L, N, E, requires_grad=True)
        weights = [torch.randn(shape, requires_grad=True)
                   for shape in ((3 * E, E), (3 * E,), (E, E), (E,))]
        static_k, static_v = (torch.randn(N * 2, S, E // 2, requires_grad=True)
                              for _ in range(2))
        out, attention = torch.nn.functional.multi_head_attention_forward(
            query, query, query, E, 2, weights[0], weights[1], None, None, False, 0.0,
            weights[2], weights[3], static_k=static_k, static_v=static_v)
        _weighted_backward(torch, [out, attention])
        return out, attention, query.grad, [w.grad for w in weights], static_k.grad
    check(seeded(case), **TOLERANCES["float32"])


ATTENTION_CONSTRUCTIONS = [
    "MultiheadAttention(8, 2)", "MultiheadAttention(6, 3, bias=False, batch_first=True)",
    "MultiheadAttention(8, 4, kdim=3, vdim=5, add_bias_kv=True)",
    "MultiheadAttention(4, 1, dropout=0.1, add_zero_attn=True, dtype=torch.float64)",
]


@pytest.mark.parametrize("construction", ATTENTION_CONSTRUCTIONS)
def test_attention_parameters_are_torchs_after_the_same_seed(construction):
    def case(torch):
        layer = eval(f"torch.nn.{construction}")
        return (list(layer.named_parameters()), list(layer.state_dict()), repr(layer),
                layer.head_dim, layer._qkv_same_embed_dim, torch.rand(2))
    check(seeded(case, 11), rtol=0, atol=0)


def test_mismatched_masks_warn_as_torch():
    def case(torch):
        layer = torch.nn.MultiheadAttention(E, 2)
        x = torch.randn(L, N, E)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out, _ = layer(x, x, x, key_padding_mask=torch.zeros(N, L, dtype=torch.bool),
                           attn_mask=torch.zeros(L, L))
        return out, [str(w.message) for w in caught]
    check(seeded(case), **TOLERANCES["float32"])


ATTENTION_MISUSES = {
    "embed_dim not divisible": "torch.nn.MultiheadAttention(10, 3)",
    "no heads": "torch.nn.MultiheadAttention(8, 0)",
    "query of rank 4": "mha(torch.randn(1, L, N, E), x, x)",
    "key of rank 2": "mha(x, x[0], x)",
    "unbatched value of rank 3": "mha(x[0], x[0], x)",
    "key_padding_mask of rank 1": "mha(x, x, x, key_padding_mask=torch.zeros(L).bool())",
    "unbatched key_padding_mask of rank 2": ("mha(x[:, 0], x[:, 0], x[:, 0], "
                                             "key_padding_mask=torch.zeros(1, L).bool())"),
    "attn_mask of rank 4": "mha(x, x, x, attn_mask=torch.zeros(1, 1, L, L))",
    "unbatched attn_mask of rank 3, wrong shape": ("mha(x[:, 0], x[:, 0], x[:, 0], "
                                                   "attn_mask=torch.zeros(3, L, L))"),
    "integer attn_mask": "mha(x, x, x, attn_mask=torch.zeros(L, L, dtype=torch.long))",
    "integer key_padding_mask": ("mha(x, x, x, key_padding_mask=torch.zeros(N, L, "
                                 "dtype=torch.int32))"),
    "2-d attn_mask of the wrong shape": "mha(x, x, x, attn_mask=torch.zeros(L, L + 1))",
    "3-d attn_mask of the wrong shape": "mha(x, x, x, attn_mask=torch.zeros(N, L, L))",
    "key_padding_mask of the wrong batch": ("mha(x, x, x, key_padding_mask=torch.zeros(N + 1, "
                                            "L).bool())"),
    "key_padding_mask of the wrong length": ("mha(x, x, x, key_padding_mask=torch.zeros(N, "
                                             "L + 1).bool())"),
    "is_causal without a mask": "mha(x, x, x, is_causal=True)",
    "wrong embedding size": "mha(torch.randn(L, N, E + 2), x, x)",
    "key and value shapes differ": "mha(x, x, torch.randn(L + 1, N, E))",
    "separate weights, key and value lengths differ": (
        "torch.nn.MultiheadAttention(E, 2, kdim=3, vdim=3)(x, torch.randn(L, N, 3), "
        "torch.randn(L + 1, N, 3))"),
    "separate weights, wrong key size": ("torch.nn.MultiheadAttention(E, 2, kdim=3)(x, x, x)"),
    "functional: embed_dim not divisible": (
        "F.multi_head_attention_forward(x, x, x, E, 3, mha.in_proj_weight, mha.in_proj_bias, "
        "None, None, False, 0.0, mha.out_proj.weight, mha.out_proj.bias)"),
    "functional: bias_k without bias_v": (
        "F.multi_head_attention_forward(x, x, x, E, 2, mha.in_proj_weight, mha.in_proj_bias, "
        "torch.zeros(1, 1, E), None, False, 0.0, mha.out_proj.weight, mha.out_proj.bias)"),
    "functional: static_k of the wrong size": (
        "F.multi_head_attention_forward(x, x, x, E, 2, mha.in_proj_weight, mha.in_proj_bias, "
        "None, None, False, 0.0, mha.out_proj.weight, mha.out_proj.bias, "
        "static_k=torch.zeros(N, L, E // 2))"),
    "functional: no in_proj_weight": (
        "F.multi_head_attention_forward(x, x, x, E, 2, None, mha.in_proj_bias, None, None, "
        "False, 0.0, mha.out_proj.weight, mha.out_proj.bias)"),
}


@pytest.mark.parametrize("misuse", list(ATTENTION_MISUSES))
def test_attention_misuse_raises_torchs_error(misuse):
    def case(torch):
        names = {"torch": torch, "F": torch.nn.functional, "L": L, "N": N, "E": E,
                 "mha": torch.nn.MultiheadAttention(E, 2), "x": torch.randn(L, N, E)}
        return eval(ATTENTION_MISUSES[misuse], names)
    assert_same_error(case)
