"""The DJ's notes pinned to an asalto (issue 37 item 5): commands like any other (S1:
undo, redo, saving and replay keep them), logged when their asalto begins, in the
forecast before then, refused with a message that names the problem."""

from __future__ import annotations

import pytest

from sombra_tui.engine import Advance, Combat, SombraError, storage
from sombra_tui.engine.commands import AddNote, EditNote, RemoveNote
from sombra_tui.engine.forecast import DueKind, forecast
from tests.engine.conftest import ANA, BRUNO, assert_refused, declare, started


def to_round(combat: Combat, round_: int) -> None:
    while combat.state.round < round_:
        if combat.state.current_declarer is not None:
            declare(combat, combat.state.current_declarer)
        else:
            combat.execute(Advance())


def notes_logged(combat: Combat) -> list[tuple[int, str]]:
    return [(event.round, event.text) for event in combat.log if event.code == "note.due"]


def test_s1_a_note_is_logged_when_its_asalto_begins_and_forecast_before() -> None:
    combat = started(ANA, BRUNO)
    combat.execute(AddNote(round=3, text="llegan  los guardias"))
    combat.execute(AddNote(round=2, text="Bruno recarga", character="Bruno", public=True))
    ahead = [(due.round, due.kind, due.what.render()) for due in forecast(combat.state)
             if due.kind is DueKind.NOTE]
    assert ahead == [(2, DueKind.NOTE, "Bruno: Bruno recarga"),
                     (3, DueKind.NOTE, "llegan los guardias")]  # spaces tidied
    to_round(combat, 3)
    assert notes_logged(combat) == [(2, "Note (Bruno): Bruno recarga"),
                                    (3, "Note: llegan los guardias")]
    bruno = next(e for e in combat.log if e.code == "note.due" and e.actor == "Bruno")
    assert bruno.data["public"] is True


def test_s1_notes_undo_redo_save_and_replay() -> None:
    combat = started(ANA, BRUNO)
    combat.execute(AddNote(round=2, text="refuerzos"))
    note_id = combat.state.notes[0].id
    combat.execute(EditNote(note_id=note_id, round=4, text="refuerzos tarde"))
    assert [(n.round, n.text) for n in combat.state.notes] == [(4, "refuerzos tarde")]
    combat.undo()
    assert [(n.round, n.text) for n in combat.state.notes] == [(2, "refuerzos")]
    combat.redo()
    combat.execute(RemoveNote(note_id=note_id))
    assert combat.state.notes == []
    combat.undo()
    again = storage.loads(storage.dumps(combat))
    assert again.state == combat.state and again.state.notes[0].text == "refuerzos tarde"


def test_a_note_for_the_asalto_under_way_is_due_at_once() -> None:
    combat = started(ANA, BRUNO)
    combat.execute(AddNote(round=1, text="se va la luz"))
    assert notes_logged(combat) == [(1, "Note: se va la luz")]


def test_bad_notes_are_refused_naming_the_problem() -> None:
    combat = started(ANA, BRUNO)
    to_round(combat, 3)
    error = assert_refused(combat, AddNote(round=2, text="tarde"), match="already over")
    assert error.field == "round" and "asalto 3" in str(error)
    assert_refused(combat, AddNote(round=4, text="   "), match="needs some text")
    assert_refused(combat, AddNote(round=4, text="x", character="Zoe"), match="Zoe")
    assert_refused(combat, RemoveNote(note_id=99), match="gone")
    combat.execute(AddNote(round=4, text="x"))
    note = combat.state.notes[0]
    assert_refused(combat, EditNote(note_id=note.id, round=4, text="x"), match="unchanged")
    with pytest.raises(SombraError):
        combat.execute(EditNote(note_id=note.id, round=4, text="x", character="Zoe"))
