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
            "command_to_screen_ms", "command_sync_ms", "dialog_open_ms",
            "python_workload_ms"}
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
