"""A new, empty encounter: its name and, optionally, a party file whose characters it
starts with (the import of `i`, at creation)."""

from __future__ import annotations

import secrets
from pathlib import Path

from pydantic import ValidationError
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from sombra_tui.engine import Encounter, SombraError, ask, read_roster
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.fields import Field, TextInput
from sombra_tui.screens.dialogs.parsing import FormError


class NewEncounterDialog(Dialog[Encounter]):
    """Returns the Encounter to start (no history, so its log starts empty)."""

    ASKS_ON_ESCAPE = True  # sends no command, yet Escape asks before typing is lost (issue 35)

    def __init__(self, folder: Path) -> None:
        super().__init__()
        #: Where a party file given by name alone is looked for.
        self.folder = folder

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(_("New encounter"), id="dialog-title")
            yield Field(_("Name"), TextInput("Encuentro", id="name"), field_id="name")
            yield Field(_("Party file (optional)"), TextInput(
                id="party", placeholder=_("(none: the encounter starts empty)")),
                field_id="party", hint=_("a file in {folder}; its characters join").format(
                    folder=self.folder))
            yield Static(_("The characters are added with a (or '4 Matón'), c duplicates "
                           "a row."), classes="note")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("Create ({key})"), "dialog.confirm"),
                             id="create", variant="primary")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#name", Input))

    def build(self) -> Encounter:
        name = self.value("name").strip()
        if not name:
            raise FormError("name", _("The encounter needs a name."))
        longest = ask.max_length(Encounter, "name")
        if len(name) > longest:
            raise FormError("name", _("At most {max} characters.").format(max=longest))
        party = self.value("party").strip()
        characters = []
        if party:
            path = Path(party).expanduser()
            if not path.is_absolute():
                path = self.folder / path
            try:
                characters = read_roster(path).characters
            except SombraError as error:
                raise FormError("party", str(error)) from error
        try:
            # A fresh seed: each new encounter rolls its own dice (T6).
            return Encounter(name=name, characters=characters, seed=secrets.randbelow(2**31))
        except ValidationError as error:  # e.g. a party file with a repeated name
            raise FormError("party", str(error.errors()[0]["msg"])) from error

