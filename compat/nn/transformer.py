"""Attention and the Transformer: MultiheadAttention, TransformerEncoderLayer,
TransformerEncoder, TransformerDecoderLayer, TransformerDecoder and Transformer, with
PyTorch's parameters (names, shapes, draws), settings, reprs and errors, computing with
`functional` (multi_head_attention_forward, scaled_dot_product_attention).

They compute as PyTorch computes in training mode or with gradients: PyTorch's inference
"fast path" (native kernels, in eval mode without gradients) is not run; see
TransformerEncoder for what it changes that compat models.
"""
from .._factories import empty
from . import functional as F
from . import init
from ._attention import canonical_mask
from .layers import Linear, _floating
from .module import Module
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
