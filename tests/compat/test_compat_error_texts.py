"""compat's errors and warnings against PyTorch's, outside autograd (test_compat_errors.py
has those): operations, factories, indexing, torch.nn and torch.optim. Each case is a
snippet that raises (or warns) under both libraries; the last line is the one that does.

Three tables, by how much of PyTorch's text is compared:
- CASES: type and text word for word;
- PREFIXES: type and the text up to a marker, where PyTorch appends what compat cannot
  say as it does (the C++ source line of a warning, the dtypes compat lacks);
- TYPES_ONLY: the type, where PyTorch's text is its argument parser's list of C++
  overloads (no user searches for it; compat says which argument was wrong instead).

Below the tables, Hypothesis tests compare products, joins, indexing and index assignment
over random shapes, and FOUND keeps what they found.

DIFFERENCES holds the deliberate differences that docs/guide-compat.md lists: compat
raises where PyTorch computes (a result compat does not implement, or a silently wrong
one), or the other way round, or another type; each asserts both sides, so a change on
either shows.
"""
import warnings

import hypothesis.strategies as st
import numpy as np
import pytest
import torch
from hypothesis import given

import compat
from compat_harness import check
from test_compat_errors import CASES as AUTOGRAD_CASES

OPS = {
    "sub of bools": "torch.ones(2, dtype=torch.bool) - torch.ones(2, dtype=torch.bool)",
    "sub of a bool and a number": "torch.ones(2, dtype=torch.bool) - 1",
    "rsub of a bool": "1 - torch.ones(2, dtype=torch.bool)",
    "neg of a bool": "-torch.ones(2, dtype=torch.bool)",
    "div rounding_mode": "torch.ones(2).div(torch.ones(2), rounding_mode='round')",
    "clamp without bounds": "torch.ones(2).clamp()",
    "and of floats": "torch.ones(2) & torch.ones(2)",
    "or of floats": "torch.ones(2) | torch.ones(2)",
    "xor of floats": "torch.ones(2) ^ torch.ones(2)",
    "~ of a float": "~torch.ones(2)",
    "bitwise_not of a float": "torch.ones(2).bitwise_not()",
    "repeated dim": "torch.ones(2, 3).sum((0, 0))",
    "repeated dim, negative": "torch.ones(2, 3, 4).sum((2, 1, -2))",
    "mean of integers": "torch.ones(2, dtype=torch.long).mean()",
    "mean of bools": "torch.ones(2, dtype=torch.bool).mean()",
    "max of nothing": "torch.ones(0).max()",
    "min of nothing": "torch.ones(2, 0).min()",
    "var of integers": "torch.ones(2, dtype=torch.long).var()",
    "std of integers": "torch.ones(2, dtype=torch.int32).std()",
    "norm of integers": "torch.ones(2, dtype=torch.long).norm()",
    # products
    "mm of dtypes": "torch.ones(2, 2).mm(torch.ones(2, 2, dtype=torch.float64))",
    "mm of long and float": "torch.ones(2, 2, dtype=torch.long).mm(torch.ones(2, 2))",
    "mm of half and float": "torch.ones(2, 2, dtype=torch.float16).mm(torch.ones(2, 2))",
    "mm of a vector": "torch.ones(2, 2).mm(torch.ones(2))",
    "mm of 3 dimensions": "torch.ones(2, 2, 2).mm(torch.ones(2, 2))",
    "mv of a matrix": "torch.ones(2, 2).mv(torch.ones(2, 2))",
    "mv of a vector": "torch.ones(2).mv(torch.ones(2))",
    "mv shapes": "torch.ones(2, 3).mv(torch.ones(2))",
    "mv dtypes": "torch.ones(2, 2).mv(torch.ones(2, dtype=torch.float64))",
    "dot of a matrix": "torch.ones(2, 2).dot(torch.ones(2))",
    "dot sizes": "torch.ones(2).dot(torch.ones(3))",
    "dot dtypes": "torch.ones(2, dtype=torch.bool).dot(torch.ones(2, dtype=torch.long))",
    "bmm of a matrix": "torch.ones(2, 2).bmm(torch.ones(2, 2, 2))",
    "bmm by a matrix": "torch.ones(2, 2, 2).bmm(torch.ones(2, 2))",
    "bmm shapes": "torch.ones(2, 2, 3).bmm(torch.ones(2, 2, 3))",
    "bmm batches": "torch.ones(2, 2, 3).bmm(torch.ones(3, 3, 2))",
    "bmm dtypes": "torch.ones(2, 2, 2).bmm(torch.ones(2, 2, 2, dtype=torch.float64))",
    "matmul of a scalar": "torch.tensor(1.) @ torch.ones(2)",
    "matmul dtypes": "torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64)",
    "matmul of vector and matrix, dtypes": "torch.ones(2) @ torch.ones(2, 2, dtype=torch.float64)",
    "matmul of matrix and vector": "torch.ones(2, 3) @ torch.ones(2)",
    "matmul of vector and matrix": "torch.ones(2) @ torch.ones(3, 2)",
    "matmul batches": "torch.ones(2, 2, 3) @ torch.ones(3, 3, 2)",
    "matmul batch shapes": "torch.ones(2, 2, 3) @ torch.ones(2, 2, 3)",
    "matmul broadcast batch shapes": "torch.ones(2, 1, 2, 3) @ torch.ones(3, 2, 2)",
    "matmul of vector and batch": "torch.ones(3) @ torch.ones(2, 2, 2)",
    "matmul of batch and vector": "torch.ones(2, 2, 3) @ torch.ones(2)",
    "matmul of batch and matrix": "torch.ones(2, 2, 3) @ torch.ones(2, 2)",
    "matmul batch dtypes": "torch.ones(2, 2, 3) @ torch.ones(2, 3, 2, dtype=torch.float64)",
    "matmul of batch and matrix, dtypes": ("torch.ones(2, 2, 2) @ "
                                           "torch.ones(2, 2, dtype=torch.float64)"),
    # shapes
    "reshape of a string": "torch.ones(2, 3).reshape('a')",
    "reshape of None": "torch.ones(2, 3).reshape(None)",
    "reshape of a float": "torch.ones(2, 3).reshape(6.0)",
    "reshape with a float": "torch.ones(2, 3).reshape((3, 2.5))",
    "view with a float": "torch.ones(2, 3).view(3, 2.5)",
    "reshape of a wrong size": "torch.ones(2, 3).reshape(4)",
    "reshape with two -1": "torch.ones(2, 3).reshape(-1, -1)",
    "permute of a string": "torch.ones(2, 3).permute('a')",
    "permute with a float": "torch.ones(2, 3).permute((0, 1.0))",
    "permute repeated": "torch.ones(2, 3).permute(0, 0)",
    "permute repeated, negative": "torch.ones(2, 3).permute(0, -2)",
    "permute out of range": "torch.ones(2, 3).permute(0, 2)",
    "permute length first": "torch.ones(2, 3).permute(0, 0, 1)",
    "expand of None": "torch.ones(2, 3).expand(None)",
    "expand with None": "torch.ones(2, 3).expand((2, None))",
    "transpose out of range": "torch.ones(2, 3).transpose(0, 2)",
    "squeeze out of range": "torch.ones(2, 3).squeeze(2)",
    "unsqueeze out of range": "torch.ones(2, 3).unsqueeze(3)",
    "flatten out of range": "torch.ones(2, 3).flatten(0, 2)",
    "cat of nothing": "torch.cat([])",
    "stack of nothing": "torch.stack([])",
    "cat of a number": "torch.cat([torch.ones(2), 3])",
    "stack of a number": "torch.stack([torch.ones(2), 3])",
    "cat shapes": "torch.cat([torch.ones(2, 3), torch.ones(3, 2)])",
    "cat shapes along 1": "torch.cat([torch.ones(2, 3), torch.ones(3, 3)], 1)",
    "cat dimensions": "torch.cat([torch.ones(2, 3), torch.ones(3)])",
    "cat out of range": "torch.cat([torch.ones(2, 3), torch.ones(2, 3)], 2)",
    "cat of scalars": "torch.cat([torch.tensor(1.), torch.tensor(2.)])",
    "cat of a scalar second": "torch.cat([torch.ones(2), torch.tensor(1.)])",
    "stack shapes": "torch.stack([torch.ones(2), torch.ones(2), torch.ones(3)])",
    "stack out of range": "torch.stack([torch.ones(2, 3), torch.ones(2, 3)], 3)",
    "where of floats": "torch.where(torch.ones(2), torch.ones(2), torch.zeros(2))",
    "where of integers": "torch.where(torch.ones(2, dtype=torch.long), torch.ones(2), 0.)",
    "where shapes": "torch.where(torch.ones(2, dtype=torch.bool), torch.ones(3), torch.zeros(2))",
    "where condition shape": ("torch.where(torch.ones(3, dtype=torch.bool), torch.ones(2), "
                              "torch.zeros(2))"),
    "softmax of integers": "torch.ones(2, dtype=torch.long).softmax(0)",
    "softmax of integers, not last": "torch.ones(2, 3, dtype=torch.long).softmax(0)",
    "log_softmax of integers": "torch.ones(2, 3, dtype=torch.long).log_softmax(1)",
    "softmax out of range": "torch.ones(2, 3).softmax(2)",
    "log_softmax out of range": "torch.ones(2, 3).log_softmax(-3)",
    "index_select out of range": "torch.ones(4).index_select(0, torch.tensor([4]))",
    "index_select negative": "torch.ones(4).index_select(0, torch.tensor([-1]))",
    "index_select of floats": "torch.ones(2, 3).index_select(1, torch.tensor([1.]))",
    "index_select of a matrix": "torch.ones(4).index_select(0, torch.tensor([[1]]))",
    "gather out of range": "torch.ones(4).gather(0, torch.tensor([4]))",
    "gather sizes": "torch.ones(2, 3).gather(1, torch.tensor([[0], [1], [2]]))",
    "gather sizes along 1": "torch.ones(2, 3).gather(0, torch.tensor([[0, 0, 0, 0]]))",
    "gather dimensions": "torch.ones(2, 3).gather(1, torch.tensor([0]))",
    "gather of floats": "torch.ones(2, 3).gather(1, torch.tensor([[1.]]))",
    "gather out of range along 1": "torch.ones(2, 3).gather(1, torch.tensor([[3]]))",
    "scatter sizes": "torch.zeros(2, 3).scatter_(1, torch.tensor([[0], [1], [2]]), 1.)",
    "scatter sizes of src": ("torch.zeros(2, 3).scatter_(1, torch.tensor([[0, 1]]), "
                             "torch.ones(1, 1))"),
    "scatter_add sizes of src": ("torch.zeros(2, 3).scatter_add_(1, torch.tensor([[0, 1]]), "
                                 "torch.ones(1, 1))"),
    "scatter dimensions": "torch.zeros(2, 3).scatter_(1, torch.tensor([0]), 1.)",
    "scatter out of range": "torch.zeros(3).scatter_(0, torch.tensor([5]), 1.)",
    "scatter_add out of range": "torch.zeros(3).scatter_add_(0, torch.tensor([5]), torch.ones(1))",
    "index_select dim out of range": "torch.ones(2, 3).index_select(2, torch.tensor([0]))",
    # PyTorch's index_select kernels word their bound checks apart: along dim 1, of an
    # empty tensor, of a scalar and the others
    "index_select out of range along 1": "torch.ones(2, 3).index_select(1, torch.tensor([3]))",
    "index_select negative along -1": "torch.ones(2, 3).index_select(-1, torch.tensor([0, -1]))",
    "index_select out of range along 1 of 3 dims": (
        "torch.ones(2, 3, 4).index_select(1, torch.tensor(3, dtype=torch.int32))"),
    "index_select out of range along 2": "torch.ones(2, 3, 4).index_select(2, torch.tensor([4]))",
    "index_select of an empty tensor out of range": (
        "torch.ones(2, 0).index_select(0, torch.tensor([5]))"),
    "index_select along an empty dim": "torch.ones(0, 3).index_select(0, torch.tensor([0]))",
    "index_select of a scalar out of range": "torch.tensor(1.).index_select(0, torch.tensor(-1))",
    "index_select of a scalar by two": "torch.tensor(1.).index_select(0, torch.tensor([0, 0]))",
    "index_select of a scalar dim out of range": (
        "torch.tensor(1.).index_select(1, torch.tensor([0]))"),
    "take out of range": "torch.ones(2, 3).take(torch.tensor([1, 9, -9]))",
    "take negative out of range": "torch.ones(2, 3).take(torch.tensor(-7))",
    "take from an empty tensor": "torch.ones(0, 2).take(torch.tensor([0]))",
    "take of int32": "torch.ones(2, 3).take(torch.tensor([1], dtype=torch.int32))",
    "take_along_dim flat out of range": "torch.ones(2, 3).take_along_dim(torch.tensor([[-1]]))",
    "take_along_dim flat of floats": "torch.ones(2, 3).take_along_dim(torch.tensor([[1.]]))",
    "take_along_dim of int32": ("torch.ones(2, 3).take_along_dim("
                                "torch.tensor([[1]], dtype=torch.int32), 1)"),
    "take_along_dim dimensions": "torch.ones(2, 3).take_along_dim(torch.tensor([1]), 5)",
    "take_along_dim dimensions of int32": ("torch.ones(3).take_along_dim("
                                           "torch.tensor(0, dtype=torch.int32), 0)"),
    "take_along_dim shapes": ("torch.ones(2, 3, 4).take_along_dim("
                              "torch.ones(2, 2, 5, dtype=torch.long), -1)"),
    "take_along_dim along an empty dim": ("torch.ones(2, 0).take_along_dim("
                                          "torch.tensor([[1]]), 1)"),
    # dims
    "sum dim out of range": "torch.ones(2, 3).sum(2)",
    "mean negative dim out of range": "torch.ones(2, 3).mean(-3)",
    "argmax dim out of range": "torch.ones(2, 3).argmax(2)",
    "max dim out of range": "torch.ones(2, 3).max(2)",
    "cumsum dim out of range": "torch.ones(2, 3).cumsum(2)",
    "std dim out of range": "torch.ones(2, 3).std(3)",
    "sort dim out of range": "torch.ones(2, 3).sort(3)",
    "topk of too many": "torch.ones(2, 3).topk(4)",
    # more shapes
    "view with -1 of a wrong size": "torch.ones(2, 3).view(-1, 4)",
    "reshape with -1 of a wrong size": "torch.ones(2, 3).reshape(-1, 4)",
    "view of no elements with -1": "torch.ones(0, 3).view(-1, 0)",
    "expand to another length": "torch.ones(2, 3).expand(3, 3)",
    "expand to other lengths, the last named": "torch.ones(2, 3).expand(3, 2)",
    "expand with a leading -1 and another length": "torch.ones(2, 3).expand(-1, 3, 2)",
    # products with an input, which PyTorch expands to the product's shape
    "addmm of an input that does not expand": ("torch.addmm(torch.ones(2, 3), "
                                               "torch.ones(2, 3), torch.ones(3, 2))"),
    "addmm of a longer input": ("torch.ones(2, 2, 2).addmm(torch.ones(2, 3), "
                                "torch.ones(3, 2), beta=0)"),
    "addmm of matrices that do not multiply": ("torch.addmm(torch.ones(3, 3), "
                                               "torch.ones(2, 3), torch.ones(4, 2))"),
    "addmv of an input that does not expand": ("torch.addmv(torch.ones(3), "
                                               "torch.ones(2, 3), torch.ones(3))"),
    "addmv of a vector that does not multiply": ("torch.addmv(torch.ones(2), "
                                                 "torch.ones(2, 3), torch.ones(4))"),
    "addmv_ of an input that does not expand": ("torch.ones(3).addmv_(torch.ones(2, 3), "
                                                "torch.ones(3))"),
    "addr of an input that does not expand": ("torch.addr(torch.ones(4), torch.ones(2), "
                                              "torch.ones(3))"),
    "baddbmm of an input that does not expand": (
        "torch.baddbmm(torch.ones(4, 3, 2), torch.ones(2, 3, 4), torch.ones(2, 4, 2))"),
    "baddbmm_ of an input that does not expand": (
        "torch.ones(3, 3).baddbmm_(torch.ones(2, 3, 4), torch.ones(2, 4, 2))"),
    "addbmm of an input that does not expand": (
        "torch.addbmm(torch.ones(2, 3), torch.ones(2, 3, 4), torch.ones(2, 5, 2))"),
    "addbmm_ of no matrices into an input that does not expand": (
        "torch.ones(2, 3).addbmm_(torch.ones(0, 3, 4), torch.ones(0, 4, 2))"),
    "select out of range": "torch.ones(2, 3).select(1, 3)",
    "select negative out of range": "torch.ones(2, 3).select(0, -3)",
    "select of a scalar": "torch.tensor(1.).select(0, 0)",
    # a dimension of a 0-d tensor, where the operation needs it to exist
    "size of a scalar": "torch.tensor(1.).size(1)",
    "size of a scalar along 0": "torch.tensor(1.).size(dim=0)",
    "stride of a scalar": "torch.tensor(1.).stride(-1)",
    "roll of a scalar": "torch.tensor(1.).roll((1, 1), (2, 0))",
    "unbind of a scalar": "torch.tensor(1.).unbind(-1)",
    "unbind of a scalar out of range": "torch.tensor(1.).unbind(1)",
    "take_along_dim of a scalar": "torch.tensor(1.).take_along_dim(torch.tensor(0), -1)",
    "trapezoid of a scalar": "torch.trapezoid(torch.tensor(1.), dx=2.)",
    "fft of a scalar": "torch.fft.rfft(torch.tensor(1.), dim=0)",
    "fft2 of a scalar": "torch.fft.fft2(torch.tensor(1.))",
    "cross of scalars": "torch.linalg.cross(torch.tensor(1.), torch.tensor(1.))",
    "narrow out of range": "torch.ones(2, 3).narrow(0, 1, 5)",
    "chunk of 0": "torch.ones(2, 3).chunk(0)",
    "chunk of a scalar": "torch.tensor(1.).chunk(1)",
    "chunk by a float": "torch.ones(2, 3).chunk(2.0)",
    "chunk along a float": "torch.ones(2, 3).chunk(2, 0.0)",
    "split of 0": "torch.ones(2, 3).split(0)",
    "split negative": "torch.ones(2, 3).split(-1)",
    "split negative, dim out of range": "torch.ones(2, 3).split(-1, 5)",
    "split of a scalar": "torch.tensor(1.).split(1)",
    "split into a negative size": "torch.ones(5).split([2, -1, 4])",
    "split into sizes of another sum": "torch.ones(2, 3).split([1, 3], 1)",
    "split into no sizes": "torch.ones(3).split([])",
    "unbind of a scalar along dim 0": "torch.tensor(1.).unbind()",
    "tensor_split of 0": "torch.ones(2, 3).tensor_split(0)",
    "tensor_split of a scalar": "torch.tensor(1.).tensor_split(1)",
    "tensor_split at float indices": "torch.ones(3).tensor_split(torch.tensor([1.]))",
    "tensor_split at a matrix of indices": "torch.ones(3).tensor_split(torch.tensor([[1]]))",
    "repeat of fewer dims": "torch.ones(2, 3).repeat(2)",
    "unflatten sizes": "torch.ones(2, 3).unflatten(1, (2, 2))",
    "unflatten sizes with -1": "torch.ones(2, 3).unflatten(1, (-1, 2))",
    "unflatten of no sizes": "torch.ones(2, 3).unflatten(1, ())",
    "cat of vectors along 1": "torch.cat((torch.ones(2), torch.ones(2)), dim=1)",
    "stack of matrices of two shapes": "torch.stack([torch.ones(2, 3), torch.ones(3, 2)])",
    "broadcast of a vector": "torch.ones(2, 3) * torch.ones(4)",
    # in place
    "add_ into integers": "torch.ones(2, dtype=torch.long).add_(torch.ones(2))",
    "add_ of complex": "torch.ones(2).add_(torch.ones(2, dtype=torch.complex64))",
    "mul_ of bools by a float": "torch.ones(2, dtype=torch.bool).mul_(2.5)",
    "div_ of integers": "torch.ones(2, dtype=torch.long).div_(2)",
    "sqrt_ of integers": "torch.ones(2, dtype=torch.long).sqrt_()",
    "sub_ of int32 by doubles": ("torch.ones(2, dtype=torch.int32).sub_("
                                 "torch.ones(2, dtype=torch.float64))"),
    "add_ of a larger shape": "torch.ones(3).add_(torch.ones(2, 3))",
    "add_ of another length": "torch.ones(2, 3).add_(torch.ones(3, 3))",
    "mul_ broadcasting both": "torch.ones(2, 1).mul_(torch.ones(1, 3))",
    "+= of a larger shape": "x = torch.ones(3)\nx += torch.ones(2, 3)",
    "sub_ of a larger shape with alpha": "torch.ones(3).sub_(torch.ones(2, 3), alpha=2)",
    "clamp_ by a larger shape": "torch.ones(3).clamp_(torch.ones(2, 3))",
    "masked_fill_ by a larger mask": ("torch.ones(3).masked_fill_("
                                      "torch.ones(2, 3, dtype=torch.bool), 0.)"),
    "add_ of a larger shape, recorded": ("x = torch.ones(3, requires_grad=True) * 1\n"
                                         "x.add_(torch.ones(2, 3))"),
    "copy_ of another length": "torch.ones(2).copy_(torch.ones(3))",
    "copy_ of a larger shape": "torch.ones(3).copy_(torch.ones(2, 3))",
    "copy_ not broadcasting": "torch.ones(2, 3).copy_(torch.ones(3, 1))",
    "copy_ of a larger shape, recorded": ("x = torch.ones(3, requires_grad=True) * 1\n"
                                          "x.copy_(torch.ones(2, 3))"),
    "fill_ by a vector": "torch.ones(2).fill_(torch.ones(2))",
    "fill_ by a vector of one": "torch.ones(3).fill_(torch.ones(1))",
    "fill_ by a vector, recorded": ("x = torch.ones(3, requires_grad=True) * 1\n"
                                    "x.fill_(torch.ones(2))"),
    "relu of a number": "torch.relu(1.0)",
    "relu_ of bools": "torch.ones(2, dtype=torch.bool).relu_()",
    "masked_fill of a long mask": ("torch.ones(2, 3).masked_fill("
                                   "torch.ones(2, 3, dtype=torch.long), 0.)"),
    "masked_fill of a float mask": "torch.ones(2, 3).masked_fill(torch.ones(2, 3), 0.)",
    "masked_fill of a mask that does not broadcast": (
        "torch.ones(2, 3).masked_fill(torch.ones(3, 3, dtype=torch.bool), 0.)"),
    "masked_fill by a vector": ("torch.ones(2, 3).masked_fill("
                                "torch.ones(2, 3, dtype=torch.bool), torch.ones(2))"),
    "masked_fill_ of a larger mask": ("torch.ones(2, 3).masked_fill_("
                                      "torch.ones(2, 2, 3, dtype=torch.bool), 0.)"),
    "clamp by bounds that do not broadcast": ("torch.ones(2, 3).clamp(torch.ones(3, 3), "
                                              "torch.ones(4))"),
    "clamp by a max that does not broadcast": "torch.ones(2, 3).clamp(max=torch.ones(4))",
    "argmax of nothing": "torch.ones(0).argmax()",
    "argmin along an empty dim": "torch.ones(2, 0).argmin(1)",
    "index_add out of range": "torch.ones(2, 3).index_add(1, torch.tensor([3]), torch.ones(2, 1))",
    "index_add negative": "torch.ones(2, 3).index_add(1, torch.tensor([-1]), torch.ones(2, 1))",
    "index_add count": "torch.ones(2, 3).index_add(1, torch.tensor([0]), torch.ones(2, 2))",
    "index_add source shape": ("torch.ones(2, 3).index_add(1, torch.tensor([0]), "
                               "torch.ones(3, 1))"),
    "index_add of a matrix index": ("torch.ones(2, 3).index_add(1, torch.tensor([[0]]), "
                                    "torch.ones(2, 1))"),
    "index_add of floats": ("torch.ones(2, 3).index_add(1, torch.tensor([0.]), "
                            "torch.ones(2, 1))"),
    "index_fill out of range": "torch.zeros(2, 3).index_fill(1, torch.tensor([-4]), 1.)",
    "index_fill of a matrix index": "torch.ones(2, 3).index_fill(1, torch.tensor([[0]]), 1.)",
    "index_fill of floats": "torch.ones(2, 3).index_fill(1, torch.tensor([0.]), 1.)",
    "index_fill dim out of range": "torch.ones(2, 3).index_fill(2, torch.tensor([0]), 1.)",
    "tril of a vector": "torch.ones(3).tril()",
    "triu of a vector": "torch.ones(3).triu()",
    "repeat_interleave negative": "torch.ones(2, 3).repeat_interleave(-1)",
    "repeat_interleave of a negative count": ("torch.ones(2, 3).repeat_interleave("
                                              "torch.tensor([1, -1]), 0)"),
    "flip dim out of range": "torch.ones(2, 3).flip(2)",
    "roll dim out of range": "torch.ones(2, 3).roll(1, 2)",
    "movedim out of range": "torch.ones(2, 3).movedim(0, 2)",
    "chunk dim out of range": "torch.ones(2, 3).chunk(2, 2)",
    "unbind dim out of range": "torch.ones(2, 3).unbind(2)",
    "split dim out of range": "torch.ones(2, 3).split(1, 2)",
    "split into sizes, dim out of range": "torch.ones(2, 3).split([1, 1], 2)",
    "tensor_split dim out of range": "torch.ones(2, 3).tensor_split(2, 3)",
    "select dim out of range": "torch.ones(2, 3).select(2, 0)",
    "narrow dim out of range": "torch.ones(2, 3).narrow(2, 0, 1)",
    "squeeze dim out of range": "torch.ones(2, 3).squeeze(5)",
    "transpose dim out of range, first": "torch.ones(2, 3).transpose(5, 0)",
    "view_as of another size": "torch.ones(2, 3).view_as(torch.ones(4))",
    "expand_as of another length": "torch.ones(2, 3).expand_as(torch.ones(3, 3))",
}

INDEXING = {
    "int out of range": "torch.ones(2, 3)[2]",
    "negative int out of range": "torch.ones(2, 3)[0, -4]",
    "int after None": "torch.ones(2, 3)[None, 0, 5]",
    "int after an ellipsis": "torch.ones(2, 3)[..., 5]",
    "too many indices": "torch.ones(2, 3)[0, 0, 0]",
    "too many indices with a tensor": "torch.ones(2)[torch.tensor([0]), 0]",
    "too many indices with a mask": "torch.ones(2, 3)[torch.ones(2, 3, dtype=torch.bool), 0]",
    "index tensors of two shapes": ("torch.ones(2, 3)[torch.tensor([0, 1]), "
                                    "torch.tensor([0, 1, 2])]"),
    "index tensor and mask of two shapes": ("torch.ones(2, 3)[torch.tensor([0, 1]), "
                                            "torch.ones(3, dtype=torch.bool)]"),
    "string index": "torch.ones(2, 3)['a']",
    "negative step": "torch.ones(4)[::-1]",
    "float index": "torch.ones(4)[1.5]",
    "float among ints": "torch.ones(2, 3)[0, 1.0]",
    "float tensor": "torch.ones(4)[torch.ones(2)]",
    "tensor out of range": "torch.ones(4)[torch.tensor([4])]",
    "tensor negative out of range": "torch.ones(4)[torch.tensor([-5])]",
    "second tensor out of range": "torch.ones(2, 3)[torch.tensor([0]), torch.tensor([3])]",
    "tensor after slices": "torch.ones(2, 3, 4)[:, :, torch.tensor([4])]",
    "tensors around an int": "torch.ones(2, 3, 4)[torch.tensor([0]), 0, torch.tensor([4])]",
    "list out of range": "torch.ones(2, 3)[:, [0, 5]]",
    "mask shape": "torch.ones(4)[torch.ones(3, dtype=torch.bool)]",
    "mask of 2 dimensions": "torch.ones(2, 3)[torch.ones(2, 2, dtype=torch.bool)]",
    "mask after a slice": "torch.ones(2, 3, 4)[:, torch.ones(3, 5, dtype=torch.bool)]",
    "set a row of another length": "x = torch.ones(2, 3)\nx[0] = torch.ones(2)",
    "set a row from a matrix": "x = torch.ones(2, 3)\nx[0] = torch.ones(2, 3)",
    "set an element from a vector": "x = torch.ones(2, 3)\nx[0, 0] = torch.ones(1, 2)",
    "set columns of another shape": "x = torch.ones(2, 3)\nx[..., 1:] = torch.ones(3, 3)",
    "set rows by a list": "x = torch.ones(2, 3)\nx[[0, 1]] = torch.ones(1, 2)",
    "set rows by a mask": "x = torch.ones(2, 3)\nx[torch.tensor([True, False])] = torch.ones(3, 3)",
    "set rows that require grad": "x = torch.ones(2, 3)\nx[0] = torch.ones(2, requires_grad=True)",
}

FACTORIES = {
    "zeros of a negative size": "torch.zeros(-1, 2)",
    "ones of a negative size": "torch.ones(2, -1, -2)",
    "empty of a negative size": "torch.empty(2, -3)",
    "full of a negative size": "torch.full((-2,), 1.)",
    "rand of a negative size": "torch.rand(-1)",
    "randn of a negative size": "torch.randn(2, -1)",
    "randint of a negative size": "torch.randint(5, (-1,))",
    "randperm of a negative length": "torch.randperm(-1)",
    "zeros of a float": "torch.zeros(2.5)",
    "zeros of a string": "torch.zeros('a')",
    "zeros of a bool": "torch.zeros(True)",
    "zeros with a float": "torch.zeros(2, 2.5)",
    "ones with None": "torch.ones([2, None])",
    "rand of a float": "torch.rand(2.5)",
    "randn with a float": "torch.randn((2, 2.5))",
    "arange step 0": "torch.arange(0, 5, 0)",
    "arange step nan": "torch.arange(0, 1, float('nan'))",
    "arange step sign": "torch.arange(0, 5, -1)",
    "arange backwards": "torch.arange(5, 0)",
    "arange to nan": "torch.arange(0, float('nan'))",
    "arange to inf": "torch.arange(0.5, float('inf'))",
    "arange from -inf": "torch.arange(-float('inf'), 0)",
    "arange too long": "torch.arange(0, 1e20)",
    "linspace of negative steps": "torch.linspace(0, 1, -1)",
    "linspace of bool": "torch.linspace(0, 1, 3, dtype=torch.bool)",
    "linspace beyond int8": "torch.linspace(0, 127.5, 3, dtype=torch.int8)",
    "linspace beyond float16": "torch.linspace(0, 65519.0, 3, dtype=torch.float16)",
    "linspace beyond float32": "torch.linspace(-1e39, 0, 3)",
    "linspace of nan to int": "torch.linspace(0, float('nan'), 3, dtype=torch.int32)",
    "linspace of -1.0 to uint8": "torch.linspace(-1.0, 0, 3, dtype=torch.uint8)",
    "linspace of -256 to uint8": "torch.linspace(-256, 0, 3, dtype=torch.uint8)",
    "tensor of a reversed array": "torch.tensor(np.arange(5.0)[::-1])",
    "tensor of a reversed length-1 array": "torch.tensor(np.arange(3.0)[::-1][:1])",
    "as_tensor of a reversed array": "torch.as_tensor(np.arange(6.0).reshape(2, 3)[:, ::-1])",
    "from_numpy of a reversed array": "torch.from_numpy(np.arange(5.0)[::-1])",
    "Tensor of a reversed array": "torch.Tensor(np.arange(5.0, dtype=np.float32)[::-1])",
    "eye of a negative n": "torch.eye(-1)",
    "eye of a negative m": "torch.eye(2, -1)",
    "randint of an empty range": "torch.randint(5, 5, (2,))",
    "randint of a reversed range": "torch.randint(6, 5, (2,))",
    "tensor ragged": "torch.tensor([[1, 2], [3]])",
    "tensor ragged deeper": "torch.tensor([[[1, 2], [3, 4]], [[5, 6], [7]]])",
    "tensor of a number and a list": "torch.tensor([[1], 2])",
    "tensor of a string": "torch.tensor('a')",
    "tensor with a string": "torch.tensor([1, 'a'])",
    "tensor of an object": "torch.tensor(object())",
    "tensor of None": "torch.tensor(None)",
    "tensor with None": "torch.tensor([1, None])",
    "tensor with None and an object": "torch.tensor([[1, None], [object(), 2]])",
    # with a dtype, PyTorch converts the elements in order, by the dtype's kind
    "as_tensor of None as int64": "torch.as_tensor(None, dtype=torch.int64)",
    "as_tensor of None as bool": "torch.as_tensor([True, None], dtype=torch.bool)",
    "as_tensor of None as a float": "torch.as_tensor([[1.5], [None]], dtype=torch.float64)",
    "tensor of None as complex": "torch.tensor([None, 1], dtype=torch.complex64)",
    "tensor of a list in place of a number": "torch.tensor([1, [None]], dtype=torch.float32)",
    "tensor of None after a complex": "torch.tensor([1j, None], dtype=torch.int32)",
    "tensor with None, ragged": "torch.tensor([[1, 2], [None]], dtype=torch.int64)",
    "from_numpy of a list": "torch.from_numpy([1, 2])",
    "FloatTensor of sizes and data": "torch.FloatTensor(2, [1])",
    "FloatTensor of a float": "torch.FloatTensor(2.5)",
    "normal of a negative std": "torch.normal(0., -1., (2,))",
    "multinomial of too many": "torch.multinomial(torch.ones(2), 3)",
    "multinomial of a negative": "torch.multinomial(torch.tensor([1., -1.]), 1)",
    "bernoulli out of range": "torch.bernoulli(torch.tensor([2.]))",
    "uniform_ of reversed bounds": "torch.ones(2).uniform_(1, 0)",
}

NN = {
    "Linear shapes": "torch.nn.Linear(3, 4)(torch.ones(2, 5))",
    "Linear of a vector": "torch.nn.Linear(3, 4)(torch.ones(5))",
    "Linear dtypes": "torch.nn.Linear(3, 4)(torch.ones(2, 3, dtype=torch.float64))",
    "Linear of integers": "torch.nn.Linear(3, 4)(torch.ones(2, 3, dtype=torch.long))",
    "Linear of long weights": "torch.nn.Linear(2, 2, dtype=torch.long)",
    "linear of a list": "torch.nn.functional.linear([1.], torch.ones(1, 1))",
    "Dropout probability": "torch.nn.Dropout(1.5)",
    "dropout probability": "torch.nn.functional.dropout(torch.ones(2), -0.1)",
    "Embedding of floats": "torch.nn.Embedding(3, 2)(torch.ones(2))",
    "Embedding out of range": "torch.nn.Embedding(3, 2)(torch.tensor([3]))",
    "Embedding negative": "torch.nn.Embedding(3, 2)(torch.tensor([-1]))",
    "Embedding padding_idx": "torch.nn.Embedding(3, 2, padding_idx=3)",
    "Embedding weight shape": "torch.nn.Embedding(3, 2, _weight=torch.ones(2, 2))",
    "Embedding from a vector": "torch.nn.Embedding.from_pretrained(torch.ones(3))",
    "reduction": "torch.nn.MSELoss(reduction='avg')(torch.ones(2), torch.ones(2))",
    "MSELoss shapes": "torch.nn.MSELoss()(torch.ones(2, 3), torch.ones(3, 2))",
    "CrossEntropyLoss of float targets": ("torch.nn.CrossEntropyLoss()(torch.ones(2, 3), "
                                          "torch.ones(2))"),
    "NLLLoss of float targets": "torch.nn.NLLLoss()(torch.ones(2, 3), torch.ones(2))",
    "CrossEntropyLoss of int32 targets": ("torch.nn.CrossEntropyLoss()(torch.ones(2, 3), "
                                          "torch.ones(2, dtype=torch.int32))"),
    "CrossEntropyLoss batch": ("torch.nn.CrossEntropyLoss()(torch.ones(2, 3), "
                               "torch.zeros(3, dtype=torch.long))"),
    "NLLLoss batch": "torch.nn.NLLLoss()(torch.ones(2, 3), torch.zeros(3, dtype=torch.long))",
    "CrossEntropyLoss out of range": ("torch.nn.CrossEntropyLoss()(torch.ones(2, 3), "
                                      "torch.tensor([0, 3]))"),
    "NLLLoss out of range": "torch.nn.NLLLoss()(torch.ones(2, 3), torch.tensor([0, 3]))",
    "NLLLoss negative": "torch.nn.NLLLoss()(torch.ones(2, 3), torch.tensor([0, -2]))",
    "NLLLoss of a scalar": "torch.nn.NLLLoss()(torch.tensor(1.), torch.tensor(0))",
    "NLLLoss of 2-D targets": ("torch.nn.NLLLoss()(torch.ones(2, 3), "
                               "torch.zeros(2, 1, dtype=torch.long))"),
    "NLLLoss spatial targets": ("torch.nn.NLLLoss()(torch.ones(2, 3, 4), "
                                "torch.zeros(2, 5, dtype=torch.long))"),
    "NLLLoss weight": ("torch.nn.NLLLoss(weight=torch.ones(2))(torch.ones(2, 3), "
                       "torch.zeros(2, dtype=torch.long))"),
    "BCELoss shapes": "torch.nn.BCELoss()(torch.full((2,), .5), torch.ones(3))",
    "BCELoss out of range": "torch.nn.BCELoss()(torch.full((2,), 2.), torch.ones(2))",
    "BCELoss of long targets": ("torch.nn.BCELoss()(torch.full((2,), .5), "
                                "torch.ones(2, dtype=torch.long))"),
    "BCEWithLogitsLoss shapes": "torch.nn.BCEWithLogitsLoss()(torch.ones(2), torch.ones(3))",
    "BCEWithLogitsLoss of long targets": ("torch.nn.BCEWithLogitsLoss()(torch.ones(2), "
                                          "torch.ones(2, dtype=torch.long))"),
    "Module attribute": "torch.nn.Linear(2, 2).foo",
    "parameter before __init__": ("class M(torch.nn.Module):\n    def __init__(self):\n"
                                  "        self.p = torch.nn.Parameter(torch.ones(1))\nM()"),
    "module before __init__": ("class M(torch.nn.Module):\n    def __init__(self):\n"
                               "        self.l = torch.nn.Linear(1, 1)\nM()"),
    "tensor as a parameter": "m = torch.nn.Linear(2, 2)\nm.weight = torch.ones(2, 2)",
    "register_parameter of a tensor": ("torch.nn.Module().register_parameter("
                                       "'p', torch.nn.Parameter(torch.ones(1)) * 2)"),
    "register_buffer of a list": "torch.nn.Module().register_buffer('b', [1])",
    "add_module of a number": "torch.nn.Module().add_module('m', 3)",
    "add_module of a number name": "torch.nn.Module().add_module(3, torch.nn.Linear(1, 1))",
    "add_module name with a dot": "torch.nn.Module().add_module('a.b', torch.nn.Linear(1, 1))",
    "add_module empty name": "torch.nn.Module().add_module('', torch.nn.Linear(1, 1))",
    "add_module of an attribute": ("m = torch.nn.Module()\nm.x = 1\n"
                                   "m.add_module('x', torch.nn.Linear(1, 1))"),
    "register_parameter of an attribute": ("m = torch.nn.Module()\nm.x = 1\n"
                                           "m.register_parameter('x', None)"),
    "child set to a number": "m = torch.nn.Sequential(torch.nn.Linear(1, 1))\nsetattr(m, '0', 3)",
    "forward missing": "torch.nn.Module()(torch.ones(1))",
    "train of a number": "torch.nn.Linear(1, 1).train(1)",
    "to an integer dtype": "torch.nn.Linear(1, 1).to(torch.long)",
    "to cuda": "torch.nn.Linear(2, 2).to('cuda')",
    "load_state_dict of a list": "torch.nn.Linear(1, 1).load_state_dict([1])",
    "load_state_dict missing keys": ("torch.nn.Linear(2, 2).load_state_dict("
                                     "{'weight': torch.ones(2, 2)})"),
    "load_state_dict unexpected keys": (
        "torch.nn.Linear(2, 2).load_state_dict({'weight': torch.ones(2, 2), "
        "'bias': torch.ones(2), 'x': torch.ones(1)})"),
    "load_state_dict shapes": ("torch.nn.Linear(2, 2).load_state_dict({'weight': "
                               "torch.ones(3, 2), 'bias': torch.ones(2)})"),
    "load_state_dict missing and unexpected": (
        "torch.nn.Sequential(torch.nn.Linear(2, 2)).load_state_dict({'weight': "
        "torch.ones(2, 2)})"),
    "Parameter of integers": "torch.nn.Parameter(torch.ones(1, dtype=torch.long))",
    "Sequential index": "torch.nn.Sequential(torch.nn.ReLU())[1]",
    "init fan of a vector": "torch.nn.init.xavier_uniform_(torch.ones(3))",
    "init mode": "torch.nn.init.kaiming_uniform_(torch.ones(3, 3), mode='x')",
    "init nonlinearity": "torch.nn.init.calculate_gain('x')",
    "init slope": "torch.nn.init.calculate_gain('leaky_relu', 'a')",
    "cross_entropy of 2-D float targets": ("torch.nn.functional.cross_entropy("
                                           "torch.ones(2, 3), torch.zeros(2, 2))"),
    "cross_entropy of float targets, batch": ("torch.nn.functional.cross_entropy("
                                              "torch.ones(2, 3), torch.ones(3))"),
    "cross_entropy of float spatial targets": ("torch.nn.functional.cross_entropy("
                                               "torch.ones(2, 3, 4), torch.ones(2, 5))"),
    "nll_loss of 2-D int32 targets": ("torch.nn.functional.nll_loss(torch.ones(2, 3), "
                                      "torch.zeros(2, 2, dtype=torch.int32))"),
    "nll_loss of one sample, two targets": ("torch.nn.functional.nll_loss(torch.ones(2), "
                                            "torch.zeros(2, dtype=torch.long))"),
    "nll_loss of a scalar target": ("torch.nn.functional.nll_loss(torch.ones(2, 3), "
                                    "torch.zeros((), dtype=torch.long))"),
    "Linear of a scalar": "torch.nn.Linear(3, 4)(torch.tensor(1.))",
    "Linear of 3 dimensions": "torch.nn.Linear(3, 4)(torch.ones(2, 4, 5))",
    "Linear of a negative size": "torch.nn.Linear(-1, 4)",
    "Sequential of layers that do not fit": ("torch.nn.Sequential(torch.nn.Linear(2, 3), "
                                             "torch.nn.Linear(2, 3))(torch.ones(1, 2))"),
    "ReLU of a number": "torch.nn.ReLU()(1.0)",
    "relu of bools": "torch.nn.functional.relu(torch.ones(2, dtype=torch.bool))",
    "Softmax out of range": "torch.nn.Softmax(dim=5)(torch.ones(2, 3))",
    "Flatten of a vector": "torch.nn.Flatten()(torch.ones(3))",
    "Embedding out of range, 2-D": "torch.nn.Embedding(3, 2)(torch.tensor([[5]]))",
    "Embedding of a negative size": "torch.nn.Embedding(-1, 2)",
    "dropout of integers": "torch.nn.functional.dropout(torch.ones(2, dtype=torch.long), 0.5)",
    "non-leaf parameter": ("m = torch.nn.Module()\n"
                           "p = torch.nn.Parameter(torch.ones(2), requires_grad=False)\n"
                           "p.add_(torch.ones(2, requires_grad=True))\n"
                           "m.register_parameter('w', p)"),
    "non-leaf parameter assigned": ("m = torch.nn.Module()\n"
                                    "p = torch.nn.Parameter(torch.ones(2), requires_grad=False)\n"
                                    "p.add_(torch.ones(2, requires_grad=True))\nm.w = p"),
}

OPTIM = {
    "SGD of a number": "torch.optim.SGD(3, lr=0.1)",
    "SGD nesterov with dampening": ("torch.optim.SGD([torch.ones(1, requires_grad=True)], "
                                    "lr=0.1, dampening=0.5, nesterov=True, momentum=0.9)"),
    "Adam weight_decay": "torch.optim.Adam([torch.ones(1, requires_grad=True)], weight_decay=-1)",
    "AdamW lr": "torch.optim.AdamW([torch.ones(1, requires_grad=True)], lr=-1)",
    "AdamW beta 1 of 1": "torch.optim.AdamW([torch.ones(1, requires_grad=True)], betas=(0.9, 1.0))",
    "AdamW eps": "torch.optim.AdamW([torch.ones(1, requires_grad=True)], eps=-1)",
    "RMSprop lr": "torch.optim.RMSprop([torch.ones(1, requires_grad=True)], lr=-1)",
    "RMSprop eps": "torch.optim.RMSprop([torch.ones(1, requires_grad=True)], eps=-1)",
    "RMSprop weight_decay": ("torch.optim.RMSprop([torch.ones(1, requires_grad=True)], "
                             "weight_decay=-1)"),
    "a group without params": "torch.optim.SGD([{'lr': 0.1}], lr=0.1)",
    "add_param_group without params": (
        "o = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)\n"
        "o.add_param_group({'lr': 0.1})"),
    "add_param_group of a parameter already there": (
        "p = torch.ones(1, requires_grad=True)\no = torch.optim.SGD([p], lr=0.1)\n"
        "o.add_param_group({'params': [p]})"),
    "load_state_dict without param_groups": (
        "o = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)\n"
        "o.load_state_dict({'state': {}})"),
    "load_state_dict of no groups": (
        "o = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)\n"
        "o.load_state_dict({'param_groups': []})"),
    "required hyperparameter missing": (
        "import importlib\n"
        "required = importlib.import_module(torch.__name__ + '.optim.optimizer').required\n"
        "class O(torch.optim.Optimizer):\n    def __init__(self, params):\n"
        "        super().__init__(params, {'lr': required})\n"
        "O([torch.ones(1, requires_grad=True)])"),
    "Optimizer without an algorithm": ("torch.optim.Optimizer([torch.ones(1, requires_grad=True)], "
                                       "{}).step()"),
    "LRScheduler without get_lr": (
        "o = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)\n"
        "torch.optim.lr_scheduler.LRScheduler(o)"),
    "SGD lr": "torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=-1)",
    "SGD lr None": "torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=None)",
    "SGD momentum": "torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1, momentum=-1)",
    "SGD weight_decay": ("torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1, "
                         "weight_decay=-1)"),
    "SGD nesterov": "torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1, nesterov=True)",
    "Adam lr": "torch.optim.Adam([torch.ones(1, requires_grad=True)], lr=-1)",
    "Adam lr None": "torch.optim.Adam([torch.ones(1, requires_grad=True)], lr=None)",
    "Adam lr nan": "torch.optim.Adam([torch.ones(1, requires_grad=True)], lr=float('nan'))",
    "Adam eps": "torch.optim.Adam([torch.ones(1, requires_grad=True)], eps=-1)",
    "Adam beta 0": "torch.optim.Adam([torch.ones(1, requires_grad=True)], betas=(1.0, 0.9))",
    "Adam beta 1": "torch.optim.Adam([torch.ones(1, requires_grad=True)], betas=(0.9, -0.1))",
    "AdamW weight_decay": "torch.optim.AdamW([torch.ones(1, requires_grad=True)], weight_decay=-1)",
    "RMSprop alpha": "torch.optim.RMSprop([torch.ones(1, requires_grad=True)], alpha=-1)",
    "RMSprop momentum": "torch.optim.RMSprop([torch.ones(1, requires_grad=True)], momentum=-1)",
    "empty parameter list": "torch.optim.SGD([], lr=0.1)",
    "a tensor as params": "torch.optim.SGD(torch.ones(1, requires_grad=True), lr=0.1)",
    "non-leaf": "torch.optim.SGD([torch.ones(1, requires_grad=True) * 2], lr=0.1)",
    "a number as a parameter": "torch.optim.SGD([1.0], lr=0.1)",
    "param_group of a list": ("o = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)\n"
                              "o.add_param_group([torch.ones(1, requires_grad=True)])"),
    "param_group of a set": ("o = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)\n"
                             "o.add_param_group({'params': {torch.ones(1, requires_grad=True)}})"),
    "a parameter in two groups": ("p = torch.ones(1, requires_grad=True)\n"
                                  "torch.optim.SGD([{'params': [p]}, {'params': [p]}], lr=0.1)"),
    "load_state_dict groups": (
        "o = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)\ns = o.state_dict()\n"
        "s['param_groups'] = s['param_groups'] * 2\no.load_state_dict(s)"),
    "load_state_dict group size": (
        "o = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)\ns = o.state_dict()\n"
        "s['param_groups'][0]['params'] = [0, 1]\no.load_state_dict(s)"),
    "StepLR of a number": "torch.optim.lr_scheduler.StepLR(3, 1)",
    "StepLR resumed": ("o = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)\n"
                       "torch.optim.lr_scheduler.StepLR(o, 1, last_epoch=3)"),
}

# Snippets that warn (and may raise too): the warnings' texts are compared.
WARNINGS = {
    "MSELoss target size": "torch.nn.MSELoss()(torch.ones(2, 1), torch.ones(2))",
    "MSELoss shapes": NN["MSELoss shapes"],
    "size_average": "torch.nn.MSELoss(size_average=False)",
    "implicit softmax dim": "torch.nn.functional.softmax(torch.ones(2, 3))",
    "implicit log_softmax dim": "torch.nn.functional.log_softmax(torch.ones(2, 3, 4))",
    "tensor of a tensor": "torch.tensor(torch.ones(2))",
    "init of no elements": "torch.nn.init.kaiming_uniform_(torch.ones(0, 3))",
    "scheduler stepped before its optimizer": (
        "o = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.StepLR(o, 2)\ns.step()"),
    "scheduler stepped before its optimizer, stepped before it": (
        "o = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)\no.step()\n"
        "s = torch.optim.lr_scheduler.StepLR(o, 2)\ns.step()"),
    "optimizer of a parameter twice": (
        "p = torch.ones(1, requires_grad=True)\ntorch.optim.SGD([p, p], lr=0.1)"),
}

# name: (snippet, marker): compared up to the marker (PyTorch's text continues with what
# compat cannot say as it does).
PREFIXES = {
    # PyTorch lists uint16/32/64, which compat has no dtypes for
    "from_numpy of strings": ("torch.from_numpy(np.array(['a']))", ". The only"),
    "from_numpy of objects": ("torch.from_numpy(np.array([1], dtype=object))", ". The only"),
    # compat has no nn.Buffer to name among what may be assigned
    "buffer set to a number": ("m = torch.nn.Module()\nm.register_buffer('b', torch.ones(1))\n"
                               "m.b = 3", " (torch."),
}
# name: (snippet, marker): the warning's text up to the marker (PyTorch's C++ warnings end
# with their source line).
WARNING_PREFIXES = {
    "var of one element": ("torch.ones(1).var()", " (Triggered internally"),
    "std of one element": ("torch.ones(2, 1).std(1)", " (Triggered internally"),
}

TYPES_ONLY = {
    "linspace without steps": "torch.linspace(0, 1)",
    "linspace of float steps": "torch.linspace(0, 1, 2.5)",
    "randint without a size": "torch.randint(5)",
    "view of None": "torch.ones(2, 3).view(None)",
    "Module.to of a keyword": "torch.nn.Linear(1, 1).to(foo=1)",
    "FloatTensor keyword": "torch.FloatTensor(2, foo=1)",
    "FloatTensor of a double tensor": "torch.FloatTensor(torch.ones(2, dtype=torch.float64))",
}

# name: (snippet, what compat raises, what PyTorch raises): None where one computes.
DIFFERENCES = {
    # out= arguments are not supported: assign the result instead
    "ones with out=": ("torch.ones(2, out=torch.ones(2))", TypeError, None),
    # sparse gradients are not supported
    "Embedding sparse": ("torch.nn.Embedding(3, 2, sparse=True)(torch.tensor([1]))",
                         NotImplementedError, None),
    # NumPy's rule: which dimensions a second ellipsis stands for is ambiguous
    "two ellipses": ("torch.ones(2, 3)[..., ...]", IndexError, None),
    "set by two ellipses": ("x = torch.ones(2, 3)\nx[..., ...] = 1", IndexError, None),
    # a list holding a float: PyTorch's deprecated reading of a list as a tuple of indices
    "list of a float": ("torch.ones(3)[[0.5]]", IndexError, None),
    "set by a list of a float": ("x = torch.ones(3)\nx[[0.5]] = torch.ones(1)", IndexError, None),
    # PyTorch's SGD takes a NaN learning rate and makes every parameter NaN at its step
    "SGD lr nan": ("torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=float('nan'))",
                   ValueError, None),
    # PyTorch fails on the list's missing detach(); compat says what Parameter takes
    "Parameter of a list": ("torch.nn.Parameter([1.])", TypeError, AttributeError),
    # the pre-0.4 scripts compat runs read loss.data[0] (with a DeprecationWarning)
    "index 0 of a scalar": ("torch.tensor(1.)[0]", None, IndexError),
}


def _run(snippet, library):
    """What running `snippet` with `library` as torch raised (None if nothing) and the
    texts of the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(snippet, {"torch": library, "np": np, "__name__": "case"})
            raised = None
        except Exception as error:  # compared with what the other library raised
            raised = error
    return raised, [str(w.message) for w in caught]


def _raised(snippet):
    ours, _ = _run(snippet, compat)
    theirs, _ = _run(snippet, torch)
    assert theirs is not None, f"torch raised nothing for {snippet!r}"
    assert ours is not None, f"compat raised nothing; torch raised {theirs!r}"
    assert type(ours).__name__ == type(theirs).__name__, \
        f"compat raised {ours!r}, torch raised {theirs!r}"
    return str(ours), str(theirs)


EXACT = {**OPS, **INDEXING, **FACTORIES, **NN, **OPTIM}


@pytest.mark.parametrize("name", EXACT)
def test_error_text_like_torch(name):
    ours, theirs = _raised(EXACT[name])
    assert ours == theirs, f"\ncompat: {ours}\ntorch:  {theirs}"


@pytest.mark.parametrize("name", PREFIXES)
def test_error_text_starts_like_torch(name):
    snippet, marker = PREFIXES[name]
    ours, theirs = _raised(snippet)
    assert marker in theirs and marker in ours, f"\ncompat: {ours}\ntorch:  {theirs}"
    assert ours.split(marker)[0] == theirs.split(marker)[0], \
        f"\ncompat: {ours}\ntorch:  {theirs}"


@pytest.mark.parametrize("name", TYPES_ONLY)
def test_error_type_like_torch(name):
    _raised(TYPES_ONLY[name])


@pytest.mark.parametrize("name", WARNINGS)
def test_warning_text_like_torch(name):
    (ours_raised, ours), (theirs_raised, theirs) = (_run(WARNINGS[name], library)
                                                    for library in (compat, torch))
    assert theirs, f"torch gave no warning for {WARNINGS[name]!r}"
    assert ours == theirs
    assert type(ours_raised).__name__ == type(theirs_raised).__name__


@pytest.mark.parametrize("name", WARNING_PREFIXES)
def test_warning_text_starts_like_torch(name):
    snippet, marker = WARNING_PREFIXES[name]
    (_, ours), (_, theirs) = (_run(snippet, library) for library in (compat, torch))
    assert len(ours) == len(theirs) == 1 and marker in theirs[0], (ours, theirs)
    assert ours[0] == theirs[0].split(marker)[0]


@pytest.mark.parametrize("name", DIFFERENCES)
def test_deliberate_difference(name):
    snippet, ours_expected, theirs_expected = DIFFERENCES[name]
    (ours, _), (theirs, _) = (_run(snippet, library) for library in (compat, torch))
    for library, got, expected in (("compat", ours, ours_expected),
                                   ("torch", theirs, theirs_expected)):
        if expected is None:
            assert got is None, f"{library} raised {got!r}"
        else:
            assert isinstance(got, expected), f"{library} gave {got!r}"


def test_no_case_repeats_another():
    """The tables together are the cases: one name and one snippet, one place."""
    tables = (OPS, INDEXING, FACTORIES, NN, OPTIM)
    assert len(EXACT) == sum(len(table) for table in tables)
    snippets = [*EXACT.values(), *(s for s, _ in PREFIXES.values()), *TYPES_ONLY.values(),
                *(s for s, _, _ in DIFFERENCES.values()), *AUTOGRAD_CASES.values()]
    assert len(snippets) == len(set(snippets))


# ---- random shapes: the checks behind the texts, against PyTorch's ----------------------

def _shapes(min_dims=0, max_dims=3, max_length=3):
    return st.lists(st.integers(0, max_length), min_size=min_dims, max_size=max_dims).map(tuple)


def _same_outcome(case):
    """`case(library)` gives the same result, or raises the same error word for word."""
    check(case, messages=True)


def _operands():
    """An operand of a product: its shape, dtype, whether it is a transposed view (PyTorch
    picks its kernel, and so its error texts, by strides) and whether it requires grad
    (which PyTorch's choice of kernel also reads)."""
    return st.tuples(_shapes(0, 4), st.sampled_from(["float32", "float64", "int64"]),
                     st.booleans(), st.booleans())


def _operand(torch, shape, dtype, transposed, requires_grad):
    dtype = getattr(torch, dtype)
    if transposed and len(shape) >= 2:
        x = torch.ones(shape[:-2] + shape[:-3:-1], dtype=dtype).transpose(-1, -2)
    else:
        x = torch.ones(shape, dtype=dtype)
    return x.requires_grad_(requires_grad and dtype.is_floating_point)


@given(name=st.sampled_from(["mm", "mv", "dot", "bmm", "matmul"]), a=_operands(),
       b=_operands())
def test_products_of_random_shapes_like_torch(name, a, b):
    def case(torch):
        x, y = _operand(torch, *a), _operand(torch, *b)
        result = getattr(torch, name)(x, y)
        layout = (result.stride() if result.numel() else None, result.is_contiguous())
        if not result.requires_grad:
            return result, layout
        result.sum().backward()
        return result, layout, x.grad, y.grad
    _same_outcome(case)


@given(name=st.sampled_from(["cat", "stack"]), shapes=st.lists(_shapes(0, 3), max_size=3),
       dim=st.integers(-4, 3))
def test_joins_of_random_shapes_like_torch(name, shapes, dim):
    def case(torch):
        return getattr(torch, name)([torch.ones(shape) for shape in shapes], dim)
    _same_outcome(case)


@given(name=st.sampled_from(["gather", "scatter", "scatter_add", "scatter_reduce"]),
       shape=_shapes(0, 3), index=_shapes(0, 3), src=_shapes(0, 3), dim=st.integers(-4, 3),
       int32=st.booleans(), reduce=st.sampled_from(["sum", "prod", "mean", "amax", "amin"]),
       include=st.booleans(), data=st.data())
def test_gathers_of_random_shapes_like_torch(name, shape, index, src, dim, int32, reduce,
                                             include, data):
    """Index tensors of random shapes (empty ones too) and values (in range or not)
    against random tensors and sources."""
    values = data.draw(st.lists(st.integers(-1, 4), min_size=int(np.prod(index)),
                                max_size=int(np.prod(index))))

    def case(torch):
        x = torch.zeros(shape)
        where = torch.tensor(values, dtype=torch.int32 if int32 else torch.int64).reshape(index)
        if name == "gather":
            return x.gather(dim, where)
        if name == "scatter_reduce":
            return x.scatter_reduce(dim, where, torch.ones(src), reduce, include_self=include)
        return getattr(x, name)(dim, where, torch.ones(src))
    _same_outcome(case)


@given(name=st.sampled_from(["index_select", "take", "take_along_dim"]), shape=_shapes(0, 3),
       index=_shapes(0, 3), dim=st.one_of(st.none(), st.integers(-4, 3)), int32=st.booleans(),
       data=st.data())
def test_selections_of_random_shapes_like_torch(name, shape, index, dim, int32, data):
    """index_select, take and take_along_dim (dim None: of the flattened tensor) with index
    tensors of random shapes and values (in range or not), PyTorch's kernels' checks."""
    values = data.draw(st.lists(st.integers(-5, 5), min_size=int(np.prod(index)),
                                max_size=int(np.prod(index))))

    def case(torch):
        x = torch.arange(float(np.prod(shape))).reshape(shape)
        where = torch.tensor(values, dtype=torch.int32 if int32 else torch.int64).reshape(index)
        if name == "index_select":
            return x.index_select(dim or 0, where)
        return x.take(where) if name == "take" else x.take_along_dim(where, dim)
    _same_outcome(case)


def _index_parts(shape):
    """One part of an index of a tensor of `shape`: ints and index tensors (in range or
    not), slices, None, an ellipsis, masks of random shapes."""
    tensors = st.lists(st.integers(-4, 4), min_size=1, max_size=3)
    masks = _shapes(1, 2).flatmap(
        lambda mask: st.lists(st.booleans(), min_size=int(np.prod(mask)),
                              max_size=int(np.prod(mask))).map(lambda v: ("mask", mask, v)))
    return st.one_of(st.integers(-4, 4), st.just(slice(None)), st.just(slice(1, None)),
                     st.none(), st.just(Ellipsis), tensors.map(lambda v: ("index", v)), masks)


def _built(part, torch):
    if isinstance(part, tuple) and part[0] == "index":
        return torch.tensor(part[1])
    if isinstance(part, tuple):
        return torch.tensor(part[2], dtype=torch.bool).reshape(part[1])
    return part


def _one_ellipsis(parts):
    return sum(part is Ellipsis for part in parts) <= 1


@given(shape=_shapes(1, 3), data=st.data())
def test_indexing_of_random_shapes_like_torch(shape, data):
    parts = data.draw(st.lists(_index_parts(shape), min_size=1, max_size=4)
                      .filter(_one_ellipsis))

    def case(torch):
        return torch.arange(float(np.prod(shape))).reshape(shape)[
            tuple(_built(part, torch) for part in parts)]
    _same_outcome(case)


@given(shape=_shapes(1, 3), value=_shapes(0, 3), data=st.data())
def test_setitem_of_random_shapes_like_torch(shape, value, data):
    parts = data.draw(st.lists(_index_parts(shape), min_size=1, max_size=3)
                      .filter(_one_ellipsis))

    def case(torch):
        x = torch.zeros(shape)
        x[tuple(_built(part, torch) for part in parts)] = torch.ones(value)
        return x
    _same_outcome(case)


# What the random-shape tests above found (each fixed): the outcome, a result or an error
# word for word, is PyTorch's. A snippet's `result` is compared.
FOUND = {
    "mv of scalars": "result = torch.mv(torch.ones(()), torch.ones(()))",
    "empty matmul folded to mv": ("result = torch.ones(0) @ "
                                  "torch.ones(0, 0, 0, dtype=torch.float64)"),
    "dot dtypes before sizes": "result = torch.ones(2).dot(torch.ones(3, dtype=torch.float64))",
    "matmul of matrix and batch": "result = torch.ones(2, 2) @ torch.ones(1, 2, 1, 1)",
    "matmul of batch and matrix requiring grad": (
        "result = torch.ones(3, 2, 3) @ torch.ones(2, 2, requires_grad=True)"),
    "matmul of a batch of one requiring grad by a batch": (
        "result = torch.ones(1, 2, 3, requires_grad=True) @ torch.ones(2, 4, 5)"),
    "matmul by a batch of one requiring grad, dtypes": (
        "result = torch.ones(2, 2, 3) @ "
        "torch.ones(1, 3, 3, dtype=torch.float64, requires_grad=True)"),
    "matmul of a matrix requiring grad by a batch": (
        "result = torch.ones(2, 3, requires_grad=True) @ torch.ones(2, 3, 4)"),
    "matmul of a matrix requiring grad by a batch of columns": (
        "result = torch.ones(2, 3, requires_grad=True) @ torch.ones(2, 3, 1)"),
    "bmm of two dtypes with nothing to sum": ("result = torch.bmm(torch.ones(3, 2, 0, dtype="
                                              "torch.float64), torch.ones(3, 0, 3))"),
    "matmul of two dtypes, empty": ("result = torch.ones(2, 1, 1, 3) @ "
                                    "torch.ones(0, 3, 2, dtype=torch.float64)"),
    "empty bmm into integers requiring grad": (
        "result = torch.ones(3, 2, 0, requires_grad=True).bmm("
        "torch.ones(3, 0, 3, dtype=torch.long))"),
    "int after an ellipsis, empty": "result = torch.ones(0)[..., 0]",
    "index array in an empty selection": "result = torch.ones(0, 1)[:, torch.tensor([1])]",
    "index array on a dimension of length 0": "result = torch.ones(0, 0)[torch.tensor([0])]",
    "set an empty selection": ("result = torch.zeros(0, 0, 1)\n"
                               "result[:, :, torch.tensor([1])] = torch.ones(())"),
    "set by an int out of range, empty": "result = torch.zeros(0)\nresult[0] = torch.ones(())",
    "set by a mask after None": ("result = torch.zeros(0, 0)\n"
                                 "result[None, torch.zeros(0, 1, dtype=torch.bool)] = 1."),
    "value checked before the index array": ("result = torch.zeros(1)\n"
                                             "result[torch.tensor([1])] = torch.ones(0)"),
    "set all from a wrong shape": "result = torch.zeros(1)\nresult[:] = torch.ones(0)",
    "cat of one legacy empty tensor along 1": "result = torch.cat([torch.ones(0)], 1)",
    "empty mask of a dimension of length 1": ("result = torch.ones(1)["
                                              "torch.zeros(0, dtype=torch.bool)]"),
    "scatter_add of a 0-d src": ("result = torch.zeros(1).scatter_add(0, torch.tensor([0]), "
                                 "torch.ones(()))"),
    "gather by a 0-d index": "result = torch.ones(3).gather(0, torch.tensor(1))",
    "scatter into a 0-d tensor": ("result = torch.zeros(()).scatter(0, torch.tensor([0]), "
                                  "torch.ones(2))"),
    "scatter_add by an empty index": ("result = torch.zeros(3, 2).scatter_add(1, "
                                      "torch.zeros(4, 0, dtype=torch.long), torch.ones(0, 3))"),
    "scatter_reduce into a 0-d tensor by an empty index": (
        "result = torch.ones(()).scatter_reduce(0, torch.zeros(0, dtype=torch.long), "
        "torch.ones(()), 'sum')"),
    "gather by an empty index": ("result = torch.ones(2).gather(0, "
                                 "torch.zeros(4, 4, 0, dtype=torch.long))"),
}


# What compat refused before PyTorch's own checks were taken over: the result is compared.
ACCEPTED = {
    "index_fill negative": "result = torch.zeros(2, 3).index_fill(1, torch.tensor([-1]), 1.)",
    "index_add by int32 indices": ("result = torch.zeros(2, 3).index_add(1, "
                                   "torch.tensor([2], dtype=torch.int32), torch.ones(2, 1))"),
    "masked_fill by a larger mask": ("result = torch.ones(2, 3).masked_fill("
                                     "torch.ones(2, 2, 3, dtype=torch.bool), 0.)"),
    "gather by int32 indices": ("result = torch.ones(2, 3).gather(1, "
                                "torch.tensor([[2], [0]], dtype=torch.int32))"),
    "scatter by int32 indices": ("result = torch.zeros(2, 3).scatter(1, "
                                 "torch.tensor([[2], [0]], dtype=torch.int32), 1.)"),
    "scatter of a smaller index than src": ("result = torch.zeros(2, 3).scatter_add(1, "
                                            "torch.tensor([[1]]), torch.ones(2, 2))"),
    "FloatTensor sizes with a tensor": "result = torch.FloatTensor(2, torch.tensor(3)).shape",
    "FloatTensor sizes with a one-element tensor": (
        "result = torch.FloatTensor(2, torch.tensor([3])).shape"),
    # (its backward fails in PyTorch 2.13: "size mismatch (got input: [2], target: [1])")
    "nll_loss of one sample, one target": (
        "x = torch.tensor([0.2, 0.8], requires_grad=True)\n"
        "result = torch.nn.functional.nll_loss(x, torch.tensor([1]), reduction='none')"),
    "grad with more grad_outputs than outputs": (
        "x = torch.ones(3, requires_grad=True)\n"
        "result = torch.autograd.grad(x.sum(), x, [torch.tensor(2.), torch.tensor(3.)])"),
    "backward with more gradients than tensors": (
        "x = torch.ones(3, requires_grad=True)\n"
        "torch.autograd.backward([x.sum()], [torch.tensor(2.), torch.tensor(3.)])\n"
        "result = x.grad"),
}


@pytest.mark.parametrize("name", [*FOUND, *ACCEPTED])
def test_found_case_like_torch(name):
    def case(torch):
        namespace = {"torch": torch}
        exec({**FOUND, **ACCEPTED}[name], namespace)
        return namespace["result"]
    _same_outcome(case)


# PyTorch's warnings where it gives them, and none otherwise: no warning here under either.
QUIET = {
    "scheduler stepped after its optimizer": (
        "o = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.StepLR(o, 2)\no.step()\ns.step()\ns.step()"),
    "scheduler of an optimizer whose subclass defines step": (
        "class O(torch.optim.SGD):\n    def step(self, closure=None):\n"
        "        return super().step(closure)\n"
        "o = O([torch.ones(1, requires_grad=True)], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.StepLR(o, 2)\no.step()\ns.step()"),
    # the scheduler's note of steps stays with its optimizer: copies step themselves
    "copies of an optimizer under a scheduler": (
        "import copy, pickle\np = torch.ones(2, requires_grad=True)\np.grad = torch.ones(2)\n"
        "o = torch.optim.SGD([p], lr=0.1)\ns = torch.optim.lr_scheduler.StepLR(o, 2)\n"
        "for c in (copy.deepcopy(o), pickle.loads(pickle.dumps(o))):\n"
        "    s2 = torch.optim.lr_scheduler.StepLR(c, 2)\n    c.step()\n    s2.step()\n"
        "assert p.tolist() == [1.0, 1.0]"),
}


@pytest.mark.parametrize("name", QUIET)
def test_no_warning_like_torch(name):
    for library in (compat, torch):
        raised, caught = _run(QUIET[name], library)
        assert raised is None and not caught, (library.__name__, raised, caught)
