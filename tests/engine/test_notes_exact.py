"""S1, S2: the DJ's notes (issue 37) in the log and their refusals, word for word.

Written against the mutation lane's survivors (README, "Mutation testing"): the log
line of each note command (S2: every event, with its round and who it is about), its
code and data, and each refusal's code, field and parameters.
"""

from __future__ import annotations

from sombra_tui.engine import Advance, Phase
from sombra_tui.engine.commands import AddNote, EditNote, RemoveNote
from tests.engine.conftest import (
    ANA,
    BRUNO,
    advance_to,
    assert_refused,
    declare_all_inaction,
    started,
)


def test_s2_each_note_command_is_logged_with_what_it_is_about() -> None:
    """S2: pinning, changing and removing a note are logged, naming the asalto and the
    character the note is about (the actor), with the note's id and asalto as data."""
    combat = started(ANA, BRUNO)
    [added] = combat.execute(AddNote(round=3, text="Bruno recarga", character="Bruno"))
    note_id = combat.state.notes[0].id
    assert (added.text, added.actor, added.code, added.data) == (
        "DJ pins a note to asalto 3, Bruno: Bruno recarga.", "Bruno", "note.added",
        {"id": note_id, "round": 3})
    [edited] = combat.execute(EditNote(note_id=note_id, round=4, text="llegan"))
    assert (edited.text, edited.actor, edited.code, edited.data) == (
        "DJ changes the note: asalto 4: llegan.", None, "note.edited",
        {"id": note_id, "round": 4})
    [removed] = combat.execute(RemoveNote(note_id=note_id))
    assert (removed.text, removed.actor, removed.code, removed.data) == (
        "DJ removes the note of asalto 4: llegan.", None, "note.removed", {"id": note_id})


def test_s2_a_note_pinned_to_the_asalto_under_way_is_due_at_once_only_in_combat() -> None:
    """S2: in the asalto under way a note is logged at once; in set-up it waits for
    its asalto to begin."""
    combat = started(ANA, BRUNO)
    events = combat.execute(AddNote(round=1, text="se va la luz", character="Ana",
                                    public=True))
    assert [(e.code, e.text, e.actor, e.data) for e in events][1:] == [
        ("note.due", "Note (Ana): se va la luz", "Ana",
         {"id": combat.state.notes[0].id, "public": True})]


def test_s1_a_note_for_an_asalto_over_is_refused_naming_the_next_one() -> None:
    """S1: a note goes to the asalto under way or later; once its actions are over
    (end of the round) the asalto is past and the refusal names the next one."""
    combat = started(ANA, BRUNO)
    declare_all_inaction(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(AddNote(round=1, text="ahora"))  # the asalto under way: accepted
    advance_to(combat, Phase.END_OF_ROUND)
    error = assert_refused(combat, AddNote(round=1, text="tarde"))
    assert (error.code, error.field, error.params, str(error)) == (
        "note.past", "round", {"round": 1, "next": 2},
        "Asalto 1 is already over: pin the note to asalto 2 or later.")
    combat.execute(AddNote(round=2, text="luego"))
    combat.execute(Advance())
    error = assert_refused(combat, AddNote(round=1, text="tarde"))
    assert error.params == {"round": 1, "next": 2}


def test_s1_notes_refused_name_the_problem() -> None:
    """S1: each refusal has its code, the field at fault and the words."""
    combat = started(ANA, BRUNO)
    empty = assert_refused(combat, AddNote(round=2, text="  "))
    assert (empty.code, empty.field, str(empty)) == ("note.empty", "text",
                                                     "A note needs some text.")
    nobody = assert_refused(combat, AddNote(round=2, text="x", character="Zoe"))
    assert (nobody.code, nobody.field, nobody.params, str(nobody)) == (
        "note.no_character", "character", {"name": "Zoe"}, "No character is called Zoe.")
    gone = assert_refused(combat, RemoveNote(note_id=99))
    assert (gone.code, str(gone)) == ("note.gone", "That note is gone.")
    combat.execute(AddNote(round=2, text="x"))
    same = assert_refused(combat, EditNote(note_id=combat.state.notes[0].id, round=2,
                                           text="x"))
    assert (same.code, str(same)) == ("note.unchanged", "The note is unchanged.")
