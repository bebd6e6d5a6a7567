"""The DJ's note pinned to an asalto (issue 37 item 5): pinning one, or changing it.

Opened from the forecast (its `a` and `e`). The note's asalto, the character it is
about (or nobody), its text and whether the players' view shows it when its asalto
comes; the summary line says the command Enter sends (AddNote or EditNote, D2).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Input, Select, Static

from sombra_tui import engine as c  # the commands, through the engine's door
from sombra_tui.engine import CombatState, Note, ask
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Check, Dialog
from sombra_tui.screens.dialogs.fields import Field, FormCheckbox, FormSelect, TextInput
from sombra_tui.screens.dialogs.parsing import FormError, parse_int


class NoteDialog(Dialog[c.AddNote | c.EditNote]):
    """A new note pinned to `round_` (`note` None), or `note` to change."""

    SUMMARY = True  # the form says what Enter sends (issue 35, D2)

    DEFAULT_CSS = """
    NoteDialog > #dialog { width: 76; }
    NoteDialog #field-round { width: 12; }
    """

    #: The engine's refusals, shown at their field (rules/notes.py).
    ERROR_FIELDS = {"text": "text", "round": "round", "character": "character"}

    def __init__(self, state: CombatState, check: Check | None, *, note: Note | None = None,
                 round_: int = 1) -> None:
        super().__init__()
        self.state = state  # the summary line reads the command against it
        self.check = check
        self.note = note
        self.round_ = note.round if note is not None else round_

    def compose(self) -> ComposeResult:
        note = self.note
        names = [(character.name, character.name) for character in self.state.characters]
        about = note.character if note is not None and note.character in dict(names) else None
        title = _("Pin a note to an asalto") if note is None else _("Change the note")
        with Vertical(id="dialog"):
            yield Static(title, id="dialog-title")
            with Horizontal(classes="row"):
                yield Field(_("Asalto"), TextInput(str(self.round_), id="round",
                                                   type="integer"), field_id="round")
                yield Field(_("About"), FormSelect(
                    names, prompt=_("nobody"), allow_blank=True,
                    value=about if about is not None else Select.NULL, id="character"),
                    field_id="character")
            yield Field(_("Note"), TextInput(
                note.text if note is not None else "", id="text",
                max_length=ask.max_length(c.AddNote, "text"),
                placeholder=_("the guards arrive")), field_id="text")
            yield FormCheckbox(_("Public: the players see it in its asalto"),
                               note.public if note is not None else False, id="public")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                label = _("Pin ({key})") if note is None else _("Save ({key})")
                yield Button(self.keyed(label, "dialog.confirm"), id="save",
                             variant="primary")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#text", Input))

    def build(self) -> c.AddNote | c.EditNote:
        round_ = parse_int(self.value("round"), "round", _("Asalto"),
                           *ask.bounds(c.AddNote, "round"))
        text = " ".join(self.value("text").split())
        if not text:
            raise FormError("text", _("A note needs some text."))
        chosen = self.query_one("#character", Select).value
        character = None if chosen is Select.NULL else str(chosen)
        public = self.query_one("#public", Checkbox).value
        if self.note is None:
            return c.AddNote(round=round_, text=text, character=character, public=public)
        return c.EditNote(note_id=self.note.id, round=round_, text=text,
                          character=character, public=public)
