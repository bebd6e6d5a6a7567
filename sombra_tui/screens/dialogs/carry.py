"""The party goes on (issue 38): who is carried into a new encounter, and how much time
passes between the scenes (asaltos, or minutes with the length of an asalto). The engine
builds the new encounter (carry_on); the app shows what the time between did before it
starts it."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, SelectionList, Static
from textual.widgets.selection_list import Selection

from sombra_tui.engine import CarryPlan, CombatState, SombraError, ask, carry_on, party
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.fields import Field, PickList, TextInput
from sombra_tui.screens.dialogs.parsing import FormError, parse_int
from sombra_tui.widgets.formatting import side_label

#: The fields an engine refusal names, by the field it gives.
FIELDS = {"names": "characters", "asaltos": "asaltos", "minutes": "minutes",
          "asalto_seconds": "seconds"}


class CarryOnDialog(Dialog[CarryPlan]):
    ASKS_ON_ESCAPE = True  # sends no command, yet Escape asks before typing is lost (issue 35)

    def __init__(self, state: CombatState, seed: int) -> None:
        super().__init__()
        self.state = state
        self.seed = seed

    def compose(self) -> ComposeResult:
        pcs = set(party(self.state))
        selections = []
        for name in ask.roster_order(self.state):  # the roster's order (issue 39 item 2)
            ch = self.state.character(name)
            assert ch is not None
            body = self.state.body(ch.name)
            label = Text(f"{ch.name}  {side_label(ch.side.value)}  G {body.counters.g} / "
                         f"W {body.counters.w}")
            extra = [c.name for c in body.conditions]
            if extra:
                label.append("  " + ", ".join(extra))
            selections.append(Selection(label, ch.name, ch.name in pcs))
        seconds = self.state.settings.asalto_seconds
        with Vertical(id="dialog"):
            yield Static(_("Carry the party on to a new encounter"), id="dialog-title")
            yield Field(_("Characters"), PickList(*selections, id="characters"),
                        field_id="characters", hint=_("space toggles; the PCs are ticked"))
            yield Field(_("Asaltos between the scenes"), TextInput("0", id="asaltos"),
                        field_id="asaltos")
            yield Field(_("Or minutes between"), TextInput(id="minutes"), field_id="minutes",
                        hint=_("with the length of an asalto below"))
            yield Field(_("Length of an asalto (seconds)"),
                        TextInput("" if seconds is None else str(seconds), id="seconds"),
                        field_id="seconds", hint=_("the rules give none: yours"))
            yield Static(_("Wounds, bleeding and conditions go with them; the time between "
                           "is shown before the new encounter starts."), classes="note")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("Carry on ({key})"), "dialog.confirm"),
                             id="carry", variant="primary")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#characters", SelectionList))

    def build(self) -> CarryPlan:
        chosen = list(self.query_one("#characters", SelectionList).selected)
        names = [ch.name for ch in self.state.characters if ch.name in chosen]
        asaltos = parse_int(self.value("asaltos"), "asaltos", _("Asaltos between the scenes"),
                            0, 86_400, default=0)
        minutes_text = self.value("minutes").strip()
        minutes = parse_int(minutes_text, "minutes", _("Or minutes between"), 0, 1440) \
            if minutes_text else None
        seconds_text = self.value("seconds").strip()
        seconds = parse_int(seconds_text, "seconds", _("Length of an asalto (seconds)"),
                            1, 3600) if seconds_text else None
        try:
            return carry_on(self.state, names, asaltos=asaltos, minutes=minutes,
                            asalto_seconds=seconds, seed=self.seed)
        except SombraError as error:
            raise FormError(FIELDS.get(error.field or "", "characters"), str(error)) \
                from error
