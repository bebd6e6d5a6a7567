"""A yes/no question (quit with unsaved changes, remove a character)."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from sombra_tui import keys
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Dialog


class ConfirmDialog(Dialog[bool]):
    BINDINGS = keys.bindings(keys.Scope.CONFIRM)

    def __init__(self, question: str, *, yes: str | None = None,
                 no: str | None = None) -> None:
        super().__init__()
        self.question = question
        self.yes = yes if yes is not None else _("Yes")
        self.no = no if no is not None else _("Cancel")

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.question, id="question")
            with Horizontal(classes="buttons"):
                yield Button(f"{self.yes} ({self.key_in_force('confirm.yes')})", id="yes",
                             variant="warning")
                yield Button(f"{self.no} ({self.key_in_force('confirm.no')})", id="no")

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#no", Button))

    def action_cancel(self) -> None:
        self.dismiss(False)

    def action_confirm(self) -> None:
        self.dismiss(True)

    OWN_BUTTONS = True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


def choice_keys(translated: str, english: str) -> str:
    """The keys of a ChoiceDialog option: the DJ's language's letter (a pgettext "key of
    ..." msgid, "g" for Guardar), and the English one, still accepted."""
    return translated if translated == english else f"{translated},{english}"


class ChoiceDialog(Dialog[str]):
    """Pick one of a few options by key: e.g. save / discard / cancel on quit."""

    def __init__(self, question: str, options: list[tuple[str, str, str]]) -> None:
        """options: (keys, label, value); Escape returns None. `keys` may list several
        ("g,s": the key of the DJ's language first, shown on the button, and the
        English one, still accepted)."""
        super().__init__()
        self.question = question
        self.options = options
        self.keys = {key: value for keys_, _label, value in options
                     for key in keys_.split(",")}

    def on_key(self, event: events.Key) -> None:
        if event.key in self.keys:
            event.stop()
            self.dismiss(self.keys[event.key])

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.question, id="question")
            with Horizontal(classes="buttons"):
                for key, label, value in self.options:
                    yield Button(f"{label} ({keys.show_key(key.split(',')[0])})",
                                 id=f"choice-{value}")

    OWN_BUTTONS = True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        assert event.button.id is not None
        self.dismiss(event.button.id.removeprefix("choice-"))
