"""Attention as functions: scaled_dot_product_attention and multi_head_attention_forward,
with PyTorch's checks and error texts, composed of compat's differentiable operations (no
derivative is written here).

scaled_dot_product_attention computes what PyTorch's math kernel computes. Where PyTorch's
CPU build runs its fused kernel instead (4-d inputs of one head size, no dropout, ...), the
result is named after that kernel's node, as PyTorch's is; its float rounding differs from
the composition's in the last bits.
"""
import math
import warnings

import numpy as np

from .. import _dtypes, _ops
from .._factories import full, zeros
from .._record import engine, wrap
from .._tensor import make
from ._dropout import dropout
from ._linear import linear
from ._padding import pad

_FUSED_CPU_KERNEL = "ScaledDotProductFlashAttentionForCpuBackward0"


# ---- scaled dot-product attention -------------------------------------------------------------


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """softmax(query @ key^T * scale + bias) @ value, where bias is -inf where a boolean
    attn_mask is False (or above the diagonal with is_causal) and a float attn_mask
    itself; rows that attend to nothing give zeros. Dropout (drawn as PyTorch draws it) is
    applied to the attention weights whenever dropout_p > 0."""
    _check_inputs(query, key, value, attn_mask, dropout_p)
    fused = _runs_fused(query, key, value, attn_mask, dropout_p, enable_gqa)
    if is_causal and attn_mask is not None and not fused:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be "
                           "set when is_causal=True")
    target, source = query.size(-2), key.size(-2)
    bias = _attention_bias(attn_mask, query.dtype)
    if is_causal:  # (PyTorch's fused kernel applies a given mask too)
        causal = causal_bias(target, source, query.dtype)
        bias = causal if bias is None else bias + causal
    if enable_gqa:
        key, value = (_repeated_heads(t, query.size(-3)) for t in (key, value))
    if scale is None:
        scale = 1 / math.sqrt(query.size(-1))
    scores = query.matmul(key.transpose(-2, -1)) * scale
    if bias is not None:
        scores = scores + bias
    weights = _safe_softmax(scores)
    if dropout_p > 0:
        weights = dropout(weights, dropout_p)
    out = weights.matmul(value)
    return wrap(engine(out), _FUSED_CPU_KERNEL, (query, key, value)) if fused else out


def _check_inputs(query, key, value, attn_mask, dropout_p):
    """PyTorch's refusals of the operands, in its order."""
    dtypes = (query.dtype, key.dtype, value.dtype)
    if len(set(dtypes)) > 1:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {dtypes[0].cpp_name} key.dtype: {dtypes[1].cpp_name} "
                           f"and value.dtype: {dtypes[2].cpp_name} instead.")
    if attn_mask is not None and attn_mask.dtype not in (_dtypes.bool, query.dtype):
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query "
                           f"dtype, but got attn_mask.dtype: {attn_mask.dtype.cpp_name} and  "
                           f"query.dtype: {query.dtype.cpp_name} instead.")
    if min(query.dim(), key.dim(), value.dim()) < 2:
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, "
                           f"but got query.dim: {query.dim()} key.dim: {key.dim()} and "
                           f"value.dim: {value.dim()} instead.")
    if not 0 <= dropout_p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got "
                           f"{dropout_p}")


def _runs_fused(query, key, value, attn_mask, dropout_p, enable_gqa):
    """Whether PyTorch's CPU build gives these operands to its fused kernel rather than
    to its math composition."""
    operands = (query, key, value)
    if dropout_p > 0 or any(t.dim() != 4 for t in operands):
        return False
    if not query.dtype.is_floating_point or any(t.stride(-1) != 1 for t in operands):
        return False
    if len({t.size(-1) for t in operands}) > 1 or len({t.size(0) for t in operands}) > 1:
        return False
    heads = {t.size(1) for t in operands}
    if len(heads) > 1 and not (enable_gqa and key.size(1) == value.size(1)):
        return False
    if 0 in (query.size(-2), key.size(-2), query.size(-1)):
        return False
    return attn_mask is None or (attn_mask.dim() in (2, 4) and not attn_mask.requires_grad)


def _attention_bias(attn_mask, dtype):
    """What attn_mask adds to the scores: -inf where a boolean mask is False, a float mask
    as it is."""
    if attn_mask is None or attn_mask.dtype is not _dtypes.bool:
        return attn_mask
    return _blocking(attn_mask.logical_not(), dtype)


def _blocking(blocked, dtype):
    """A bias of -inf where the boolean `blocked` is True, 0 elsewhere."""
    return zeros(blocked.shape, dtype=dtype).masked_fill_(blocked, float("-inf"))


def causal_bias(target, source, dtype, device=None):
    """-inf above the diagonal of a (target, source) grid, aligned at the top left: what
    keeps each position from attending to those after it."""
    return full((target, source), float("-inf"), dtype=dtype, device=device).triu(1)


def _repeated_heads(t, heads):
    """Grouped-query attention: each of t's heads repeated for the query heads it serves."""
    if heads % t.size(-3):
        raise RuntimeError("Number of heads in key and value must divide the number of heads "
                           "in ")
    return t.repeat_interleave(heads // t.size(-3), -3)


def _safe_softmax(scores):
    """softmax over the last dimension, with zeros (and zero gradients) for the rows whose
    scores are all -inf rather than NaN."""
    empty_rows = make(np.all(scores._data == -np.inf, axis=-1, keepdims=True))
    if not empty_rows._data.any():
        return _ops.softmax(scores, -1)
    return _ops.softmax(scores.masked_fill(empty_rows, 0.0), -1).masked_fill(empty_rows, 0.0)


# ---- multi-head attention ---------------------------------------------------------------------


def canonical_mask(mask, mask_name, other_mask, other_name, dtype):
    """A key padding or attention mask as what it adds to the scores (-inf where a boolean
    mask is True), after PyTorch's checks; it warns, as PyTorch does, of a mask whose dtype
    differs from `other_mask`'s (given for the first of a pair of masks)."""
    if mask is None:
        return None
    if mask.dtype is not _dtypes.bool and not mask.dtype.is_floating_point:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if other_mask is not None and mask.dtype is not other_mask.dtype:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use "
                      f"same type for both instead.", UserWarning, stacklevel=2)
    return _blocking(mask, dtype) if mask.dtype is _dtypes.bool else mask


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True, is_causal=False):
    """nn.MultiheadAttention's computation on (L, N, E) or unbatched (L, E) inputs:
    query, key and value projected, split into num_heads heads, attended (the weights
    from PyTorch's own composition when need_weights, else scaled_dot_product_attention),
    joined and projected out. Returns (output, weights or None)."""
    batched = _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = (t.unsqueeze(1) for t in (query, key, value))
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    target_length, batch, embed_dim = query.shape
    key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask", attn_mask,
                                      "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to "
                           "create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # scaled_dot_product_attention makes the causal mask
    else:
        attn_mask = canonical_mask(attn_mask, "attn_mask", None, "", query.dtype)
        is_causal = is_causal and key_padding_mask is None
    head_dim = _head_dim(embed_dim, embed_dim_to_check, num_heads)
    _check_key_and_value(key, value, use_separate_proj_weight)
    if use_separate_proj_weight:
        q, k, v = _projected_separately(query, key, value, (q_proj_weight, k_proj_weight,
                                                            v_proj_weight), in_proj_bias)
    else:
        q, k, v = _projected(query, key, value, in_proj_weight, in_proj_bias)
    attn_mask = _batched_attn_mask(attn_mask, batch * num_heads, target_length, key.size(0))
    if _has_bias_kv(bias_k, bias_v, static_k, static_v):
        k, v = (_ops.cat([t, bias.expand(1, batch, -1)])
                for t, bias in ((k, bias_k), (v, bias_v)))
        attn_mask, key_padding_mask = _one_more_key(attn_mask, key_padding_mask)
    q, k, v = (t.reshape(t.size(0), batch * num_heads, head_dim).transpose(0, 1)
               for t in (q, k, v))
    k = _static(k, static_k, "static_k", batch * num_heads, head_dim)
    v = _static(v, static_v, "static_v", batch * num_heads, head_dim)
    if add_zero_attn:
        k, v = (_ops.cat([t, zeros((batch * num_heads, 1, head_dim), dtype=t.dtype)], 1)
                for t in (k, v))
        attn_mask, key_padding_mask = _one_more_key(attn_mask, key_padding_mask)
    source_length = k.size(1)
    if key_padding_mask is not None:
        _check_key_padding_mask(key_padding_mask, source_length, batch)
        padding = key_padding_mask.view(batch, 1, 1, source_length).expand(
            -1, num_heads, -1, -1).reshape(batch * num_heads, 1, source_length)
        attn_mask = padding if attn_mask is None else attn_mask + padding
    dropout_p = dropout_p if training else 0.0
    heads = (batch, num_heads, target_length, source_length)
    if need_weights:
        out, weights = _attended_with_weights(q, k, v, attn_mask, dropout_p)
        weights = weights.view(heads)
        if average_attn_weights:
            weights = weights.mean(dim=1)
    else:
        out, weights = _attended(q, k, v, attn_mask, dropout_p, is_causal, heads), None
    out = linear(out.reshape(target_length * batch, embed_dim), out_proj_weight,
                   out_proj_bias).view(target_length, batch, -1)
    if not batched:
        out = out.squeeze(1)
        weights = None if weights is None else weights.squeeze(0)
    return out, weights


def _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads):
    """PyTorch's checks of the operands' ranks; whether the inputs are batched."""
    if query.dim() not in (2, 3):
        raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received "
                             f"{query.dim()}-D query tensor")
    batched = query.dim() == 3
    what = "batched (3-D)" if batched else "unbatched (2-D)"
    if key.dim() != query.dim() or value.dim() != query.dim():
        raise AssertionError(f"For {what} `query`, expected `key` and `value` to be "
                             f"{query.dim()}-D but found {key.dim()}-D and {value.dim()}-D "
                             f"tensors respectively")
    padding_dims = query.dim() - 1
    if key_padding_mask is not None and key_padding_mask.dim() != padding_dims:
        raise AssertionError(f"For {what} `query`, expected `key_padding_mask` to be `None` or "
                             f"{padding_dims}-D but found {key_padding_mask.dim()}-D tensor "
                             f"instead")
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise AssertionError(f"For {what} `query`, expected `attn_mask` to be `None`, 2-D "
                                 f"or 3-D but found {attn_mask.dim()}-D tensor instead")
        expected = (num_heads, query.shape[0], key.shape[0])
        if not batched and attn_mask.dim() == 3 and attn_mask.shape != expected:
            raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                                 f"{attn_mask.shape}")
    return batched


def _head_dim(embed_dim, expected, num_heads):
    if embed_dim != expected:
        raise AssertionError(f"was expecting embedding dimension of {expected}, but got "
                             f"{embed_dim}")
    if embed_dim % num_heads:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    return embed_dim // num_heads


def _check_key_and_value(key, value, separate_weights):
    if separate_weights and key.shape[:2] != value.shape[:2]:
        raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match "
                             f"value's {value.shape[:2]}")
    if not separate_weights and key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")


def _projected(query, key, value, in_proj_weight, in_proj_bias):
    """query, key and value times their thirds of the packed in_proj_weight (plus
    in_proj_bias's)."""
    if in_proj_weight is None:
        raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
    biases = (None,) * 3 if in_proj_bias is None else _thirds(in_proj_bias)
    return tuple(linear(t, w, b) for t, w, b in zip((query, key, value),
                                                      _thirds(in_proj_weight), biases))


def _thirds(packed):
    """The query's, key's and value's parts of a packed weight or bias."""
    return packed.chunk(3)


def _projected_separately(query, key, value, weights, in_proj_bias):
    """query, key and value times their own weights (whose sizes PyTorch checks)."""
    for name, weight in zip(("q", "k", "v"), weights):
        if weight is None:
            raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight is "
                                 f"None")
    biases = (None,) * 3 if in_proj_bias is None else _thirds(in_proj_bias)
    embed_dim = query.size(-1)
    for name, t, weight, bias in zip(("query", "key", "value"), (query, key, value), weights,
                                     biases):
        if weight.shape != (embed_dim, t.size(-1)):
            raise AssertionError(f"expecting {name} weights shape of "
                                 f"{(embed_dim, t.size(-1))}, but got {weight.shape}")
        if bias is not None and bias.shape != (embed_dim,):
            raise AssertionError(f"expecting {name} bias shape of {(embed_dim,)}, but got "
                                 f"{bias.shape}")
    return tuple(linear(t, w, b) for t, w, b in zip((query, key, value), weights, biases))


def _batched_attn_mask(attn_mask, heads, target_length, source_length):
    """attn_mask as (1 or N * num_heads, L, S), after PyTorch's check of its shape."""
    if attn_mask is None:
        return None
    expected = (target_length, source_length) if attn_mask.dim() == 2 else (
        heads, target_length, source_length)
    if attn_mask.shape != expected:
        raise RuntimeError(f"The shape of the {attn_mask.dim()}D attn_mask is "
                           f"{attn_mask.shape}, but should be {expected}.")
    return attn_mask.unsqueeze(0) if attn_mask.dim() == 2 else attn_mask


def _has_bias_kv(bias_k, bias_v, static_k, static_v):
    """Whether a learnt key and value are appended (PyTorch's checks: both or neither,
    and not to static ones)."""
    if bias_k is not None and bias_v is not None:
        for what, static in (("key", static_k), ("value", static_v)):
            if static is not None:
                raise AssertionError(f"bias cannot be added to static {what}.")
        return True
    for name, bias, other in (("bias_k", bias_k, "bias_v"), ("bias_v", bias_v, "bias_k")):
        if bias is not None:
            raise AssertionError(f"{name} is set but {other} is None")
    return False


def _static(projected, static, name, heads, head_dim):
    """The keys (or values) by head: the projected ones, or the given static ones after
    PyTorch's checks of their size."""
    if static is None:
        return projected
    for dim, expected in ((0, heads), (2, head_dim)):
        if static.size(dim) != expected:
            raise AssertionError(f"expecting {name}.size({dim}) of {expected}, but got "
                                 f"{static.size(dim)}")
    return static


def _one_more_key(attn_mask, key_padding_mask):
    """The masks with a column of zeros for a key appended (bias_k or add_zero_attn's)."""
    return tuple(None if mask is None else pad(mask, (0, 1))
                 for mask in (attn_mask, key_padding_mask))


def _check_key_padding_mask(key_padding_mask, source_length, batch):
    for dim, expected in enumerate((batch, source_length)):
        if key_padding_mask.shape[dim] != expected:
            raise AssertionError(f"Expected key_padded_mask.shape[{dim}] to be {expected}, but "
                                 f"got {key_padding_mask.shape[dim]}")


def _attended_with_weights(q, k, v, attn_mask, dropout_p):
    """The heads' outputs joined as (L, N, E), and their attention weights (N * heads,
    L, S), as PyTorch composes them when the weights are asked for: the queries scaled
    before the product, a plain softmax (NaN for a query that attends to nothing)."""
    q = q * math.sqrt(1.0 / q.size(-1))
    keys = k.transpose(-2, -1)
    scores = q.bmm(keys) if attn_mask is None else attn_mask.baddbmm(q, keys)
    weights = _ops.softmax(scores, -1)
    if dropout_p > 0:
        weights = dropout(weights, dropout_p)
    return weights.bmm(v).transpose(0, 1), weights


def _attended(q, k, v, attn_mask, dropout_p, is_causal, heads):
    """The heads' outputs joined as (L, N, E), from scaled_dot_product_attention."""
    batch, num_heads, target_length, source_length = heads
    if attn_mask is not None:  # (1, L, S) for all the heads, or (N * heads, L or 1, S)
        attn_mask = (attn_mask.unsqueeze(0) if attn_mask.size(0) == 1 else
                     attn_mask.view(batch, num_heads, -1, source_length))
    q, k, v = (t.view(batch, num_heads, t.size(1), t.size(2)) for t in (q, k, v))
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    return out.permute(2, 0, 1, 3)
