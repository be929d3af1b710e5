"""Graphviz DOT: writing graphs as DOT text, and rendering DOT to SVG/PNG with `dot`.

Shared by `funcgrad.make_graph` (traced programs) and compat's ``make_dot`` (the
``grad_fn`` graph of a tensor). `node_graph_to_dot` draws any reverse-mode node graph.
"""
import os
import shutil
import subprocess

__all__ = ["Digraph", "GraphvizNotFoundError", "node_graph_to_dot", "render_dot"]


def _quote(text):
    """A DOT string literal (double-quoted, with quotes, backslashes and newlines escaped)."""
    text = str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{text}"'


def _attributes(attrs):
    if not attrs:
        return ""
    return " [" + ", ".join(f"{key}={_quote(value)}" for key, value in attrs.items()) + "]"


class Digraph:
    """A directed graph being written as DOT: ``node(id, **attrs)``, ``edge(a, b, **attrs)``.

    Attribute values are quoted and escaped, so labels may hold any text (use "\\n" for
    line breaks).
    """

    def __init__(self, name="funcgrad", **graph_attrs):
        self.name = name
        self.graph_attrs = {"rankdir": "TB", **graph_attrs}
        self.lines = []

    def node(self, node_id, **attrs):
        self.lines.append(f"  {_quote(node_id)}{_attributes(attrs)};")

    def edge(self, tail, head, **attrs):
        self.lines.append(f"  {_quote(tail)} -> {_quote(head)}{_attributes(attrs)};")

    def source(self):
        settings = [f"  {key}={_quote(value)};" for key, value in self.graph_attrs.items()]
        defaults = ['  node [fontname="Helvetica", fontsize="11"];',
                    '  edge [fontname="Helvetica", fontsize="9"];']
        return "\n".join([f"digraph {_quote(self.name)} {{", *settings, *defaults,
                          *self.lines, "}"]) + "\n"

    def __str__(self):
        return self.source()


def _default_description(node):
    if node.primitive is None:
        return {"label": "leaf", "shape": "ellipse", "style": "filled", "fillcolor": "lightblue"}
    label = node.primitive.name
    origin = getattr(node, "origin", None)
    if origin is not None:
        label += f"\n{os.path.basename(origin.filename)}:{origin.lineno}"
    return {"label": label, "shape": "box"}


def node_graph_to_dot(roots, describe=None, name="funcgrad"):
    """DOT text for the reverse-mode graph reachable from the nodes `roots`.

    Each node is drawn once, with an edge from each of its parents (data flows from the
    leaves down to the roots). ``describe(node)`` returns the node's DOT attributes
    (``{"label": ..., "shape": ..., ...}``); by default a box with the primitive's name and,
    when provenance was on, the file and line that applied it, and a blue ellipse for a
    leaf. Walks the graph with an explicit stack, so any depth works.
    """
    describe = describe or _default_description
    dot = Digraph(name)
    ids = {}
    stack = list(roots)
    order = []
    while stack:
        node = stack.pop()
        if node in ids:
            continue
        ids[node] = f"n{len(ids)}"
        order.append(node)
        stack.extend([parent for parent in reversed(node.parents) if parent is not None])
    for node in order:
        dot.node(ids[node], **describe(node))
        several = len(node.parents) > 1
        for argnum, parent in enumerate(node.parents):
            if parent is not None:
                dot.edge(ids[parent], ids[node], **({"label": str(argnum)} if several else {}))
    return dot.source()


class GraphvizNotFoundError(RuntimeError):
    """Rendering needs Graphviz's `dot` program, which is not installed."""


_FORMATS = ("svg", "png", "pdf")


def render_dot(source, path, format=None):
    """Render DOT text to `path` with Graphviz's `dot`; returns `path`.

    The format is `format` ("svg", "png" or "pdf"), or else `path`'s extension.
    """
    format = (format or os.path.splitext(path)[1].lstrip(".") or "svg").lower()
    if format not in _FORMATS:
        raise ValueError(f"funcgrad: cannot render to format {format!r}; choose one of "
                         f"{', '.join(_FORMATS)}.")
    program = shutil.which("dot")
    if program is None:
        raise GraphvizNotFoundError(
            "funcgrad: rendering a graph needs the Graphviz program `dot`, which was not found "
            "on PATH. Install Graphviz: `sudo apt-get install graphviz` (Debian/Ubuntu), "
            "`brew install graphviz` (macOS) or `conda install -c conda-forge graphviz`. "
            "Or save the text of .to_dot() to a .dot file and open it in any DOT viewer.")
    done = subprocess.run([program, f"-T{format}", "-o", os.fspath(path)], input=source,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"funcgrad: Graphviz `dot` failed to render {path}: "
                           f"{done.stderr.strip()}")
    return path
