"""`sombra-tui bench --quick` runs end to end and writes its results (no timing asserted:
the numbers depend on the machine; the targets are checked by reading a full run)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sombra_tui import bench, config
from sombra_tui.cli import main


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(config.CONFIG_DIR_ENV, str(tmp_path / "config"))
    monkeypatch.setenv(config.DATA_DIR_ENV, str(tmp_path / "data"))


def expected_rows() -> set[str]:
    rows = {"replay_ms", "replay_rate", "undo_ratio", "save_ms", "load_ms", "file_kib",
            "start_bare_ms", "start_empty_ms", "start_ms", "start_ratio",
            "command_to_screen_ms", "command_sync_ms",
            # issue 21 item 3: the round's dialogs, prepared, built at the key, again
            *(f"dialog_{kind}_{measure}" for kind, _what, _next in bench.ROUND_DIALOGS
              for measure in ("first_ms", "again_ms", "built_ms", "first_vs_again")),
            "python_workload_ms",
            # issue 14: the same measures without sections H and C, taking turns
            "replay_plain_ms", "replay_hc_ratio", "command_to_screen_plain_ms",
            "command_to_screen_hc_ratio",
            # issue 23: the players' page with 0 and 50 pages following it
            "players_0_ms", "players_50_ms", "players_ratio", "players_snapshot_ms",
            # issue 24: undo and redo against a command and the stock-widget baseline,
            # load against its json parse and validation, memory
            "stock_command_ms", "undo_command_ms", "undo_to_screen_ms", "redo_to_screen_ms",
            "undo_command_ratio", "redo_command_ratio", "undo_stock_ratio",
            "redo_stock_ratio", "load_parse_ms", "load_parse_ratio", "bytes_per_command",
            "bytes_commands", "bytes_log", "bytes_checkpoints", "bytes_undo_states",
            "memory_app_mib", "memory_stock_mib", "memory_ratio",
            # issue 24 item 3: the snapshot at once, checked in the background
            "load_checked_ms", "load_replay_ms", "load_parse_older_ms",
            "load_parse_older_ratio", "load_replay_ratio",
            # issue 24 item 5: a fresh process to the first screen, against the stock app
            "cold_start_ms", "cold_start_stock_ms", "cold_start_ratio",
            # issue 24: the demo's size against the baseline, frames per command
            "demo_command_ms", "demo_stock_command_ms", "demo_command_ratio",
            "demo_frames", "demo_stock_frames"}
    for length in bench.QUICK.lengths:
        rows |= {f"undo_ms_{length}", f"redo_ms_{length}"}
    return rows


def test_quick_bench_writes_every_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    output = tmp_path / "out" / "bench"
    assert main(["bench", "--quick", "--output", str(output)]) == 0

    data = json.loads((tmp_path / "out" / "bench.json").read_text(encoding="utf-8"))
    rows = {row["key"]: row for row in data["rows"]}
    assert set(rows) == expected_rows()
    for key, row in rows.items():
        assert isinstance(row["value"], float | int) and row["value"] > 0, key
        assert row["met"] is None, key  # quick mode checks that it runs, not the targets
    assert data["mode"] == "quick" and data["machine"]["cores"]

    markdown = (tmp_path / "out" / "bench.md").read_text(encoding="utf-8")
    printed = capsys.readouterr().out
    for row in rows.values():
        assert row["label"] in markdown and row["label"] in printed


def test_scripted_history_is_legal_and_has_reaction_chains() -> None:
    """The synthetic DJ only plays legal commands, and its history has what the
    benchmark is meant to exercise: reactions, counter-reactions, declines, many rounds."""
    encounter = bench.build_encounter(12)
    history = bench.build_history(encounter, 600)
    kinds = {command.type for command in history}
    assert {"declare", "react", "decline", "resolve", "resolve_opposed", "advance",
            "set_mark"} <= kinds
    from sombra_tui.engine.history import Combat

    combat = Combat(encounter, history)
    assert combat.state.round >= 3
    assert any(event.rule == "D9" for event in combat.log)  # a counter-reaction prompt


def test_scripted_history_has_hits_bleeding_and_expiries() -> None:
    """Sections H and C in the benchmark's history: hits settled, bleeding at the end of
    a round (H9), conditions that expire (C3)."""
    from sombra_tui.engine.history import Combat

    encounter = bench.build_encounter(20)
    history = bench.build_history(encounter, 3000)
    assert {"accept_hit", "decline_hit", "add_condition", "heal"} <= {
        command.type for command in history}
    codes = {event.code for event in Combat(encounter, history).log}
    assert {"hit.applied", "wound.bled", "condition.expired"} <= codes


def test_the_baseline_history_has_no_hits_wounds_or_conditions() -> None:
    """Issue 14's baseline: the same scripted DJ without sections H and C."""
    from sombra_tui.engine.history import Combat

    encounter = bench.build_encounter(20, hc=False)
    history = bench.build_history(encounter, 1500, hc=False)
    assert all(not character.weapons for character in encounter.characters)
    types = {command.type for command in history}
    assert not types & {"accept_hit", "decline_hit", "add_condition", "heal", "attend_wound"}
    combat = Combat(encounter, history)
    assert all(not body.wounds and not body.conditions
               for body in combat.state.bodies.values())
    assert {"react", "resolve", "advance"} <= types


def test_a_ratio_row_names_the_runs_noise_and_meets_within_it() -> None:
    report = bench.Report(mode="full", targets=True, machine={}, sizes={})
    bench.add_ratio(report, "replay", "replay", [1.05, 1.0, 1.1], [1.0, 0.95, 1.05])
    plain, ratio = report.rows
    assert plain.key == "replay_plain_ms" and plain.value == pytest.approx(1000)
    assert ratio.value == pytest.approx(1.05) and "+/-5%" in ratio.label
    assert ratio.met  # 1.05 <= 1 + 5 %
    bench.add_ratio(report, "replay", "replay", [1.3], [1.0], noise=0.1)
    assert report.rows[-1].met is False and "+/-10%" in report.rows[-1].label


def test_stock_baseline_imports_only_textual() -> None:
    """Issue 24: the baseline app's memory and speed are the stock widgets' own, so its
    module imports no sombra-tui code (the engine alone holds tens of MiB)."""
    import ast
    import inspect

    from sombra_tui import bench_stock

    tree = ast.parse(inspect.getsource(bench_stock))
    names = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
             for alias in node.names]
    names += [node.module or "" for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom)]
    assert names and not [name for name in names if name.startswith("sombra_tui")]
    assert any(name.startswith("textual") for name in names)
