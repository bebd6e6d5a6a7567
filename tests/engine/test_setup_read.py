"""Issue 39 item 1: what the set-up reads of an encounter (engine/setup_read.py, through
ask): the side a new character takes, each character's short label, the skills and
weapons the character form completes, and the line that says what "4 Matón" adds."""

from __future__ import annotations

from sombra_tui.engine import ask
from sombra_tui.engine import commands as c
from sombra_tui.engine.history import Combat
from sombra_tui.engine.model import Character, Encounter, Side
from sombra_tui.engine.setup_read import short_labels
from sombra_tui.engine.wounds import Weapon


def sheet(name: str, side: Side = Side.NPC, **fields: object) -> Character:
    return Character(name=name, side=side, primaria=10, secundaria=2, alerta=10,
                     **fields)  # type: ignore[arg-type]


def state_of(*characters: Character) -> Combat:
    return Combat(Encounter(name="Muelle", seed=1, characters=list(characters)))


def test_a_new_character_is_a_pc_until_the_encounter_has_one() -> None:
    assert ask.new_character_side(state_of().state, None) is Side.PC
    # Only NPCs so far (the DJ began with the mooks): still the party first.
    only_npcs = state_of(sheet("Matón 1")).state
    assert ask.new_character_side(only_npcs, "Matón 1") is Side.PC


def test_a_new_character_takes_the_side_of_the_cursors_row() -> None:
    state = state_of(sheet("Ana", Side.PC), sheet("Matón 1")).state
    assert ask.new_character_side(state, "Ana") is Side.PC
    assert ask.new_character_side(state, "Matón 1") is Side.NPC
    assert ask.new_character_side(state, None) is Side.NPC  # no row chosen
    assert ask.new_character_side(state, "Nadie") is Side.NPC


def test_short_labels_keep_short_names_and_tell_numbered_ones_apart() -> None:
    names = ["Ana", "Matón 1", "Matón 12", "Guardia de seguridad 1",
             "Guardia de seguridad 2", "Ogro grande 3", "Bartolomeo"]
    labels = short_labels(names)
    assert labels == {"Ana": "Ana", "Matón 1": "Matón 1", "Matón 12": "Matón 12",
                      "Guardia de seguridad 1": "Guar.1", "Guardia de seguridad 2": "Guar.2",
                      "Ogro grande 3": "Ogro 3", "Bartolomeo": "Bart."}
    assert len(set(labels.values())) == len(names)


def test_short_labels_that_would_clash_show_the_names_whole() -> None:
    """A label tells one character from every other: two that would read alike (or a
    label that is another's name) give way to the names."""
    labels = short_labels(["Sargento Pérez", "Sargento Pinto", "Guardia negro 1",
                           "Guardia blanco 1", "Capitana Rosa", "Capi.R"])
    assert labels["Sargento Pérez"] == "Sargento Pérez"
    assert labels["Sargento Pinto"] == "Sargento Pinto"
    assert labels["Guardia negro 1"] == "Guardia negro 1"
    assert labels["Capitana Rosa"] == "Capitana Rosa"  # "Capi.R" is someone's name
    assert ask.short_labels(state_of(sheet("Guardia de seguridad 4")).state) == {
        "Guardia de seguridad 4": "Guar.4"}


def test_the_form_completes_the_encounters_skills_and_weapons_each_once() -> None:
    pistola = Weapon(name="pistola", damage_type="II", skill="Armas cortas")
    state = state_of(sheet("Ana", skills={"Pelea": 14, "Sigilo": 11}, weapons=[pistola]),
                     sheet("Iker", skills={"pelea": 12, "Esquivar": 10},
                           weapons=[Weapon(name="Pistola", damage_type="I")])).state
    assert ask.known_skills(state) == ["Pelea", "Sigilo", "Armas cortas", "Esquivar"]
    assert ask.known_weapons(state) == [pistola]


def test_the_line_of_4_maton_names_the_characters_it_adds_and_their_side() -> None:
    """D2: the form shows the command before Enter sends it; "4 Matón" after Matón 1-2
    adds Matón 3 to 6 (model.numbered_names), and the line says so, with the side."""
    combat = state_of(sheet("Matón 1"), sheet("Matón 2"))
    command = c.AddCharacters(character=sheet("Matón"), count=4)
    assert ask.describe(combat.state, command).render() == \
        "Add Matón 3, Matón 4, Matón 5, Matón 6 (NPC)"
    assert ask.describe(None, command).render() == "Add 4 × Matón (NPC)"
    assert ask.describe(combat.state, c.AddCharacter(character=sheet("Ana", Side.PC))) \
        .render() == "Add Ana (PC)"
    combat.execute(command)
    assert [ch.name for ch in combat.state.characters][2:] == [
        "Matón 3", "Matón 4", "Matón 5", "Matón 6"]


def test_a_rows_targets_are_short_labels_in_the_order_named() -> None:
    """D1: the table's Declaración names whom a declaration aims at by short labels."""
    from sombra_tui.engine.model import Action
    combat = state_of(sheet("Ana", Side.PC, skills={"Pelea": 12}),
                      *(sheet(f"Guardia de seguridad {n}") for n in (1, 2, 3)))
    assert ask.row(combat.state, "Ana").targets == ()
    combat.execute(c.StartCombat())
    combat.execute(c.Declare(character="Ana", actions=[Action(
        description="dispara", skill="Pelea", targets=["Guardia de seguridad 3",
                                                      "Guardia de seguridad 1"])]))
    assert ask.row(combat.state, "Ana").targets == ("Guar.3", "Guar.1")
