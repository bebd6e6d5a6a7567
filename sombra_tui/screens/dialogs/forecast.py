"""What the coming asaltos hold (issue 37): the engine's forecast, read on a key, and the
DJ's notes pinned to an asalto, added, changed and removed there (item 5).

Bleeding points due, conditions ending, extended TAs due and the DJ's notes, asalto by
asalto for the next five, then the notes pinned further ahead, then who is unable to act
with no end in sight. It reads the engine's answer (ask.forecast); the arrows move
between the notes; each change is a command (AddNote, EditNote, RemoveNote) sent
through the screen, the forecast read again after it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from sombra_tui import engine as c  # the commands, through the engine's door
from sombra_tui import keys
from sombra_tui.engine import CombatState, Note, ask
from sombra_tui.engine.i18n import N_, _
from sombra_tui.screens.dialogs.base import Check, Dialog
from sombra_tui.screens.dialogs.note import NoteDialog
from sombra_tui.widgets.keys_hint import KeysHint

#: How many asaltos the DJ sees ahead.
AHEAD = 5


class Line(NamedTuple):
    """One line of the forecast: its text, and the note it shows (None: not a note)."""

    text: Text
    note_id: int | None = None


def _note_text(note: Note) -> str:
    text = note.text if note.character is None else _("{name}: {text}").format(
        name=note.character, text=note.text)
    return text + ("  " + _("(players see it)") if note.public else "")


def forecast_lines(state: CombatState, ahead: int = AHEAD) -> list[Line]:
    """The forecast as the dialog shows it, line by line, in the language in force."""
    first = ask.first_round_ahead(state)
    due = ask.forecast(state, ahead)
    notes = {note.id: note for note in state.notes}
    lines: list[Line] = []
    if not due:
        lines.append(Line(Text(_("Nothing is due in the next {count} asaltos.").format(
            count=ahead), style="dim")))
    for round_ in range(first, first + ahead):
        items = [item for item in due if item.round == round_]
        if not items:
            continue
        if lines:
            lines.append(Line(Text("")))
        heading = (_("Asalto {round} (this one)") if round_ == state.round
                   else _("Asalto {round}")).format(round=round_)
        lines.append(Line(Text(heading, style="bold")))
        for item in items:
            note = notes.get(item.note_id) if item.note_id is not None else None
            when = {ask.DueKind.NOTE: _("note"),
                    ask.DueKind.EXTENDED_TA: _("extended phase")}.get(item.kind,
                                                                      _("at its end"))
            line = Text("• " + (item.what.render() if note is None else _note_text(note))
                        + "  ")
            line.append(f"({when})", style="dim")
            lines.append(Line(line, item.note_id))
    later = sorted((note for note in state.notes if note.round >= first + ahead),
                   key=lambda note: note.round)
    if later:
        lines += [Line(Text("")), Line(Text(_("Later"), style="bold"))]
        lines += [Line(Text("• " + _("Asalto {round}").format(round=note.round) + ": "
                            + _note_text(note)), note.id) for note in later]
    standing = ask.standing(state)
    if standing:
        lines += [Line(Text("")), Line(Text(_("No end in sight"), style="bold"))]
        lines += [Line(Text("• " + what.render())) for _name, what in standing]
    return lines


class ForecastDialog(Dialog[c.Command]):
    """The next asaltos at a glance, and the DJ's notes; Escape (or the key again)
    closes it."""

    BINDINGS = keys.bindings(keys.Scope.FORECAST)

    DEFAULT_CSS = """
    ForecastDialog > #dialog { width: 80; max-height: 90%; }
    ForecastDialog #forecast { height: auto; max-height: 30; border: none; padding: 0; }
    ForecastDialog #forecast > .option-list--option-disabled { color: $foreground; }
    """

    #: The keys named in its hint, with their words (the keys in force).
    HINT_KEYS = (("forecast.add", N_("add a note")), ("forecast.edit", N_("edit the note")),
                 ("forecast.remove", N_("remove the note")))

    def __init__(self, state: Callable[[], CombatState], check: Check | None = None) -> None:
        super().__init__()
        self.state = state
        self.check = check
        self._lines: list[Line] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.keyed(_("What the coming asaltos hold ({key} closes)"),
                                    "dialog.cancel"), id="dialog-title")
            yield OptionList(id="forecast")
            keymap: dict[str, str] = getattr(self.app, "keymap_in_force", {})
            yield KeysHint([f"{keys.first_key_in_force(binding_id, keymap)} {_(word)}"
                            for binding_id, word in self.HINT_KEYS], classes="note")

    def on_mount(self) -> None:
        self.refresh_forecast()
        self.query_one(OptionList).focus()

    def refresh_forecast(self, chosen: int | None = None) -> None:
        """The forecast read again; the highlight stays on note `chosen` (or the one
        highlighted), else the first note."""
        listing = self.query_one(OptionList)
        chosen = self.selected_note() if chosen is None else chosen
        self._lines = forecast_lines(self.state())
        listing.clear_options()
        listing.add_options([Option(line.text, disabled=line.note_id is None)
                             for line in self._lines])
        notes = [index for index, line in enumerate(self._lines) if line.note_id is not None]
        if notes:
            listing.highlighted = next((index for index in notes
                                        if self._lines[index].note_id == chosen), notes[0])

    def shown(self) -> str:
        """The forecast's text as shown (for the DJ's tests)."""
        return "\n".join(line.text.plain for line in self._lines)

    def selected_note(self) -> int | None:
        index = self.query_one(OptionList).highlighted
        if index is None or not 0 <= index < len(self._lines):
            return None
        return self._lines[index].note_id

    def _note(self) -> Note | None:
        note_id = self.selected_note()
        return next((note for note in self.state().notes if note.id == note_id), None)

    def _apply(self, command: c.Command | None) -> None:
        if command is None:
            return
        before = {note.id for note in self.state().notes}
        self.deliver(command)  # the screen runs it (undoable, saved, journaled)
        added = [note.id for note in self.state().notes if note.id not in before]
        self.refresh_forecast(added[0] if added else None)

    def action_add_note(self) -> None:
        note = self._note()
        self.new_note(note.round if note is not None else None)

    def new_note(self, round_: int | None = None) -> None:
        """The form of a new note, pinned to `round_` (None: the first asalto ahead)."""
        state = self.state()
        round_ = ask.first_round_ahead(state) if round_ is None else round_
        self._open(NoteDialog(state, self.check, round_=round_), "note")

    def action_edit_note(self) -> None:
        note = self._note()
        if note is None:
            self.notify(_("No note to change here: pin one first."), severity="warning")
            return
        self.edit_note(note.id)

    def edit_note(self, note_id: int) -> None:
        """The form of the note `note_id`, if it is still there."""
        note = next((note for note in self.state().notes if note.id == note_id), None)
        if note is not None:
            self._open(NoteDialog(self.state(), self.check, note=note), "edit_note", note_id)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_edit_note()  # enter on a note changes it

    def action_remove_note(self) -> None:
        note = self._note()
        if note is None:
            self.notify(_("No note to remove here."), severity="warning")
            return
        self._apply(c.RemoveNote(note_id=note.id))

    def _open(self, dialog: Dialog[c.AddNote | c.EditNote], kind: str, *item: int) -> None:
        """The note form (about the note `item`), kept as a draft while the DJ types in
        it, as the sheet keeps its forms (issue 35 item 5: a resume opens it again)."""
        dialog.keep_drafts_in(self.keep_draft, kind, "", *item)
        self.app.push_screen(dialog, self._apply)

    def build(self) -> None:
        return None  # what it changed ran as the DJ changed it

