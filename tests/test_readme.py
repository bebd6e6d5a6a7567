"""README's promises: the engine example runs as shown, and its commands are one line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def readme() -> str:
    return README.read_text(encoding="utf-8")


def marked_line(name: str) -> str:
    block = re.search(rf"<!-- {name} -->\s*```\n(.*?)\n```\s*<!-- /{name} -->", readme(), re.S)
    assert block is not None, f"README has no {name} block"
    return block.group(1)


def test_readme_engine_example_plays_the_worked_example() -> None:
    """The README's Python example (the RULES.md worked example, D4-D11) runs and prints
    the GD of Ana's second reaction: +1 for one earlier reaction (D6)."""
    code = re.search(r"```python\n(.*?)\n```", readme(), re.S)
    assert code is not None
    result = subprocess.run([sys.executable, "-c", code.group(1)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "GD +1 = 1 earlier reacción"


def test_readme_commands_are_single_lines_from_a_fresh_venv() -> None:
    for name in ("launch-command", "test-command"):
        line = marked_line(name)
        assert "\n" not in line
        assert line.startswith("python3 -m venv .venv && ")
    assert marked_line("launch-command").endswith("sombra-tui")
    assert "pytest" in marked_line("test-command")


def test_readme_test_command_runs_every_lane() -> None:
    """The default run leaves the serial lane out (pyproject's addopts), so the test
    command, which CI runs, must run it after, alone (README, "Tests in lanes")."""
    line = marked_line("test-command")
    parallel, serial = line.split(" && ")[-2:]
    assert parallel.endswith("pytest -q")
    assert serial.endswith("pytest -q -m serial -n 0")
