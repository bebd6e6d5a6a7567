"""The direction of the imports (README, "How the code is laid out").

Static: every `import` in sombra_tui is read with `ast`, including those under
`if TYPE_CHECKING:` and inside functions, so an arrow drawn backwards fails here even
where it would not fail at run time. `from package import module` is an arrow to that
module (the package's `__init__` runs first for any import, so it is no arrow of its own).
"""

from __future__ import annotations

import ast
import re
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


def test_the_app_s_controllers_import_no_screen_and_no_textual() -> None:
    """Issue 36 item 2: the files and the players' server are plain controllers over
    the session that the app composes; they ask the DJ through the app's dialogs
    (`control/host.py`, Asks), so they import no screen, widget, app or UI library."""
    graph = module_graph()
    controllers = [name for name in graph if name.startswith("sombra_tui.control.")]
    assert {"sombra_tui.control.files", "sombra_tui.control.players"} <= set(controllers)
    found = {}
    for name in controllers:
        path = PACKAGE.parent / (name.replace(".", "/") + ".py")
        imported = imports_in(path.read_text("utf-8"), name, known=set(graph))
        wrong = sorted(module for module in imported
                       if module.split(".")[0] in UI_LIBRARIES
                       or module == "sombra_tui.app"
                       or module.startswith(("sombra_tui.screens", "sombra_tui.widgets")))
        if wrong:
            found[name] = wrong
    assert found == {}


#: The engine's front door (issue 20): what the rest of the package may import of it. The
#: package re-exports the names a user of the engine needs; ask answers the screen's
#: questions; i18n is the language every layer speaks.
DOOR = {"sombra_tui.engine", "sombra_tui.engine.ask", "sombra_tui.engine.i18n"}
#: Who goes through the door (issue 36 item 4): the screens, the widgets, the players'
#: view, the app and what it holds (its session, preferences and themes).
THROUGH_THE_DOOR = ("sombra_tui.screens.", "sombra_tui.widgets.", "sombra_tui.players.",
                    "sombra_tui.control.")
THROUGH_THE_DOOR_MODULES = {"sombra_tui.app", "sombra_tui.session", "sombra_tui.config",
                            "sombra_tui.themes", "sombra_tui.screens", "sombra_tui.widgets",
                            "sombra_tui.players", "sombra_tui.control"}


def goes_through_the_door(module: str) -> bool:
    return module in THROUGH_THE_DOOR_MODULES or module.startswith(THROUGH_THE_DOOR)


def test_the_screens_ask_the_engine_only_through_its_door() -> None:
    graph = module_graph()
    checked = [module for module in graph if goes_through_the_door(module)]
    assert {"sombra_tui.app", "sombra_tui.session", "sombra_tui.config", "sombra_tui.themes",
            "sombra_tui.screens.main", "sombra_tui.widgets.footer",
            "sombra_tui.players.server"} <= set(checked)
    behind = {module: sorted(imported for imported in graph[module]
                             if imported.startswith("sombra_tui.engine")
                             and imported not in DOOR)
              for module in checked}
    assert {module: names for module, names in behind.items() if names} == {}


def door_names_used(source: str) -> set[str]:
    """The names `source` takes from the engine's package: `from sombra_tui.engine import
    X`, and `c.X` where c is the package (`from sombra_tui import engine as c`)."""
    tree = ast.parse(source)
    used: set[str] = set()
    aliases: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level:
            if node.module == "sombra_tui.engine":
                used.update(alias.name for alias in node.names)
            elif node.module == "sombra_tui":
                aliases.update(alias.asname or alias.name for alias in node.names
                               if alias.name == "engine")
        elif isinstance(node, ast.Import):
            aliases.update(alias.asname for alias in node.names
                           if alias.name == "sombra_tui.engine" and alias.asname)
    used.update(node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name) and node.value.id in aliases)
    return used


def test_the_door_test_sees_each_way_of_using_a_name() -> None:
    source = ("from sombra_tui.engine import Declare, ask\n"
              "from sombra_tui import engine as c\n"
              "import sombra_tui.engine as e\n"
              "from sombra_tui.engine.state import Phase\n"
              "c.Resolve(); e.Heal; x.Nothing\n")
    assert door_names_used(source) == {"Declare", "ask", "Resolve", "Heal"}


def test_the_door_writes_each_name_once() -> None:
    """Issue 36 item 4: the engine's package lists each name it gives once (its imports
    under TYPE_CHECKING), not in an import, `__all__` and a table of modules as well:
    in its code (its docstring aside) each name is one token, a word or a string."""
    import io
    import tokenize

    import sombra_tui.engine as engine

    source = Path(engine.__file__).read_text("utf-8")
    docstring = ast.get_docstring(ast.parse(source), clean=False) or ""
    words = [token.string for token in tokenize.generate_tokens(io.StringIO(
                 source.replace(docstring, "", 1)).readline)
             if token.type == tokenize.NAME]
    words += [value for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Constant)
              and isinstance(value := node.value, str) and value != docstring]
    assert len(engine.__all__) > 100
    assert {name: words.count(name) for name in engine.__all__
            if words.count(name) != 1} == {}


#: On the door though no module imports it by name: tests/engine/test_exports.py names
#: it among what a UI reads of sections H and C.
KEPT_ON_THE_DOOR = {"Body"}


def test_every_name_on_the_door_is_used_outside_the_engine() -> None:
    """Issue 36 item 4: a name leaves the door when nothing outside the engine uses it.
    Tests count as users: they play the engine through the door as a screen does (a test
    of one engine module imports that module). A command and every model or enum it
    holds stay (a command is built from the package alone: tests/engine/test_exports.py)."""
    import sombra_tui.engine as engine
    from tests.engine.test_exports import held_types

    tests = Path(__file__).resolve().parent
    users = [path for path in PACKAGE.rglob("*.py") if "engine" not in
             path.relative_to(PACKAGE).parts[:-1]] + list(tests.rglob("*.py"))
    used = {name for path in users for name in door_names_used(path.read_text("utf-8"))}
    held = {kind.__name__ for kind in held_types(engine.Command, set())}
    assert len(engine.__all__) > 100 and "Declare" in used
    assert sorted(set(engine.__all__) - used - held - KEPT_ON_THE_DOOR) == []

def test_the_door_test_sees_a_module_behind_the_door() -> None:
    source = ("from sombra_tui.engine import ask, Declare\n"
              "from sombra_tui.engine.machine import pv_of\n"
              "from sombra_tui import engine as c\n")
    known = {"sombra_tui.engine", "sombra_tui.engine.ask", "sombra_tui.engine.machine"}
    found = imports_in(source, "sombra_tui.screens.main", known=known)
    assert found - DOOR == {"sombra_tui.engine.machine"}


# ---- Textual's private names: in one module only (issue 21 item 4) -------------------

#: The one module that may use Textual's private names, each with its reason.
TEXTUAL_COMPAT = PACKAGE / "textual_compat.py"
DEFINED = re.compile(r"def (_[a-z]\w*)|self\.(_[a-z]\w*)\s*(?::[^=\n]*)?=[^=]"
                     r"|^\s*(_[a-z]\w*)\s*(?::[^=\n]*)?=[^=]", re.M)


def private_names_defined(files: list[Path]) -> set[str]:
    found: set[str] = set()
    for path in files:
        for match in DEFINED.finditer(path.read_text("utf-8")):
            found.add(next(group for group in match.groups() if group))
    return found


def private_textual_uses(path: Path, theirs: set[str]) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("textual"):
            if any(part.startswith("_") for part in (node.module or "").split(".")) or \
                    any(alias.name.startswith("_") for alias in node.names):
                found.append(f"{path.name}:{node.lineno} imports from {node.module}")
        elif isinstance(node, ast.Attribute) and node.attr in theirs:
            found.append(f"{path.name}:{node.lineno} uses .{node.attr}")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in theirs:
            found.append(f"{path.name}:{node.lineno} overrides {node.name}")
    return found


def test_textual_s_private_names_are_used_in_one_module_only() -> None:
    """A private module of Textual (`textual.widgets._select`), or an attribute only
    Textual defines with a leading underscore (`_forward_event`), is used in
    sombra_tui/textual_compat.py only, where each says why (README, "Textual versions")."""
    import textual

    ours = [path for path in PACKAGE.rglob("*.py") if path != TEXTUAL_COMPAT]
    theirs = private_names_defined(list(Path(textual.__file__).parent.rglob("*.py")))
    theirs -= private_names_defined(ours)  # ours, even where Textual has one alike
    found = [use for path in ours for use in private_textual_uses(path, theirs)]
    assert found == [], "Textual's private names outside textual_compat.py"


def test_the_private_names_test_sees_one(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from textual.widgets._select import SelectOverlay\n"
                      "class Log:\n"
                      "    def _size_updated(self): return self.widget._line_cache\n")
    assert private_textual_uses(sample, {"_size_updated", "_line_cache"}) == [
        "sample.py:1 imports from textual.widgets._select",
        "sample.py:3 overrides _size_updated", "sample.py:3 uses ._line_cache"]


def test_textual_compat_says_which_textual_it_was_checked_against() -> None:
    """README's upgrade steps: read textual_compat.py against the new version and set
    CHECKED_AGAINST; until then this fails after an upgrade of Textual."""
    import textual

    from sombra_tui import textual_compat

    assert textual.__version__ == textual_compat.CHECKED_AGAINST


def test_no_class_outside_textual_compat_overrides_a_private_name_of_textual() -> None:
    """A private method or attribute of a Textual base class (`_size_updated`,
    `_on_focus`, `_forward_event`), overridden: in textual_compat.py only."""
    import importlib
    import inspect
    import pkgutil

    from textual.widget import Widget

    import sombra_tui

    class Plain(Widget):  # what Textual sets on every subclass by itself
        pass

    automatic = set(vars(Plain)) | {"_abc_impl"}  # Python's own, on an ABC's subclass
    found = []
    for info in pkgutil.walk_packages(sombra_tui.__path__, "sombra_tui."):
        if info.name in ("sombra_tui.textual_compat", "sombra_tui.__main__"):
            continue
        module = importlib.import_module(info.name)
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != info.name:
                continue
            textual_bases = [base for base in cls.__mro__[1:]
                             if base.__module__.split(".")[0] == "textual"]
            found.extend(f"{info.name}.{cls.__name__}.{name}" for name in vars(cls)
                         if name.startswith("_") and not name.startswith("__")
                         and name not in automatic
                         and any(name in vars(base) for base in textual_bases))
    assert found == []


# ---- one dialog contract (issue 21 item 2) -----------------------------------------------

DIALOGS = PACKAGE / "screens" / "dialogs"
#: A dialog module longer than this holds more than one thing: split it (the sheet from
#: its dialogs, the numbers of a form from the form).
MOST_DIALOG_LINES = 300


def test_no_dialog_module_is_over_300_lines() -> None:
    long = {path.name: lines for path in DIALOGS.glob("*.py")
            if (lines := len(path.read_text(encoding="utf-8").splitlines()))
            > MOST_DIALOG_LINES}
    assert long == {}


def dialog_contract_breaches(source: str, module: str) -> list[str]:
    """Where a dialog module writes what the base Dialog writes once: its own `submit`
    (a dialog writes `build`, the base shows a field's error, runs the engine's check and
    finishes), its own handling of buttons without OWN_BUTTONS (the base's handler would
    act as well), the class tree walked (`__mro__`), or a result awaited with
    `push_screen_wait` (a result comes back through the callback given at the push)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in ("__mro__", "push_screen_wait"):
            found.append(f"{module}: {node.attr}")
        if not isinstance(node, ast.ClassDef):
            continue
        methods = {item.name for item in node.body if isinstance(item, ast.FunctionDef)}
        assigned = {target.id for item in node.body if isinstance(item, ast.Assign)
                    for target in item.targets if isinstance(target, ast.Name)}
        if "submit" in methods:
            found.append(f"{module}.{node.name}: submit")
        if "on_button_pressed" in methods and "OWN_BUTTONS" not in assigned:
            found.append(f"{module}.{node.name}: on_button_pressed without OWN_BUTTONS")
    return found


def test_dialogs_keep_one_contract() -> None:
    """The dialogs (and the main screen and the app, which push them) keep the base's
    contract: every result comes back by the callback given at the push, the crash
    recovery's offer at start-up included."""
    paths = [path for path in DIALOGS.glob("*.py") if path.name != "base.py"]
    paths += [PACKAGE / "screens" / "main.py", PACKAGE / "screens" / "asks.py",
              PACKAGE / "app.py", *(PACKAGE / "control").glob("*.py")]
    found = [breach for path in paths
             for breach in dialog_contract_breaches(path.read_text(encoding="utf-8"),
                                                    module_name(path))]
    assert found == []


def test_the_contract_test_sees_each_breach() -> None:
    source = ("class A(Dialog):\n    def submit(self): ...\n"
              "class B(Dialog):\n    def on_button_pressed(self, event): ...\n"
              "class C(Dialog):\n    OWN_BUTTONS = True\n"
              "    def on_button_pressed(self, event): ...\n"
              "async def flow(app):\n    await app.push_screen_wait(A())\n"
              "mro = A.__mro__\n")
    assert sorted(dialog_contract_breaches(source, "m")) == [
        "m.A: submit", "m.B: on_button_pressed without OWN_BUTTONS", "m: __mro__",
        "m: push_screen_wait"]


#: The test modules that test the tools themselves (the benchmark's rows and history,
#: README's table and the screenshots' command): the only tests that import tests.tools.
TOOLS_TESTS = ("test_bench.py", "test_cpu_share.py", "test_readme.py")


def test_the_tools_use_the_tests_helpers_and_nothing_uses_the_tools() -> None:
    """Issue 36 item 6: the benchmark and the screenshots (tests/tools) are out of the
    package; they import the package and the tests' helpers (tests/builders.py,
    tests/app/drivers.py), never the other way round: no module of sombra_tui imports
    `tests` (cli finds the benchmark in the checkout by its path), and no test module or
    helper imports tests.tools but the tools' own tests."""
    tests = Path(__file__).resolve().parent
    backwards = [module_name(path) for path in PACKAGE.rglob("*.py")
                 if any(name == "tests" or name.startswith("tests.") for name in imports_in(
                     path.read_text(encoding="utf-8"), module_name(path)))]
    assert backwards == []
    users = sorted(str(path.relative_to(tests)) for path in tests.rglob("*.py")
                   if "tools" not in path.relative_to(tests).parts[:-1]
                   and any(name.startswith("tests.tools") for name in imports_in(
                       path.read_text(encoding="utf-8"), "tests.x")))
    assert users == sorted(TOOLS_TESTS)
    assert not [name for name in ("bench", "bench_stock", "screenshots")
                if (PACKAGE / f"{name}.py").exists()]


# ---- the screen's side in pieces, as the engine and the dialogs (issue 36 item 7) ------

#: The screen's side: the screens (the dialogs too), the widgets, the players' view and
#: the app with its controllers (control/: files, recovery, the players' server). A
#: module longer than this, or a function longer than that, does more than one job:
#: split it by its jobs (the table's cells, layout, drawing and cursor, say).
SCREEN_SIDE = ("screens", "widgets", "players", "control")
MOST_SCREEN_LINES = 400
MOST_FUNCTION_LINES = 60


def screen_side_files() -> list[Path]:
    return sorted([*(path for folder in SCREEN_SIDE for path in (PACKAGE / folder).rglob("*.py")),
                   PACKAGE / "app.py"])


def cap_breaches(source: str, module: str) -> list[str]:
    """Where `source` (the text of `module`) is over the caps: its lines, and each
    function's or method's (async ones too) from its `def` to its last line."""
    found = []
    lines = len(source.splitlines())
    if lines > MOST_SCREEN_LINES:
        found.append(f"{module}: {lines} lines")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MOST_FUNCTION_LINES:
                found.append(f"{module}.{node.name}: {length} lines")
    return found


def test_no_screen_module_is_over_400_lines_nor_any_function_over_60() -> None:
    files = screen_side_files()
    assert {PACKAGE / "app.py", PACKAGE / "screens" / "main.py",
            PACKAGE / "screens" / "dialogs" / "sheet.py", PACKAGE / "players" / "server.py",
            PACKAGE / "widgets" / "initiative_table.py",
            PACKAGE / "control" / "files.py"} <= set(files)
    found = [breach for path in files
             for breach in cap_breaches(path.read_text(encoding="utf-8"), module_name(path))]
    assert found == []


def test_the_caps_test_sees_each_breach() -> None:
    body = "    x = 1\n"
    assert cap_breaches("def f():\n" + body * 59, "m") == []  # 60 lines: at the cap
    assert cap_breaches("def f():\n" + body * 60, "m") == ["m.f: 61 lines"]
    assert cap_breaches("async def g():\n" + body * 61, "m") == ["m.g: 62 lines"]
    assert cap_breaches("class A:\n    def h(self):\n"
                        + ("    " + body) * 60, "m") == ["m.h: 61 lines"]
    assert cap_breaches("x = 1\n" * 400, "m") == []
    assert cap_breaches("x = 1\n" * 401, "m") == ["m: 401 lines"]
