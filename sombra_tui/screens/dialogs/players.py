"""The players' view's address and QR code (issue 23 item 4), and the DJ's choices:
on the local network or this machine only, stop, or close (it keeps running)."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Static

from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.fields import FormCheckbox

#: The dialog's results (None: closed, the page keeps running).
STOP, LAN, LOCAL = "stop", "lan", "local"


#: The light margin around the code, in modules: the 4 the QR standard asks for, so
#: that a phone's camera finds the code on any terminal background.
QUIET_ZONE = 4


def qr_text(url: str) -> Text:
    """`url` as a QR code in half blocks, dark on light whatever the theme (a phone's
    camera reads it from the terminal).

    Error correction "l", raised by segno to the highest level that fits the same size:
    every address the page has (a LAN address with its token and any port, at most 46
    characters) then fits version 3, 29 modules, 37 with the quiet zone: 19 lines, which
    with the dialog's border fit 80x24. Level "m" would take such an address to version
    4 (41 modules, 21 lines) and push the buttons off an 80x24 screen; a code on a
    screen is not scratched or folded, which is what the higher levels are for."""
    import segno  # only when the players' view dialog shows (issue 24: cold start)

    code = segno.make_qr(url, error="l", boost_error=True)
    rows = [list(row) for row in code.matrix_iter(border=QUIET_ZONE)]
    if len(rows) % 2:
        rows.append([0] * len(rows[0]))
    text = Text(no_wrap=True)
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        for upper, lower in zip(top, bottom, strict=True):
            text.append("▀", style=f"{'black' if upper else 'white'} on "
                                   f"{'black' if lower else 'white'}")
        text.append("\n")
    text.rstrip()
    return text


class PlayersViewDialog(Dialog[str]):
    # The QR code beside the words, so that the address, the box and the buttons fit
    # next to it even at 80x24 (the code is at most 19 lines high, its quiet zone in).
    DEFAULT_CSS = """
    PlayersViewDialog #players-body { height: auto; }
    PlayersViewDialog #players-qr { width: auto; height: auto; margin: 0 1 0 0; }
    PlayersViewDialog #players-side { width: 1fr; height: auto; }
    PlayersViewDialog #players-url { text-style: bold; color: $accent; margin: 1 0; }
    """

    def __init__(self, url: str, *, lan: bool, clients: int, stop_keys: str,
                 shown_as: str) -> None:
        """`stop_keys`: the DJ's key(s) of the players' view, as Textual names them (the
        app's binding does not reach into a dialog); `shown_as`: as the DJ reads them."""
        super().__init__()
        self.url = url
        self.lan = lan
        self.clients = clients
        self.stop_keys = stop_keys.split(",")
        self.stop_key = shown_as

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"), Horizontal(id="players-body"):
            yield Static(qr_text(self.url), id="players-qr")
            with Vertical(id="players-side"):
                yield Static(_("Players' view"), id="dialog-title")
                yield Static(self.url, id="players-url")
                yield Static(_("Open this address on a TV or a phone on the same network; "
                               "it follows the combat by itself and shows only what the "
                               "players may see.") if self.lan else
                             _("Open this address in a browser on this machine (a TV or a "
                               "projector connected to it). Phones need the local "
                               "network."),
                             classes="note")
                # Compact (no frame): its words whole beside the code at 80x24.
                # A form's box: unticked looks empty, and Enter closes (as everywhere).
                yield FormCheckbox(_("On the local network (phones)"),
                                   self.lan, id="players-lan", compact=True)
                yield Static(_("Screens following it now: {count}").format(
                    count=self.clients), classes="note", id="players-clients")
                with Horizontal(classes="buttons"):
                    yield Button(_("Stop ({key})").format(key=self.stop_key), id="stop",
                                 variant="warning")
                    yield Button(_("Close (esc)"), id="close", variant="primary")

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#close", Button))

    def on_key(self, event: events.Key) -> None:
        if event.key in self.stop_keys:  # the key that started it stops it
            event.stop()
            self.dismiss(STOP)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        if event.value != self.lan:
            self.dismiss(LAN if event.value else LOCAL)

    OWN_BUTTONS = True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(STOP if event.button.id == "stop" else None)

    def action_submit(self) -> None:
        self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)
