"""The engine never imports the UI libraries (architecture rule)."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "sombra_tui" / "engine"
FORBIDDEN = {"textual", "rich"}


def imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_engine_files_exist() -> None:
    assert len(list(ENGINE.glob("*.py"))) >= 8


def test_engine_never_imports_textual_or_rich() -> None:
    offenders = {
        path.name: sorted(imported_roots(path) & FORBIDDEN)
        for path in ENGINE.rglob("*.py")
        if imported_roots(path) & FORBIDDEN
    }
    assert offenders == {}


def test_engine_imports_nothing_above_the_engine() -> None:
    """Relative, TYPE_CHECKING and function-level imports included (see test_architecture):
    the engine is the bottom of the arrows, engine <- session <- app."""
    from tests.test_architecture import PACKAGE, imports_in, module_name

    known = {module_name(path) for path in PACKAGE.rglob("*.py")}
    offenders: dict[str, list[str]] = {}
    for path in ENGINE.rglob("*.py"):
        name = module_name(path)
        imported = imports_in(path.read_text(encoding="utf-8"), name,
                              is_package=path.name == "__init__.py", known=known)
        bad = sorted(module for module in imported
                     if module.split(".")[0] in FORBIDDEN
                     or (module.split(".")[0] == "sombra_tui"
                         and not module.startswith("sombra_tui.engine")))
        if bad:
            offenders[name] = bad
    assert offenders == {}


def test_importing_engine_loads_no_ui_module() -> None:
    import subprocess
    import sys

    code = (
        "import sys, sombra_tui.engine; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')]; "
        "print(bad); raise SystemExit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
