"""An in-place update of a layer's input or parameter between its forward and backward
passes (an optimizer step between two backward passes, as in GAN training): PyTorch
raises "one of the variables needed for gradient computation has been modified by an
inplace operation" where its backward needs the old values. compat must raise too, or not
need them: a gradient from the updated values would be silently wrong."""
import numpy as np
import pytest

import compat

F = compat.nn.functional

CASES = [
    ("F.conv2d(x, w, b)", "xwb"), ("F.conv2d(x, w, b, stride=2, padding=1)", "xw"),
    ("F.conv_transpose2d(x, w.transpose(0, 1), None)", "xw"),
    ("F.layer_norm(v, (5,), W[0], W[1])", "vW"), ("F.group_norm(x, 3, g, g)", "xg"),
    ("F.batch_norm(x, None, None, g, g, True)", "xg"),
    ("F.instance_norm(x, weight=g, bias=g)", "xg"), ("F.linear(v, W, W[:, 0])", "vW"),
    ("F.embedding(compat.tensor([1, 2, 1]), e)", "e"), ("F.max_pool2d(x, 2)", "x"),
    ("F.avg_pool2d(x, 2)", "x"), ("F.adaptive_max_pool2d(x, 2)", "x"),
    ("F.interpolate(x, scale_factor=2, mode='bilinear')", "x"),
    ("F.pad(x, (1, 1, 2, 0), mode='reflect')", "x"), ("F.log_softmax(v, 1)", "v"),
    ("F.cross_entropy(v, compat.tensor([1, 2]))", "v"), ("F.mse_loss(v, W[:2])", "vW"),
    ("F.gelu(v)", "v"), ("F.mish(v)", "v"), ("F.normalize(v)", "v"),
    ("F.cosine_similarity(v, W[:2])", "vW"), ("F.unfold(x, 2)", "x"), ("F.glu(v[:, :4])", "v"),
    ("F.rms_norm(v, (5,), W[0])", "vW"), ("F.scaled_dot_product_attention(h, h, h)", "h"),
    ("F.local_response_norm(x, 2)", "x"), ("F.prelu(x, g)", "xg"),
    ("compat.nn.LSTM(5, 4)(h)[0]", "h"), ("compat.nn.GRU(5, 4)(h)[0]", "h"),
    ("F.binary_cross_entropy_with_logits(v, compat.rand(2, 5))", "v"),
]
UPDATES = [(expression, leaf) for expression, leaves in CASES for leaf in leaves]


def _gradients(expression, leaf, update):
    """The inputs' gradients of the expression's sum, with `leaf` multiplied by 1.5 in
    place (under no_grad) after the forward pass if `update`."""
    compat.manual_seed(0)
    names = {"F": F, "compat": compat,
             "x": compat.randn(2, 3, 5, 5), "w": compat.randn(4, 3, 3, 3),
             "b": compat.randn(4), "g": compat.randn(3), "v": compat.randn(2, 5),
             "W": compat.randn(6, 5), "e": compat.randn(10, 4), "h": compat.randn(3, 2, 5)}
    leaves = {name: t.requires_grad_() for name, t in names.items()
              if isinstance(t, compat.Tensor)}
    out = eval(expression, names)
    if update:
        with compat.no_grad():
            leaves[leaf].mul_(1.5)
    out.sum().backward()
    return {name: t.grad for name, t in leaves.items()}


@pytest.mark.parametrize("expression, leaf", UPDATES, ids=[f"{e} ({x})" for e, x in UPDATES])
def test_an_update_before_backward_raises_or_does_not_matter(expression, leaf):
    expected = _gradients(expression, leaf, update=False)
    try:
        updated = _gradients(expression, leaf, update=True)
    except RuntimeError as error:
        assert "modified by an inplace operation" in str(error)
        return
    for name, gradient in expected.items():
        assert (gradient is None) == (updated[name] is None), name
        if gradient is not None:
            np.testing.assert_allclose(updated[name].numpy(), gradient.numpy(), err_msg=name)
