"""Issue 13 engine parts: many characters from one sheet as one command, whose dice
(the table or the tracker, per side), and a new encounter created at a path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sombra_tui.engine import (
    AddCharacters,
    Advance,
    ChangeSettings,
    Combat,
    Declare,
    EventKind,
    Settings,
    Side,
    SombraError,
    storage,
)
from sombra_tui.engine.model import (
    NAME_MAX,
    DiceSource,
    Encounter,
    name_base,
    numbered_names,
)
from sombra_tui.session import Session
from tests.engine.conftest import ANA, assert_refused, char, make_combat


def names(combat: Combat) -> list[str]:
    return [ch.name for ch in combat.state.characters]


def test_four_maton_adds_maton_1_to_4_with_the_same_sheet_as_one_undoable_command() -> None:
    combat = make_combat(ANA)
    sheet = char("Matón", 10, 2, 9, skills={"Pelea": 13})
    events = combat.execute(AddCharacters(character=sheet, count=4))
    assert names(combat) == ["Ana", "Matón 1", "Matón 2", "Matón 3", "Matón 4"]
    for character in combat.state.characters[1:]:
        assert character.model_dump(exclude={"name"}) == sheet.model_dump(exclude={"name"})
    assert [e.actor for e in events if e.kind is EventKind.ENCOUNTER] == [
        "Matón 1", "Matón 2", "Matón 3", "Matón 4"]
    assert len(combat.commands) == 1
    combat.undo()
    assert names(combat) == ["Ana"]
    combat.redo()
    assert len(names(combat)) == 5


def test_numbering_continues_after_the_highest_and_a_duplicated_row_gets_the_next() -> None:
    combat = make_combat(ANA)
    combat.execute(AddCharacters(character=char("Matón", 10), count=2))
    # Duplicating the row "Matón 2" (count 1): its base is Matón, the next number is 3.
    combat.execute(AddCharacters(character=combat.state.characters[2], count=1))
    # A plain name counts as number 1: Ana's copy is Ana 2.
    combat.execute(AddCharacters(character=ANA, count=1))
    assert names(combat) == ["Ana", "Matón 1", "Matón 2", "Matón 3", "Ana 2"]
    assert name_base("Matón 12") == "Matón"
    assert name_base("Agente 007 ") == "Agente"
    assert numbered_names("Guardia", 2, ["guardia 4"]) == ["Guardia 5", "Guardia 6"]


def test_copies_survive_save_load_and_replay(tmp_path: Path) -> None:
    combat = make_combat(ANA)
    combat.execute(AddCharacters(character=char("Matón", 10), count=3))
    path = tmp_path / "e.json"
    storage.save(combat, path)
    assert names(storage.load(path)) == names(combat)


def test_copies_that_would_clash_or_be_too_long_are_refused_whole() -> None:
    combat = make_combat(ANA, char("Matón 2", 9))
    # "Matón 2" exists, so numbering starts at 3: no clash with it.
    combat.execute(AddCharacters(character=char("Matón", 10), count=1))
    assert names(combat)[-1] == "Matón 3"
    long = char("x" * NAME_MAX, 10)
    error = assert_refused(combat, AddCharacters(character=long, count=2), match="longer")
    assert error.field == "character.name"


def test_t6_dice_source_defaults_pcs_typed_by_the_table_npcs_rolled_by_the_tracker() -> None:
    """T6: the tracker rolls or the DJ types the table's dice; which, per side, is an
    encounter setting (issue 13), changed and undone like any setting."""
    settings = Settings()
    assert settings.pc_dice is DiceSource.TABLE and settings.npc_dice is DiceSource.TRACKER
    assert settings.table_rolls(Side.PC) and not settings.table_rolls(Side.NPC)
    combat = make_combat(char("Ana", 8, side=Side.PC), char("Bruno", 9))
    assert combat.state.table_rolls("Ana") and not combat.state.table_rolls("Bruno")
    combat.execute(ChangeSettings(settings=settings.model_copy(
        update={"pc_dice": DiceSource.TRACKER, "npc_dice": DiceSource.TABLE})))
    assert not combat.state.table_rolls("Ana") and combat.state.table_rolls("Bruno")
    assert "PCs' dice the table -> the tracker" in combat.log[-1].text
    combat.undo()
    assert combat.state.table_rolls("Ana")


def test_old_files_without_the_dice_setting_load_with_the_defaults(tmp_path: Path) -> None:
    combat = make_combat(ANA)
    path = tmp_path / "old.json"
    storage.save(combat, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    settings = data["encounter"]["settings"]
    assert settings.pop("pc_dice") == "table" and settings.pop("npc_dice") == "tracker"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert storage.load(path).state.settings == Settings()


def test_a_new_encounter_at_a_missing_file_is_empty_saved_and_its_log_clean(
        tmp_path: Path) -> None:
    path = tmp_path / "la-verja.json"
    session = Session.create(path)
    assert path.exists() and not session.dirty
    assert session.combat.state.characters == [] and session.combat.log == []
    assert session.name == "la-verja"
    assert names(storage.load(path)) == []


def test_a_new_encounter_with_a_party_starts_with_it_and_nothing_in_the_log(
        tmp_path: Path) -> None:
    path = tmp_path / "party.json"
    session = Session.create(path, Encounter(name="Noche", characters=[ANA]))
    assert names(session.combat) == ["Ana"] and session.combat.log == []


def test_a_new_encounter_in_a_missing_folder_says_so(tmp_path: Path) -> None:
    path = tmp_path / "nowhere" / "e.json"
    with pytest.raises(SombraError, match=r"folder .*nowhere does not exist"):
        Session.create(path)
    assert not path.parent.exists()


def test_i3_copies_added_mid_round_join_the_orders_next_round() -> None:
    combat = make_combat(ANA, start=True)
    combat.execute(AddCharacters(character=char("Matón", 10), count=2))
    assert combat.state.declaration_order == ["Ana"]  # I3: not this round
    assert all("joins the orders next round" in e.text for e in combat.log[-2:])
    combat.execute(Declare(character="Ana"))
    for _ in range(5):
        combat.execute(Advance())
    assert combat.state.round == 2
    assert combat.state.declaration_order == ["Ana", "Matón 1", "Matón 2"]
