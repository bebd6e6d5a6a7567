"""File format version 2 (sections H and C): the first real migration, and round trips
with wounds and conditions (S1)."""

from __future__ import annotations

import json

from sombra_tui.engine import Advance, Combat, Phase, Resolve, storage
from sombra_tui.engine.commands import AcceptHit, AddCondition, ManualHit
from sombra_tui.engine.conditions import builtin
from sombra_tui.engine.wounds import Location, Weapon
from tests.engine.conftest import (
    act,
    advance_to,
    char,
    declare,
    declare_all_inaction,
    dice,
    started,
)

#: A version-1 file as the app wrote it before issue 14 (no Resistencia, no weapons).
V1_FILE = {
    "format": "sombra-tui encounter", "format_version": 1,
    "encounter": {"name": "Viejo", "seed": 0, "settings": {
        "reaccion": True, "niveles_de_calidad": True, "iniciativa_variable": False,
        "points_per_gd": 5},
        "characters": [
            {"name": "Ana", "side": "PC", "primaria": 8, "secundaria": 3, "alerta": 14,
             "skills": {"Armas": 13}, "notes": ""},
            {"name": "Bruno", "side": "NPC", "primaria": 12, "secundaria": 5,
             "alerta": 12, "skills": {}, "notes": ""}]},
    "commands": [
        {"type": "start_combat", "initiative_rolls": {}},
        {"type": "declare", "character": "Ana", "actions": [
            {"kind": "round", "description": "shoots Bruno", "skill": "Armas",
             "target": None, "gd": 0, "targets": ["Bruno"], "extended": None,
             "opposition": None}], "affected": None},
        {"type": "declare", "character": "Bruno", "actions": [], "affected": None},
        {"type": "advance"}, {"type": "advance"},
        {"type": "resolve", "character": "Ana", "dice": {"ds": 5, "a": 8, "b": 3},
         "target": None, "extra_gd": 0, "modifier": 0, "accept": None}],
    "redo": [],
}


def test_a_version_1_file_opens_unchanged_in_meaning_and_says_so_once() -> None:
    combat = storage.loads(json.dumps(V1_FILE))
    assert [ch.resistencia for ch in combat.state.characters] == [5, 5]
    assert all(ch.weapons == [] for ch in combat.state.characters)
    assert combat.state.proposals == []  # no weapon: the old shot is no attack (H1)
    assert combat.state.phase is Phase.ROUND and combat.state.steps[0].result is not None
    first, second, third = combat.notices  # through versions 2 and 3 to version 4
    assert "version-1" in first and "Resistencia 5" in first and "version-2" in second
    assert "earlier version" in third and "version 4" in third
    saved = json.loads(storage.dumps(combat))
    assert saved["format_version"] == storage.FORMAT_VERSION == 4
    again = storage.loads(storage.dumps(combat))
    assert again.notices == []  # said once: a current file has nothing to say
    assert again.state == combat.state


def test_a_version_2_round_trip_keeps_wounds_conditions_and_proposals() -> None:
    pistol = Weapon(name="pistol", damage_type="II")
    combat = started(char("Ana", 8, resistencia=6, weapons=[pistol],
                          skills={"Armas": 30}),
                     char("Bruno", 12, resistencia=7,
                          protection={Location.PECHO: 2}))
    combat.execute(ManualHit(character="Bruno", location=Location.PECHO, damage=9))
    combat.execute(AddCondition(character="Ana", condition=builtin("desarmado", began=0)))
    declare(combat, "Ana", act("shoots Bruno", "Bruno", skill="Armas", weapon=pistol),
            affected=[])
    declare_all_inaction(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Ana", dice=dice(5, 8, 3)))
    loaded = storage.loads(storage.dumps(combat))
    assert loaded.state == combat.state and loaded.log == combat.log
    assert len(loaded.state.proposals) == 1  # the open hit survives the file
    loaded.execute(AcceptHit(proposal_id=loaded.state.proposals[0].id))
    combat.execute(AcceptHit(proposal_id=combat.state.proposals[0].id))
    assert loaded.state == combat.state
    assert len(combat.state.body("Bruno").wounds) == 2
    combat.execute(Advance())
    assert storage.loads(storage.dumps(combat)).state == combat.state


def test_the_schema_describes_the_new_fields() -> None:
    text = json.dumps(storage.json_schema())
    for name in ("resistencia", "weapons", "protection", "main_arm", "wounds",
                 "damage_types", "accept_hit", "manual_hit", "add_condition",
                 "unable_asks_prevented"):
        assert name in text, name
    assert storage.json_schema()["title"].endswith(f"version {storage.FORMAT_VERSION}")


def test_combat_from_an_encounter_has_no_notices() -> None:
    assert Combat(storage.loads(json.dumps(V1_FILE)).encounter).notices == []
