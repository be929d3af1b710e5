"""Attention and the Transformer: MultiheadAttention, TransformerEncoderLayer,
TransformerEncoder, TransformerDecoderLayer, TransformerDecoder and Transformer, with
PyTorch's parameters (names, shapes, draws), settings, reprs and errors, computing with
`functional` (multi_head_attention_forward, scaled_dot_product_attention).

They compute as PyTorch computes in training mode or with gradients: PyTorch's inference
"fast path" (native kernels, in eval mode without gradients) is not run; see
TransformerEncoder for what it changes that compat models.
"""
import copy
import warnings

from .._factories import empty
from .._grad_mode import is_grad_enabled
from . import functional as F
from . import init
from ._attention import canonical_mask, causal_bias
from .containers import ModuleList
from .layers import GELU, Dropout, Linear, ReLU, _floating
from .module import Module
from .normalization import LayerNorm
from .parameter import Parameter


class NonDynamicallyQuantizableLinear(Linear):
    """A Linear by another name (PyTorch's, for MultiheadAttention's out_proj)."""


class MultiheadAttention(Module):
    """Attention of num_heads heads of embed_dim / num_heads features each, with query,
    key and value projections (one packed in_proj_weight where key and value have
    embed_dim features, else q_proj_weight, k_proj_weight and v_proj_weight), and an
    output projection out_proj; add_bias_kv appends a learnt key and value (bias_k,
    bias_v), add_zero_attn a zero one."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None,
                 dtype=None):
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        super().__init__()
        dtype = _floating(dtype)
        self.embed_dim = embed_dim
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")

        def parameter(*shape):
            return Parameter(empty(shape, dtype=dtype, device=device))
        projections = ("q_proj_weight", "k_proj_weight", "v_proj_weight")
        if self._qkv_same_embed_dim:
            self.in_proj_weight = parameter(3 * embed_dim, embed_dim)
            for name in projections:
                self.register_parameter(name, None)
        else:
            for name, size in zip(projections, (embed_dim, self.kdim, self.vdim)):
                setattr(self, name, parameter(embed_dim, size))
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = parameter(3 * embed_dim)
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        device=device, dtype=dtype)
        if add_bias_kv:
            self.bias_k = parameter(1, 1, embed_dim)
            self.bias_v = parameter(1, 1, embed_dim)
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        """PyTorch's draws, in its order (after out_proj's own, at its construction)."""
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for weight in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        for bias in (self.bias_k, self.bias_v):
            if bias is not None:
                init.xavier_normal_(bias)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True,
                attn_mask=None, average_attn_weights=True, is_causal=False):
        """(output, the attention weights averaged over heads, or each head's, or None
        without need_weights); inputs (L, N, E), (N, L, E) with batch_first, or (L, E)."""
        key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask", attn_mask,
                                          "attn_mask", query.dtype)
        attn_mask = canonical_mask(attn_mask, "attn_mask", None, "", query.dtype)
        batch_first = self.batch_first and query.dim() == 3
        if batch_first:
            query, key, value = (t.transpose(1, 0) for t in (query, key, value))
        separate = not self._qkv_same_embed_dim
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            use_separate_proj_weight=separate, q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights, is_causal=is_causal)
        return (out.transpose(1, 0) if batch_first else out), weights


# ---- the Transformer -------------------------------------------------------------------------


def _square_subsequent_mask(size, device=None, dtype=None):
    """The causal mask of `size` positions (a float one: -inf above the diagonal)."""
    return causal_bias(size, size, dtype, device)


def _activation_function(activation):
    """The feed-forward block's activation: F.relu or F.gelu by name, or the callable
    given."""
    if not isinstance(activation, str):
        return activation
    if activation not in ("relu", "gelu"):
        raise RuntimeError(f"activation should be relu/gelu, not {activation}")
    return F.relu if activation == "relu" else F.gelu


def _relu_or_gelu(activation):
    """PyTorch's activation_relu_or_gelu: 1 for ReLU, 2 for GELU, 0 for another."""
    if activation is F.relu or isinstance(activation, ReLU):
        return 1
    return 2 if activation is F.gelu or isinstance(activation, GELU) else 0


def _is_causal(mask, is_causal, size):
    """PyTorch's _detect_is_causal_mask: is_causal if given, else whether `mask` is the
    causal mask of the sequence's length."""
    if is_causal is not None or mask is None:
        return is_causal is True
    causal = _square_subsequent_mask(size, dtype=mask.dtype)
    return mask.shape == causal.shape and bool((mask == causal).all())


def _sequence_length(input, batch_first):
    return input.size(1 if batch_first and input.dim() == 3 else 0)


class _Layer(Module):
    """What the encoder and decoder layers share: the feed-forward block (linear1,
    activation, dropout, linear2) and its settings."""

    def _feed_forward(self, x, dropout):
        return dropout(self.linear2(self.dropout(self.activation(self.linear1(x)))))

    def _attention_block(self, attention, dropout, x, memory, attn_mask, key_padding_mask,
                         is_causal):
        return dropout(attention(x, memory, memory, attn_mask=attn_mask,
                                 key_padding_mask=key_padding_mask, need_weights=False,
                                 is_causal=is_causal)[0])

    def _build(self, attentions, d_model, nhead, dim_feedforward, dropout, activation,
               layer_norm_eps, batch_first, norm_first, bias, device, dtype):
        """The sublayers, created (and drawn) in PyTorch's order: the attentions named in
        `attentions`, the feed-forward block, one norm and one dropout per block."""
        options = {"device": device, "dtype": dtype}
        for name in attentions:
            setattr(self, name, MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                                   batch_first=batch_first, **options))
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **options)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **options)
        self.norm_first = norm_first
        blocks = range(1, len(attentions) + 2)
        for block in blocks:
            setattr(self, f"norm{block}", LayerNorm(d_model, eps=layer_norm_eps, bias=bias,
                                                    **options))
        for block in blocks:
            setattr(self, f"dropout{block}", Dropout(dropout))
        self.activation = _activation_function(activation)


class TransformerEncoderLayer(_Layer):
    """Self-attention then a feed-forward block, each added to its input (the residual)
    and normalised: after the addition, or before the block with norm_first."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True,
                 device=None, dtype=None):
        super().__init__()
        self._build(("self_attn",), d_model, nhead, dim_feedforward, dropout, activation,
                    layer_norm_eps, batch_first, norm_first, bias, device, dtype)
        self.activation_relu_or_gelu = _relu_or_gelu(self.activation)

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        src_key_padding_mask = canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                              src_mask, "src_mask", src.dtype)
        src_mask = canonical_mask(src_mask, "src_mask", None, "", src.dtype)

        def attended(x):
            return self._attention_block(self.self_attn, self.dropout1, x, x, src_mask,
                                         src_key_padding_mask, is_causal)
        x = src
        if self.norm_first:
            x = x + attended(self.norm1(x))
            return x + self._feed_forward(self.norm2(x), self.dropout2)
        x = self.norm1(x + attended(x))
        return self.norm2(x + self._feed_forward(x, self.dropout2))


class TransformerDecoderLayer(_Layer):
    """Self-attention over the target, attention to the encoder's output (memory), then a
    feed-forward block; each added to its input and normalised (before the block with
    norm_first)."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True,
                 device=None, dtype=None):
        super().__init__()
        self._build(("self_attn", "multihead_attn"), d_model, nhead, dim_feedforward, dropout,
                    activation, layer_norm_eps, batch_first, norm_first, bias, device, dtype)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        def self_attended(x):
            return self._attention_block(self.self_attn, self.dropout1, x, x, tgt_mask,
                                         tgt_key_padding_mask, tgt_is_causal)

        def memory_attended(x):
            return self._attention_block(self.multihead_attn, self.dropout2, x, memory,
                                         memory_mask, memory_key_padding_mask,
                                         memory_is_causal)
        x = tgt
        if self.norm_first:
            x = x + self_attended(self.norm1(x))
            x = x + memory_attended(self.norm2(x))
            return x + self._feed_forward(self.norm3(x), self.dropout3)
        x = self.norm1(x + self_attended(x))
        x = self.norm2(x + memory_attended(x))
        return self.norm3(x + self._feed_forward(x, self.dropout3))


def _clones(layer, count):
    return ModuleList([copy.deepcopy(layer) for _ in range(count)])


class TransformerEncoder(Module):
    """num_layers copies of encoder_layer, then `norm` (if given).

    PyTorch's eval fast path (in eval mode, without gradients, batch_first, with a
    src_key_padding_mask whose padding ends each sequence, and no mask) runs the layers
    on nested tensors and pads the result with zeros: the padded positions of the output
    are zeros (before `norm`). compat gives them the same zeros; its other values are
    those of training mode, which differ from the fast path's in float rounding only."""

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True,
                 mask_check=True):
        super().__init__()
        self.layers = _clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why_not = _why_not_nested(encoder_layer)
        if enable_nested_tensor and why_not:
            warnings.warn(f"enable_nested_tensor is True, but self.use_nested_tensor is False "
                          f"because {why_not}", UserWarning, stacklevel=2)
            self.use_nested_tensor = False

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        src_key_padding_mask = canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                              mask, "mask", src.dtype)
        mask = canonical_mask(mask, "mask", None, "", src.dtype)
        first = self.layers[0]
        is_causal = _is_causal(mask, is_causal,
                               _sequence_length(src, first.self_attn.batch_first))
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, is_causal=is_causal,
                           src_key_padding_mask=src_key_padding_mask)
        if self._runs_nested(src, mask, src_key_padding_mask):
            output = output.masked_fill((src_key_padding_mask != 0).unsqueeze(-1), 0.0)
        return output if self.norm is None else self.norm(output)

    def _runs_nested(self, src, mask, padding):
        """Whether PyTorch runs the layers on nested tensors (see the class's note)."""
        first = self.layers[0]
        if not self.use_nested_tensor or first.training or src.dim() != 3:
            return False
        if padding is None or mask is not None:
            return False
        if self.mask_check and not _ends_each_sequence(padding != 0):
            return False
        tensors = (src, *first.parameters())
        return not (is_grad_enabled() and any(t.requires_grad for t in tensors))


def _ends_each_sequence(padding):
    """Whether each row of a boolean padding mask is False then True (left-aligned)."""
    flags = padding.numpy()
    return bool((flags[:, 1:] >= flags[:, :-1]).all())


def _why_not_nested(layer):
    """Why PyTorch's encoder cannot run this layer on nested tensors ('' if it can)."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    attention = layer.self_attn
    reasons = (
        (layer.norm_first, f"{name}.norm_first was True"),
        (not attention.batch_first, f"{name}.self_attn.batch_first was not True(use "
                                    f"batch_first for better inference performance)"),
        (not attention._qkv_same_embed_dim, f"{name}.self_attn._qkv_same_embed_dim was not "
                                            f"True"),
        (attention.in_proj_bias is None, f"{name}.self_attn was passed bias=False"),
        (not layer.activation_relu_or_gelu, f"{name}.activation_relu_or_gelu was not True"),
        (layer.norm1.eps != layer.norm2.eps, f"{name}.norm1.eps was not equal to "
                                             f"{name}.norm2.eps"),
        (attention.num_heads % 2 == 1, f"{name}.self_attn.num_heads is odd"),
    )
    return next((reason for failed, reason in reasons if failed), "")


class TransformerDecoder(Module):
    """num_layers copies of decoder_layer, then `norm` (if given)."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):
        tgt_is_causal = _is_causal(tgt_mask, tgt_is_causal,
                                   _sequence_length(tgt, self.layers[0].self_attn.batch_first))
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask,
                           memory_key_padding_mask=memory_key_padding_mask,
                           tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        return output if self.norm is None else self.norm(output)


class Transformer(Module):
    """An encoder (num_encoder_layers layers and a LayerNorm) and a decoder
    (num_decoder_layers layers and a LayerNorm), or the custom ones given; the weights of
    more than one dimension are redrawn with xavier_uniform_ as PyTorch redraws them."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation=F.relu, custom_encoder=None,
                 custom_decoder=None, layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 bias=True, device=None, dtype=None):
        super().__init__()
        settings = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                    batch_first, norm_first, bias, device, dtype)

        def norm():
            return LayerNorm(d_model, eps=layer_norm_eps, bias=bias, device=device,
                             dtype=dtype)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(TransformerEncoderLayer(*settings),
                                              num_encoder_layers, norm())
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(TransformerDecoderLayer(*settings),
                                              num_decoder_layers, norm())
        for parameter in self.parameters():
            if parameter.dim() > 1:
                init.xavier_uniform_(parameter)
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                src_key_padding_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal=False):
        batch_dim = 0 if self.batch_first else 1
        if src.dim() == 3 and src.size(batch_dim) != tgt.size(batch_dim):
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

    generate_square_subsequent_mask = staticmethod(_square_subsequent_mask)
