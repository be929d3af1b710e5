"""compat.autograd.Function against torch.autograd.Function."""
import pytest

from compat_harness import check, graph


def _functions(torch):
    """The same user-defined Functions, written against either library."""

    class MyReLU(torch.autograd.Function):
        @staticmethod
        def forward(ctx, input):
            ctx.save_for_backward(input)
            return input.clamp(min=0)

        @staticmethod
        def backward(ctx, grad_output):
            input, = ctx.saved_tensors
            grad_input = grad_output.clone()
            grad_input[input < 0] = 0
            return grad_input

    class Scaled(torch.autograd.Function):
        """Non-tensor arguments, attributes on ctx, needs_input_grad, a differentiable
        backward (so double backward works)."""

        @staticmethod
        def forward(ctx, a, k, b):
            ctx.save_for_backward(a, b)
            ctx.k = k
            ctx.flags = ctx.needs_input_grad
            return a * a * k + b

        @staticmethod
        def backward(ctx, g):
            a, b = ctx.saved_tensors
            grad_b = g if ctx.needs_input_grad[2] else None
            return g * 2 * a * ctx.k, None, grad_b

    class SumAndProduct(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a + b, a * b

        @staticmethod
        def backward(ctx, g_sum, g_product):
            a, b = ctx.saved_tensors
            return g_sum + g_product * b, g_sum + g_product * a

    class WrongCount(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g, g

    class WrongShape(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return torch.ones(3)

    class Broadcast(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return torch.ones(4, 2)   # expandable from the input's (1, 2): summed

    class GradientForNumber(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, k):
            return a * k

        @staticmethod
        def backward(ctx, g):
            return g, torch.ones(1)

    class TrailingNones(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 3

        @staticmethod
        def backward(ctx, g):
            return g * 3, None, None

    class OneTuple(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return (a * 2,)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    return dict(MyReLU=MyReLU, Scaled=Scaled, SumAndProduct=SumAndProduct,
                WrongCount=WrongCount, WrongShape=WrongShape, Broadcast=Broadcast,
                GradientForNumber=GradientForNumber, TrailingNones=TrailingNones,
                OneTuple=OneTuple)


def test_custom_relu_like_torch():
    def case(torch):
        relu = _functions(torch)["MyReLU"].apply
        x = torch.tensor([[-1.0, 2.0], [0.5, -3.0]], requires_grad=True)
        y = relu(x)
        (y * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
        return y, x.grad, graph(y), repr(y)
    check(case)


def test_function_ctx_and_double_backward_like_torch():
    def case(torch):
        scaled = _functions(torch)["Scaled"].apply
        a = torch.tensor([1.0, -2.0], requires_grad=True)
        b = torch.tensor([0.5, 0.5])
        y = scaled(a, 3.0, b)
        g, = torch.autograd.grad(y.sum(), a, create_graph=True)
        h, = torch.autograd.grad(g.sum(), a)
        return y, g, h, graph(y)
    check(case, grad_fn_names=False)


def test_multiple_outputs_like_torch():
    def case(torch):
        function = _functions(torch)["SumAndProduct"]
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor([3.0, 4.0], requires_grad=True)
        s, p = function.apply(a, b)
        (s * 2 + p * 3).sum().backward()
        first = (a.grad.clone(), b.grad.clone(), graph(s), graph(s * p))
        a.grad = b.grad = None
        s, p = function.apply(a, b)
        p.sum().backward()        # the unused output gets a zero gradient
        return first, a.grad, b.grad
    check(case)


@pytest.mark.parametrize("name", ["WrongCount", "WrongShape", "GradientForNumber"])
def test_bad_backward_raises_like_torch(name):
    def case(torch):
        function = _functions(torch)[name]
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        y = function.apply(a, 2.0) if name == "GradientForNumber" else function.apply(a)
        y.sum().backward()
    check(case)


@pytest.mark.parametrize("name", ["Broadcast", "TrailingNones"])
def test_backward_results_are_fitted_like_torch(name):
    def case(torch):
        function = _functions(torch)[name]
        a = torch.tensor([[1.0, 2.0]], requires_grad=True)
        function.apply(a).sum().backward()
        return a.grad
    check(case)


def test_one_output_in_a_tuple_like_torch():
    def case(torch):
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        (y,) = _functions(torch)["OneTuple"].apply(a)
        y.sum().backward()
        return y, a.grad, graph(y)
    check(case)


def test_function_without_grad_records_nothing_like_torch():
    def case(torch):
        relu = _functions(torch)["MyReLU"].apply
        y = relu(torch.tensor([-1.0, 2.0]))
        with torch.no_grad():
            z = relu(torch.tensor([-1.0, 2.0], requires_grad=True))
        return y, z
    check(case)


def test_second_backward_through_function_like_torch():
    def case(torch):
        relu = _functions(torch)["MyReLU"].apply
        x = torch.tensor([1.0, -1.0], requires_grad=True)
        y = relu(x).sum()
        y.backward(retain_graph=True)
        y.backward()
        first = x.grad.clone()
        y.backward()
        return first
    check(case)


def test_saved_tensor_modified_in_place_raises_like_torch():
    def case(torch):
        relu = _functions(torch)["MyReLU"].apply
        x = torch.tensor([1.0, -1.0], requires_grad=True)
        a = x * 1
        y = relu(a)
        a.mul_(2)
        y.sum().backward()
    check(case)


@pytest.mark.filterwarnings("ignore:.*should not be instantiated:DeprecationWarning")
def test_legacy_function_instance_call_raises_like_torch():
    def case(torch):
        relu = _functions(torch)["MyReLU"]
        return relu()(torch.ones(2, requires_grad=True))
    check(case)
