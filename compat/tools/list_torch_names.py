"""Write docs/torch-names.md from the torch-name table:
``python -m compat.tools.list_torch_names > docs/torch-names.md``.

tests/compat/test_torch_names.py regenerates the page and compares it with the committed
file, so the list of torch names compat has (and lacks) cannot drift from the code.
"""
import inspect
import types

import compat
from compat import _torch_names
from compat._table import DATA, FLOAT, KEEP, PROMOTE

_RULES = {FLOAT: "float", PROMOTE: "promoted", KEEP: "kept", DATA: "no derivative"}
_NAMESPACES = ("", "linalg", "fft", "special")


def _forms(row):
    place = f"torch.{row.name}"
    forms = [f"`{place}`"] if row.function else []
    if row.method:
        forms.append(f"`Tensor.{row.short_name}`")
    if row.inplace:
        forms.append(f"`Tensor.{row.short_name}_`")
    return ", ".join(forms)


def _hand_written_functions(table_names):
    """compat's own torch functions (factories, core operations, random, grad mode)."""
    found = []
    for name, obj in vars(compat).items():
        if name.startswith("_") or name in table_names or isinstance(obj, types.ModuleType):
            continue
        if inspect.isfunction(obj) or isinstance(obj, type(compat.FloatTensor)):
            found.append(name)
    return sorted(found)


def _hand_written_methods(table_names):
    found = []
    for name, member in vars(compat.Tensor).items():
        if name.startswith("_") or name in table_names:
            continue
        if callable(member) or isinstance(member, property):
            found.append(name)
    return sorted(found)


def _expressible(reason):
    return reason.startswith("not yet")


def torch_names_markdown():
    """The text of docs/torch-names.md."""
    rows = _torch_names.ROWS
    table_names = {row.short_name for row in rows} | {row.short_name + "_" for row in rows
                                                      if row.inplace}
    functions = _hand_written_functions(table_names)
    methods = _hand_written_methods(table_names)
    missing = _torch_names.NOT_PROVIDED
    later = sorted(name for name, reason in missing.items() if _expressible(reason))
    lines = [
        "# torch names in compat",
        "",
        "Generated from compat's torch-name table (`compat/_torch_names.py`) by",
        "`python -m compat.tools.list_torch_names > docs/torch-names.md`;",
        "`tests/compat/test_torch_names.py` fails when this page no longer matches the code",
        "and compares every row with PyTorch 2.13.",
        "",
        f"- {len(rows)} torch names come from the table, in "
        f"{sum(r.function for r in rows)} functions, {sum(r.method for r in rows)} Tensor "
        f"methods and {sum(bool(r.inplace) for r in rows)} in-place methods;",
        f"- {len(functions)} torch functions and {len(methods)} Tensor members are written "
        f"by hand (`compat/_ops.py`, `_factories.py`, `_random/`, ...), listed at the end;",
        f"- {len(missing)} torch names are left out, listed with the reason; "
        f"{len(later)} of them funcgrad.numpy could express.",
        "",
        "*dtypes* says how a row treats its tensors' dtypes: *float* computes in PyTorch's "
        "result type, integers in the default float dtype; *promoted* in PyTorch's result "
        "type; *kept* leaves each tensor's dtype (index tensors stay integers); *no "
        "derivative* computes on the values without recording (comparisons, tests).",
    ]
    for prefix in _NAMESPACES:
        chosen = sorted((r for r in rows if r.namespace == prefix), key=lambda r: r.name)
        title = "torch" if not prefix else f"torch.{prefix}"
        lines += ["", f"## `{title}` ({len(chosen)} from the table)", "",
                  "| torch name | forms | dtypes | grad_fn |", "|---|---|---|---|"]
        for row in chosen:
            labels = (row.label,) if isinstance(row.label, str) else row.label.names
            grad_fn = "" if row.dtypes is DATA else ", ".join(f"`{n}`" for n in labels)
            lines.append(f"| `{row.short_name}` | {_forms(row)} | {_RULES[row.dtypes]} | "
                         f"{grad_fn} |")
    lines += ["", f"## Left out ({len(missing)})", "", "| torch name | why |", "|---|---|"]
    lines += [f"| `{name}` | {missing[name]} |" for name in sorted(missing)]
    lines += ["", f"## Written by hand: torch functions ({len(functions)})", "",
              ", ".join(f"`{name}`" for name in functions),
              "", f"## Written by hand: Tensor members ({len(methods)})", "",
              ", ".join(f"`{name}`" for name in methods)]
    return "\n".join(lines) + "\n"


def main():
    print(torch_names_markdown(), end="")


if __name__ == "__main__":
    main()
