"""The import graph: layers imported only downwards, no circle, the pages through the workbench facade alone.

Read from the source with `ast` (every import, also those inside functions; `if TYPE_CHECKING:` blocks left out,
as they never run), so a new import that climbs a layer or closes a circle fails here, not in a review.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Top to bottom (docs/architecture.md); a module may import its own layer or any below it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("core.cli", "core.__main__", "core.preload"),
    ("core.workbench",),
    ("core.qa",),
    ("core.retrieval",),
    ("core.ingest",),
    ("core.rooms",),
    ("core.providers", "core.db"),
    (
        "core.errors",
        "core.models",
        "core.cells",
        "core.sheetmodel",
        "core.text",
        "core.config",
        "core.inputs",
        "core.events",
        "core.demo_stamp",
        "core.lexicon",
        "core.sql",
    ),
)
# What a page or app.py may import of core/.
# (core.preload: app.py waits there for the imports `workbench serve` started before any page ran.)
PAGE_IMPORTS = {"core.workbench", "core.models", "core.errors", "core.config", "core.preload"}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(path: Path) -> set[str]:
    """The core modules `path` imports (a name imported from a package counts as its submodule when it is one)."""
    found: set[str] = set()
    skipped: set[int] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _type_checking(node):
            skipped |= {id(n) for n in ast.walk(node)} - {id(node.test)}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("core")}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("core") and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                is_module = (ROOT / Path(*sub.split("."))).with_suffix(".py").exists() or (
                    ROOT / Path(*sub.split("."))
                ).is_dir()
                found.add(sub if is_module else node.module)
    return found


def _rank(module: str) -> int:
    for rank, layer in enumerate(LAYERS):
        if any(module == top or module.startswith(top + ".") for top in layer):
            return rank
    raise AssertionError(f"{module} is in no layer of LAYERS: place it there (and in docs/architecture.md)")


CORE = sorted((ROOT / "core").rglob("*.py"))
GRAPH = {_module(p): _imports(p) for p in CORE}


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(ROOT)))
def test_core_imports_only_its_layer_or_below(path: Path) -> None:
    module = _module(path)
    upward = sorted(m for m in GRAPH[module] if _rank(m) < _rank(module))
    assert not upward, f"{module} imports a higher layer: {upward}"


def test_no_import_circle() -> None:
    graph = {m: {d for d in deps if d in GRAPH and d != m} for m, deps in GRAPH.items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    circles: list[list[str]] = []

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                circles.append([*path[path.index(d) :], d])
            elif d not in state:
                visit(d, [*path, d])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert not circles, f"import circles: {circles}"


@pytest.mark.parametrize(
    "path", [ROOT / "app.py", *sorted((ROOT / "views").rglob("*.py"))], ids=lambda p: str(p.relative_to(ROOT))
)
def test_pages_import_only_the_facade(path: Path) -> None:
    outside = sorted(m for m in _imports(path) if not any(m == p or m.startswith(p + ".") for p in PAGE_IMPORTS))
    # A name imported from core.workbench is a re-export, not a module: it counts as the facade.
    assert not outside, f"{path.name} imports {outside}: add what it needs to core.workbench's re-exports"


def test_the_checks_see_a_climb_and_a_circle() -> None:
    """The two checks above fail on a graph that climbs or circles (so they cannot pass by reading nothing)."""
    assert _rank("core.retrieval.cellmath") > _rank("core.qa.planner")
    assert "core.ingest.parse" in GRAPH["core.ingest.sandbox"]
    assert "core.qa.service" in GRAPH["core.workbench"]
