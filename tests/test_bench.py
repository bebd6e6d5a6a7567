"""`sombra-tui bench --quick` runs end to end and writes its results (no timing asserted:
the numbers depend on the machine; the targets are checked by reading a full run)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sombra_tui import config
from sombra_tui.cli import main
from tests import builders
from tests.tools import bench


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
              for measure in ("first_ms", "again_ms", "built_ms", "first_vs_again",
                              "calls_first_vs_again")),
            # and the declaration again for the next declarer (other names in its lists)
            "dialog_declaration_other_ms",
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
            "memory_app_unprepared_mib",
            # issue 24 item 3: the snapshot at once, checked in the background
            "load_checked_ms", "load_replay_ms", "load_parse_older_ms",
            "load_parse_older_ratio", "load_replay_ratio",
            # issue 24 item 5: a fresh process to the first screen, against the stock app
            "cold_start_ms", "cold_start_stock_ms", "cold_start_ratio",
            "cold_start_floor_ratio", "cold_start_own_ratio",
            # issue 41 item 6: sombra-tui FILE with the long file, and its first undo
            "cold_start_file_ms", "cold_start_file_stock_ms", "cold_start_file_ratio",
            "opened_first_undo_ms", "opened_second_undo_ms", "opened_undo_ratio",
            "opened_undo_stock_ratio",
            # issue 24: the demo's size against the baseline, frames per command
            "demo_command_ms", "demo_stock_command_ms", "demo_command_ratio",
            "demo_frames", "demo_stock_frames",
            # issue 37 item 7: a command to screen with the forecast and without
            "foresight_on_ms", "foresight_off_ms", "foresight_due_ms",
            "foresight_ratio"}
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
    encounter = builders.build_encounter(12)
    history = builders.build_history(encounter, 600)
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

    encounter = builders.build_encounter(20)
    history = builders.build_history(encounter, 3000)
    assert {"accept_hit", "decline_hit", "add_condition", "heal"} <= {
        command.type for command in history}
    codes = {event.code for event in Combat(encounter, history).log}
    assert {"hit.applied", "wound.bled", "condition.expired"} <= codes


def test_the_baseline_history_has_no_hits_wounds_or_conditions() -> None:
    """Issue 14's baseline: the same scripted DJ without sections H and C."""
    from sombra_tui.engine.history import Combat

    encounter = builders.build_encounter(20, hc=False)
    history = builders.build_history(encounter, 1500, hc=False)
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

    from tests.tools import bench_stock

    tree = ast.parse(inspect.getsource(bench_stock))
    names = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
             for alias in node.names]
    names += [node.module or "" for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom)]
    assert names and not [name for name in names if name.startswith("sombra_tui")]
    assert any(name.startswith("textual") for name in names)


# --------------------------------------------------------------------------- the history
# Issue 24 item 6: made-up histories; nothing here is timed.


def recorded(mode: str, date: str = "2026-12-01 10:00 UTC", **values: float
             ) -> dict[str, object]:
    units = {"demo_frames": "frames", "python_workload_ms": "ms", "bytes_per_command":
             "bytes"}
    return {"date": date, "commit": "abc123", "mode": mode, "load_average": 2.0,
            "machine": {}, "rows": {key: {"value": value, "unit": units.get(key, "x"),
                                          "noise": 0.05}
                                    for key, value in values.items()}}


def demo_report(ratio: float, noise: float, frames: float = 1) -> bench.Report:
    return bench.Report(mode="full, demo rows", targets=True, machine=bench.machine_info(),
                        sizes={},
                        kind="demo", rows=[
                            bench.Row("python_workload_ms", "machine speed", 20.0, "ms"),
                            bench.Row("demo_command_ratio", "demo: app / baseline", ratio,
                                      "x", noise=noise),
                            bench.Row("demo_frames", "demo: frames", frames, "frames",
                                      noise=0.0)])


#: Six runs: the oldest (2.0x, before the frames work) is no longer among the last five.
HISTORY = [recorded("full", demo_command_ratio=2.0, demo_frames=3),
           *(recorded("demo", demo_command_ratio=ratio, demo_frames=1)
             for ratio in (0.55, 0.60, 0.58, 0.62, 0.57))]


def test_a_demo_row_worse_than_the_last_runs_beyond_this_runs_noise_is_worse() -> None:
    ratio, frames = bench.compare(demo_report(0.70, noise=0.05), HISTORY)
    assert ratio.key == "demo_command_ratio" and ratio.previous == (0.55, 0.60, 0.58, 0.62,
                                                                     0.57)
    assert ratio.worse  # 0.70 > 0.62 * 1.05
    line = ratio.line()
    assert line.startswith("WORSE: ") and "demo_command_ratio" in line
    assert "0.70" in line and "0.55-0.62" in line and "+/-5%" in line
    assert not frames.worse and frames.line().startswith("ok: ")


def test_within_this_runs_noise_or_better_is_not_worse() -> None:
    assert not bench.compare(demo_report(0.65, noise=0.05), HISTORY)[0].worse  # <= 0.651
    assert bench.compare(demo_report(0.65, noise=0.04), HISTORY)[0].worse  # > 0.6448
    assert not bench.compare(demo_report(0.30, noise=0.0), HISTORY)[0].worse


def test_one_more_frame_per_command_is_worse() -> None:
    frames = bench.compare(demo_report(0.6, noise=0.05, frames=2), HISTORY)[1]
    assert frames.worse and "demo_frames" in frames.line() and "is 2" in frames.line()


def test_quick_runs_are_no_reference_and_a_first_run_has_nothing_to_be_worse_than() -> None:
    history = [*HISTORY, recorded("quick", demo_command_ratio=5.0, demo_frames=4)]
    assert bench.compare(demo_report(0.70, noise=0.05), history)[0].previous[-1] == 0.57
    first = bench.compare(demo_report(9.0, noise=0.0), [])[0]
    assert not first.worse and first.line().startswith("NEW: ")
    quick = demo_report(9.0, noise=0.0)
    quick.kind = "quick"  # too few repeats to judge by, as for its targets
    assert bench.compare(quick, HISTORY) == []


def test_strict_exits_non_zero_when_a_demo_row_is_worse_and_record_appends(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    history = tmp_path / "history.json"
    bench.save_history(HISTORY, history)
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n{bench.README_BEGIN}\nold\n{bench.README_END}\nafter\n",
                      encoding="utf-8")
    monkeypatch.setattr(bench, "README_PATH", readme)
    reports = iter([demo_report(0.70, noise=0.05), demo_report(0.70, noise=0.05),
                    demo_report(0.61, noise=0.05)])
    monkeypatch.setattr(bench, "run", lambda **_kwargs: next(reports))
    output = ["--output", str(tmp_path / "out"), "--history", str(history)]

    assert main(["bench", "--demo", *output]) == 0  # reported, not failed
    assert "WORSE: demo: app / baseline (demo_command_ratio) is 0.70" in capsys.readouterr(
    ).out
    assert main(["bench", "--demo", "--strict", *output]) == 1
    assert len(bench.load_history(history)) == len(HISTORY)  # nothing recorded unasked

    assert main(["bench", "--demo", "--strict", "--record", *output]) == 0
    runs = bench.load_history(history)
    assert len(runs) == len(HISTORY) + 1 and runs[-1]["mode"] == "demo"
    assert runs[-1]["rows"]["demo_command_ratio"] == {"value": 0.61, "unit": "x",
                                                      "noise": 0.05}
    assert runs[-1]["commit"] and runs[-1]["date"]
    assert '"demo_command_ratio": {"value": 0.61, "unit": "x", "noise": 0.05}' in \
        history.read_text(encoding="utf-8")  # a row a line: the file diffs by rows
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("# x\n") and text.endswith(f"{bench.README_END}\nafter\n")
    assert bench.readme_block(runs) in text and "\nold\n" not in text


def test_readme_table_shows_the_latest_full_run_and_the_range_of_the_last_runs() -> None:
    history = [recorded("full", date="2026-11-30 09:00 UTC", demo_command_ratio=0.9,
                        memory_ratio=3.0, python_workload_ms=20.0),
               *HISTORY[1:3],
               recorded("full", date="2026-12-01 09:00 UTC", demo_command_ratio=0.64,
                        memory_ratio=4.2, python_workload_ms=30.0, demo_frames=1),
               *HISTORY[3:], recorded("quick", demo_command_ratio=7.0)]
    block = bench.readme_block(history)
    assert "Latest full run: 2026-12-01 09:00 UTC, commit abc123, machine speed 30.0 ms" \
        in block
    rows = {line.split(" | ")[0].lstrip("| "): line.split(" | ")[1:]
            for line in block.splitlines() if line.startswith("| ")}
    demo = rows["demo size (6 characters): a command to screen, app / baseline"]
    # latest full run, then the last five reference runs (0.60, 0.58, 0.64, 0.62, 0.57)
    assert demo == ["0.64x (+/-5%)", "0.57-0.64x", "<= 0.9x", "yes |"]
    memory = rows["peak memory of a fresh process showing the file, app / baseline"]
    assert memory == ["4.20x (+/-5%)", "3.00-4.20x (2 runs)", "<= 1.8x", "no |"]
    frames = rows["demo size: frames drawn per command (median)"]
    assert frames[:2] == ["1", "1"]
    assert rows["load / json parse and validation of the same file"] == ["", "", "<= 3x",
                                                                        " |"]


@pytest.mark.parametrize(("language", "words"), [("en", "source checkout"),
                                                 ("es", "copia de las fuentes")])
def test_bench_without_the_checkout_says_where_it_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        language: str, words: str) -> None:
    """Issue 36 item 6: the benchmark is a tool of the checkout, not of the package; where
    sombra-tui runs from an installed copy (no tests/tools beside it), `sombra-tui bench`
    says where it runs, in the DJ's language, with status 1 (tests/install tries it in a
    wheel really installed)."""
    from sombra_tui import cli

    monkeypatch.setattr(cli, "CHECKOUT", tmp_path)
    assert main(["bench", "--lang", language, "--quick"]) == 1
    printed = capsys.readouterr()
    assert words in printed.err and "sombra-tui bench" in printed.err
    assert "python -m tests.tools.bench" in printed.err and printed.out == ""


def test_the_foresight_baseline_switches_the_forecast_off_and_back() -> None:
    """Issue 37 item 7: the baseline of the foresight rows computes no forecast (no mark
    in the table, no "This asalto" line), and the forecast is back after it."""
    from sombra_tui.engine import ask
    from sombra_tui.engine.commands import AddCondition, AddNote
    from sombra_tui.engine.conditions import Condition
    from tests.engine.conftest import char, started

    combat = started(char("Ana", 8, 3, 14), char("Carla", 15, 2, 13))
    combat.execute(AddCondition(character="Ana", condition=Condition(name="derribado",
                                                                     duration=1)))
    combat.execute(AddNote(round=2, text="llegan", character="Carla"))
    state = combat.state.model_copy(deep=True)
    state.round = 2  # derribado (asalto 1) ends at the end of asalto 2 (C3)
    assert ask.due_now(state) == {"Ana", "Carla"}
    with bench.without_foresight():
        assert ask.due_now(state) == frozenset()
    assert ask.due_now(state) == {"Ana", "Carla"}
