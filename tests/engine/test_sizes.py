"""Issue 20: the engine stays readable in pieces: no module over 800 lines and no
function over 80 (a function's lines from its `def` to its last line)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "sombra_tui" / "engine"
MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 80


def engine_files() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def test_the_rules_are_found() -> None:
    names = {path.relative_to(ENGINE).as_posix() for path in engine_files()}
    assert {"machine.py", "registry.py", "rules/opposition.py", "rules/hits.py"} <= names


def test_no_engine_module_is_over_800_lines() -> None:
    long = {path.relative_to(ENGINE).as_posix(): lines for path in engine_files()
            if (lines := len(path.read_text(encoding="utf-8").splitlines()))
            > MAX_MODULE_LINES}
    assert long == {}


def test_no_engine_function_is_over_80_lines() -> None:
    long = {}
    for path in engine_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(ENGINE).as_posix()}:{node.name}"] = lines
    assert long == {}
