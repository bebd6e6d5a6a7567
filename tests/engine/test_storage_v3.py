"""Format version 3 (H11 asks the DJ before a new aturdido cancels a pending round
action): a file or a journal played under the earlier rule, where that action was
cancelled at once (C4) and the history went on without an answer, still opens and
replays to what was played, with the setting off; new encounters ask (RULES.md H11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sombra_tui.engine import Combat, Encounter, Phase, Resolve, SombraError, storage
from sombra_tui.engine.commands import ManualHit
from sombra_tui.engine.journal import find_journals, recover
from sombra_tui.engine.model import Settings
from sombra_tui.engine.state import ProposalKind, StepStatus
from sombra_tui.engine.wounds import Location, WoundSettings
from sombra_tui.session import Session
from tests.engine.conftest import act, advance_to, char, declare, dice


def played_before_h11(asks: bool) -> Combat:
    """Ana (slowest) and Carla both shoot; a club to Ana's head stuns her (aturdido)
    before her turn, then Carla's shot resolves: under the rule before version 3 Ana's
    step was skipped at once and nobody was asked."""
    settings = Settings(wounds=WoundSettings(unable_asks_prevented=asks),
                        oppositions_v3=asks, rules_v4=asks)
    combat = Combat(Encounter(name="Antes", settings=settings, characters=[
        char("Ana", 8, 3, 14, resistencia=6), char("Carla", 15, 2, 13)]))
    from sombra_tui.engine import StartCombat
    combat.execute(StartCombat())
    declare(combat, "Ana", act("shoots Carla", "Carla", target=30), affected=[])
    declare(combat, "Carla", act("shoots Ana", "Ana", target=30), affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(ManualHit(character="Ana", location=Location.CABEZA, damage=6,
                             lethal=False))
    combat.execute(Resolve(character="Carla", dice=dice(1, 1, 1)))
    return combat


def as_version_2(combat: Combat) -> str:
    """`combat` saved as a version-2 file was: no H11 setting, no snapshot."""
    data = json.loads(storage.dumps(combat))
    data["format_version"] = 2
    data["encounter"]["settings"]["wounds"].pop("unable_asks_prevented")
    data["encounter"]["settings"].pop("oppositions_v3")
    data["encounter"]["settings"].pop("rules_v4")
    data.pop("snapshot", None)
    return json.dumps(data)


def test_h11_new_encounters_ask_and_the_old_history_does_not_replay_so() -> None:
    assert WoundSettings().unable_asks_prevented  # RULES.md H11
    with pytest.raises(SombraError, match="settle"):
        played_before_h11(asks=True)  # Carla's shot waits for the DJ's answer about Ana


def test_h11_a_version_2_file_replays_as_it_was_played(tmp_path: Path) -> None:
    played = played_before_h11(asks=False)
    [ana] = [step for step in played.state.steps if step.character == "Ana"]
    assert ana.status is StepStatus.SKIPPED and not played.state.proposals  # C4 at once
    path = tmp_path / "antes.sombra.json"
    path.write_text(as_version_2(played), encoding="utf-8")
    loaded = storage.load(path)
    assert loaded.state == played.state and loaded.commands == played.commands
    assert not loaded.state.settings.wounds.unable_asks_prevented
    assert any("version-2 file" in notice for notice in loaded.notices)
    again = json.loads(storage.dumps(loaded))
    assert again["format_version"] == storage.FORMAT_VERSION == 4
    assert again["encounter"]["settings"]["wounds"]["unable_asks_prevented"] is False


def test_h11_a_version_1_journal_replays_as_it_was_played(tmp_path: Path) -> None:
    played = played_before_h11(asks=False)
    session = Session(played)
    session.start_journal(tmp_path)
    [path] = find_journals(tmp_path)
    lines = path.read_text(encoding="utf-8").split("\n")
    header = json.loads(lines[0])
    header["format_version"] = 1
    header["encounter"]["settings"]["wounds"].pop("unable_asks_prevented")
    header["encounter"]["settings"].pop("oppositions_v3")
    header["encounter"]["settings"].pop("rules_v4")
    path.write_text("\n".join([json.dumps(header), *lines[1:]]), encoding="utf-8")
    recovered = recover(path)
    assert recovered.combat.state == played.state
    assert not any(p.kind is ProposalKind.PREVENT for p in recovered.combat.state.proposals)


def test_o3_a_version_2_file_with_a_change_of_settings_replays_as_it_was_played(
        tmp_path: Path) -> None:
    """Bruno dodged Carla before she declared her attack plain: before version 3 her
    attack was its own TA. A change of settings in the history (which in version 2 had
    neither field) does not bring version 3's readings back in the middle of it."""
    from sombra_tui.engine import ChangeSettings
    from tests.engine.test_rules_opposed import dodge_then_plain_attack

    played = dodge_then_plain_attack(  # as version 2 played
        oppositions_v3=False, rules_v4=False,
        wounds=WoundSettings(unable_asks_prevented=False))
    old = played.state.settings
    played.execute(ChangeSettings(settings=old.model_copy(update={"points_per_gd": 4})))
    played.execute(Resolve(character="Carla", dice=dice(2, 3, 4)))  # on her own
    data = json.loads(as_version_2_settings(played))
    loaded_path = tmp_path / "esquiva.sombra.json"
    loaded_path.write_text(json.dumps(data), encoding="utf-8")
    loaded = storage.load(loaded_path)
    assert loaded.state == played.state and loaded.commands == played.commands
    bruno = next(s for s in loaded.state.steps if s.character == "Bruno")
    assert bruno.status is StepStatus.PENDING  # his dodge still to roll


def as_version_2_settings(combat: Combat) -> str:
    """as_version_2, the change_settings commands too without version 3's fields."""
    data = json.loads(as_version_2(combat))
    for command in data["commands"]:
        if command["type"] == "change_settings":
            command["settings"]["wounds"].pop("unable_asks_prevented")
            command["settings"].pop("oppositions_v3")
            command["settings"].pop("rules_v4")
    return json.dumps(data)
