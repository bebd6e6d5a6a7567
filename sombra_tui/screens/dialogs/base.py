"""Shared pieces of the modal dialogs: escape cancels, errors show inline."""

from __future__ import annotations

from typing import TypeVar

from pydantic import ValidationError
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Select, SelectionList, Static
from textual.widgets._select import SelectType

from sombra_tui.engine.errors import SombraError, validation_problems
from sombra_tui.engine.i18n import N_, _

ResultT = TypeVar("ResultT")


class TextInput(Input):
    """An Input whose cursor stops blinking when the app asks (stable screenshots)."""

    def on_mount(self) -> None:
        if not getattr(self.app, "cursor_blink", True):
            self.cursor_blink = False


#: Enter submits the dialog (Textual only merges the BINDINGS of widget classes, so
#: each widget below names it; the action comes from ConfirmsDialog).
ENTER_CONFIRMS = Binding("enter", "confirm_dialog", N_("Confirm"), show=False)


class ConfirmsDialog:
    """Mixin for form widgets: Enter submits the dialog they are in (as everywhere else
    in a form) instead of the widget's own use of Enter."""

    def action_confirm_dialog(self) -> None:
        assert isinstance(self, Widget)
        screen = self.screen
        if isinstance(screen, Dialog):
            screen.action_submit()


class PickList(ConfirmsDialog, SelectionList[str]):
    """A selection list for forms: space toggles, Enter confirms the dialog."""

    BINDINGS = [ENTER_CONFIRMS]


class FormSelect(ConfirmsDialog, Select[SelectType]):
    """A dropdown for forms: space or the arrows open it, Enter confirms the dialog."""

    BINDINGS = [ENTER_CONFIRMS]


class FormCheckbox(ConfirmsDialog, Checkbox):
    """A checkbox for forms: space toggles, Enter confirms the dialog (as everywhere else).

    A plain Checkbox also toggles on Enter, so the DJ's Enter to apply would undo
    the box just ticked and leave the dialog open.
    """

    BINDINGS = [ENTER_CONFIRMS]


class FormError(Exception):
    """A field's value is wrong: `field` is the id of the widget to show it next to."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def parse_int(text: str, field: str, label: str, low: int, high: int,
              default: int | None = None) -> int:
    cleaned = text.strip().replace("+", "")
    if not cleaned:
        if default is not None:
            return default
        raise FormError(field, _("{label} is required: type a whole number.").format(
            label=label))
    try:
        value = int(cleaned)
    except ValueError:
        raise FormError(field, _("{label} must be a whole number, not {text!r}.").format(
            label=label, text=text.strip())) from None
    if not low <= value <= high:
        raise FormError(field, _("{label} must be from {low} to {high}, not {value}.").format(
            label=label, low=low, high=high, value=value))
    return value


def validation_message(error: ValidationError) -> tuple[str, str]:
    """(field name, readable message) of the first problem pydantic found."""
    first = validation_problems(error)[0]
    return (str(first.location[0]) if first.location else ""), first.message


class Field(Vertical):
    """A labelled field with its own error line underneath."""

    DEFAULT_CSS = """
    Field { height: auto; margin: 0 0 0 0; }
    Field > .field-label { color: $text-muted; }
    Field > .field-error { color: $error; height: auto; display: none; }
    Field.-invalid > .field-error { display: block; }
    Field.-invalid > Input { border: tall $error; }
    """

    def __init__(self, label: str, widget: Widget, *, field_id: str,
                 hint: str = "") -> None:
        super().__init__(id=f"field-{field_id}")
        self.label = label
        self.widget = widget
        self.field_id = field_id
        self.hint = hint

    def compose(self) -> ComposeResult:
        text = self.label + (f"  [dim]{self.hint}[/]" if self.hint else "")
        yield Label(text, classes="field-label")
        yield self.widget
        # The error line is added the first time there is an error: a dialog has a
        # dozen fields, and every widget built up front delays its opening.

    def set_hint(self, hint: str) -> None:
        self.hint = hint
        text = self.label + (f"  [dim]{hint}[/]" if hint else "")
        self.query_one(".field-label", Label).update(text)

    def set_error(self, message: str | None) -> None:
        self.set_class(bool(message), "-invalid")
        lines = self.query(f"#error-{self.field_id}")
        if lines:
            lines.first(Static).update(message or "")
        elif message:
            self.mount(Static(message, classes="field-error", id=f"error-{self.field_id}"))


class Dialog(ModalScreen[ResultT]):
    """Base dialog: Escape backs out without changing anything."""

    # Enter confirms from text fields (Input.Submitted) and pick lists (PickList). It
    # is not a priority binding on purpose: that would overtake keys still queued for
    # a field (fast typing, paste) and submit the form before the text arrived.
    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    DEFAULT_CSS = """
    Dialog { align: center middle; }
    Dialog > #dialog {
        width: 90; max-width: 95%; height: auto; max-height: 95%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    Dialog #dialog-title { text-style: bold; color: $accent; width: 1fr; }
    Dialog #form-error { color: $error; height: auto; }
    Dialog .buttons { height: auto; align-horizontal: right; margin-top: 1; }
    Dialog .buttons Button { margin-left: 1; }
    Dialog .row { height: auto; }
    Dialog .row > * { width: 1fr; margin-right: 1; }
    Dialog .note { color: $text-muted; height: auto; }
    """

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_submit(self) -> None:
        self.submit()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit()

    def clear_errors(self) -> None:
        for field in self.query(Field):
            field.set_error(None)
        for error in self.query("#form-error"):
            if isinstance(error, Static):
                error.update("")

    def show_error(self, field: str | None, message: str) -> None:
        """Show a problem next to its field, or under the form when it has none."""
        if field:
            matches = self.query(f"#field-{field}")
            if matches:
                target = matches.first(Field)
                target.set_error(message)
                target.widget.focus()
                return
        self.query_one("#form-error", Static).update(message)

    #: The engine's field of an error (SombraError.field) -> the dialog's field for it.
    ERROR_FIELDS: dict[str, str] = {}

    def show_problem(self, error: SombraError) -> None:
        """Show an error the engine gave, next to its field when the dialog has it
        (by the error's field, never its text), else under the form."""
        self.show_error(self.ERROR_FIELDS.get(error.field or ""), str(error))

    def value(self, field: str) -> str:
        return self.query_one(f"#{field}", Input).value

    def submit(self) -> None:  # overridden
        raise NotImplementedError
