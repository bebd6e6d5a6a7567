"""What the coming asaltos hold (issue 37): the engine's forecast, read on a key.

Bleeding points due, conditions ending, extended TAs due and the DJ's notes, asalto by
asalto for the next five, then who is unable to act with no end in sight. It reads the
engine's answer (ask.forecast) and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from sombra_tui import keys
from sombra_tui.engine import CombatState, ask
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Dialog

#: How many asaltos the DJ sees ahead.
AHEAD = 5


def forecast_text(state: CombatState, ahead: int = AHEAD) -> Text:
    """The forecast as the dialog shows it, in the language in force."""
    first = ask.first_round_ahead(state)
    due = ask.forecast(state, ahead)
    text = Text()
    if not due:
        text.append(_("Nothing is due in the next {count} asaltos.").format(count=ahead),
                    style="dim")
    for round_ in range(first, first + ahead):
        items = [item for item in due if item.round == round_]
        if not items:
            continue
        if text:
            text.append("\n")
        heading = (_("Asalto {round} (this one)") if round_ == state.round
                   else _("Asalto {round}")).format(round=round_)
        text.append(heading + "\n", style="bold")
        for item in items:
            when = {ask.DueKind.NOTE: _("note"),
                    ask.DueKind.EXTENDED_TA: _("extended phase")}.get(item.kind,
                                                                      _("at its end"))
            text.append("  • ")
            text.append(item.what.render())
            text.append(f"  ({when})\n", style="dim")
    standing = ask.standing(state)
    if standing:
        text.append("\n" + _("No end in sight") + "\n", style="bold")
        for _name, what in standing:
            text.append("  • " + what.render() + "\n")
    text.rstrip()
    return text


class ForecastDialog(Dialog[None]):
    """The next asaltos at a glance; Escape (or the key again) closes it."""

    BINDINGS = keys.bindings(keys.Scope.FORECAST)

    DEFAULT_CSS = """
    ForecastDialog > #dialog { width: 80; max-height: 90%; }
    ForecastDialog #forecast-scroll { height: auto; max-height: 30; }
    """

    def __init__(self, state: Callable[[], CombatState]) -> None:
        super().__init__()
        self.state = state

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.keyed(_("What the coming asaltos hold ({key} closes)"),
                                    "dialog.cancel"), id="dialog-title")
            with VerticalScroll(id="forecast-scroll"):
                yield Static(forecast_text(self.state()), id="forecast")

    def on_mount(self) -> None:
        self.query_one("#forecast-scroll").focus()
