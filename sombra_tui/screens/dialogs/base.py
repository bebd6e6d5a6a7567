"""Shared pieces of the modal dialogs: escape cancels, errors show inline."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, TypeVar

from rich.segment import Segment
from textual import events, on
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select, SelectionList, Static
from textual.widgets.option_list import OptionDoesNotExist

from sombra_tui import keys
from sombra_tui.engine import SombraError
from sombra_tui.engine.i18n import N_, _
from sombra_tui.textual_compat import HoldsKeys, forward_key, show_select_choice

ResultT = TypeVar("ResultT")
#: The engine's dry run of a command (the screen's `check`): why it would be refused, or None.
Check = Callable[[Any], SombraError | None]
SelectType = TypeVar("SelectType")


class TextInput(Input):
    """An Input whose cursor stops blinking when the app asks (stable screenshots).

    Empty is valid: the form says what an empty field means (a default, or an error
    naming it when the DJ submits). Textual's own check would paint an empty number
    field red as soon as the DJ tabbed through it.
    """

    def __init__(self, *args: Any, valid_empty: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, valid_empty=valid_empty, **kwargs)

    def on_mount(self) -> None:
        if not getattr(self.app, "cursor_blink", True):
            self.cursor_blink = False

    async def on_key(self, event: events.Key) -> None:
        """The field's own keys (ctrl+u, backspace, home, enter...) act as they reach
        it, in order with the text typed around them. Textual runs a binding once its
        key has gone up from the field to the app, and the field inserts the text typed
        behind it meanwhile: ctrl+u then a name cleared the name (issue 22 item 8)."""
        active = self.screen.active_bindings.get(event.key)
        if active is None or active.node is not self or not active.enabled:
            return  # a key of the dialog's (or text): as Textual hands it on
        event.stop()
        event.prevent_default()
        await self.run_action(active.binding.action)

    def restricted(self) -> None:
        """A key this field cannot take (a letter in a number): the bell, and its error
        line says why, until the next change of its value (issue 22)."""
        super().restricted()
        field = self.parent
        if isinstance(field, Field) and self.type in ("integer", "number"):
            field.set_error(_("{label} takes a whole number (digits only).").format(
                label=field.label) if self.type == "integer" else
                _("{label} takes a number (digits only).").format(label=field.label))


#: Enter submits the dialog (Textual only merges the BINDINGS of widget classes, so
#: each widget below names it; the action comes from ConfirmsDialog).
ENTER_CONFIRMS = keys.binding("dialog.confirm")


class ConfirmsDialog:
    """Mixin for form widgets: Enter submits the dialog they are in (as everywhere else
    in a form) instead of the widget's own use of Enter."""

    def action_confirm_dialog(self) -> None:
        assert isinstance(self, Widget)
        screen = self.screen
        if isinstance(screen, Dialog):
            # After what this widget still has queued: a pick list toggles through a
            # message of its own, so a quick space then enter must see the toggle.
            self.call_later(screen.action_submit)


#: What an unticked box shows inside: ticked and unticked differ by shape, not only
#: by colour (a colour-blind DJ, a monochrome terminal).
UNTICKED = " "


class PickList(ConfirmsDialog, SelectionList[str]):
    """A selection list for forms: space toggles, Enter confirms the dialog; a ticked
    option shows X, an unticked one an empty box."""

    BINDINGS = [ENTER_CONFIRMS]

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        try:
            option = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:  # past the last option: nothing to mark
            return strip
        if option.value in self.selected:
            return strip
        segments = list(strip)
        if len(segments) > 1 and segments[1].text == "X":
            segments[1] = Segment(UNTICKED, segments[1].style)
        return Strip(segments, strip.cell_length)


def refill_picks(picks: SelectionList[str], names: list[str]) -> None:
    """Give a pick list the options `names`, none ticked (a dialog shown again)."""
    picks.clear_options()
    picks.add_options([(name, name) for name in names])
    picks.highlighted = 0 if names else None
    picks.scroll_home(animate=False)


def refill_inputs(node: Widget, values: dict[str, str]) -> None:
    """Give the text fields under `node` with these ids these values, the cursor at
    the end, as a new field would have them (a dialog shown again). A field the dialog
    does not have (tipo IV's entries, say) is skipped."""
    for field_id, value in values.items():
        for field in node.query(f"#{field_id}").results(Input):
            field.value = value
            field.cursor_position = len(value)


def refill_select(select: Select[SelectType], options: list[tuple[str, SelectType]],
                  value: SelectType) -> None:
    """Give a select new options and the value `value` (a dialog shown again)."""
    select.set_options(options)
    select.value = value
    # Textual redraws the shown choice only when the value changes: the same value
    # worded anew (another character's main arm) must show its new wording.
    index = next(i for i, (_prompt, option) in enumerate(options) if option == value)
    show_select_choice(select, options[index][0], index)


class FormSelect(ConfirmsDialog, Select[SelectType], inherit_bindings=False):
    """A dropdown for forms: Enter confirms the dialog, as from any field (issue 22: the
    DJ who picked a weapon declares with Enter); the arrows open the list (its own key,
    dialog.open_list); space is left to the dialog (the hit proposal accepts with it)."""

    BINDINGS = [ENTER_CONFIRMS, keys.binding("dialog.open_list")]


class FormCheckbox(ConfirmsDialog, Checkbox):
    """A checkbox for forms: space toggles, Enter confirms the dialog (as everywhere else).

    A plain Checkbox also toggles on Enter, so the DJ's Enter to apply would undo
    the box just ticked and leave the dialog open. Ticked shows X, unticked an empty box.
    """

    BINDINGS = [ENTER_CONFIRMS]

    @property  # Textual's class variable of the box's inside, here by the value
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        return Checkbox.BUTTON_INNER if self.value else UNTICKED


#: Placeholders of a dice field: the table types them, or the tracker rolls on Enter.
TABLE_PLACEHOLDER = N_("the player's dice: dS d+ d-")
TRACKER_PLACEHOLDER = N_("empty: roll")


def dice_placeholder(table: bool) -> str:
    return _(TABLE_PLACEHOLDER if table else TRACKER_PLACEHOLDER)


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


class Dialog(HoldsKeys, ModalScreen[ResultT]):
    """Base dialog: Escape backs out without changing anything.

    Nothing the DJ types is lost: keys that arrive while the dialog is opening (before
    its first field has the focus) are kept and handed to that field once it has it,
    in order; Tab moves the focus at once (a priority binding), so text typed right
    after it lands in the next field, not in the one being left.
    """

    # Enter confirms from text fields (Input.Submitted) and pick lists (PickList). It
    # is not a priority binding on purpose: that would overtake keys still queued for
    # a field (fast typing, paste) and submit the form before the text arrived.
    BINDINGS = keys.bindings(keys.Scope.DIALOG)

    DEFAULT_CSS = """
    Dialog { align: center middle; }
    Dialog > #dialog {
        width: 90; max-width: 95%; height: auto; max-height: 95%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    Dialog #dialog-title { text-style: bold; color: $accent; width: 1fr; }
    Dialog #form-error { color: $error; height: auto; }
    Dialog .buttons { height: auto; align-horizontal: right; margin-top: 1; }
    Dialog .buttons Button { margin-left: 1; min-width: 8; }
    Dialog .row { height: auto; }
    Dialog .row > * { width: 1fr; margin-right: 1; }
    Dialog .note { color: $text-muted; height: auto; }
    /* A narrow terminal (80x24): buttons two a row, one line high, none cut. */
    Dialog.-narrow .buttons {
        layout: grid; grid-size: 2; grid-gutter: 0 1; grid-rows: 1; height: auto;
        margin-top: 0;
    }
    Dialog.-narrow .buttons Button { width: 100%; margin-left: 0; }
    """

    #: Below this many columns the dialog packs its buttons (two a row, compact).
    NARROW_BELOW = 100

    def __init__(self) -> None:
        super().__init__()
        #: Keys that came before any field had the focus (the dialog still opening).
        self._early_keys: list[events.Key] = []
        self._opened = False
        #: Shown again after a refill (DialogShelf): its styles are already in force.
        self._styled = False

    def hold_key(self, key: events.Key) -> bool:
        if self.focused is None and not self._opened:
            self._early_keys.append(key)  # handed on once a field has the focus
            return True
        return False

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True,
                  from_app_focus: bool = False) -> None:
        super().set_focus(widget, scroll_visible, from_app_focus)
        self._hand_on_early_keys()

    def _hand_on_early_keys(self) -> None:
        if not self._early_keys:
            return
        target: Widget | None = self.focused
        if target is None and not self._opened:
            return
        keys, self._early_keys = self._early_keys, []
        for key in keys:
            # In order, before any key the app forwards from now on (it now sees the focus).
            forward_key(target or self, key)

    def on_mount(self) -> None:
        # Runs after the subclass's on_mount (which asked for the focus). Once the first
        # screen is up, a dialog that focused nothing gets its keys itself.
        self.call_after_refresh(self._finish_opening)

    def on_resize(self, event: events.Resize) -> None:
        self._fit_width(event.size.width)

    def _fit_width(self, width: int) -> None:
        narrow = width < self.NARROW_BELOW
        self.set_class(narrow, "-narrow")
        for button in self.query(Button):
            button.compact = narrow

    # ---- shown again (DialogShelf) ----------------------------------------------------

    def prepare_refill(self) -> None:
        """Before a subclass's refill: the dialog as it opens, no error, no open list.
        Call the refill inside `quietly()`, so that nothing it sets counts as the DJ's."""
        self.clear_errors()
        for select in self.query(Select):
            select.expanded = False
        for scroll in self.query(VerticalScroll):
            scroll.scroll_home(animate=False)
        self._early_keys = []
        self._opened = True  # the refill gives a field the focus at once
        self._styled = True
        self._fit_width(self.app.size.width)

    def quietly(self) -> contextlib.AbstractContextManager[None]:
        """No change message while refilling: they would read as the DJ's own edits."""
        return self.prevent(Input.Changed, Select.Changed, SelectionList.SelectedChanged,
                            SelectionList.SelectionToggled, Checkbox.Changed)

    #: Once laid out, the dialog scrolls its focused field to the centre (a dialog whose
    #: first field may be below the fold; it gives the focus without scrolling). New or
    #: shown again alike: Textual's own scroll on focus, asked before the first layout
    #: of a new dialog, lands elsewhere than the same scroll asked of a refilled one.
    CENTRE_FOCUSED = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Runs before Screen's own handler (Textual calls a message's handlers from the
        # subclass up): a dialog shown again keeps its styles (the shelf drops it when
        # the theme or language changes), which saves restyling every widget in it.
        if self._styled:
            event.refresh_styles = False
        if self.CENTRE_FOCUSED:
            # After the refresh that lays the dialog out (the first one after the push
            # is the screen below's).
            self.centred = False
            self.call_after_refresh(self.call_after_refresh, self._centre_focused)

    #: False from the dialog's showing until its focused field is centred (CENTRE_FOCUSED):
    #: what a script that types into it as soon as it opens waits for (screenshots).
    centred = True

    def _centre_focused(self) -> None:
        if self.focused is not None and self.is_active:
            self.scroll_to_center(self.focused, animate=False, origin_visible=True)
        self.centred = True

    def _finish_opening(self) -> None:
        self._opened = True
        self._hand_on_early_keys()

    @on(Input.Changed)
    @on(Select.Changed)
    @on(SelectionList.SelectedChanged)
    def _clear_fixed_error(self, event: Input.Changed | Select.Changed
                           | SelectionList.SelectedChanged[str]) -> None:
        """The DJ changed a field that showed an error: its error line goes (a submit
        shows it again if the value is still wrong)."""
        widget = event.control
        field = next((node for node in widget.ancestors if isinstance(node, Field)), None)
        if field is not None and field.widget is widget and field.has_class("-invalid"):
            field.set_error(None)

    def dismiss(self, result: ResultT | None = None) -> AwaitComplete:
        """Close with `result`, only if this dialog is the one on top. A key typed
        right after the Enter that closed it can still reach one of its fields (Textual
        hands keys on before the field has handled the Enter); a second close then
        would take away the screen below (the main screen)."""
        if not self.is_active:
            return AwaitComplete.nothing()
        return super().dismiss(result)

    def key_in_force(self, binding_id: str) -> str:
        """The first key of `binding_id` as the DJ reads it, their keymap applied."""
        return keys.first_key_in_force(binding_id, getattr(self.app, "keymap_in_force", {}))

    def keyed(self, message: str, binding_id: str) -> str:
        """`message` (translated, with a {key} placeholder) naming the key in force."""
        return message.format(key=self.key_in_force(binding_id))

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

    #: The engine's dry run of a command (the screen's `check`): why it would be
    #: refused, or None. Dialogs that build a command keep it here.
    check: Callable[[Any], SombraError | None]

    def finish(self, command: ResultT) -> None:
        """Close with `command`, unless the engine would refuse it: then show why, next
        to its field when the dialog has it, and stay open with everything typed."""
        problem = self.check(command)
        if problem:
            self.show_problem(problem)
            return
        self.dismiss(command)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The primary button submits; any other backs out. Dialogs with more buttons
        handle theirs: Textual calls this handler after a subclass's own, so it only
        acts for dialogs that have none."""
        mro = type(self).__mro__
        if any("on_button_pressed" in vars(cls) for cls in mro[:mro.index(Dialog)]):
            return
        if event.button.variant == "primary":
            self.submit()
        else:
            self.action_cancel()
