"""The DJ's notes pinned to an asalto (issue 37): "the guards arrive" in asalto 4; and
what each asalto holds, logged as it begins.

Notes are commands like any other (undo, redo, saving, the journal and replay keep
them); they change no rule. A note is logged when its asalto begins, and the forecast
(engine/forecast.py) shows it before then.
"""

from __future__ import annotations

from sombra_tui.engine import commands as c
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.i18n import N_, Msg
from sombra_tui.engine.registry import handles
from sombra_tui.engine.rules.core import Emitter, new_id
from sombra_tui.engine.state import CombatState, Note, Phase


def _checked(state: CombatState, cmd: c.AddNote | c.EditNote) -> Note:
    """The note `cmd` describes, or the refusal that names what is wrong."""
    text = " ".join(cmd.text.split())
    if not text:
        raise SombraError(N_("A note needs some text."), code="note.empty", field="text")
    if cmd.round < state.round or (cmd.round == state.round
                                    and state.phase is Phase.END_OF_ROUND):
        raise SombraError(N_("Asalto {round} is already over: pin the note to asalto {next} "
                             "or later."), code="note.past", field="round",
                          params={"round": cmd.round,
                                  "next": state.round + (state.phase is Phase.END_OF_ROUND)})
    character = cmd.character
    if character is not None and state.character(character) is None:
        raise SombraError(N_("No character is called {name}."), code="note.no_character",
                          field="character", params={"name": character})
    note_id = cmd.note_id if isinstance(cmd, c.EditNote) else new_id(state)
    return Note(id=note_id, round=cmd.round, text=text, character=character,
                public=cmd.public)


def _find(state: CombatState, note_id: int) -> int:
    position = next((i for i, note in enumerate(state.notes) if note.id == note_id), None)
    if position is None:
        raise SombraError(N_("That note is gone."), code="note.gone")
    return position


def _about(note: Note) -> Msg:
    if note.character is None:
        return Msg(N_("asalto {round}: {text}"), round=note.round, text=note.text)
    return Msg(N_("asalto {round}, {name}: {text}"), round=note.round, name=note.character,
               text=note.text)


@handles(c.AddNote, label=N_("pin a note"))
def _add_note(state: CombatState, cmd: c.AddNote, emit: Emitter) -> None:
    note = _checked(state, cmd)
    state.notes.append(note)
    emit(EventKind.ENCOUNTER, Msg(N_("DJ pins a note to {about}."), about=_about(note)),
         actor=note.character, code="note.added", data={"id": note.id, "round": note.round})
    _now(state, note, emit)


@handles(c.EditNote, label=N_("edit the note"))
def _edit_note(state: CombatState, cmd: c.EditNote, emit: Emitter) -> None:
    position = _find(state, cmd.note_id)
    note = _checked(state, cmd)
    if note == state.notes[position]:
        raise SombraError(N_("The note is unchanged."), code="note.unchanged")
    state.notes[position] = note
    emit(EventKind.ENCOUNTER, Msg(N_("DJ changes the note: {about}."), about=_about(note)),
         actor=note.character, code="note.edited", data={"id": note.id, "round": note.round})
    _now(state, note, emit)


@handles(c.RemoveNote, label=N_("remove the note"))
def _remove_note(state: CombatState, cmd: c.RemoveNote, emit: Emitter) -> None:
    note = state.notes.pop(_find(state, cmd.note_id))
    emit(EventKind.ENCOUNTER, Msg(N_("DJ removes the note of {about}."), about=_about(note)),
         actor=note.character, code="note.removed", data={"id": note.id})


def notes_of_the_round(state: CombatState, emit: Emitter) -> None:
    """As an asalto begins: what it holds (issue 37: bleeding due at its end, conditions
    ending, extended TAs due; engine/forecast.py), then the DJ's notes pinned to it."""
    from sombra_tui.engine.forecast import DueKind, forecast

    for due in forecast(state, ahead=1):
        if due.kind is not DueKind.NOTE:
            emit(EventKind.ENCOUNTER, Msg(N_("This asalto: {what}."), what=due.what),
                 actor=due.character, code="forecast.due",
                 data={"kind": due.kind.value})
    for note in state.notes:
        if note.round == state.round:
            _due(note, emit)


def _due(note: Note, emit: Emitter) -> None:
    said = (Msg(N_("Note: {text}"), text=note.text) if note.character is None else
            Msg(N_("Note ({name}): {text}"), name=note.character, text=note.text))
    emit(EventKind.ENCOUNTER, said, actor=note.character, code="note.due",
         data={"id": note.id, "public": note.public})


def _now(state: CombatState, note: Note, emit: Emitter) -> None:
    """A note pinned to the asalto under way is due at once (its start has passed)."""
    if note.round == state.round and state.phase is not Phase.SETUP:
        _due(note, emit)
