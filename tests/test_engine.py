"""The engine's guarantees: no recursion, memory released, levels kept apart."""
import gc
import weakref

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp


def test_million_primitive_chain_without_recursion_and_nothing_left_alive():
    nodes = []

    def chain(x):
        for _ in range(1_000_000):
            x = x * 1.0000001
        nodes.append(weakref.ref(x.node))
        return x

    g = fg.grad(chain)(1.0)
    np.testing.assert_allclose(g, 1.0000001 ** 1_000_000, rtol=1e-9)
    gc.collect()
    assert nodes[0]() is None


def test_backward_frees_saved_values_as_it_goes():
    saved = []

    def f(x):
        y = fnp.sin(x)          # sin's rule keeps x alive until the backward pass
        saved.append(weakref.ref(y.node))
        return fnp.sum(y * y)

    fg.grad(f)(np.ones(3))
    assert saved[0]() is None   # the graph is gone once grad returns


def test_ndarray_subclasses_are_traced_like_arrays():
    class Tagged(np.ndarray):
        pass

    x = np.arange(3.0).view(Tagged)
    np.testing.assert_array_equal(fg.grad(lambda x: fnp.sum(x * x))(x), 2 * np.arange(3.0))


def test_vjp_keeps_its_graph_until_the_pullback_is_dropped():
    seen = []

    def f(x):
        y = x * 2.0
        seen.append(weakref.ref(y.node))
        return y

    _, pullback = fg.vjp(f, np.ones(2))
    pullback(np.ones(2))
    assert seen[0]() is not None
    del pullback
    gc.collect()
    assert seen[0]() is None


def test_many_inputs_and_outputs_share_one_backward_pass():
    x = np.arange(4.0)
    out, pullback = fg.vjp(lambda a, b: (a * b, a + b, fnp.sum(a)), x, x + 1)
    ga, gb = pullback((np.ones(4), np.ones(4), 1.0))
    np.testing.assert_array_equal(ga, x + 1 + 1 + 1)
    np.testing.assert_array_equal(gb, x + 1)


def test_declared_saves_are_what_the_rules_save():
    """A rule that declares its residuals (`saved_positions`) saves exactly the values at
    those positions of (ans, *args), by identity: compat takes them as the node's saved
    values without searching the residuals."""
    from funcgrad.core.primitive import registry
    from funcgrad.numpy.elementwise import ElementwiseVJP

    checked = set()
    for primitive in registry.values():
        nin = getattr(primitive, "nin", None)
        if primitive.vjp is None or nin is None or primitive.multiple_results:
            continue
        args = tuple(np.linspace(0.2, 0.4, 3) + 0.1 * i for i in range(nin))
        try:
            with np.errstate(all="ignore"):
                ans = primitive.impl(*args)
        except TypeError:  # an integer operand (ldexp's exponent): not a float's rule
            continue
        for argnum in range(nin):
            wanted = tuple(True if i == argnum else None for i in range(nin))
            positions = primitive.vjp.saved_positions(wanted)
            if positions is None:
                continue
            residuals = primitive.vjp.save(ans, args, {}, wanted)
            if isinstance(primitive.vjp, ElementwiseVJP):  # three values an argument
                held = residuals[3 * argnum] or ()
            else:
                held = residuals
            given = (ans,) + args
            assert len(held) == len(positions), primitive.name
            assert all(value is given[i] for value, i in zip(held, positions)), primitive.name
            checked.add(primitive.name)
    # (among them every primitive compat records directly)
    assert {"sin", "cos", "exp", "log", "tanh", "sqrt", "add", "subtract", "multiply",
            "divide"} <= checked
