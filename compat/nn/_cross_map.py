"""CrossMapLRN2d's computation: local response normalisation across channels as PyTorch's
legacy autograd Function computes it, as a compat autograd Function (its node is
CrossMapLRN2dBackward, as PyTorch's is).

The legacy forward keeps a running sum of squares over the channels, adding the channel
entering the window and subtracting the one leaving it, but subtracts the first time one
channel late (the window of channel (size + 1) / 2 still holds channel 0); its backward is
written for the symmetric window instead, not derived from the forward. Both are
reproduced here, in PyTorch's order of operations, so values and gradients are PyTorch's.
"""
import numpy as np

from .._tensor import make
from ..autograd.function import Function


class CrossMapLRN2d(Function):
    @staticmethod
    def forward(ctx, input, size, alpha=1e-4, beta=0.75, k=1):
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D "
                             f"instead.")
        x = input._data
        dtype = x.dtype.type
        squares = x * x
        channels = x.shape[1]
        ahead = int((size - 1) / 2 + 1)  # the channels from c on that c's sum holds
        sums = np.empty_like(x)
        sums[:, 0] = 0
        for c in range(min(ahead, channels)):
            sums[:, 0] += squares[:, c]
        for c in range(1, channels):
            sums[:, c] = sums[:, c - 1]
            if c < channels - ahead + 1:
                sums[:, c] += squares[:, c + ahead - 1]
            if c > ahead:
                sums[:, c] -= squares[:, c - ahead]
        scale = sums * dtype(alpha / size) + dtype(k)
        output = np.power(scale, dtype(-beta)) * x
        ctx.scale, ctx.size, ctx.alpha, ctx.beta = scale, size, alpha, beta
        out = make(output)
        ctx.save_for_backward(input, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        input, output = ctx.saved_tensors
        x, g, scale, size = input._data, grad_output._data, ctx.scale, ctx.size
        dtype = x.dtype.type
        batch, channels = x.shape[:2]
        grad = np.power(scale, dtype(-ctx.beta)) * g
        # Each channel's ratio g * output / scale, placed `offset` rows into a zero array
        # of channels + size - 1 rows; channel c's accumulated ratio is the sum of rows c to
        # c + size - 1.
        offset = int(size - (size - 1) / 2)
        ratios = np.zeros((batch, channels + size - 1) + x.shape[2:], x.dtype)
        ratios[:, offset:offset + channels] = g * output._data / scale
        accumulated = ratios[:, :size - 1].sum(1)
        factor = dtype(-2 * ctx.alpha * ctx.beta / size)
        for c in range(channels):
            accumulated += ratios[:, c + size - 1]
            grad[:, c] += factor * x[:, c] * accumulated
            accumulated -= ratios[:, c]
        return make(grad), None, None, None, None
