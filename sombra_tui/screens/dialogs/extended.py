"""Extended-action adjustments: shorter retry (E2), successes and GD (E3), abandon (E1)."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from sombra_tui import keys
from sombra_tui.engine import (
    AbandonExtended,
    AdjustExtended,
    ExtendedMode,
    ExtendedProgress,
    SombraError,
    ask,
)
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.fields import Field, TextInput
from sombra_tui.screens.dialogs.parsing import parse_int

ExtendedCommand = AdjustExtended | AbandonExtended


class ExtendedDialog(Dialog[ExtendedCommand]):
    SUMMARY = True  # the form says what Enter sends (issue 35, D2)

    BINDINGS = keys.bindings(keys.Scope.EXTENDED)

    def __init__(self, progress: ExtendedProgress,
                 check: Callable[[ExtendedCommand], SombraError | None]) -> None:
        super().__init__()
        self.progress = progress
        self.check = check

    def compose(self) -> ComposeResult:
        p = self.progress
        simple = p.mode is ExtendedMode.SIMPLE
        with Vertical(id="dialog"):
            yield Static(f"{p.owner}: {p.action.description}", id="dialog-title")
            yield Static(_("{mode}, {progress}, started in asalto {started_round}, "
                            "{attempts} TA so far.").format(
                             mode=_("simple") if p.mode.value == "simple" else _("complex"),
                             progress=p.progress_text(),
                             started_round=p.started_round, attempts=p.attempts), classes="note")
            with Horizontal(classes="row"):
                if simple:
                    yield Field(_("Duration (rounds)"), TextInput(str(p.duration), id="duration",
                                type="integer"), field_id="duration")
                else:
                    yield Field(_("Successes needed"), TextInput(str(p.successes_needed),
                                id="successes", type="integer"), field_id="successes")
                    yield Field(_("Interval (rounds)"), TextInput(str(p.interval), id="interval",
                                type="integer"), field_id="interval")
                yield Field(_("GD of later TAs"), TextInput(str(p.gd), id="gd", type="integer"),
                            field_id="gd")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("Adjust ({key})"), "dialog.confirm"),
                             id="adjust", variant="primary")
                yield Button(self.keyed(_("Abandon ({key})"), "extended.abandon"),
                             id="abandon", variant="error")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    def on_mount(self) -> None:
        self.set_focus(self.query(Input).first())

    def action_abandon(self) -> None:
        self.dismiss(AbandonExtended(extended_id=self.progress.id))

    OWN_BUTTONS = True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        handlers = {"adjust": self.submit, "abandon": self.action_abandon,
                    "cancel": self.action_cancel}
        handlers[event.button.id or "cancel"]()

    def build(self) -> AdjustExtended:
        p = self.progress
        gd = parse_int(self.value("gd"), "gd", _("GD"), *ask.bounds(AdjustExtended, "gd"))
        if p.mode is ExtendedMode.SIMPLE:
            duration = parse_int(self.value("duration"), "duration", _("Duration"),
                                 *ask.bounds(AdjustExtended, "duration"))
            command = AdjustExtended(
                extended_id=p.id, gd=gd if gd != p.gd else None,
                duration=duration if duration != p.duration else None)
        else:
            successes = parse_int(self.value("successes"), "successes", _("Successes"),
                                  *ask.bounds(AdjustExtended, "successes"))
            interval = parse_int(self.value("interval"), "interval", _("Interval"),
                                 *ask.bounds(AdjustExtended, "interval"))
            command = AdjustExtended(
                extended_id=p.id, gd=gd if gd != p.gd else None,
                successes=successes if successes != p.successes_needed else None,
                interval=interval if interval != p.interval else None)
        return command
