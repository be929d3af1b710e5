"""make_dot: draw the grad_fn graph of a tensor (the picture in the PyTorch tutorials).

    from compat.viz import make_dot
    dot = make_dot(loss, params={"w1": w1, "w2": w2})
    print(dot)                      # Graphviz DOT text
    dot.render("loss.svg")          # needs Graphviz's `dot` program
"""
from funcgrad.tools.dot import Digraph, render_dot

from ._graph import _label

__all__ = ["make_dot", "Dot"]


class Dot:
    """DOT text with a ``render(path, format=None)`` that uses Graphviz's `dot`."""

    def __init__(self, source):
        self.source = source

    def render(self, path, format=None):
        return render_dot(self.source, path, format)

    def __str__(self):
        return self.source


def _shape(array):
    return "(" + ", ".join(str(n) for n in array.shape) + ")"


def make_dot(tensor, params=None, show_saved=True):
    """The graph of the operations that produced `tensor`: one box per grad_fn node named
    as PyTorch names it (with the shapes of the values it saved for backward), one blue
    box per leaf tensor that requires grad (named from `params` when given, with its
    shape), and the output in green."""
    names = {id(t): name for name, t in (params or {}).items()}
    dot = Digraph("compat", rankdir="TB")
    if tensor._box is None:
        dot.node("output", label=f"tensor {_shape(tensor._data)}\n(no grad_fn)",
                 shape="box", style="filled", fillcolor="darkolivegreen1")
        return Dot(dot.source())
    ids = {}
    stack, order = [tensor._box.node], []
    while stack:
        node = stack.pop()
        if node in ids:
            continue
        ids[node] = f"n{len(ids)}"
        order.append(node)
        stack.extend([parent for parent in node.parents if parent is not None])
    for node in order:
        dot.node(ids[node], **_describe(node, names, show_saved))
        for parent in filter(None, node.parents):
            dot.edge(ids[parent], ids[node])
    dot.node("output", label=f"output {_shape(tensor._data)}", shape="box", style="filled",
             fillcolor="darkolivegreen1")
    dot.edge(ids[tensor._box.node], "output")
    return Dot(dot.source())


def _describe(node, names, show_saved=True):
    if not node.parents:
        leaf = node.sink() if node.sink is not None else None
        name = names.get(id(leaf), "") if leaf is not None else ""
        shape = _shape(leaf._data) if leaf is not None else ""
        return {"label": f"{name}\n{shape}".strip(), "shape": "box", "style": "filled",
                "fillcolor": "lightblue"}
    label = _label(node)
    saved = [_shape(value) for value in node.held if hasattr(value, "shape")]
    if show_saved and saved:
        label += "\nsaved: " + ", ".join(saved)
    return {"label": label, "shape": "box"}
