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

from compat_harness import assert_same_error, check, check_printed, gradients, seeded

# Warnings both libraries give, compared where they are the subject.
pytestmark = [pytest.mark.filterwarnings("ignore:Support for mismatched"),
              pytest.mark.filterwarnings("ignore:enable_nested_tensor is True"),
              pytest.mark.filterwarnings("ignore:The PyTorch API of nested tensors")]

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


# ---- the Transformer layers -----------------------------------------------------------------

D_MODEL, HEADS, FEEDFORWARD = 8, 2, 16


def _padding(torch, length):
    """A key padding mask for a batch of 2: the first sequence's last two positions."""
    return torch.arange(length) >= torch.tensor([[length - 2], [length]])


def _sequence(torch, length, batch_first, dtype):
    shape = (2, length, D_MODEL) if batch_first else (length, 2, D_MODEL)
    return torch.randn(shape, dtype=dtype, requires_grad=True)


# (layer options, forward options): masks named in the forward options are drawn.
ENCODERS = [
    ({}, {}),
    ({"norm_first": True}, {"mask": "causal"}),
    ({"activation": "gelu"}, {"mask": "causal", "is_causal": True}),
    ({"batch_first": True}, {"src_key_padding_mask": "padding"}),
    ({"batch_first": True, "norm_first": True, "dropout": 0.0},
     {"mask": "causal", "src_key_padding_mask": "padding"}),
    ({"bias": False, "layer_norm_eps": 1e-3}, {"mask": "float"}),
    ({"activation": "callable"}, {"src_key_padding_mask": "float padding"}),
    ({"activation": "module", "batch_first": True}, {}),
]

ACTIVATIONS = {"callable": lambda torch: (lambda x: x.tanh()),
               "module": lambda torch: torch.nn.GELU(approximate="tanh")}


def _layer_options(torch, options, dtype):
    options = dict(options, dim_feedforward=FEEDFORWARD, dtype=dtype)
    if options.get("activation") in ACTIVATIONS:
        options["activation"] = ACTIVATIONS[options["activation"]](torch)
    return options


def _drawn_masks(torch, options, length, dtype):
    masks = {"causal": lambda: torch.nn.Transformer.generate_square_subsequent_mask(
        length, dtype=dtype),
             "float": lambda: torch.randn(length, length, dtype=dtype),
             "padding": lambda: _padding(torch, length),
             "float padding": lambda: _padding(torch, length).to(dtype) * -1e9}
    return {name: masks[value]() if isinstance(value, str) else value
            for name, value in options.items()}


def _encoder_case(options, forward_options, dtype):
    def case(torch):
        dtype_ = getattr(torch, dtype)
        with warnings.catch_warnings():  # (tested in test_the_nested_tensor_warning)
            warnings.simplefilter("ignore")
            layer = torch.nn.TransformerEncoderLayer(D_MODEL, HEADS,
                                                     **_layer_options(torch, options, dtype_))
            encoder = torch.nn.TransformerEncoder(layer, 2, torch.nn.LayerNorm(
                D_MODEL, dtype=dtype_))
        x = _sequence(torch, 5, options.get("batch_first", False), dtype_)
        out = encoder(x, **_drawn_masks(torch, forward_options, 5, dtype_))
        one_layer = layer(x, **{("src_" + name if name == "mask" else name): mask for name, mask
                                in _drawn_masks(torch, forward_options, 5, dtype_).items()})
        _weighted_backward(torch, [out, one_layer])
        return out, one_layer, x.grad, gradients(encoder), gradients(layer)
    return seeded(case)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("options, forward_options", ENCODERS, ids=str)
def test_transformer_encoder_computes_what_torch_computes(options, forward_options, dtype):
    check(_encoder_case(options, forward_options, dtype), **TOLERANCES[dtype])


DECODERS = [
    ({}, {}),
    ({"norm_first": True}, {"tgt_mask": "causal", "memory_key_padding_mask": "padding"}),
    ({"batch_first": True, "activation": "gelu"},
     {"tgt_mask": "causal", "tgt_is_causal": True, "tgt_key_padding_mask": "padding"}),
    ({"bias": False, "dropout": 0.0}, {"memory_mask": "float"}),
]


def _decoder_case(options, forward_options, dtype):
    def case(torch):
        dtype_ = getattr(torch, dtype)
        layer = torch.nn.TransformerDecoderLayer(D_MODEL, HEADS,
                                                 **_layer_options(torch, options, dtype_))
        decoder = torch.nn.TransformerDecoder(layer, 2)
        batch_first = options.get("batch_first", False)
        tgt, memory = (_sequence(torch, 5, batch_first, dtype_) for _ in range(2))
        masks = _drawn_masks(torch, forward_options, 5, dtype_)
        out = decoder(tgt, memory, **masks)
        one_layer = layer(tgt, memory, **masks)
        _weighted_backward(torch, [out, one_layer])
        return out, one_layer, tgt.grad, memory.grad, gradients(decoder), gradients(layer)
    return seeded(case)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("options, forward_options", DECODERS, ids=str)
def test_transformer_decoder_computes_what_torch_computes(options, forward_options, dtype):
    check(_decoder_case(options, forward_options, dtype), **TOLERANCES[dtype])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("options", [{}, {"batch_first": True, "norm_first": True},
                                     {"activation": "gelu", "dropout": 0.2}], ids=str)
def test_transformer_computes_what_torch_computes(options, dtype):
    def case(torch):
        dtype_ = getattr(torch, dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = torch.nn.Transformer(D_MODEL, HEADS, 2, 2, FEEDFORWARD, dtype=dtype_,
                                         **options)
        batch_first = options.get("batch_first", False)
        src, tgt = _sequence(torch, 5, batch_first, dtype_), _sequence(torch, 4, batch_first,
                                                                         dtype_)
        out = model(src, tgt, tgt_mask=model.generate_square_subsequent_mask(4, dtype=dtype_),
                    src_key_padding_mask=_padding(torch, 5),
                    memory_key_padding_mask=_padding(torch, 5))
        _weighted_backward(torch, [out])
        return out, src.grad, tgt.grad, gradients(model)
    check(seeded(case), **TOLERANCES[dtype])


def test_unbatched_transformer():
    def case(torch):
        model = torch.nn.Transformer(D_MODEL, HEADS, 1, 1, FEEDFORWARD, dropout=0.0)
        src, tgt = torch.randn(5, D_MODEL, requires_grad=True), torch.randn(3, D_MODEL)
        out = model(src, tgt, tgt_is_causal=True,
                    tgt_mask=model.generate_square_subsequent_mask(3))
        _weighted_backward(torch, [out])
        return out, src.grad, gradients(model)
    check(seeded(case), **TOLERANCES["float32"])


TRANSFORMER_CONSTRUCTIONS = [
    "TransformerEncoderLayer(8, 2, dim_feedforward=16)",
    "TransformerEncoderLayer(8, 2, 16, 0.2, 'gelu', 1e-6, True, True, False)",
    "TransformerEncoderLayer(8, 2, 16, activation=torch.nn.GELU())",
    "TransformerDecoderLayer(8, 4, 16, batch_first=True, norm_first=True)",
    "TransformerEncoder(torch.nn.TransformerEncoderLayer(8, 2, 16), 2, torch.nn.LayerNorm(8))",
    "TransformerDecoder(torch.nn.TransformerDecoderLayer(8, 2, 16, dtype=torch.float64), 3)",
    "Transformer(8, 2, 2, 1, 16)",
    "Transformer(8, 2, 1, 2, 16, batch_first=True, bias=False)",
]


@pytest.mark.parametrize("construction", TRANSFORMER_CONSTRUCTIONS)
def test_transformer_parameters_are_torchs_after_the_same_seed(construction):
    def case(torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            layer = eval(f"torch.nn.{construction}")
        return (list(layer.named_parameters()), list(layer.state_dict()), repr(layer),
                torch.rand(2))
    check(seeded(case, 11), rtol=0, atol=0)


def test_transformer_settings_and_masks():
    def case(torch):
        layer = torch.nn.TransformerEncoderLayer(8, 2, 16, activation="gelu", batch_first=True)
        encoder = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        decoder_layer = torch.nn.TransformerDecoderLayer(8, 2, 16)
        model = torch.nn.Transformer(8, 2, 1, 1, 16)
        return (layer.activation_relu_or_gelu, layer.norm_first, encoder.num_layers,
                encoder.use_nested_tensor, encoder.enable_nested_tensor, encoder.mask_check,
                decoder_layer.norm_first, model.d_model, model.nhead, model.batch_first,
                torch.nn.Transformer.generate_square_subsequent_mask(4),
                torch.nn.Transformer.generate_square_subsequent_mask(3, dtype=torch.float64))
    check(seeded(case))


def test_transformer_reprs_print_as_torchs():
    def case(torch):
        print(torch.nn.MultiheadAttention(8, 2, kdim=4, vdim=4))
        print(torch.nn.TransformerEncoderLayer(8, 2, 16, activation=torch.nn.ReLU()))
        print(torch.nn.Transformer(8, 2, 1, 1, 16))
    check_printed(case)


@pytest.mark.parametrize("construction", [
    "TransformerEncoderLayer(8, 2, 16)", "TransformerEncoderLayer(8, 2, 16, norm_first=True)",
    "TransformerEncoderLayer(8, 3, 15, batch_first=True)",
    "TransformerEncoderLayer(8, 2, 16, activation=lambda x: x, batch_first=True)",
    "TransformerEncoderLayer(8, 2, 16, bias=False, batch_first=True)",
    "TransformerEncoderLayer(8, 2, 16, batch_first=True)",
    "TransformerDecoderLayer(8, 2, 16)"])
def test_the_nested_tensor_warning(construction):
    """The warning PyTorch's encoder gives when its eval fast path cannot use nested
    tensors (the tutorials show it)."""
    def case(torch):
        layer = eval(f"torch.nn.{construction}")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            encoder = torch.nn.TransformerEncoder(layer, 1)
        return encoder.use_nested_tensor, [str(w.message) for w in caught]
    check(seeded(case))


TRANSFORMER_MISUSES = {
    "unknown activation": "torch.nn.TransformerEncoderLayer(8, 2, activation='tanh')",
    "heads do not divide d_model": "torch.nn.TransformerDecoderLayer(8, 3)",
    "batch sizes differ": "model(torch.randn(5, 2, 8), torch.randn(4, 3, 8))",
    "batch sizes differ, batch_first": ("torch.nn.Transformer(8, 2, 1, 1, 16, batch_first=True)("
                                        "torch.randn(2, 5, 8), torch.randn(3, 4, 8))"),
    "wrong feature number": "model(torch.randn(5, 2, 6), torch.randn(4, 2, 8))",
    "wrong tgt_mask shape": "model(torch.randn(5, 2, 8), torch.randn(4, 2, 8), "
                            "tgt_mask=torch.zeros(5, 5))",
    "integer padding mask": ("model.encoder(torch.randn(5, 2, 8), src_key_padding_mask="
                             "torch.zeros(2, 5, dtype=torch.long))"),
}


@pytest.mark.parametrize("misuse", list(TRANSFORMER_MISUSES))
def test_transformer_misuse_raises_torchs_error(misuse):
    def case(torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = torch.nn.Transformer(8, 2, 1, 1, 16)
        return eval(TRANSFORMER_MISUSES[misuse], {"torch": torch, "model": model})
    assert_same_error(case)


# ---- PyTorch's eval fast path -------------------------------------------------------------


@pytest.mark.parametrize("with_padding", [False, True])
def test_eval_without_grad_gives_the_fast_paths_results(with_padding):
    """In eval mode without gradients PyTorch runs its native kernels: the same values up
    to float rounding, and with a key padding mask that ends the sequences, zeros at the
    padded positions before the final norm (its nested tensors), which compat gives too."""
    def case(torch):
        layer = torch.nn.TransformerEncoderLayer(D_MODEL, HEADS, FEEDFORWARD, batch_first=True)
        encoder = torch.nn.TransformerEncoder(layer, 2).eval()
        with_norm = torch.nn.TransformerEncoder(layer, 2, torch.nn.LayerNorm(D_MODEL)).eval()
        attention = torch.nn.MultiheadAttention(D_MODEL, HEADS, batch_first=True).eval()
        x = torch.randn(2, 5, D_MODEL)
        padding = _padding(torch, 5) if with_padding else None
        with torch.no_grad():
            return (encoder(x, src_key_padding_mask=padding),
                    with_norm(x, src_key_padding_mask=padding),
                    layer.eval()(x, src_key_padding_mask=padding),
                    attention(x, x, x, key_padding_mask=padding))
    check(seeded(case), **TOLERANCES["float32"])


def test_padding_that_does_not_end_the_sequences_is_not_zeroed():
    def case(torch):
        layer = torch.nn.TransformerEncoderLayer(D_MODEL, HEADS, FEEDFORWARD, batch_first=True)
        encoder = torch.nn.TransformerEncoder(layer, 1).eval()
        padding = torch.tensor([[True, False, False, False], [False] * 4])
        with torch.no_grad():
            return encoder(torch.randn(2, 4, D_MODEL), src_key_padding_mask=padding)
    check(seeded(case), **TOLERANCES["float32"])


# ---- a language model ------------------------------------------------------------------------


def _language_model(torch):
    """The model of "Language Modeling with nn.Transformer and torchtext" (an Embedding
    scaled by sqrt(d_model), sinusoidal positions, a TransformerEncoder with the causal
    mask, a Linear decoder), on random tokens, trained with Adam for a few steps."""
    import math
    nn = torch.nn
    tokens, d_model, length, batch = 20, 8, 6, 3

    class PositionalEncoding(nn.Module):
        def __init__(self, d_model, dropout=0.1, max_len=50):
            super().__init__()
            self.dropout = nn.Dropout(p=dropout)
            position = torch.arange(max_len).unsqueeze(1)
            div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
            pe = torch.zeros(max_len, 1, d_model)
            pe[:, 0, 0::2] = torch.sin(position * div_term)
            pe[:, 0, 1::2] = torch.cos(position * div_term)
            self.register_buffer("pe", pe)

        def forward(self, x):
            return self.dropout(x + self.pe[:x.size(0)])

    class TransformerModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.pos_encoder = PositionalEncoding(d_model, 0.1)
            layers = nn.TransformerEncoderLayer(d_model, 2, 16, 0.1)
            self.transformer_encoder = nn.TransformerEncoder(layers, 2)
            self.embedding = nn.Embedding(tokens, d_model)
            self.linear = nn.Linear(d_model, tokens)
            self.embedding.weight.data.uniform_(-0.1, 0.1)
            self.linear.bias.data.zero_()
            self.linear.weight.data.uniform_(-0.1, 0.1)

        def forward(self, src, src_mask):
            src = self.pos_encoder(self.embedding(src) * math.sqrt(d_model))
            return self.linear(self.transformer_encoder(src, src_mask))

    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = TransformerModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    criterion = nn.CrossEntropyLoss()
    data = torch.randint(0, tokens, (length + 1, batch))
    mask = nn.Transformer.generate_square_subsequent_mask(length)
    losses = []
    for _ in range(4):
        output = model(data[:-1], mask)
        loss = criterion(output.view(-1, tokens), data[1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        losses.append(loss)
    model.eval()
    with torch.no_grad():
        evaluated = model(data[:-1], mask)
    # The key part of in_proj_bias shifts all of a query's scores alike, which softmax
    # ignores: its gradient is zero but for rounding noise, which Adam's normalisation
    # turns into steps of the full learning rate (in both libraries, differently).
    parameters = [(name, torch.cat([p[:d_model], p[2 * d_model:]])
                   if name.endswith("in_proj_bias") else p)
                  for name, p in model.named_parameters()]
    return losses, parameters, evaluated


def test_the_language_model_tutorial_trains_as_torchs():
    check(_language_model, rtol=1e-4, atol=1e-5)
