"""Format version 4 (RULES.md's fourth pass: P4's marks during a group's turn, C4's and
H11's timing, O3's conditioned action whose partner aims at others, O5's unable
opponents; Settings.rules_v4): a version-3 file or a version-2 journal was played with
the earlier readings and replays so, in its settings and in every change of settings in
its history; new encounters read the fourth pass, and no change of settings turns it."""

from __future__ import annotations

import json
from pathlib import Path

from sombra_tui.engine import ChangeSettings, Combat, Encounter, storage
from sombra_tui.engine.journal import find_journals, recover
from sombra_tui.engine.model import Settings
from sombra_tui.session import Session
from tests.engine.conftest import char


def small_combat(**settings: object) -> Combat:
    return Combat(Encounter(name="Cuarta", settings=Settings(**settings),  # type: ignore[arg-type]
                            characters=[char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12)]))


def as_version_3(combat: Combat) -> dict[str, object]:
    """`combat` saved as a version-3 file was: no rules_v4 anywhere, no snapshot."""
    data = json.loads(storage.dumps(combat))
    data["format_version"] = 3
    data["encounter"]["settings"].pop("rules_v4")
    for command in data["commands"]:
        if command["type"] == "change_settings":
            command["settings"].pop("rules_v4")
    data.pop("snapshot", None)
    return data


def test_p4_new_encounters_read_the_fourth_pass() -> None:
    assert Settings().rules_v4
    assert json.loads(storage.dumps(small_combat()))["format_version"] == 4


def test_p4_a_change_of_settings_never_turns_the_fourth_pass() -> None:
    combat = small_combat()
    old = combat.state.settings
    combat.execute(ChangeSettings(settings=old.model_copy(update={"points_per_gd": 4,
                                                                  "rules_v4": False})))
    assert combat.state.settings.rules_v4 and combat.state.settings.points_per_gd == 4


def test_p4_a_version_3_file_replays_with_the_readings_it_was_played_with(
        tmp_path: Path) -> None:
    played = small_combat(rules_v4=False)
    old = played.state.settings
    played.execute(ChangeSettings(settings=old.model_copy(update={"points_per_gd": 4})))
    path = tmp_path / "tercera.sombra.json"
    path.write_text(json.dumps(as_version_3(played)), encoding="utf-8")
    loaded = storage.load(path)
    assert loaded.state == played.state and loaded.commands == played.commands
    assert not loaded.state.settings.rules_v4
    assert not loaded.commands[0].settings.rules_v4  # type: ignore[attr-defined]
    assert any("version 4" in notice for notice in loaded.notices)
    again = json.loads(storage.dumps(loaded))
    assert again["format_version"] == 4 and again["encounter"]["settings"]["rules_v4"] is False


def test_p4_a_version_2_journal_replays_with_the_readings_it_was_played_with(
        tmp_path: Path) -> None:
    played = small_combat(rules_v4=False)
    session = Session(played)
    session.start_journal(tmp_path)
    old = played.state.settings
    session.execute(ChangeSettings(settings=old.model_copy(update={"points_per_gd": 4})))
    [path] = find_journals(tmp_path)
    lines = path.read_text(encoding="utf-8").split("\n")
    header = json.loads(lines[0])
    header["format_version"] = 2
    header["encounter"]["settings"].pop("rules_v4")
    rest = [json.loads(line) for line in lines[1:] if line]
    for entry in rest:
        command = entry.get("command") or {}
        if command.get("type") == "change_settings":
            command["settings"].pop("rules_v4")
    path.write_text("\n".join([json.dumps(header), *map(json.dumps, rest), ""]),
                    encoding="utf-8")
    recovered = recover(path)
    assert recovered.combat.state == played.state
    assert not recovered.combat.state.settings.rules_v4
