"""The direction of the imports (README, "How the code is laid out").

Static: every `import` in sombra_tui is read with `ast`, including those under
`if TYPE_CHECKING:` and inside functions, so an arrow drawn backwards fails here even
where it would not fail at run time. `from package import module` is an arrow to that
module (the package's `__init__` runs first for any import, so it is no arrow of its own).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "sombra_tui"
UI_LIBRARIES = {"textual", "rich"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_in(source: str, module: str, *, is_package: bool = False,
               known: set[str] | frozenset[str] = frozenset()) -> set[str]:
    """Every module `source` (the text of `module`) imports, as absolute names.

    `from x import y` is x.y when x.y is one of the `known` modules, else x.
    """
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join([*parts, *([base] if base else [])])
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known
                          else base)
    return found


def module_graph() -> dict[str, set[str]]:
    """sombra_tui module -> the sombra_tui modules it imports."""
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    known = set(paths)
    return {name: {imported for imported in imports_in(
                path.read_text(encoding="utf-8"), name,
                is_package=path.name == "__init__.py", known=known)
                   if imported in known and imported != name}
            for name, path in paths.items()}


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each group of modules that import one another in a circle (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def test_every_kind_of_import_is_seen() -> None:
    """TYPE_CHECKING, function-level, relative and `from package import module`."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "import textual.app\n"
        "from . import sibling\n"
        "from ..engine.state import Phase\n"
        "from sombra_tui.engine import commands as c\n"
        "if TYPE_CHECKING:\n"
        "    from sombra_tui.app import SombraApp\n"
        "def later():\n"
        "    import sombra_tui.session\n"
    )
    known = {"sombra_tui.screens.sibling", "sombra_tui.engine.commands"}
    assert imports_in(source, "sombra_tui.screens.main", known=known) == {
        "typing", "textual.app", "sombra_tui.screens.sibling", "sombra_tui.engine.state",
        "sombra_tui.engine.commands", "sombra_tui.app", "sombra_tui.session"}


def test_a_cycle_is_found() -> None:
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert find_cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_between_sombra_tui_modules() -> None:
    graph = module_graph()
    assert len(graph) >= 30 and "sombra_tui.engine.machine" in graph["sombra_tui.engine.history"]
    assert find_cycles(graph) == []


def test_the_screens_never_import_the_app() -> None:
    graph = module_graph()
    offenders = sorted(name for name, imported in graph.items()
                       if name.split(".")[:2] in (["sombra_tui", "screens"],
                                                  ["sombra_tui", "widgets"])
                       and "sombra_tui.app" in imported)
    assert offenders == []


#: The engine's front door (issue 20): what screens/ and widgets/ may import of it. The
#: package re-exports the names a user of the engine needs; ask answers the screen's
#: questions; i18n is the language every layer speaks.
DOOR = {"sombra_tui.engine", "sombra_tui.engine.ask", "sombra_tui.engine.i18n"}


def test_the_screens_ask_the_engine_only_through_its_door() -> None:
    graph = module_graph()
    behind = {module: sorted(imported for imported in imports
                             if imported.startswith("sombra_tui.engine")
                             and imported not in DOOR)
              for module, imports in graph.items()
              if module.split(".")[:2] in (["sombra_tui", "screens"], ["sombra_tui", "widgets"])}
    assert {module: names for module, names in behind.items() if names} == {}


def test_the_door_test_sees_a_module_behind_the_door() -> None:
    source = ("from sombra_tui.engine import ask, Declare\n"
              "from sombra_tui.engine.machine import pv_of\n"
              "from sombra_tui import engine as c\n")
    known = {"sombra_tui.engine", "sombra_tui.engine.ask", "sombra_tui.engine.machine"}
    found = imports_in(source, "sombra_tui.screens.main", known=known)
    assert found - DOOR == {"sombra_tui.engine.machine"}
