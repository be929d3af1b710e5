"""compat.nn's shrinking and gated activations, margin, embedding and likelihood losses
and row distances against torch.nn 2.13: values (with PyTorch's grad_fn names), gradients
of every input, module reprs and error texts."""
import pytest

from compat_harness import assert_same_error, check, check_printed, seeded

REDUCTIONS = ["mean", "sum", "none"]


def _functional_case(name, make_inputs, **options):
    """`name`(*inputs, **options) and the gradients of the inputs that require them, for
    a cotangent that weighs each output element differently."""
    def case(torch):
        inputs = make_inputs(torch)
        out = getattr(torch.nn.functional, name)(*inputs, **options)
        weights = torch.arange(1, out.numel() + 1, dtype=out.dtype).reshape(out.shape)
        out.backward(weights)
        return out, [x.grad for x in inputs if x.requires_grad]
    return seeded(case)


def _randn(torch, *shape):
    return torch.randn(*shape, requires_grad=True)


def _signs(torch, *shape):
    return torch.randint(0, 2, shape).float() * 2 - 1


# ---- activations -----------------------------------------------------------------------------


def _with_edges(torch):
    """Normal values with NaN, 0 and the default bands' edges (+-0.5) among them."""
    x = torch.randn(4, 6) * 2
    x[0, :4] = torch.tensor([float("nan"), 0.5, -0.5, 0.0])
    return [x.requires_grad_()]


@pytest.mark.parametrize("name, options", [
    ("celu", {}), ("celu", {"alpha": 2.0}), ("glu", {}), ("glu", {"dim": 0}),
    ("hardshrink", {}), ("hardshrink", {"lambd": 1.2}), ("softshrink", {}),
    ("softshrink", {"lambd": 0.0}), ("threshold", {"threshold": 0.5, "value": -3.0})])
def test_activation_values_and_gradients(name, options):
    check(_functional_case(name, _with_edges, **options))


@pytest.mark.parametrize("name, options", [
    ("celu_", {}), ("celu", {"alpha": 0.5, "inplace": True}), ("relu_", {}), ("elu_", {}),
    ("leaky_relu_", {"negative_slope": 0.2}), ("selu_", {}),
    ("threshold_", {"threshold": 0.1, "value": 2.0}),
    ("threshold", {"threshold": 0.1, "value": 2.0, "inplace": True})])
def test_in_place_activations(name, options):
    def case(torch):
        x = torch.randn(5, requires_grad=True)
        y = x.clone()
        out = getattr(torch.nn.functional, name)(y, **options)
        (out * torch.arange(5.0)).sum().backward()
        return out is y, out, x.grad
    check(seeded(case))


def test_threshold_keeps_integers():
    check(lambda torch: torch.nn.functional.threshold(torch.tensor([1, 2, 3]), 1, 7))


@pytest.mark.parametrize("module, arguments, shape", [
    ("CELU", (1.5,), (3, 4)), ("GLU", (0,), (4, 3)), ("Hardshrink", (0.3,), (3, 4)),
    ("Softshrink", (), (3, 4)), ("Threshold", (0.1, 20.0), (3, 4)), ("Softmax2d", (), (2, 3, 4)),
    ("Softmax2d", (), (2, 3, 4, 2))])
def test_activation_modules(module, arguments, shape):
    def case(torch):
        layer = getattr(torch.nn, module)(*arguments)
        x = torch.randn(*shape, requires_grad=True)
        out = layer(x)
        out.backward(torch.randn(out.shape))
        return repr(layer), out, x.grad
    check(seeded(case))


def test_activation_module_reprs():
    def case(torch):
        nn = torch.nn
        print(nn.CELU(), nn.CELU(2.0, True), nn.GLU(), nn.Hardshrink(), nn.Softshrink(0.3),
              nn.Threshold(0.1, 20), nn.Threshold(0.1, 20, True), nn.Softmax2d(),
              nn.CosineSimilarity(), nn.PairwiseDistance(), nn.MarginRankingLoss(),
              nn.TripletMarginLoss(), nn.PoissonNLLLoss(), nn.GaussianNLLLoss(),
              nn.MultiMarginLoss(), nn.CosineEmbeddingLoss(), nn.HingeEmbeddingLoss(),
              nn.SoftMarginLoss(), nn.MultiLabelSoftMarginLoss())
    check_printed(case)


# ---- losses ----------------------------------------------------------------------------------

LOSSES = {
    "margin_ranking_loss": (lambda t: (_randn(t, 6), _randn(t, 6), _signs(t, 6)),
                            {"margin": 0.3}),
    "hinge_embedding_loss": (lambda t: (_randn(t, 4, 3), _signs(t, 4, 3)), {"margin": 0.7}),
    "soft_margin_loss": (lambda t: (_randn(t, 4, 3), _signs(t, 4, 3)), {}),
    "multilabel_soft_margin_loss": (
        lambda t: (_randn(t, 4, 3), t.randint(0, 2, (4, 3)).float()), {}),
    "multilabel_soft_margin_loss, weighted": (
        lambda t: (_randn(t, 4, 3), t.randint(0, 2, (4, 3)).float(),
                   t.rand(3, requires_grad=True)), {}),
    "cosine_embedding_loss": (lambda t: (_randn(t, 5, 3), _randn(t, 5, 3), _signs(t, 5)),
                              {"margin": 0.2}),
    "cosine_embedding_loss, one pair": (lambda t: (_randn(t, 3), _randn(t, 3), t.tensor(-1.0)),
                                        {}),
    "triplet_margin_loss": (lambda t: (_randn(t, 5, 3), _randn(t, 5, 3), _randn(t, 5, 3)), {}),
    "triplet_margin_loss, swapped 1-norm": (
        lambda t: (_randn(t, 5, 3), _randn(t, 5, 3), _randn(t, 5, 3)),
        {"swap": True, "p": 1, "margin": 0.5}),
    "multi_margin_loss": (lambda t: (_randn(t, 5, 4), t.tensor([0, 3, 1, 1, 2])), {}),
    "multi_margin_loss, squared": (lambda t: (_randn(t, 5, 4), t.tensor([0, 3, 1, 1, 2])),
                                   {"p": 2, "margin": 0.5}),
    "multi_margin_loss, one sample": (lambda t: (_randn(t, 4), t.tensor(2)), {}),
    "poisson_nll_loss": (lambda t: (_randn(t, 4, 3), t.rand(4, 3) * 4), {}),
    "poisson_nll_loss, rates and Stirling's term": (
        lambda t: (t.rand(4, 3, requires_grad=True), (t.rand(4, 3) * 4).round()),
        {"log_input": False, "full": True}),
    "gaussian_nll_loss": (
        lambda t: (_randn(t, 4, 3), t.randn(4, 3), t.rand(4, 3, requires_grad=True)), {}),
    "gaussian_nll_loss, a variance per sample": (
        lambda t: (_randn(t, 4, 3), t.randn(4, 3), t.rand(4, requires_grad=True)),
        {"full": True}),
    "gaussian_nll_loss, broadcast variance": (
        lambda t: (_randn(t, 4, 3), t.randn(4, 3), t.rand(4, 1, requires_grad=True)), {}),
    "gaussian_nll_loss, clamped variance": (
        lambda t: (_randn(t, 4, 3), t.randn(4, 3),
                   (t.rand(4, 3) * 2e-6).requires_grad_()), {}),
}


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("case", list(LOSSES))
def test_losses(case, reduction):
    make_inputs, options = LOSSES[case]
    check(_functional_case(case.split(",")[0], make_inputs, reduction=reduction, **options))


def test_multi_margin_loss_class_weights():
    def case(torch):
        x = torch.randn(5, 4, requires_grad=True)
        loss = torch.nn.MultiMarginLoss(p=2, weight=torch.rand(4), reduction="none")
        out = loss(x, torch.tensor([0, 3, 1, 1, 2]))
        out.backward(torch.arange(5.0))
        return out, x.grad
    check(seeded(case))


@pytest.mark.parametrize("module, options, shapes", [
    ("MarginRankingLoss", {"margin": 0.1}, [(4,), (4,), "signs"]),
    ("HingeEmbeddingLoss", {}, [(4, 2), "signs"]),
    ("SoftMarginLoss", {"reduction": "sum"}, [(4, 2), "signs"]),
    ("MultiLabelSoftMarginLoss", {}, [(4, 2), "labels"]),
    ("CosineEmbeddingLoss", {"margin": 0.1}, [(4, 2), (4, 2), "signs"]),
    ("TripletMarginLoss", {"margin": 2.0}, [(4, 2), (4, 2), (4, 2)]),
    ("MultiMarginLoss", {}, [(4, 3), "classes"]),
    ("PoissonNLLLoss", {}, [(4, 2), "counts"]),
    ("GaussianNLLLoss", {"full": True}, [(4, 2), (4, 2), "variances"]),
])
def test_loss_modules(module, options, shapes):
    def case(torch):
        inputs = []
        for shape in shapes:
            if shape == "signs":
                inputs.append(_signs(torch, *inputs[0].shape[:1 if module.startswith("Cos")
                                                             else None]))
            elif shape == "labels":
                inputs.append(torch.randint(0, 2, tuple(inputs[0].shape)).float())
            elif shape == "classes":
                inputs.append(torch.randint(0, 3, (4,)))
            elif shape == "counts":
                inputs.append(torch.randint(0, 5, (4, 2)).float())
            elif shape == "variances":
                inputs.append(torch.rand(4, 2))
            else:
                inputs.append(_randn(torch, *shape))
        loss = getattr(torch.nn, module)(**options)(*inputs)
        loss.backward()
        return loss, [x.grad for x in inputs if x.requires_grad]
    check(seeded(case))


# ---- distances -------------------------------------------------------------------------------


@pytest.mark.parametrize("name, shapes, options", [
    ("cosine_similarity", [(5, 3), (5, 3)], {}),
    ("cosine_similarity", [(5, 3), (1, 3)], {}),
    ("cosine_similarity", [(5, 3), (5, 3)], {"dim": 0, "eps": 1e-3}),
    ("cosine_similarity", [(2, 3, 4), (2, 3, 4)], {"dim": -1}),
    ("pairwise_distance", [(5, 3), (5, 3)], {}),
    ("pairwise_distance", [(5, 3), (3,)], {"p": 1.5, "keepdim": True}),
    ("pairwise_distance", [(2, 5, 3), (2, 5, 3)], {"p": 1.0}),
])
def test_distances(name, shapes, options):
    check(_functional_case(name, lambda t: [_randn(t, *shape) for shape in shapes], **options))


def test_cosine_similarity_of_a_zero_vector_is_zero():
    def case(torch):
        x = torch.zeros(2, 3, requires_grad=True)
        out = torch.nn.functional.cosine_similarity(x, torch.ones(2, 3))
        out.sum().backward()
        return out, x.grad
    check(case)


def test_distance_modules():
    def case(torch):
        x, y = _randn(torch, 4, 3), _randn(torch, 4, 3)
        out = (torch.nn.CosineSimilarity(dim=0)(x, y).sum()
               + torch.nn.PairwiseDistance(p=3.0, keepdim=True)(x, y).sum())
        out.backward()
        return out, x.grad, y.grad
    check(seeded(case))


# ---- errors ----------------------------------------------------------------------------------


def _f(torch):
    return torch.nn.functional


MISUSES = {
    "celu alpha 0": lambda t: _f(t).celu(t.randn(3), 0.0),
    "glu odd": lambda t: _f(t).glu(t.randn(3)),
    "glu scalar": lambda t: _f(t).glu(t.tensor(1.0)),
    "glu dim": lambda t: _f(t).glu(t.randn(2, 4), dim=2),
    "glu integer": lambda t: _f(t).glu(t.tensor([1, 2])),
    "celu integer": lambda t: _f(t).celu(t.tensor([1, 2])),
    "hardshrink integer": lambda t: _f(t).hardshrink(t.tensor([1, 2])),
    "softshrink integer": lambda t: _f(t).softshrink(t.tensor([1, 2])),
    "softshrink negative": lambda t: _f(t).softshrink(t.randn(3), -1),
    "softshrink negative, float64": lambda t: _f(t).softshrink(t.randn(3).double(), -0.5),
    "softmax2d of 2-d": lambda t: t.nn.Softmax2d()(t.randn(3, 4)),
    "ranking dimensions": lambda t: _f(t).margin_ranking_loss(t.randn(3), t.randn(3, 1),
                                                              t.randn(3)),
    "ranking sizes": lambda t: _f(t).margin_ranking_loss(t.randn(3), t.randn(3), t.randn(4)),
    "soft margin sizes": lambda t: _f(t).soft_margin_loss(t.randn(3, 4), t.randn(3)),
    "multi margin target range": lambda t: _f(t).multi_margin_loss(t.randn(3, 4),
                                                                   t.tensor([0, 1, 5])),
    "multi margin float target": lambda t: _f(t).multi_margin_loss(t.randn(3, 4),
                                                                   t.tensor([0.0, 1, 2])),
    "multi margin target size": lambda t: _f(t).multi_margin_loss(t.randn(3, 4),
                                                                  t.tensor([0, 1])),
    "multi margin 3-d": lambda t: _f(t).multi_margin_loss(t.randn(3, 4, 2), t.tensor([0, 1, 2])),
    "multi margin weight size": lambda t: _f(t).multi_margin_loss(
        t.randn(3, 4), t.tensor([0, 1, 2]), weight=t.ones(3)),
    "multi margin weight requires grad": lambda t: _f(t).multi_margin_loss(
        t.randn(3, 4), t.tensor([0, 1, 2]), weight=t.ones(4, requires_grad=True)),
    "multi margin integer input": lambda t: _f(t).multi_margin_loss(
        t.randint(0, 3, (3, 4)), t.tensor([0, 1, 2])),
    "multi margin p": lambda t: _f(t).multi_margin_loss(t.randn(3, 4), t.tensor([0, 1, 2]),
                                                        p=3),
    "MultiMarginLoss weight 2-d": lambda t: t.nn.MultiMarginLoss(weight=t.ones(2, 2)),
    "cosine embedding 2-d target": lambda t: _f(t).cosine_embedding_loss(
        t.randn(3, 4), t.randn(3, 4), t.ones(3, 1)),
    "cosine embedding input rank": lambda t: _f(t).cosine_embedding_loss(
        t.randn(3), t.randn(3), t.ones(3)),
    "triplet dimensions": lambda t: _f(t).triplet_margin_loss(t.randn(3, 4), t.randn(3, 4),
                                                              t.randn(4)),
    "triplet margin": lambda t: _f(t).triplet_margin_loss(t.randn(3, 4), t.randn(3, 4),
                                                          t.randn(3, 4), margin=0),
    "TripletMarginLoss margin": lambda t: t.nn.TripletMarginLoss(margin=-1.0),
    "hinge reduction": lambda t: _f(t).hinge_embedding_loss(t.randn(3, 4), t.ones(3, 4),
                                                            reduction="bad"),
    "multilabel reduction": lambda t: _f(t).multilabel_soft_margin_loss(
        t.randn(3, 4), t.ones(3, 4), reduction="bad"),
    "poisson reduction": lambda t: _f(t).poisson_nll_loss(t.randn(3, 4), t.ones(3, 4),
                                                          reduction="bad"),
    "gaussian negative variance": lambda t: _f(t).gaussian_nll_loss(
        t.randn(3, 4), t.ones(3, 4), t.ones(3, 4) - 2),
    "gaussian variance size": lambda t: _f(t).gaussian_nll_loss(t.randn(3, 4), t.ones(3, 4),
                                                                t.ones(2)),
    "gaussian negative number": lambda t: _f(t).gaussian_nll_loss(t.randn(3, 4), t.ones(3, 4),
                                                                  -1.0),
    "gaussian reduction": lambda t: _f(t).gaussian_nll_loss(t.randn(3, 4), t.ones(3, 4),
                                                            t.ones(3, 4), reduction="bad"),
    "cosine similarity of integers": lambda t: _f(t).cosine_similarity(t.tensor([1, 2]),
                                                                       t.tensor([1, 2])),
    "distance triplet reduction": lambda t: _f(t).triplet_margin_with_distance_loss(
        t.randn(3, 4), t.randn(3, 4), t.randn(3, 4), reduction="bad"),
    "distance triplet margin": lambda t: t.nn.TripletMarginWithDistanceLoss(margin=0.0),
    "distance triplet dimensions": lambda t: _f(t).triplet_margin_with_distance_loss(
        t.randn(3, 4), t.randn(3, 4), t.randn(4)),
    "pdist rank": lambda t: _f(t).pdist(t.randn(3)),
    "pdist negative p": lambda t: _f(t).pdist(t.randn(3, 2), -1),
    "pdist integers": lambda t: _f(t).pdist(t.ones(3, 2, dtype=t.long)),
    "multilabel target size": lambda t: _f(t).multilabel_margin_loss(
        t.randn(3, 4), t.zeros(2, 4, dtype=t.long)),
    "multilabel target range": lambda t: _f(t).multilabel_margin_loss(
        t.randn(3, 4), t.full((3, 4), 4)),
    "multilabel float target": lambda t: _f(t).multilabel_margin_loss(t.randn(3, 4),
                                                                      t.zeros(3, 4)),
    "multilabel rank": lambda t: _f(t).multilabel_margin_loss(
        t.randn(3, 2, 2), t.zeros(3, 2, 2, dtype=t.long)),
}


@pytest.mark.parametrize("misuse", list(MISUSES))
def test_misuse_raises_torchs_error(misuse):
    assert_same_error(MISUSES[misuse])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("distance", [None, "cosine", "module"])
@pytest.mark.parametrize("swap", [False, True])
def test_triplet_margin_with_distance_loss(distance, swap, reduction):
    def case(torch):
        function = {None: None, "module": torch.nn.PairwiseDistance(p=1.0),
                    "cosine": lambda x, y: 1.0 - torch.nn.functional.cosine_similarity(x, y)
                    }[distance]
        anchor, positive, negative = (_randn(torch, 5, 3) for _ in range(3))
        loss = torch.nn.TripletMarginWithDistanceLoss(distance_function=function, margin=0.5,
                                                      swap=swap, reduction=reduction)
        out = loss(anchor, positive, negative)
        out.backward(torch.ones_like(out))
        return repr(loss), out, anchor.grad, positive.grad, negative.grad
    check(seeded(case))


@pytest.mark.parametrize("call", [
    "max_pool1d_with_indices(x[0], 2)", "max_pool2d_with_indices(x, 2, 1)",
    "max_pool3d_with_indices(x[None], 2)", "adaptive_max_pool1d_with_indices(x[0], 2)",
    "adaptive_max_pool2d_with_indices(x, (2, 3))", "adaptive_max_pool3d_with_indices(x[None], 2)"])
def test_pools_with_indices(call):
    def case(torch):
        x = torch.randn(2, 4, 4, 4, requires_grad=True)
        out, indices = eval(f"torch.nn.functional.{call}", {"torch": torch, "x": x})
        out.backward(torch.randn(out.shape))
        return out, indices, x.grad
    check(seeded(case))


@pytest.mark.parametrize("p", [2, 1, 0, 0.5, 3, float("inf")])
def test_pdist_with_equal_rows(p):
    def case(torch):
        x = torch.randn(5, 3)
        x[3] = x[1]  # a distance of 0: its gradient is 0 in PyTorch
        x.requires_grad_()
        out = torch.nn.functional.pdist(x, p)
        out.backward(torch.arange(out.numel(), dtype=out.dtype))
        return out, x.grad
    check(seeded(case))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_multilabel_margin_loss(reduction):
    def case(torch):
        x = torch.randn(4, 5, requires_grad=True)
        target = torch.tensor([[3, 0, -1, 1, 2], [0, 1, 2, 3, 4], [-1, 0, 0, 0, 0],
                               [2, 2, -1, 0, 0]])  # (all, none, a repeat)
        loss = torch.nn.MultiLabelMarginLoss(reduction=reduction)
        out = loss(x, target)
        out.backward(torch.ones_like(out))
        one = torch.nn.functional.multilabel_margin_loss(x[0], target[0])
        return repr(loss), out, x.grad, one
    check(seeded(case))


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("dim", [-1, 0])
def test_gumbel_softmax_draws_torchs_noise(hard, dim):
    def case(torch):
        x = torch.randn(3, 4, requires_grad=True)
        out = torch.nn.functional.gumbel_softmax(x, tau=0.5, hard=hard, dim=dim)
        (out * torch.arange(12.0).reshape(3, 4)).sum().backward()
        return out, x.grad, torch.rand(2)  # (the stream goes on alike)
    check(seeded(case))
