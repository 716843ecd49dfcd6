"""No import circles anywhere, read from the imports themselves (`ast`, nothing is run).

Every `import` counts, wherever it is written: at the top of a module, inside a
function (a late import hides a circle, it does not remove it) or under
`TYPE_CHECKING` (a circle of types is still a circle of meaning). Two graphs
are checked: modules, and folders (a package's modules taken together, so
that `bot/` importing `runtime/` and `runtime/` importing `bot/` is a circle
even when no single module closes it). The tests are left out: they import
everything by design.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LEFT_OUT = {"tests", "build", "dist", "node_modules"}

Graph = dict[str, set[str]]


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the project by its dotted name (a package by its folder's name, a
    compiled module by its stub)."""
    found: dict[str, Path] = {}
    stubs = [path for path in root.rglob("*.pyi") if not path.with_suffix(".py").exists()]
    for path in sorted([*root.rglob("*.py"), *stubs]):
        parts = path.relative_to(root).parts
        if any(part in LEFT_OUT or part.startswith(".") for part in parts):
            continue
        if len(parts) == 1 or not (root / parts[0] / "__init__.py").exists():
            continue  # not in a package: nothing imports it by name
        names = list(parts[:-1])
        if path.stem != "__init__":
            names.append(path.stem)
        found[".".join(names)] = path
    return found


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> Iterator[str]:
    """The dotted names an import statement may reach (a module, or a name in one)."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name
        return
    base = node.module or ""
    if node.level:  # relative: counted from the module's own package
        package = module.split(".") if is_package else module.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, base] if base else package)
    for alias in node.names:  # a module of that name, else a name in `base`
        yield f"{base}.{alias.name}" if base else alias.name


def import_graph(modules: Mapping[str, Path]) -> Graph:
    """Module → the project's modules it imports (the deepest module each import names)."""
    graph: Graph = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.stem == "__init__"
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            targets = set(_imported(node, name, is_package))
            for target in targets:
                # `from a import b` reaches the module a.b if there is one, else the package a
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def folder_graph(graph: Graph, modules: Mapping[str, Path]) -> Graph:
    """Folder → the folders its modules import (a package and its modules are one folder)."""

    def folder(name: str) -> str:
        return name if modules[name].stem == "__init__" else name.rpartition(".")[0]

    folders: Graph = {folder(name): set() for name in graph}
    for name, targets in graph.items():
        for target in targets:
            if folder(target) != folder(name):
                folders[folder(name)].add(folder(target))
    return folders


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected parts with more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def describe(found: list[list[str]], graph: Graph) -> str:
    """Each circle with the imports that close it, for the failure message."""
    lines = []
    for part in found:
        members = set(part)
        edges = [f"{a} -> {b}" for a in part for b in sorted(graph[a]) if b in members]
        lines.append(f"{', '.join(part)}: {'; '.join(edges)}")
    return "\n".join(lines)


MODULES = project_modules()
GRAPH = import_graph(MODULES)


def test_the_graph_sees_the_project() -> None:
    assert {"bot.actions", "bot.components", "runtime.health", "matches", "games.base"} <= set(
        GRAPH
    )
    assert "matches" in GRAPH["bot.table"] or "matches.views" in GRAPH["bot.table"]


def test_no_module_imports_itself_round_a_circle() -> None:
    found = cycles(GRAPH)
    assert found == [], "import circles between modules:\n" + describe(found, GRAPH)


def test_no_folder_imports_itself_round_a_circle() -> None:
    folders = folder_graph(GRAPH, MODULES)
    found = cycles(folders)
    assert found == [], "import circles between folders:\n" + describe(found, folders)


def test_the_circle_finder_finds_circles() -> None:
    graph: Graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert "a -> b" in describe(cycles(graph), graph)


def test_the_bot_imports_the_store_only_where_the_process_starts() -> None:
    """`bot/` is the Discord adapter: it speaks to `matches`; only `python -m bot` opens a store."""
    offenders = sorted(
        f"{name} -> {target}"
        for name, targets in GRAPH.items()
        if name.split(".")[0] == "bot" and name != "bot.__main__"
        for target in targets
        if target.split(".")[0] == "store"
    )
    assert offenders == []
