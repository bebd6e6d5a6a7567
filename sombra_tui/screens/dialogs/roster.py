"""Import characters from another encounter file; name clashes are shown, never renamed."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, SelectionList, Static
from textual.widgets.selection_list import Selection

from sombra_tui.engine import ImportCharacters, Roster
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.fields import Field, FormCheckbox, PickList
from sombra_tui.screens.dialogs.parsing import FormError
from sombra_tui.widgets.formatting import side_label


class RosterDialog(Dialog[ImportCharacters]):
    ASKS_ON_ESCAPE = True  # sends no command, yet Escape asks before typing is lost (issue 35)

    def __init__(self, roster: Roster, clashes: list[str]) -> None:
        super().__init__()
        self.roster = roster
        self.clashes = set(clashes)

    def compose(self) -> ComposeResult:
        selections = []
        for ch in self.roster.characters:
            label = Text(f"{ch.name}  {side_label(ch.side.value)}  "
                         f"{_('ini')} {ch.primaria}/{ch.secundaria}  Alerta {ch.alerta}")
            clash = ch.name in self.clashes
            if clash:
                label.append("  " + _("name clash: already in this encounter"),
                             style="bold red")
            selections.append(Selection(label, ch.name, not clash, disabled=clash))
        with Vertical(id="dialog"):
            yield Static(_("Import characters from {source}").format(source=self.roster.source),
                         id="dialog-title")
            if self.clashes:
                yield Static(_("Characters whose names are already used cannot be imported; "
                               "rename one of them first."), classes="note")
            yield Field(_("Characters"), PickList(*selections, id="characters"),
                        field_id="characters", hint=_("space toggles"))
            if self.roster.carried:  # issue 38: a fight already fought in that file
                yield FormCheckbox(_("Bring their wounds and conditions too ({names})").format(
                    names=", ".join(self.roster.carried)), True, id="carried")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("Import ({key})"), "dialog.confirm"),
                             id="import", variant="primary")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#characters", SelectionList))

    def build(self) -> ImportCharacters:
        chosen = set(self.query_one("#characters", SelectionList).selected)
        characters = [ch for ch in self.roster.characters
                      if ch.name in chosen and ch.name not in self.clashes]
        if not characters:
            raise FormError("characters", _("Choose at least one character to import."))
        carried = {}
        if self.roster.carried and self.query_one("#carried", FormCheckbox).value:
            carried = {name: body for name, body in self.roster.carried.items()
                       if any(ch.name == name for ch in characters)}
        return ImportCharacters(characters=characters, source=self.roster.source,
                                carried=carried)
