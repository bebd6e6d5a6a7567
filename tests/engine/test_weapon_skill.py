"""H1 (issue 22, issue 35): a weapon may name the skill it is used with; a declaration
starts with the weapon of its skill, and with none for a skill no weapon names (a run is
no shot); without a skill, with the last weapon the character declared (it carries to the
next asalto), else the default weapon (`ask.weapon_for`). The log names the weapon of
every attack."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from sombra_tui.engine import EventKind, ask, storage
from sombra_tui.engine import commands as c
from sombra_tui.engine.history import Combat
from sombra_tui.engine.model import Action, Character, Encounter, Settings
from sombra_tui.engine.wounds import Weapon

FISTS = Weapon(name="puños", damage_type="0", skill="Pelea")
PISTOL = Weapon(name="pistola", damage_type="II", skill="Armas cortas")
KNIFE = Weapon(name="cuchillo", damage_type="I")


def encounter() -> Encounter:
    return Encounter(name="Armas", seed=3, settings=Settings(), characters=[
        Character(name="Iker", primaria=10, secundaria=6, alerta=12,
                  skills={"Pelea": 14, "Armas cortas": 10},
                  weapons=[FISTS, PISTOL, KNIFE]),
        Character(name="Bruno", primaria=12, secundaria=5, alerta=12)])


def test_a_weapon_names_its_skill_or_none() -> None:
    assert Weapon(name="porra", damage_type="0").skill is None
    assert Weapon.model_validate({"name": "porra", "damage_type": "0"}).skill is None
    assert Weapon(name="porra", damage_type="0", skill="  Pelea ").skill == "Pelea"
    assert Weapon(name="porra", damage_type="0", skill="   ").skill is None
    with pytest.raises(ValidationError):
        Weapon(name="porra", damage_type="0", skill="x" * 41)
    assert PISTOL.used_with("armas CORTAS ") and not PISTOL.used_with("Pelea")
    assert not KNIFE.used_with("Pelea")


def test_the_skill_is_saved_with_the_character_and_read_back() -> None:
    combat = Combat(encounter())
    text = storage.dumps(combat)
    saved = json.loads(text)
    [iker] = [ch for ch in saved["encounter"]["characters"] if ch["name"] == "Iker"]
    assert [w["skill"] for w in iker["weapons"]] == ["Pelea", "Armas cortas", None]
    loaded = storage.loads(text)
    assert loaded.state.character("Iker").weapons == [FISTS, PISTOL, KNIFE]  # type: ignore[union-attr]


def test_weapon_for_picks_the_weapon_of_the_skill_else_the_default() -> None:
    state = Combat(encounter()).state
    assert ask.weapon_for(state, "Iker", "Armas cortas") == 1
    assert ask.weapon_for(state, "Iker", "pelea") == 0  # T2: whatever the case
    assert ask.weapon_for(state, "Iker", "Atletismo") is None  # no weapon of its own
    assert ask.weapon_for(state, "Iker") == 0  # the default
    assert ask.weapon_for(state, "Bruno", "Pelea") is None  # no weapons
    assert ask.weapon_for(state, "Nadie") is None


def test_the_last_weapon_declared_stays_the_choice_next_asalto() -> None:
    combat = Combat(encounter())
    combat.execute(c.StartCombat())
    for name in list(combat.state.declaration_order):
        if name == "Iker":
            combat.execute(c.Declare(character="Iker", actions=[Action(
                description="apuñala a Bruno", target=12, targets=["Bruno"], weapon=KNIFE)],
                affected=["Bruno"]))
        else:
            combat.execute(c.Declare(character=name, actions=[]))
        while combat.state.top_prompt is not None:
            combat.execute(c.Decline(character=combat.state.top_prompt.reactor))
    assert ask.weapon_for(combat.state, "Iker") == 2  # this asalto's declaration
    while combat.state.round == 1:
        combat.execute(c.Advance() if not combat.state.current_group()
                       else c.Resolve(character=combat.state.current_group()[0].character,
                                      accept=False))
    assert combat.state.round == 2 and not combat.state.declarations
    assert ask.weapon_for(combat.state, "Iker") == 2  # carried to the next asalto
    assert ask.weapon_for(combat.state, "Iker", "Armas cortas") == 1  # the skill first
    assert ask.weapon_for(combat.state, "Bruno") is None


def declared_with(weapon: Weapon, *, skill: str = "") -> Combat:
    """Iker declares a shot at Bruno with `weapon`; Bruno declares inaction."""
    combat = Combat(encounter())
    combat.execute(c.StartCombat())
    combat.execute(c.Declare(character="Iker", actions=[Action(
        description="ataca a Bruno", skill=skill, target=12, targets=["Bruno"],
        weapon=weapon)]))
    return combat


def test_h1_a_skill_no_weapon_names_starts_with_no_weapon_whatever_was_declared() -> None:
    """Issue 35: Iker last declared the cuchillo; "corre hacia la puerta" with Atletismo
    (named by no weapon) starts with no weapon, not the cuchillo nor the default; with no
    skill typed, the cuchillo (the last one) still comes first."""
    state = declared_with(KNIFE).state
    assert ask.weapon_for(state, "Iker", "Atletismo") is None
    assert ask.weapon_for(state, "Iker", "") == 2
    assert ask.weapon_for(state, "Iker", "Pelea") == 0


def test_h1_of_two_weapons_for_one_skill_the_last_declared_comes_first() -> None:
    revolver = Weapon(name="revólver", damage_type="II", skill="Armas cortas")
    character = Character(name="Iker", primaria=10, secundaria=6, alerta=12,
                          weapons=[FISTS, PISTOL, revolver])
    assert character.weapon_index("Armas cortas") == 1  # the first that names it
    assert character.weapon_index("armas cortas", revolver) == 2  # the one last used
    assert character.weapon_index("Pelea", revolver) == 0  # the skill's own weapon
    assert character.weapon_index("Atletismo", revolver) is None


def declare_line(combat: Combat) -> str:
    return next(e.text for e in combat.log if e.kind is EventKind.DECLARE)


def test_h1_d1_the_declaration_log_line_names_the_weapon_of_an_attack() -> None:
    assert declare_line(declared_with(PISTOL, skill="Armas cortas")) == (
        "Iker declares: ataca a Bruno [asalto], with pistola (affects Bruno)")
    combat = Combat(encounter())
    combat.execute(c.StartCombat())
    combat.execute(c.Declare(character="Iker", actions=[
        Action(description="corre hacia la puerta", skill="Atletismo", target=12,
               targets=["Bruno"]),
        Action(description="desenfunda", target=12, weapon=PISTOL)]))  # no target
    assert declare_line(combat) == ("Iker declares: corre hacia la puerta [asalto]; "
                                    "desenfunda [asalto] (affects Bruno)")


def test_h1_d1_the_weapon_of_an_attack_in_the_log_in_spanish(spanish: str) -> None:
    assert declare_line(declared_with(KNIFE)) == (
        "Iker declara: ataca a Bruno [asalto], con cuchillo (afecta a Bruno)")
