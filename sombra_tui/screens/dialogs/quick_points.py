"""Quick damage and healing from the table (issue 39 item 4, as Improved Initiative's
"-7 Enter"): one line for the character under the cursor, "-7 pecho" or "+3", read
into the sheet's own commands (a hit by hand, H1-H9 assessed by the engine; healing,
H12) and sent as they are, undoable as any other. The summary line says the command
Enter sends, or what is wrong with the line (quick_parsing.py reads it).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Static

from sombra_tui import engine as c
from sombra_tui.engine import CombatState, ask
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Check, Dialog
from sombra_tui.screens.dialogs.fields import Field, TextInput
from sombra_tui.screens.dialogs.quick_parsing import FIELD, read_quick


class QuickPointsDialog(Dialog[c.ManualHit | c.Heal]):
    """One line: "-7 pecho" (a hit by hand on the chest) or "+3" (heal 3)."""

    SUMMARY = True  # the form says what Enter sends (issue 35, D2)

    DEFAULT_CSS = """
    QuickPointsDialog > #dialog { width: 76; }
    """

    #: The engine's refusals of either command show at the line.
    ERROR_FIELDS = {"damage": FIELD, "points": FIELD, "location": FIELD}

    def __init__(self, state: CombatState, name: str, sign: str, check: Check) -> None:
        """`sign`: what the line starts with, the key that opened it ("-" or "+")."""
        super().__init__()
        self.state = state  # the summary line reads the command against it
        self.name_ = name
        self.sign = sign
        self.check = check

    def compose(self) -> ComposeResult:
        row = ask.row(self.state, self.name_)
        with Vertical(id="dialog"):
            yield Static(_("Damage or healing: {name} (G {g} / W {w} of PV {pv})").format(
                name=self.name_, g=row.g, w=row.w, pv=row.pv), id="dialog-title")
            yield Field(_("-7 chest: a hit by hand · -7 chest nl: non-lethal · +3: heal"),
                        TextInput(self.sign, id=FIELD), field_id=FIELD)
            yield Static("", id="form-error")
            yield Static(self.keyed(_("{key} applies"), "dialog.confirm") + " · "
                         + self.keyed(_("{key} cancels"), "dialog.cancel"), classes="note")

    def on_mount(self) -> None:
        line = self.query_one(f"#{FIELD}", Input)
        line.focus()
        line.cursor_position = len(line.value)  # after the sign: the number comes next

    def build(self) -> c.ManualHit | c.Heal:
        return read_quick(self.value(FIELD), self.state, self.name_)
