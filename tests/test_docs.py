"""The docs stay true: their code runs (with no warning from a library line), their printed
output matches, their links resolve, and docs/primitives.md matches the registry.

In a Markdown file, each ```python block runs (all blocks of a file in one namespace, in
order), and an ```output block right after one must equal what it printed. Other blocks
(```text, ```bash) are not run.
"""
import contextlib
import difflib
import io
import os
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from funcgrad import debug
from funcgrad.core import registry
from quiet import library_stays_quiet

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, "docs")
PAGES = sorted(os.path.join("docs", name) for name in os.listdir(DOCS) if name.endswith(".md"))
if os.path.exists(os.path.join(ROOT, "README.md")):
    PAGES.append("README.md")

_FENCE = re.compile(r"^```(\S*)")


def code_blocks(text):
    """[(info, code, line)] for each fenced block (fences at the start of a line)."""
    blocks, info, lines, start = [], None, [], 0
    for number, line in enumerate(text.splitlines(), 1):
        match = _FENCE.match(line)
        if match and info is None:
            info, lines, start = match.group(1), [], number
        elif line.startswith("```") and info is not None:
            blocks.append((info, "\n".join(lines) + "\n", start))
            info = None
        elif info is not None:
            lines.append(line)
    return blocks


def _normalized(output):
    return "\n".join(line.rstrip() for line in output.strip().splitlines())


PAGE_MODULE = "__doc_page__"  # the __name__ a page's code runs under


@pytest.fixture
def isolated(monkeypatch, tmp_path):
    """Run in a scratch directory; undo switch changes, and unregister the primitives a
    page defines (the registry self-test would otherwise find them untested)."""
    monkeypatch.chdir(tmp_path)
    switches = dict(debug._switches)
    try:
        yield
    finally:
        for name, primitive in list(registry.items()):
            if getattr(primitive.impl, "__module__", None) == PAGE_MODULE:
                del registry[name]
        debug.config.provenance = switches["provenance"]
        debug.config.debug_nans = switches["debug_nans"]


@pytest.mark.parametrize("page", PAGES)
def test_code_runs_and_prints_what_the_page_says(page, isolated):
    with open(os.path.join(ROOT, page)) as file:
        blocks = code_blocks(file.read())
    namespace = {"__name__": PAGE_MODULE}
    printed = None
    for info, code, line in blocks:
        if info == "python":
            stdout = io.StringIO()
            with contextlib.redirect_stdout(stdout), library_stays_quiet(f"{page}:{line}"):
                exec(compile(code, f"{page}, block at line {line}", "exec"), namespace)
            printed = stdout.getvalue()
        elif info == "output":
            assert printed is not None, f"{page}:{line}: an output block must follow code"
            assert _normalized(printed) == _normalized(code), (
                f"{page}:{line}: the block before prints\n{printed}")
            printed = None
        else:
            printed = None
    for case in namespace.get("CASES", ()):  # an oracle case on the page: check it
        _check_against_jax(case)


def _check_against_jax(case):
    from oracle import check_case

    @settings(max_examples=4, database=None)  # a few: each new shape compiles in JAX
    @given(data=st.data())
    def run(data):
        check_case(case, data)

    run()


@pytest.mark.parametrize("page", PAGES)
def test_links_point_at_existing_files(page):
    with open(os.path.join(ROOT, page)) as file:
        text = file.read()
    folder = os.path.dirname(os.path.join(ROOT, page))
    for target in re.findall(r"\]\(([^)#\s]+)", text):
        if "://" not in target:
            assert os.path.exists(os.path.join(folder, target)), f"{page}: broken link {target}"


def test_primitives_page_matches_the_registry():
    """docs/primitives.md is generated; regenerate it when primitives change."""
    done = subprocess.run([sys.executable, "-m", "funcgrad.tools.list_primitives"],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    with open(os.path.join(DOCS, "primitives.md")) as file:
        committed = file.read()
    if committed != done.stdout:
        diff = "".join(list(difflib.unified_diff(
            committed.splitlines(True), done.stdout.splitlines(True), "docs/primitives.md",
            "generated"))[:40])
        pytest.fail("docs/primitives.md is out of date; regenerate it with\n"
                    "    python -m funcgrad.tools.list_primitives > docs/primitives.md\n" + diff)
