"""Imports point one way (DESIGN.md: layers): no import circle among the modules of a
package, and no import hidden inside a function to dodge one.

Read from the source with `ast`, so the test sees every import, wherever it is written.
"""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ["funcgrad", "compat"]


def _modules(package):
    """{dotted module name: path} for every module of `package`."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imported(module, path, known):
    """(name, line, inside a function) for each module of `known` that `module` imports."""
    tree = ast.parse(path.read_text(), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                       ast.Lambda))
            if isinstance(child, ast.Import):
                found.extend((alias.name, child.lineno, nested) for alias in child.names
                             if alias.name in known)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.rsplit(".", child.level - 1)[0] if child.level > 1 \
                        else package
                    base = f"{anchor}.{base}" if base else anchor
                for alias in child.names:
                    target = f"{base}.{alias.name}"
                    name = target if target in known else base
                    if name in known and name != module:
                        found.append((name, child.lineno, nested))
            visit(child, nested)

    visit(tree, False)
    return found


def _graph(package):
    modules = _modules(package)
    return {module: _imported(module, path, modules) for module, path in modules.items()}


def _cycle(graph):
    """A list of modules forming an import circle among top-level imports, or None.
    A package's __init__ importing its own submodules is how packages are built, not a
    circle, so edges from a package to its children are left out."""
    edges = {module: sorted({name for name, _, nested in imports
                             if not nested and not name.startswith(module + ".")})
             for module, imports in graph.items()}
    state, stack = {}, []

    def walk(module):
        state[module] = "open"
        stack.append(module)
        for target in edges.get(module, ()):
            if state.get(target) == "open":
                return stack[stack.index(target):] + [target]
            if target not in state:
                found = walk(target)
                if found:
                    return found
        state[module] = "done"
        stack.pop()
        return None

    for module in edges:
        if module not in state:
            found = walk(module)
            if found:
                return found
    return None


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circle(package):
    cycle = _cycle(_graph(package))
    assert cycle is None, "import circle: " + " -> ".join(cycle)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_imports_inside_functions(package):
    hidden = [f"{module} line {line} imports {name}"
              for module, imports in _graph(package).items()
              for name, line, nested in imports if nested]
    assert not hidden, "imports inside functions:\n" + "\n".join(hidden)
