"""Attention as functions: scaled_dot_product_attention and multi_head_attention_forward,
with PyTorch's checks and error texts, composed of compat's differentiable operations (no
derivative is written here).

scaled_dot_product_attention computes what PyTorch's math kernel computes. Where PyTorch's
CPU build runs its fused kernel instead (4-d inputs of one head size, no dropout, ...), the
result is named after that kernel's node, as PyTorch's is; its float rounding differs from
the composition's in the last bits.
"""
import math

import numpy as np

from .. import _dtypes, _ops
from .._factories import full, zeros
from .._record import engine, wrap
from .._tensor import make
from . import functional as F  # (which imports this module: its names are used at calls)

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
        causal = _causal_bias(target, source, query.dtype)
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
        weights = F.dropout(weights, dropout_p)
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
    return zeros(attn_mask.shape, dtype=dtype).masked_fill_(attn_mask.logical_not(),
                                                            float("-inf"))


def _causal_bias(target, source, dtype):
    """-inf above the diagonal of a (target, source) grid, aligned at the top left."""
    return full((target, source), float("-inf"), dtype=dtype).triu(1)


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
