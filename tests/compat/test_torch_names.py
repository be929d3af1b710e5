"""The torch-name table (compat._torch_names) against PyTorch 2.13: every row's function,
method and in-place form, compared in value, dtype, shape, grad_fn name and gradient; the
errors PyTorch raises by type. Every row must appear in CASES (a new row without a case
fails `test_every_row_has_a_case`)."""
import pathlib
import re

import numpy as np
import pytest

import compat
import torch as real_torch
from compat import _torch_names
from compat_harness import check, graph, tensors_in

# name -> expressions in the inputs of `_inputs`; each is run under compat and torch.
CASES = {
    "tan": ["a.tan()", "torch.tan(n)"],
    "asin": ["p.asin()"],
    "acos": ["torch.acos(p)", "p.acos()"],
    "atan": ["a.atan()"],
    "sinh": ["a.sinh()"],
    "cosh": ["torch.cosh(a)", "a.cosh()"],
    "asinh": ["a.asinh()"],
    "acosh": ["(a + 3).acosh()", "m.acosh()"],
    "atanh": ["p.atanh()"],
    "arcsin": ["torch.arcsin(p)", "p.arcsin()"],
    "arccos": ["p.arccos()"],
    "arctan": ["torch.arctan(a)", "a.arctan()"],
    "arcsinh": ["a.arcsinh()"],
    "arccosh": ["torch.arccosh(a + 3)", "m.arccosh()"],
    "arctanh": ["p.arctanh()"],
    "atan2": ["torch.atan2(a, p)", "a.atan2(n)"],
    "arctan2": ["torch.arctan2(p, a)", "p.arctan2(a)"],
    "hypot": ["torch.hypot(a, p)", "a.hypot(p)"],
    "exp2": ["a.exp2()", "torch.exp2(n)"],
    "expm1": ["a.expm1()"],
    "log2": ["p.log2()"],
    "log10": ["torch.log10(p)", "p.log10()"],
    "log1p": ["a.log1p()"],
    "rsqrt": ["p.rsqrt()"],
    "logaddexp": ["torch.logaddexp(a, p)"],
    "logaddexp2": ["a.logaddexp2(p)"],
    "erf": ["a.erf()", "torch.erf(n)"],
    "erfc": ["torch.erfc(a)", "a.erfc()"],
    "erfinv": ["p.erfinv()"],
    "lgamma": ["p.lgamma()"],
    "digamma": ["torch.digamma(p)", "p.digamma()"],
    "i0": ["a.i0()"],
    "sinc": ["a.sinc()"],
    "logit": ["p.logit()", "torch.logit(p, eps=0.25)"],
    "xlogy": ["torch.xlogy(a, p)", "a.xlogy(p)"],
    "deg2rad": ["a.deg2rad()"],
    "rad2deg": ["torch.rad2deg(a)", "a.rad2deg()"],
    "copysign": ["torch.copysign(a, n)", "a.copysign(p)"],
    "lerp": ["torch.lerp(a, p, 0.3)", "a.lerp(p, p)"],
    "float_power": ["a.float_power(2)", "m.float_power(p)"],
    "sign": ["a.sign()", "torch.sign(n)"],
    "sgn": ["a.sgn()"],
    "floor": ["a.floor()", "n.floor()"],
    "ceil": ["torch.ceil(a)", "a.ceil()"],
    "round": ["a.round()", "torch.round(a * 10, decimals=-1)"],
    "trunc": ["a.trunc()"],
    "fix": ["torch.fix(a)", "a.fix()"],
    "frac": ["a.frac()"],
    "fmod": ["torch.fmod(a, 0.4)", "n.fmod(4)"],
    "fmax": ["torch.fmax(a, p)"],
    "fmin": ["a.fmin(p)"],
    "nan_to_num": ["(a.log()).nan_to_num(nan=-1.0)", "a.nan_to_num(posinf=1.0)"],
    "gcd": ["torch.gcd(n, torch.tensor([4, 6, 9]))", "n.gcd(n * 2)"],
    "lcm": ["n.lcm(torch.tensor([4, 6, 9]))"],
    "ldexp": ["torch.ldexp(a, n.abs())", "a.ldexp(torch.tensor([1, 2, 3]))"],
    "heaviside": ["torch.heaviside(a.detach(), p.detach())", "n.heaviside(n)"],
    "nextafter": ["torch.nextafter(a, p)", "a.nextafter(torch.zeros(3))",
                  "torch.nextafter(a, a.detach() * 0 + float('inf'))"],
    "frexp": ["torch.frexp(a)", "(a * 1e4).frexp()", "torch.frexp(a / 0)"],
    "addcmul": ["torch.addcmul(a, p, a, value=0.5)", "a.addcmul(p, p)"],
    "addcdiv": ["a.addcdiv(a, p, value=2)"],
    "special.erf": ["torch.special.erf(a)"],
    "special.erfc": ["torch.special.erfc(a)"],
    "special.erfinv": ["torch.special.erfinv(p)"],
    "special.expit": ["torch.special.expit(a)"],
    "special.logit": ["torch.special.logit(p)"],
    "special.xlogy": ["torch.special.xlogy(p, p)"],
    "special.xlog1py": ["torch.special.xlog1py(a, p)"],
    "special.entr": ["torch.special.entr(p)"],
    "special.ndtr": ["torch.special.ndtr(a)"],
    "special.ndtri": ["torch.special.ndtri(p)"],
    "special.log_ndtr": ["torch.special.log_ndtr(a)"],
    "special.gammaln": ["torch.special.gammaln(p)"],
    "special.digamma": ["torch.special.digamma(p)"],
    "special.psi": ["torch.special.psi(p)"],
    "special.multigammaln": ["torch.special.multigammaln(m, 2)"],
    "igamma": ["n.igamma(p)", "p.igamma(t)", "torch.igamma(p.detach() * 3, a.abs())"],
    "igammac": ["n.igammac(p)", "t.igammac(p)", "torch.igammac(p.detach() + 0.5, m[:2])"],
    "special.gammainc": ["torch.special.gammainc(p.detach() * 3, a.abs())"],
    "special.gammaincc": ["torch.special.gammaincc(t.detach() + 1, p)"],
    "special.zeta": ["torch.special.zeta(torch.tensor([2.0, 3.5, 4.0]), p + 1)"],
    "special.bessel_j0": ["torch.special.bessel_j0(a)", "torch.special.bessel_j0(m).grad_fn"],
    "mvlgamma": ["torch.mvlgamma(p + 2, 3)", "m.mvlgamma(1)", "torch.mvlgamma(m, 0)"],
    "special.polygamma": ["torch.special.polygamma(1, p)"],
    "polygamma": ["torch.polygamma(2, p)"],
    "special.i0": ["torch.special.i0(a)"],
    "special.i0e": ["torch.special.i0e(a)"],
    "special.i1": ["torch.special.i1(a)"],
    "special.i1e": ["torch.special.i1e(a)"],
    "special.sinc": ["torch.special.sinc(a)"],
    "special.expm1": ["torch.special.expm1(a)"],
    "special.exp2": ["torch.special.exp2(a)"],
    "special.log1p": ["torch.special.log1p(p)"],
    "special.round": ["torch.special.round(a)"],
    "special.logsumexp": ["torch.special.logsumexp(a, 1)"],
    # without derivatives
    "isclose": ["torch.isclose(a, a + 1e-9)", "a.isclose(p)"],
    "isfinite": ["(a.log()).isfinite()"],
    "isinf": ["torch.isinf(a / 0)"],
    "isposinf": ["(a / 0).isposinf()"],
    "isneginf": ["torch.isneginf(a / 0)"],
    "isreal": ["a.isreal()"],
    "signbit": ["a.signbit()"],
    "logical_and": ["torch.logical_and(a > 0, p > 0.3)", "n.logical_and(a)", "a.logical_and(p)"],
    "logical_or": ["(a > 0).logical_or(n)", "n.logical_or(n * 0)"],
    "logical_xor": ["torch.logical_xor(a, n)", "a.logical_xor(n)"],
    "greater": ["torch.greater(a, p)"],
    "less": ["torch.less(a, 0)"],
    "greater_equal": ["torch.greater_equal(n, 1)"],
    "less_equal": ["torch.less_equal(a, p)"],
    "not_equal": ["torch.not_equal(n, 0)"],
    "isin": ["torch.isin(n, torch.tensor([3, 5]))"],
    "count_nonzero": ["n.count_nonzero()", "torch.count_nonzero(n, 1)"],
    "nonzero": ["n.nonzero()", "torch.nonzero(n, as_tuple=True)", "n[0, 0].nonzero()",
                "n[1, 0].nonzero()"],
    "nonzero_static": ["n.nonzero_static(size=6)", "torch.nonzero_static(n, size=2)",
                       "a.nonzero_static(size=8, fill_value=-7)", "n[1, 0].nonzero_static(size=2)"],
    "argwhere": ["a.argwhere()"],
    "argsort": ["a.argsort()", "torch.argsort(a, 0, descending=True)"],
    "searchsorted": ["torch.searchsorted(torch.tensor([1., 2., 3.]), a)"],
    "bucketize": ["torch.bucketize(a, torch.tensor([0., 1.]))"],
    "unique": ["torch.unique(torch.tensor([3, 1, 3, 2]))",
               "torch.tensor([3, 1, 3]).unique(return_inverse=True, return_counts=True)"],
    "unique_consecutive": ["torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1]))",
                           "(n > 0).unique_consecutive(return_inverse=True, return_counts=True)",
                           "torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 3]]), "
                           "return_inverse=True, return_counts=True, dim=0)",
                           "torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 3]]), "
                           "return_inverse=True)"],
    "bincount": ["torch.bincount(torch.tensor([0, 2, 2, 5]))"],
    "histc": ["torch.histc(a, bins=4, min=-2, max=2)"],
    "histogram": ["torch.histogram(a.detach(), 3)",
                  "v.detach().histogram(torch.tensor([0., 2.5, 6.]))",
                  "torch.histogram(a.detach(), 2, range=(0.0, 4.0), density=True)",
                  "torch.histogram(p.detach(), 4, weight=p.detach() * 2)"],
    # reductions
    "logsumexp": ["a.logsumexp(1)", "torch.logsumexp(a, (0, 1), keepdim=True)"],
    "nansum": ["(a.log()).nansum()", "a.nansum(0)"],
    "nanmean": ["torch.nanmean(a.log(), 1)"],
    "median": ["a.median()", "a.median(1)", "torch.median(a, 0, keepdim=True)"],
    "nanmedian": ["a.log().nanmedian()", "a.log().nanmedian(1)", "v.nanmedian(0, keepdim=True)",
                  "torch.nanmedian(a.log(), 0, True)", "torch.nanmedian(b, -1)",
                  "torch.nanmedian(n, 1)"],
    "mode": ["t.mode()", "torch.mode(t, 0)", "t.mode(1, keepdim=True)", "torch.mode(n, 0)",
             "torch.mode(torch.tensor([[1., 3., 3., 1.], [2., 2., 5., 5.]]))",
             "torch.tensor([[1, 2, 2], [9, 9, 0]], dtype=torch.int32).mode(1)",
             "torch.mode(torch.tensor([1., float('nan'), float('nan'), 2.]))",
             "torch.tensor([True, False, False]).mode()"],
    "cumprod": ["a.cumprod(1)", "torch.cumprod(a, 0)"],
    "logcumsumexp": ["a.logcumsumexp(1)"],
    "cummax": ["a.cummax(1)", "torch.cummax(t, 0)"],
    "cummin": ["a.cummin(0)"],
    "sort": ["a.sort()", "torch.sort(a, 0, descending=True)", "t.sort(descending=True)",
             "torch.tensor([3, 1, 3, 200, 0], dtype=torch.uint8).sort(descending=True)",
             "torch.tensor([2., float('nan'), -1., 2.]).sort()"],
    "msort": ["torch.msort(a)"],
    "topk": ["a.topk(2)", "torch.topk(a, 1, dim=0, largest=False)"],
    "kthvalue": ["a.kthvalue(2)", "torch.kthvalue(a, 1, 0, True)"],
    "aminmax": ["torch.aminmax(n)", "a.aminmax(dim=1)"],
    "std_mean": ["torch.std_mean(a, 1)"],
    "var_mean": ["torch.var_mean(a, correction=0)"],
    "quantile": ["a.quantile(0.3)", "torch.quantile(a, 0.75, dim=1, keepdim=True)"],
    "nanquantile": ["torch.nanquantile(a.log(), 0.5, dim=1)"],
    "diff": ["a.diff()", "torch.diff(a, dim=0)", "torch.diff(v, 2, prepend=v[:1])"],
    "trapezoid": ["torch.trapezoid(a)", "torch.trapezoid(a, dx=0.5, dim=0)"],
    "trapz": ["torch.trapz(a, v[:3])"],
    "cov": ["a.cov()", "torch.cov(a.T, correction=0)"],
    "corrcoef": ["torch.corrcoef(a)"],
    "cosine_similarity": ["torch.cosine_similarity(a, p)", "torch.cosine_similarity(a, p, dim=0)"],
    "cumulative_trapezoid": ["torch.cumulative_trapezoid(a)",
                             "torch.cumulative_trapezoid(a, dx=0.5, dim=0)",
                             "torch.cumulative_trapezoid(a, v[:3])",
                             "torch.cumulative_trapezoid(b, c.transpose(1, 2), dim=2)",
                             "torch.cumulative_trapezoid(n)",
                             "torch.cumulative_trapezoid(a, p, dim=1)"],
    "dist": ["torch.dist(a, p)", "a.dist(p, 1)"],
    # indexing
    "gather": ["a.gather(1, i)", "torch.gather(a, 0, i[:, :1])"],
    "take_along_dim": ["torch.take_along_dim(a, i, 1)", "a.take_along_dim(i)",
                       "a.take_along_dim(torch.tensor([[-4, 5]]), 1)"],  # modulo the size
    "take": ["a.take(i)", "a.take(-i)"],
    "index_select": ["a.index_select(1, torch.tensor([2, 0, 2]))",
                     "a.index_select(1, torch.tensor(1))"],
    "masked_select": ["a.masked_select(a > 0)", "torch.masked_select(a, n > 0)"],
    "scatter_add": ["a.scatter_add(1, i, p[:, :2])",
                    "torch.scatter_add(a, 0, i[:, 1:] // 2, p[:, :1])",
                    "a.clone().scatter_add_(1, i, p[:, 1:])"],
    "scatter": ["a.scatter(1, torch.tensor([[0], [2]]), p[:, :1])", "a.scatter(1, i, 1.5)",
                "a.scatter(0, i, 1.5)",
                "a.clone().scatter_(1, torch.tensor([[1], [0]]), p[:, 1:2])"],
    "scatter_reduce": ["a.scatter_reduce(1, i, p[:, :2], 'sum')",
                       "a.scatter_reduce(1, i, p[:, :2], 'sum', include_self=False)",
                       "a.scatter_reduce(1, i, p[:, :2], 'prod')",
                       "torch.scatter_reduce(a, 1, i, p[:, :2], 'prod', include_self=False)",
                       "a.scatter_reduce(1, i, p[:, :2], 'mean')",
                       "torch.scatter_reduce(a, 0, i, p[:, :2], 'mean', include_self=False)",
                       "t.scatter_reduce(1, i, p[:, :2], 'amax')",
                       "t.scatter_reduce(1, i, t[:, 1:], 'amax')",
                       "t.scatter_reduce(1, i, p[:, :2], 'amax', include_self=False)",
                       "a.scatter_reduce(1, i, p[:, :2], 'amin', include_self=False)",
                       "torch.scatter_reduce(t, 1, i, t[:, :2] + 1, 'amin')",
                       "n.scatter_reduce(1, i, -n, 'mean')",
                       "n.scatter_reduce(0, i, n, 'amax', include_self=False)",
                       "b.scatter_reduce(-1, i[None, :, :1].repeat(2, 1, 3), "
                       "c.transpose(1, 2), 'mean')",
                       "a.clone().scatter_reduce_(1, i, p[:, :2], 'prod')"],
    "masked_scatter": ["a.masked_scatter(a > 0, p)", "v.masked_scatter(v > 2, m)",
                       "torch.masked_scatter(a, torch.tensor([True, False, True]), m)",
                       "a.clone().masked_scatter_(p > 0.3, m)",
                       "v[:3].masked_scatter(a > 0, m)"],
    "index_add": ["a.index_add(1, torch.tensor([0, 0]), p[:, :2])",
                  "a.clone().index_add_(0, torch.tensor([1]), p[:1], alpha=2)"],
    "index_copy": ["a.index_copy(1, torch.tensor([2, 0]), p[:, :2])",
                   "torch.index_copy(a, 0, torch.tensor([1]), p[:1])",
                   "a.clone().index_copy_(0, torch.tensor([1, 0]), p)",
                   "v.index_copy(0, torch.tensor(3), a[0, 1])"],
    "index_put": ["a.index_put((torch.tensor([0, 1]), torch.tensor([2, 2])), p[0, :2])",
                  "a.index_put((a > 0,), v[1], accumulate=True)",
                  "torch.index_put(a, (torch.tensor([1, 1]),), p[0], accumulate=True)",
                  "a.index_put([torch.tensor([[0], [1]]), torch.tensor([0, 2])], p[:, 1:])",
                  "b.index_put((torch.tensor([1, 0]),), c[:, :, 0], accumulate=True)",
                  "a.clone().index_put_((torch.tensor([True, False]),), p[1])"],
    "put": ["a.put(torch.tensor([0, 5, -2]), p[0])",
            "torch.put(a, torch.tensor([[1, 1]]), p[:1, :2], accumulate=True)",
            "a.clone().put_(torch.tensor([4]), v[:1])", "v.put(torch.tensor(2), a[1, 1])"],
    "index_reduce": ["a.index_reduce(1, torch.tensor([0, 0]), p[:, :2], 'prod')",
                     "q.index_reduce(0, torch.tensor([2, 2, 0]), m, 'prod', include_self=False)",
                     "q.index_reduce(1, torch.tensor([0, 1, 1]), q, 'prod')",
                     "a.index_reduce(1, torch.tensor([2, 0]), p[:, 1:], 'mean')",
                     "torch.index_reduce(a, 0, torch.tensor([1, 1]), p, 'mean', "
                     "include_self=False)",
                     "t.index_reduce(1, torch.tensor([1, 2, 2]), t, 'amax')",
                     "t.index_reduce(1, torch.tensor([1, 2, 2]), t * 1, 'amin', "
                     "include_self=False)",
                     "n.index_reduce(0, torch.tensor([0, 0]), -n, 'mean')",
                     "a.clone().index_reduce_(1, torch.tensor([2, 2]), p[:, :2], 'amin')"],
    "renorm": ["a.renorm(2, 0, 1.0)", "torch.renorm(b, 1, 1, 2.0)",
               "a.renorm(float('inf'), 1, 1.0)", "a.renorm(2, 1, float('inf'))",
               "a.clone().renorm_(2, 1, 1.5)"],
    "index_fill": ["a.index_fill(1, torch.tensor([0, 2]), -1.0)",
                   "a.clone().index_fill_(0, torch.tensor([1]), 2.0)",
                   "a.index_fill(0, torch.tensor([1]), v[2])"],
    "narrow": ["a.narrow(1, 1, 2)", "torch.narrow(a, 0, -1, 1)"],
    "narrow_copy": ["torch.narrow_copy(a, 1, 0, 2)", "a.narrow_copy(0, 1, 1)"],
    "unfold": ["a.unfold(1, 2, 1)", "b.unfold(2, 2, 2)", "v.unfold(0, 3, 1)", "v.unfold(-1, 1, 3)"],
    "select": ["a.select(1, 2)", "torch.select(a, 0, -1)"],
    # shapes
    "flip": ["a.flip(0)", "torch.flip(a, [0, 1])"],
    "fliplr": ["a.fliplr()"],
    "flipud": ["torch.flipud(a)"],
    "roll": ["a.roll(1, 1)", "torch.roll(a, 2)", "a.roll((1, 1), (0, 1))"],
    "rot90": ["a.rot90()", "torch.rot90(a, 2, [0, 1])"],
    "tril": ["m.tril()", "torch.tril(a, 1)", "m.clone().tril_(-1)"],
    "triu": ["a.triu()", "torch.triu(m, -1)", "m.clone().triu_()"],
    "diag": ["v.diag()", "torch.diag(a, 1)", "m.diag(-1)"],
    "diagonal": ["m.diagonal()", "torch.diagonal(a, 1)", "b.diagonal(0, 1, 2)"],
    "slice_scatter": ["torch.slice_scatter(a, p[:, :2], 1, 0, 2)",
                      "m.slice_scatter(v[:3].reshape(1, 3), start=1, end=2)"],
    "select_scatter": ["torch.select_scatter(a, v[:3], 0, 1)", "m.select_scatter(p[0], 1, -1)"],
    "diagonal_scatter": ["torch.diagonal_scatter(m, v[:3])", "a.diagonal_scatter(p[0, :2], 1)"],
    "diag_embed": ["torch.diag_embed(a)", "v.diag_embed(1)"],
    "diagflat": ["a.diagflat()"],
    "trace": ["m.trace()", "torch.trace(a)"],
    "repeat": ["a.repeat(2, 1)", "v.repeat(2, 2)"],
    "tile": ["a.tile((2,))", "torch.tile(v, (2, 1))"],
    "repeat_interleave": ["a.repeat_interleave(2)", "torch.repeat_interleave(a, 2, dim=0)",
                          "a.repeat_interleave(torch.tensor([1, 2]), dim=0)"],
    "movedim": ["b.movedim(0, 2)", "torch.movedim(b, (0, 1), (1, 2))"],
    "moveaxis": ["torch.moveaxis(b, 2, 0)"],
    "swapaxes": ["a.swapaxes(0, 1)"],
    "swapdims": ["torch.swapdims(b, 0, 2)"],
    "unflatten": ["v.unflatten(0, (2, 2))"],
    "ravel": ["a.ravel()"],
    "broadcast_to": ["v.broadcast_to((2, 4))"],
    "broadcast_tensors": ["torch.broadcast_tensors(a, v[:3])"],
    "meshgrid": ["torch.meshgrid(v, v[:2], indexing='ij')",
                 "torch.meshgrid([v[:3], v], indexing='xy')"],
    "cartesian_prod": ["torch.cartesian_prod(v, v[:2])", "torch.cartesian_prod(v)",
                       "torch.cartesian_prod(v[:2], a[0], v[1:3])"],
    "combinations": ["torch.combinations(v)", "torch.combinations(v, 3)",
                     "torch.combinations(v[:3], 2, with_replacement=True)",
                     "torch.combinations(v, 5)", "torch.combinations(n[0])",
                     "torch.combinations(v[:0])"],
    "atleast_1d": ["torch.atleast_1d(v.sum())"],
    "atleast_2d": ["torch.atleast_2d(v)"],
    "atleast_3d": ["torch.atleast_3d(a)"],
    "hstack": ["torch.hstack([a, p])"],
    "vstack": ["torch.vstack([a, p, v[:3]])"],
    "row_stack": ["torch.row_stack([a, p, v[:3]])"],
    "dstack": ["torch.dstack([a, p])"],
    "column_stack": ["torch.column_stack([v, v * 2])"],
    "block_diag": ["torch.block_diag(a, m, v)"],
    # (PyTorch's vander fails its own backward pass, its saved values updated in place:
    # compared without one)
    "vander": ["torch.vander(v.detach())", "torch.vander(v[:3].detach(), 4, True)",
               "torch.vander(n[0])", "torch.vander(v, 0)", "torch.vander(v).grad_fn.name()",
               "torch.vander(v, 3, True).grad_fn.name()"],
    "unravel_index": ["torch.unravel_index(torch.tensor([4, 5, 6, -1]), (2, 3))",
                      "torch.unravel_index(torch.tensor(7), [2, 3, 2])",
                      "torch.unravel_index(n.abs(), 3)"],
    "gradient": ["torch.gradient(v)", "torch.gradient(a, spacing=2.0)",
                 "torch.gradient(b, spacing=[1.0, 0.5], dim=(0, 2))",
                 "torch.gradient(c, dim=1, edge_order=2)", "torch.gradient(n)"],
    "tril_indices": ["torch.tril_indices(3, 3)", "torch.tril_indices(3, 4, 1)"],
    "triu_indices": ["torch.triu_indices(4, 3, -1)"],
    # products
    "einsum": ["torch.einsum('ij,kj->ik', a, p)", "torch.einsum('ii', m)",
               "torch.einsum('bij,bjk->bik', [b, c])", "torch.einsum('i,j->ij', v, v)"],
    "outer": ["torch.outer(v, v[:2])"],
    "ger": ["v.ger(v)"],
    "inner": ["torch.inner(a, p)"],
    "kron": ["torch.kron(m, a)"],
    "tensordot": ["torch.tensordot(a, c[0], 1)", "torch.tensordot(b, c, ([1, 2], [2, 1]))"],
    "cross": ["torch.cross(m, a.T, dim=0)", "a.cross(p, dim=1)"],
    "vdot": ["torch.vdot(v, v)"],
    "addmm": ["torch.addmm(p[:, :2], a, c[0])", "p[:, :2].addmm(a, c[0], beta=0.5, alpha=2)",
              "m.addmm(a.T, p)"],
    "addmv": ["torch.addmv(v[:2], a, v[:3])", "v.addmv(torch.ones(4, 3), v[:3])"],
    "addr": ["m.addr(v[:3], v[1:], alpha=3)"],
    "baddbmm": ["torch.baddbmm(b[:, :2, :2], b, c)", "b[:, :2, :2].baddbmm(b, c, beta=0)",
                "m.baddbmm(c, b, alpha=0.5)"],
    "addbmm": ["torch.addbmm(m[:2, :2], b, c)", "m.addbmm(c, b)"],
    "cdist": ["torch.cdist(a, p)", "torch.cdist(a, m, p=1)", "torch.cdist(b, b, p=3)"],
    "chain_matmul": ["torch.chain_matmul(a, m, m)"],
    "matrix_power": ["m.matrix_power(3)", "torch.matrix_power(m, -1)"],
    "det": ["m.det()", "torch.det(b[:, :, :2])"],
    "logdet": ["m.logdet()"],
    "slogdet": ["m.slogdet()", "torch.slogdet(-m)"],
    "inverse": ["m.inverse()"],
    "pinverse": ["a.pinverse()"],
    # torch.linalg
    "linalg.norm": ["torch.linalg.norm(a)", "torch.linalg.norm(v, 1)",
                    "torch.linalg.norm(a, dim=1)", "torch.linalg.norm(m, 'nuc')",
                    "torch.linalg.norm(b, dim=(1, 2))"],
    "linalg.vector_norm": ["torch.linalg.vector_norm(a)", "torch.linalg.vector_norm(a, 3, 1)",
                           "torch.linalg.vector_norm(a, float('inf'), keepdim=True)"],
    "nuclear_norm": ["torch.nuclear_norm(m)", "torch.nuclear_norm(b, (0, 2))",
                     "torch.nuclear_norm(a, True)", "torch.nuclear_norm(b, [2, 1], keepdim=True)"],
    "frobenius_norm": ["torch.frobenius_norm(a, (0, 1))", "torch.frobenius_norm(b, [2], True)",
                       "torch.frobenius_norm(n.double(), (1, 0))"],
    "linalg.matrix_norm": ["torch.linalg.matrix_norm(b, 'nuc', (0, 2), True)",
                           "torch.linalg.matrix_norm(c, dim=(2, 0), keepdim=True)",
                           "torch.linalg.matrix_norm(m)", "torch.linalg.matrix_norm(b, 1)",
                           "torch.linalg.matrix_norm(m, 2)"],
    "linalg.inv": ["torch.linalg.inv(m)"],
    "linalg.inv_ex": ["torch.linalg.inv_ex(m).inverse"],
    "linalg.solve_ex": ["torch.linalg.solve_ex(m, a.T).result"],
    "linalg.tensorinv": ["torch.linalg.tensorinv(m.reshape(3, 1, 3), 1)"],
    "linalg.vander": ["torch.linalg.vander(v[:3])"],
    "linalg.tensorsolve": ["torch.linalg.tensorsolve(m, a.T[:, 0])"],
    "linalg.lu_solve": ["torch.linalg.lu_solve(*torch.linalg.lu_factor(m), a.T)"],
    "linalg.solve": ["torch.linalg.solve(m, a.T)", "torch.linalg.solve(m, v[:3])"],
    "linalg.det": ["torch.linalg.det(m)"],
    "linalg.slogdet": ["torch.linalg.slogdet(m)"],
    "linalg.eigh": ["torch.linalg.eigh(m).eigenvalues"],
    "linalg.eig": ["torch.linalg.eig(m).eigenvalues.real",
                   "torch.linalg.eig(q).eigenvalues.abs()",
                   "torch.linalg.eig(q).eigenvectors.abs()",
                   "[t.grad_fn.name() for t in torch.linalg.eig(q)]"],
    "linalg.eigvals": ["torch.linalg.eigvals(q).real", "torch.linalg.eigvals(m).imag",
                       "torch.linalg.eigvals(q).grad_fn.name()"],
    "linalg.solve_triangular": [
        "torch.linalg.solve_triangular(m.triu(), a.T, upper=True)",
        "torch.linalg.solve_triangular(m.tril(), a, upper=False, left=False)",
        "torch.linalg.solve_triangular(m.triu(), m, upper=True, unitriangular=True)",
        "torch.linalg.solve_triangular(m.triu(), a[0], upper=True)"],
    "linalg.eigvalsh": ["torch.linalg.eigvalsh(m)"],
    "linalg.svd": ["torch.linalg.svd(a).S", "torch.linalg.svd(m, full_matrices=False).S"],
    "linalg.svdvals": ["torch.linalg.svdvals(a)"],
    "linalg.qr": ["abs(torch.linalg.qr(m).R)"],
    "linalg.cholesky": ["torch.linalg.cholesky(m)"],
    "linalg.cholesky_ex": ["torch.linalg.cholesky_ex(m).L"],
    "linalg.lstsq": ["torch.linalg.lstsq(m, a.T).solution"],
    "linalg.pinv": ["torch.linalg.pinv(a)"],
    "linalg.matrix_power": ["torch.linalg.matrix_power(m, 2)"],
    "linalg.matrix_rank": ["torch.linalg.matrix_rank(a)"],
    "linalg.cond": ["torch.linalg.cond(m)"],
    "linalg.multi_dot": ["torch.linalg.multi_dot([a, m, v[:3]])"],
    "linalg.cross": ["torch.linalg.cross(a, p)"],
    "linalg.vecdot": ["torch.linalg.vecdot(a, p)"],
    "linalg.diagonal": ["torch.linalg.diagonal(b)"],
    # torch's older linear-algebra names
    "cholesky": ["torch.cholesky(m)", "m.cholesky(True)"],
    "cholesky_solve": ["torch.cholesky_solve(a.T, torch.linalg.cholesky(m))"],
    "cholesky_inverse": ["torch.cholesky_inverse(torch.linalg.cholesky(m))"],
    "qr": ["abs(torch.qr(m).R)", "abs(m.qr(False).Q)"],
    "triangular_solve": ["torch.triangular_solve(a.T, m).solution"],
    "matrix_exp": ["torch.matrix_exp(m)", "m.matrix_exp()"],
    "linalg.matrix_exp": ["torch.linalg.matrix_exp(m)"],
    "linalg.lu": ["torch.linalg.lu(m).U", "torch.linalg.lu(a).L"],
    "linalg.lu_factor": ["torch.linalg.lu_factor(m).LU"],
    "linalg.lu_factor_ex": ["torch.linalg.lu_factor_ex(m).LU"],
    "_lu_with_info": ["torch._lu_with_info(m).LU"],
    "lu_solve": ["torch.lu_solve(a.T, *torch.linalg.lu_factor(m))"],
    "lu_unpack": ["torch.lu_unpack(*torch.linalg.lu_factor(m)).U"],
    "linalg.householder_product": ["torch.linalg.householder_product(a.T, p[0, :2])"],
    "orgqr": ["torch.orgqr(a.T, p[0, :2])", "a.T.orgqr(p[0, :1])"],
    "ormqr": ["torch.ormqr(a.T, p[0, :2], m)", "a.T.ormqr(p[0, :2], m, False, True)"],
    # complex numbers (from torch.fft)
    "real": ["torch.real(torch.fft.fft(v))", "torch.fft.rfft(a).real", "torch.real(a)", "a.real"],
    "imag": ["torch.imag(torch.fft.fft(v))"],
    "angle": ["torch.fft.fft(v).angle()", "a.angle()"],
    "complex": ["torch.view_as_real(torch.complex(a, p))"],
    "polar": ["torch.view_as_real(torch.polar(a.abs(), p))"],
    "view_as_complex": ["torch.view_as_real(torch.view_as_complex(torch.stack([v, v * 2], -1)))"],
    "view_as_real": ["torch.view_as_real(torch.fft.rfft(v))"],
    # torch.fft
    "fft.fft": ["torch.fft.fft(a).abs()", "torch.fft.fft(v, n=6).real"],
    "fft.ifft": ["torch.fft.ifft(a, dim=0).imag"],
    "fft.rfft": ["torch.fft.rfft(v).abs()"],
    "fft.irfft": ["torch.fft.irfft(torch.fft.rfft(v))", "torch.fft.irfft(a, n=4)"],
    "fft.hfft": ["torch.fft.hfft(a)"],
    "fft.ihfft": ["torch.fft.ihfft(v).real"],
    "fft.fft2": ["torch.fft.fft2(a).real"],
    "fft.ifft2": ["torch.fft.ifft2(a, norm='ortho').real"],
    "fft.rfft2": ["torch.fft.rfft2(a).imag"],
    "fft.irfft2": ["torch.fft.irfft2(b)"],
    "fft.fftn": ["torch.fft.fftn(b, dim=(0, 2)).real"],
    "fft.ifftn": ["torch.fft.ifftn(b).real"],
    "fft.rfftn": ["torch.fft.rfftn(b).imag", "torch.fft.rfftn(c).abs()"],
    "fft.irfftn": ["torch.fft.irfftn(b, s=(2, 4))"],
    "stft": ["torch.stft(s, 8, return_complex=True).abs()",
             "s.stft(8, 2, window=w, return_complex=True).real",
             "torch.stft(s, 6, 3, 4, window=w[::2], normalized=True, "
             "return_complex=True).imag",
             "torch.stft(s.reshape(2, 8), 4, 2, center=False, return_complex=True).abs()",
             "torch.stft(s, 8, pad_mode='constant', onesided=False, return_complex=True).real",
             "torch.stft(s, 5, pad_mode='circular', return_complex=True).abs()",
             "torch.stft(s, 8, pad_mode='replicate', return_complex=True).abs()",
             "torch.stft(s, 8, 4, return_complex=False)",
             "torch.stft(torch.fft.fft(s), 8, 4).abs()"],
    "istft": ["torch.istft(torch.stft(s, 8, 2, window=w, "
              "return_complex=True), 8, 2, window=w)",
              "torch.stft(s, 8, 2, window=w, return_complex=True)"
              ".istft(8, 2, window=w, length=20)",
              "torch.istft(torch.stft(s, 8, 2, window=w, return_complex=True), 8, 2, window=w, "
              "length=23)",
              "torch.istft(torch.stft(s.reshape(2, 8), 4, 1, return_complex=True), 4, 1, "
              "normalized=True, length=7)",
              "torch.istft(torch.stft(s, 8, 4, onesided=False, return_complex=True), 8, 4)",
              "torch.istft(torch.stft(s, 8, 4, onesided=False, return_complex=True), 8, 4, "
              "return_complex=True).imag"],
    "fft.fftshift": ["torch.fft.fftshift(a)"],
    "fft.ifftshift": ["torch.fft.ifftshift(v, dim=0)"],

}

# What PyTorch refuses: the error types must match.
ERRORS = [
    "torch.igamma(n, n)", "torch.igamma(p, 2.0)", "torch.igammac(p.cfloat(), p)",
    "n.nonzero_static(size=-1)", "torch.nuclear_norm(v)", "torch.nuclear_norm(n)",
    "torch.nuclear_norm(m.half())", "torch.frobenius_norm(n, (0,))",
    "torch.frobenius_norm(b, (0, 1, 2))",
    "a.unfold(1, 4, 1)", "a.unfold(1, 2, 0)", "a.unfold(1, -1, 1)", "a.unfold(2, 1, 1)",
    "a.gather(2, i)", "a.gather(1, i.float())", "a.topk(4)", "a.repeat(2)", "torch.diag(b)",
    "a.trace() if False else b.trace()",
    "torch.cdist(a, v)", "torch.addmm(a, a, a)", "a.index_select(1, i)", "a.logsumexp(2)",
    "torch.linalg.inv(a)", "torch.linalg.cholesky(-m)", "a.narrow(1, 2, 2)", "a.sort(3)",
    "torch.einsum('ij,jk', a, a)", "a.scatter_reduce(1, i, p, 'maximum')",
    "a.scatter_reduce(2, i, p, 'sum')", "a.scatter_reduce(1, i.float(), p, 'sum')",
    "a.masked_scatter(a > 0, v[:2])", "a.masked_scatter(n, p)", "torch.combinations(a)",
    "torch.cartesian_prod(v, a)", "torch.cartesian_prod(v, n[0])", "torch.mode(a, 2)",
    "torch.nanmedian(a, 2)",
    "torch.linalg.eig(a)", "torch.linalg.eigvals(b)", "torch.linalg.eigvals(n[:, :2])",
    "a.gather(1, -i)", "a.scatter_reduce(1, -i, p[:, :2], 'sum')",
    "a.scatter_reduce(1, i, n[:, :2], 'sum')", "a.masked_scatter(a > 0, n)",
    "torch.cumulative_trapezoid(a, v)", "torch.mode(a[:, :0])",
    "torch.stft(s, 8)", "torch.stft(s, 40, return_complex=True)",
    "torch.stft(s, 8, 0, return_complex=True)",
    "torch.stft(s, 8, win_length=9, return_complex=True)",
    "torch.stft(s, 8, window=torch.ones(3), return_complex=True)",
    "torch.stft(n, 2, return_complex=True)", "torch.stft(b, 2, return_complex=True)",
    "torch.stft(s, 8, pad_mode='foo', return_complex=True)",
    "torch.stft(torch.fft.fft(s), 8, onesided=True)", "torch.istft(s, 8)",
    "torch.istft(torch.stft(s, 8, return_complex=True), 6)",
    "torch.istft(torch.stft(s, 8, 2, center=False, window=w, "
    "return_complex=True), 8, 2, window=w, center=False)",
    "a.index_copy(1, torch.tensor([2, 3]), p[:, :2])", "a.index_copy(1, torch.tensor([0]), 1.0)",
    "a.index_put((torch.tensor([0, 2]),), p[0])", "a.index_put((i,), p)",
    "a.index_put(torch.tensor([0, 1]), p)", "a.index_put((), p)",
    "a.put(torch.tensor([0, 6]), p[0, :2])",
    "a.put([0, 1], p[0, :2])", "a.index_reduce(1, torch.tensor([0, 3]), p[:, :2], 'amax')",
    "a.index_reduce(1, torch.tensor([0, 1]), p[:, :2], 'sum')", "a.renorm(0, 1, 1.0)",
    "v.renorm(2, 0, 1.0)", "torch.unique_consecutive(a, dim=2)", "torch.frexp(n)",
    "torch.nextafter(n, n)",
    "a.clone().float_power_(2)", "torch.vander(a)", "torch.vander(v, -1)",
    "torch.unravel_index(torch.tensor([1.0]), (2, 3))", "torch.histogram(n, 2)",
    "torch.histogram(a.detach(), -1)", "torch.gradient(v, edge_order=3)",
    "torch.gradient(v[:2], edge_order=2)", "torch.gradient(a, spacing=[1.0, 2.0], dim=1)",
]


# Rows whose torch function is built from others, so that PyTorch's grad_fn name depends on
# its decomposition or overload (outer is a MulBackward0, split with sizes a
# SplitWithSizesBackward0): their grad_fn names are not compared.
COMPOSED = {
    "einsum", "kron", "tensordot", "chain_matmul", "logdet", "linalg.norm",
    "linalg.matrix_norm", "linalg.cond", "linalg.multi_dot", "stft", "istft",
}


def _inputs(torch, parameters=False):
    """Fresh inputs for one case: float leaves that require grad (nn.Parameters if
    `parameters`), and integer tensors."""
    def leaf(values):
        if parameters:
            return torch.nn.Parameter(torch.tensor(values))
        return torch.tensor(values, requires_grad=True)
    return {
        "torch": torch,
        "a": leaf([[0.5, -1.2, 2.0], [1.5, 0.3, -0.7]]),
        "p": leaf([[0.2, 0.5, 0.9], [0.1, 0.7, 0.4]]),
        "m": leaf([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]]),
        "v": leaf([3.0, 1.0, 2.0, 5.0]),
        "t": leaf([[1.0, 3.0, 3.0], [2.0, 0.0, 3.0]]),
        "b": leaf(np.linspace(-1.0, 2.0, 12).reshape(2, 2, 3).tolist()),
        "c": leaf(np.cos(np.arange(12.0)).reshape(2, 3, 2).tolist()),
        "i": torch.tensor([[0, 2], [1, 0]]),
        "n": torch.tensor([[1, -2, 3], [0, 5, -6]]),
        "s": leaf(np.sin(0.7 * np.arange(16.0) + 0.3).tolist()),
        "w": torch.tensor(0.5 - 0.5 * np.cos(np.pi * np.arange(8) / 4), dtype=torch.float32),
        "q": leaf([[0.0, -2.0, 0.5], [1.0, 0.3, 0.0], [0.2, 0.0, 1.5]]),
    }


def _case(expression, parameters=False):
    def case(torch):
        env = _inputs(torch, parameters)
        result = eval(expression, env)
        outputs = [t for t in tensors_in(result, torch) if t.requires_grad]
        if not outputs:
            return result
        loss = 0
        for out in outputs:  # a weight per element, so that every gradient entry counts
            weights = torch.linspace(0.5, 1.5, out.numel()).reshape(out.shape)
            loss = loss + (out * weights.to(out.dtype)).sum()
        loss.backward()
        leaves = [env[name] for name in "apmvtbcqs"]
        return result, [leaf.grad for leaf in leaves]
    return case


EXPRESSIONS = [(name, e) for name, expressions in CASES.items() for e in expressions]


# NaN and infinity are made on purpose (log of a negative number, division by 0);
# chain_matmul and stft(return_complex=False) are deprecated in PyTorch, which also warns
# of stft's and istft's default rectangular window; istft warns (both libraries) when
# `length` asks for more samples than the frames hold; PyTorch warns once that its older
# linear-algebra names are deprecated.
_EXPECTED_WARNINGS = pytest.mark.filterwarnings(
    "ignore:invalid value encountered:RuntimeWarning",
    "ignore:divide by zero encountered:RuntimeWarning",
    "ignore:torch.chain_matmul is deprecated:UserWarning",
    "ignore:stft with return_complex=False is deprecated:UserWarning",
    "ignore:A window was not provided:UserWarning",
    "ignore:The length of signal is shorter:UserWarning",
    "ignore:index_reduce\\(\\) is in beta:UserWarning",
    "ignore:torch.cholesky is deprecated:UserWarning",
    "ignore:torch.lu_solve is deprecated:UserWarning",
    "ignore:torch.triangular_solve is deprecated:UserWarning",
    "ignore:torch.qr is deprecated:UserWarning",
    "ignore:torch.lu is deprecated:UserWarning",
    "ignore:at..nuclear_norm is deprecated:UserWarning",
    "ignore:at..frobenius_norm is deprecated:UserWarning")


@_EXPECTED_WARNINGS
@pytest.mark.parametrize("name, expression", EXPRESSIONS, ids=[e for _, e in EXPRESSIONS])
def test_torch_name_matches_torch(name, expression):
    check(_case(expression), rtol=1e-4, atol=1e-5, grad_fn_names=name not in COMPOSED)


# The same on nn.Parameter leaves: a subclass of Tensor, which each operation must take as
# a tensor (the table's operations once took only exact Tensors and failed on these).
@_EXPECTED_WARNINGS
@pytest.mark.parametrize("name, expression", EXPRESSIONS, ids=[e for _, e in EXPRESSIONS])
def test_torch_name_takes_parameters_as_torch(name, expression):
    check(_case(expression, parameters=True), rtol=1e-4, atol=1e-5,
          grad_fn_names=name not in COMPOSED)


def _memory_shared(expression):
    """Which of the expression's tensor results share memory with which input: a view in
    one library must be a view in the other, a copy a copy."""
    def case(torch):
        env = _inputs(torch)
        result = eval(expression, env)
        inputs = {name: t for name, t in env.items() if isinstance(t, torch.Tensor)}
        return sorted((i, name) for i, out in enumerate(tensors_in(result, torch))
                      for name, t in inputs.items() if _overlap(out, t, torch))
    return case


def _overlap(a, b, torch):
    if torch.__name__ == "torch":
        return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
    return np.may_share_memory(a._data, b._data)


@_EXPECTED_WARNINGS
@pytest.mark.parametrize("name, expression", EXPRESSIONS, ids=[e for _, e in EXPRESSIONS])
def test_torch_name_shares_memory_as_torch(name, expression):
    check(_memory_shared(expression))


def _gradients_after_update(expression, leaf, update, torch=compat):
    """The leaves' gradients of the expression's (real) results, with `leaf` multiplied by
    1.5 in place between the forward and the backward pass if `update`."""
    env = _inputs(torch)
    outputs = [t for t in tensors_in(eval(expression, env), torch) if t.requires_grad]
    if update:
        with torch.no_grad():
            env[leaf].mul_(1.5)
    if not outputs:
        raise TypeError("no result requires grad")
    sum((out.real if out.dtype.is_complex else out).sum() for out in outputs).backward()
    return [env[name].grad for name in "apmvtbcqs"]


_UPDATES = [(expression, leaf) for _, expression in EXPRESSIONS for leaf in "apmvtbcqs"
            if re.search(rf"\b{leaf}\b", expression)]


# PyTorch refuses a backward pass that needs a value updated in place since it was saved;
# compat must refuse it too, or not need that value: a gradient from the updated values
# would be silently wrong (composites holding a view of an input once went unchecked).
@pytest.mark.filterwarnings("ignore::UserWarning", "ignore::RuntimeWarning")
@pytest.mark.parametrize("expression, leaf", _UPDATES, ids=[f"{e} ({x})" for e, x in _UPDATES])
def test_an_input_updated_before_backward_raises_or_does_not_matter(expression, leaf):
    try:
        expected = _gradients_after_update(expression, leaf, update=False)
    except (TypeError, RuntimeError):  # nothing to differentiate: nor is there in PyTorch
        with pytest.raises((TypeError, RuntimeError)):
            _gradients_after_update(expression, leaf, False, torch=real_torch)
        return
    try:
        updated = _gradients_after_update(expression, leaf, update=True)
    except RuntimeError as error:
        assert "modified by an inplace operation" in str(error)
        return
    for a, b in zip(updated, expected):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a.numpy(), b.numpy(), equal_nan=True)


def _refuses_update(expression, leaf, torch):
    try:
        _gradients_after_update(expression, leaf, True, torch=torch)
    except RuntimeError as error:
        return "modified by an inplace operation" in str(error)
    return False


_SAVING = {row.name for row in _torch_names.ROWS if row.saves_inputs}
# Refused in PyTorch by an operation before the saving one (PyTorch's fft saves its input
# unless n or s pads it first; compat's fft keeps none), or by a node compat does not make
# (a combination of no elements).
_REFUSED_ELSEWHERE = {("torch.fft.fft(v).angle()", "v"), ("torch.combinations(v[:0])", "v")}
_SAVING_UPDATES = [(expression, leaf) for name, expression in EXPRESSIONS if name in _SAVING
                   for leaf in "apmvtbcqs" if re.search(rf"\b{leaf}\b", expression)
                   and (expression, leaf) not in _REFUSED_ELSEWHERE]


# Rows whose PyTorch backward reads their inputs (where funcgrad's rule keeps only indices
# or masks) refuse an update of an input before backward exactly when PyTorch does.
@pytest.mark.filterwarnings("ignore::UserWarning", "ignore::RuntimeWarning")
@pytest.mark.parametrize("expression, leaf", _SAVING_UPDATES,
                         ids=[f"{e} ({x})" for e, x in _SAVING_UPDATES])
def test_rows_saving_inputs_refuse_updates_as_torch(expression, leaf):
    assert _refuses_update(expression, leaf, compat) == _refuses_update(expression, leaf,
                                                                        real_torch)


_CONTIGUOUS = {row.name for row in _torch_names.ROWS if row.contiguous}
_CONTIGUOUS_CASES = [e for name, e in EXPRESSIONS if name in _CONTIGUOUS]


# Rows whose NumPy result has another layout than PyTorch's contiguous one (roll's, topk's)
# have PyTorch's strides, so that view() works where PyTorch's does.
@_EXPECTED_WARNINGS
@pytest.mark.parametrize("expression", _CONTIGUOUS_CASES)
def test_contiguous_rows_have_torchs_strides(expression):
    def case(torch):  # (a dimension of one element may have any stride)
        result = eval(expression, _inputs(torch))
        return [(t.is_contiguous(), [step for step, size in zip(t.stride(), t.shape) if size > 1])
                for t in tensors_in(result, torch)]
    check(case)


# The in-place form of every row that has one, on each case written as a method call
# `x.f(...)`: `x.clone().f_(...)` (PyTorch refuses a result its dtype cannot hold). PyTorch
# has no derivative for some in-place forms; those are compared on detached tensors.
_METHOD_CALL = re.compile(r"^(\w)\.(\w+)\((.*)\)$")
_NO_TORCH_DERIVATIVE = {"asinh", "atanh", "arcsinh", "arctanh", "acosh", "arccosh"}
INPLACE = [(name, _METHOD_CALL.sub(
    r"\1.detach().clone().\2_(\3)" if name in _NO_TORCH_DERIVATIVE else
    r"\1.clone().\2_(\3)", expression))
           for name, expression in EXPRESSIONS
           if any(row.name == name and row.inplace for row in _torch_names.ROWS)
           and _METHOD_CALL.match(expression)
           and _METHOD_CALL.match(expression).group(2) == name]  # (not a.clone().f_(...))


@_EXPECTED_WARNINGS
@pytest.mark.parametrize("name, expression", INPLACE, ids=[e for _, e in INPLACE])
def test_inplace_form_matches_torch(name, expression):
    check(_case(expression), rtol=1e-4, atol=1e-5, grad_fn_names=name not in COMPOSED)


# The rows that take index tensors or masks, whose nodes PyTorch gives only the
# differentiable inputs as next_functions (compat once listed the index too, as None).
INDEXED = [(name, expression) for name, expression in EXPRESSIONS + INPLACE
           if name in {"gather", "take_along_dim", "take", "index_select", "masked_select",
                       "scatter_add", "scatter", "scatter_reduce", "masked_scatter",
                       "index_add", "index_fill", "repeat_interleave", "index_copy",
                       "index_put", "put", "index_reduce"}]


@_EXPECTED_WARNINGS
@pytest.mark.parametrize("name, expression", INDEXED, ids=[e for _, e in INDEXED])
def test_index_tensors_are_no_inputs_of_the_node_as_in_torch(name, expression):
    def case(torch):
        tensors = tensors_in(eval(expression, _inputs(torch)), torch)
        if name in ("take_along_dim", "repeat_interleave"):  # PyTorch's node takes an
            # expand, view or clone of the input (decomposition of its own): edges counted
            return [len(t.grad_fn.next_functions) for t in tensors]
        return [graph(t) for t in tensors]
    check(case)


def test_istft_warns_when_length_exceeds_the_frames():
    """As PyTorch warns (once a process, so not checked here again)."""
    import compat
    signal = compat.sin(compat.arange(16.0))
    spectrum = compat.stft(signal, 8, 2, window=compat.ones(8), return_complex=True)
    with pytest.warns(UserWarning, match="The length of signal is shorter"):
        compat.istft(spectrum, 8, 2, window=compat.ones(8), length=23)


def test_every_inplace_row_has_an_inplace_case():
    covered = {name for name, _ in INPLACE}
    assert {row.name for row in _torch_names.ROWS if row.inplace} - covered == set()


# PyTorch warns of stft's and istft's default rectangular window once a process: here, where
# a test worker meets it first.
@_EXPECTED_WARNINGS
@pytest.mark.parametrize("expression", ERRORS)
def test_torch_name_refuses_what_torch_refuses(expression):
    check(lambda torch: eval(expression, _inputs(torch)))


def test_every_row_has_a_case():
    rows = {row.name for row in _torch_names.ROWS}
    assert rows - set(CASES) == set(), "rows without a case in CASES"
    assert set(CASES) - rows == set(), "cases of names that are not rows"


@pytest.mark.parametrize("row", _torch_names.ROWS, ids=lambda row: row.name)
def test_every_form_of_a_row_exists_in_torch_and_in_compat(row):
    import torch

    import compat
    for library in (torch, compat):
        space = library
        for part in row.namespace.split(".") if row.namespace else ():
            space = getattr(space, part)
        if row.function:
            assert callable(getattr(space, row.short_name)), (library.__name__, row.name)
        if row.method:
            assert callable(getattr(library.Tensor, row.short_name)), (library.__name__, row.name)
        if row.inplace:
            assert callable(getattr(library.Tensor, row.short_name + "_")), \
                (library.__name__, row.name + "_")


@pytest.mark.parametrize("name", sorted(_torch_names.NOT_PROVIDED))
def test_names_said_to_be_missing_are_torch_names_compat_lacks(name):
    import torch

    import compat
    *path, short = name.split(".")
    torch_space, compat_space = torch, compat
    for part in path:
        torch_space = getattr(torch_space, part)
        compat_space = getattr(compat_space, part, None)
    assert hasattr(torch_space, short) or hasattr(torch.Tensor, short), name
    assert not hasattr(compat_space, short) and not hasattr(compat.Tensor, short), name


def test_case_expressions_name_their_row():
    for name, expressions in CASES.items():
        short = name.rpartition(".")[2]
        for expression in expressions:
            assert re.search(rf"\b{short}_?\b", expression), (name, expression)


def test_the_torch_names_page_is_generated_from_the_table():
    """docs/torch-names.md is generated; regenerate it when the table changes."""
    from compat.tools.list_torch_names import torch_names_markdown
    page = pathlib.Path(__file__).resolve().parents[2] / "docs" / "torch-names.md"
    assert page.read_text() == torch_names_markdown(), (
        "docs/torch-names.md is out of date; regenerate it with\n"
        "    python -m compat.tools.list_torch_names > docs/torch-names.md")


def test_table_rows_do_not_replace_hand_written_functions():
    """compat's namespace takes the table's functions after the hand-written ones: a row
    named like one of those would silently replace it."""
    from compat import _factories, _ops, _pieces
    rows = {row.short_name for row in _torch_names.ROWS if not row.namespace}
    assert rows & (set(_ops.__all__) | set(_factories.__all__) | set(_pieces.__all__)) == set()
