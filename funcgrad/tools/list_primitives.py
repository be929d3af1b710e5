"""Write docs/primitives.md from the registry: ``python -m funcgrad.tools.list_primitives``.

tests/test_docs.py regenerates the page and compares it with the committed file, so the
list of supported functions cannot drift from the code.
"""
import importlib
import pkgutil
import types

import numpy as np

from funcgrad.core import registry

# The namespaces users call, in the order the page lists them.
NAMESPACES = ("funcgrad", "funcgrad.numpy", "funcgrad.numpy.linalg", "funcgrad.numpy.fft",
              "funcgrad.numpy.lib.stride_tricks",
              "funcgrad.scipy.special", "funcgrad.scipy.stats", "funcgrad.tree_util",
              "funcgrad.flatten_util", "funcgrad.example_libraries.optimizers")


def _import_everything():
    """Import every module that declares primitives, so the registry is complete."""
    for package in ("funcgrad.numpy", "funcgrad.scipy"):
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, package + "."):
            importlib.import_module(info.name)


def _namespaces():
    """NAMESPACES, with a package that only groups modules (scipy.stats) replaced by them."""
    for name in NAMESPACES:
        module = importlib.import_module(name)
        exported = [getattr(module, n) for n in getattr(module, "__all__", ())]
        if exported and all(isinstance(obj, types.ModuleType) for obj in exported):
            yield from sorted(obj.__name__ for obj in exported)
        else:
            yield name


def _public_functions(module):
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    found = []
    for name in sorted(set(names)):
        obj = getattr(module, name, None)
        if isinstance(obj, (types.ModuleType, type)) or not callable(obj):
            continue  # submodules, classes and dtypes, constants
        found.append(name)
    return found


def _implementation(primitive):
    impl = primitive.impl
    if isinstance(impl, np.ufunc):
        return f"numpy.{impl.__name__}"
    module = getattr(impl, "__module__", None) or "?"
    return f"{module}.{getattr(impl, '__qualname__', getattr(impl, '__name__', '?'))}"


def _rule_arguments(rules, any_arg):
    if any_arg is not None:
        return "every argument"
    argnums = [str(i) for i, rule in enumerate(rules) if rule is not None]
    if not argnums:
        return ""
    return ("argument " if len(argnums) == 1 else "arguments ") + ", ".join(argnums)


def _reverse_mode(primitive):
    vjp = primitive.vjp
    if vjp is None:
        return "none (constant output)"
    if not hasattr(vjp, "rules"):  # one rule written for all arguments at once
        return "every argument"
    return _rule_arguments(vjp.rules, getattr(vjp, "any_arg", None)) or "none (constant output)"


def _forward_mode(primitive):
    own = _rule_arguments(primitive.jvp_rules, primitive.jvp_rule_any_arg)
    if not own:
        return "transposed VJP"
    if primitive.jvp_rule_any_arg is not None:
        return "JVP rule"
    return f"JVP rule ({own}); others: transposed VJP"


def primitives_markdown():
    """The text of docs/primitives.md."""
    _import_everything()
    lines = [
        "# Supported functions and primitives",
        "",
        "Generated from funcgrad's registry by "
        "`python -m funcgrad.tools.list_primitives > docs/primitives.md`;",
        "`tests/test_docs.py` fails when this page no longer matches the code.",
        "",
        "## Public functions",
        "",
        "Each works on plain values and on values traced by any transform.",
    ]
    for name in _namespaces():
        functions = _public_functions(importlib.import_module(name))
        lines += ["", f"### `{name}` ({len(functions)})", "",
                  ", ".join(f"`{function}`" for function in functions)]
    primitives = sorted(registry.values(), key=lambda p: p.name)
    lines += [
        "", f"## Primitives ({len(primitives)})", "",
        "The operations the engine differentiates; the functions above are built from them. "
        "*Reverse mode* lists the arguments with a VJP rule (integer and boolean outputs "
        "need none). *Forward mode* says whether the primitive has its own JVP rule or "
        "transposes its VJP rule (see [adding a primitive](adding-a-primitive.md)).",
        "",
        "| primitive | implementation | reverse mode | forward mode |",
        "|---|---|---|---|",
    ]
    for primitive in primitives:
        results = " (several results)" if primitive.multiple_results else ""
        lines.append(f"| `{primitive.name}`{results} | `{_implementation(primitive)}` | "
                     f"{_reverse_mode(primitive)} | {_forward_mode(primitive)} |")
    return "\n".join(lines) + "\n"


def main():
    print(primitives_markdown(), end="")


if __name__ == "__main__":
    main()
