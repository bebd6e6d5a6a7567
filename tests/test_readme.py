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



def test_readme_installs_as_an_app_with_pipx_or_uv_in_both_languages() -> None:
    """Issue 40 item 2: beside the two commands, README and README.es give the user's
    way, `pipx install .` and `uv tool install .` (each a block of its own, to copy),
    and a wheel file's name as `python -m build` writes it for this version."""
    from sombra_tui import __version__

    for path in (README, README.with_name("README.es.md")):
        text = path.read_text(encoding="utf-8")
        blocks = re.findall(r"```\n(.*?)\n```", text, re.S)
        assert "pipx install ." in blocks and "uv tool install ." in blocks, path.name
        wheels = set(re.findall(r"dist/sombra_tui-([^-\s`]+)-py3-none-any\.whl", text))
        assert wheels == {__version__}, path.name
        assert "pipx install dist/" in text and "uv tool install dist/" in text, path.name

#: RULES.md's sections and how many rules each has (T1-T8, ..., C1-C4).
RULE_SECTIONS = {"T": 8, "I": 4, "D": 12, "P": 6, "E": 4, "O": 5, "S": 2, "H": 12, "C": 4}
#: RULES.md, the contract, where the project keeps it: beside the repository.
RULES_MD = README.parents[1] / "shared" / "RULES.md"


def rule_ids() -> list[str]:
    return [f"{section}{n}" for section, count in RULE_SECTIONS.items()
            for n in range(1, count + 1)]


def test_rule_sections_match_rules_md_when_it_is_beside_the_repository() -> None:
    if not RULES_MD.is_file():
        return  # the list above is then the contract
    ids = re.findall(r"^- \*\*([A-Z]\d+)\*\*", RULES_MD.read_text(encoding="utf-8"), re.M)
    assert ids == rule_ids()


def test_readme_rules_table_has_one_row_per_rule() -> None:
    """Every rule of every RULES.md section, T1 to C4 (T8, O5, H1-H12, C1-C4 too), has its
    own row in "Rules implemented": what the tracker does and where."""
    section = readme().split("## Rules implemented", 1)[1]
    rows = re.findall(r"^\| ([A-Z]\d+) \| (.+?) \| (.+?) \|$", section, re.M)
    assert [row[0] for row in rows] == rule_ids()
    assert all(what.strip() and where.strip() for _, what, where in rows)


def test_readme_test_command_runs_every_lane() -> None:
    """The default run leaves the serial lane out (pyproject's addopts), so the test
    command, which CI runs, must run it after, alone (README, "Tests in lanes")."""
    line = marked_line("test-command")
    parallel, serial = line.split(" && ")[-2:]
    assert parallel.endswith("pytest -q")
    assert serial.endswith("pytest -q -m serial -n 0")


def test_the_spanish_readme_says_where_combats_are_saved() -> None:
    """Issue 22: README.es names the data folder, the .bak, the journal and resuming,
    and the two environment variables, as README does."""
    from sombra_tui import config

    text = (README.parent / "README.es.md").read_text(encoding="utf-8")
    for promise in ("~/.local/share/sombra-tui/", ".json.bak", "journal/", "reanudar",
                    config.DATA_DIR_ENV, config.CONFIG_DIR_ENV):
        assert promise in text, promise


def test_readme_performance_table_is_rendered_from_the_recorded_history() -> None:
    """Issue 24 item 6: README's Performance section starts with the table that
    `sombra-tui bench --readme` renders from benchmarks/history.json, the committed
    history (no timing here: the block must equal what the history renders)."""
    from tests.tools import bench

    section = readme().split("## Performance", 1)[1]
    assert section.lstrip().startswith(bench.README_BEGIN)
    block = re.search(rf"{bench.README_BEGIN}\n(.*?)\n{bench.README_END}", readme(), re.S)
    assert block is not None, "README has no bench-history block"
    runs = bench.load_history(README.parent / "benchmarks" / "history.json")
    assert runs, "benchmarks/history.json has no recorded run"
    assert block.group(1) == bench.readme_block(runs), \
        "README's table is not the history's: run `.venv/bin/sombra-tui bench --readme`"


def test_readme_s_tools_run_from_the_checkout_s_tests_tools() -> None:
    """Issue 36 item 6: the screenshots and the benchmark are tools of the checkout
    (tests/tools), not of the package: both READMEs give the screenshots' command as that
    module, which answers --help; CI runs README's bench command."""
    import importlib.util

    from tests.tools import screenshots

    command = ".venv/bin/python -m tests.tools.screenshots"
    for path in (README, README.with_name("README.es.md")):
        assert command in path.read_text(encoding="utf-8"), path.name
        assert "sombra_tui.screenshots" not in path.read_text(encoding="utf-8"), path.name
    spec = importlib.util.find_spec("tests.tools.screenshots")
    assert spec is not None and spec.origin is not None
    assert Path(spec.origin) == README.parent / "tests" / "tools" / "screenshots.py"
    assert screenshots.main(["--help"]) == 0
    bench = marked_line("bench-command")
    assert bench == ".venv/bin/sombra-tui bench"
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert f"\n{bench} --quick --output " in ci


def test_readme_mutation_command_is_one_line_and_the_lane_stays_out_of_ci() -> None:
    """Issue 41 item 3: the mutation lane's command is one line, configured in
    pyproject ([tool.mutmut]: one worker, the engine's tests); mutmut is the optional
    extra `mutation`, not in `test`, so CI's install does not change."""
    import tomllib

    line = marked_line("mutation-command")
    assert "\n" not in line and "mutmut run" in line and "--max-children 1" in line
    project = tomllib.loads((README.parent / "pyproject.toml").read_text(encoding="utf-8"))
    extras = project["project"]["optional-dependencies"]
    assert any(dep.startswith("mutmut") for dep in extras["mutation"])
    assert not any(dep.startswith("mutmut") for dep in extras["test"])
    mutmut = project["tool"]["mutmut"]
    assert "tests/engine" in mutmut["pytest_add_cli_args_test_selection"]
    assert "sombra_tui/engine/rules/*" in mutmut["only_mutate"]
    assert "mutants/" in (README.parent / ".gitignore").read_text(encoding="utf-8")
