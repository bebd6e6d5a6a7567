"""The widgets of the dialogs' forms: a labelled field with its own error line, and
text fields, lists, dropdowns and boxes on which Enter submits the dialog."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from rich.segment import Segment
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select, SelectionList, Static
from textual.widgets.option_list import OptionDoesNotExist
from textual.widgets.selection_list import Selection

from sombra_tui import keys
from sombra_tui.engine import zero_read_as_ten
from sombra_tui.engine.i18n import N_, _
from sombra_tui.textual_compat import show_select_choice
from sombra_tui.widgets.type_ahead import TypeAhead

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
        # The dialog's submit (a form widget lives in a Dialog, which imports this
        # module: it is found by its action's name, not its class).
        submit = getattr(self.screen, "action_submit", None)
        if submit is not None:
            # After what this widget still has queued: a pick list toggles through a
            # message of its own, so a quick space then enter must see the toggle.
            self.call_later(submit)


#: What an unticked box shows inside: ticked and unticked differ by shape, not only
#: by colour (a colour-blind DJ, a monochrome terminal).
UNTICKED = " "


class PickList(TypeAhead, ConfirmsDialog, SelectionList[str]):
    """A selection list for forms: space toggles, Enter confirms the dialog, typing a
    name's first letters goes to it; a ticked option shows X, an unticked one an empty
    box."""

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
    """Give a pick list the options `names`, none ticked (a dialog shown again). The
    same names as it has (the same character's dialog opened again) are only unticked:
    building a list of an encounter's names costs more than the rest of the form. For
    other names (the next character's dialog: one name out, another in), the options
    of the names it keeps are put back as they are, in the new order: each keeps the
    text it was made into and measured with (a new option parses its name again)."""
    options: dict[str, Selection[str]] = {
        (option := picks.get_option_at_index(index)).value: option
        for index in range(picks.option_count)}
    if list(options) == names:
        if picks.selected:
            picks.deselect_all()
    else:
        picks.clear_options()
        picks.add_options([options.get(name) or Selection(name, name) for name in names])
    picks.highlighted = 0 if names else None
    picks.scroll_home(animate=False)


def refill_inputs(node: Widget, values: dict[str, str]) -> None:
    """Give the text fields under `node` with these ids these values, the cursor at
    the end, as a new field would have them (a dialog shown again). A field the dialog
    does not have (tipo IV's entries, say) is skipped."""
    for field_id, value in values.items():
        try:
            field = node.query_one(f"#{field_id}", Input)
        except NoMatches:
            continue
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


def dice_label(who: str, table: bool, *, alerta: bool = False) -> str:
    """T6: whose dice a field takes and who rolls them (the table's dice are typed)."""
    if alerta:
        label = (_("{name}'s Alerta dice, dS first (the table rolls)") if table
                 else _("{name}'s Alerta dice, dS first (the tracker rolls)"))
    else:
        label = (_("{name}'s dice, dS first (the table rolls)") if table
                 else _("{name}'s dice, dS first (the tracker rolls)"))
    return label.format(name=who)


class Field(Vertical):
    """A labelled field with its own error line underneath."""

    DEFAULT_CSS = """
    Field { height: auto; margin: 0 0 0 0; }
    Field > .field-label { color: $text-muted; width: 100%; }
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
        # Its own child, if there is one (found without a query of the whole field).
        line = next((child for child in self.children
                     if child.id == f"error-{self.field_id}"), None)
        if isinstance(line, Static):
            line.update(message or "")
        elif message:
            self.mount(Static(message, classes="field-error", id=f"error-{self.field_id}"))


class DiceField(Field):
    """A field of three dice (T6): its label says whose dice they are and who rolls
    them; a typed 0 reads as 10, and the field says so beside its label."""

    def __init__(self, field_id: str, *, who: str, table: bool, alerta: bool = False,
                 hint: str = "") -> None:
        super().__init__(dice_label(who, table, alerta=alerta),
                         TextInput(id=field_id, placeholder=dice_placeholder(table)),
                         field_id=field_id, hint=hint)
        self.alerta = alerta
        self.own_hint = hint

    def set_owner(self, who: str, table: bool) -> None:
        """Another character's dice (a dialog shown again, or another one chosen)."""
        assert isinstance(self.widget, Input)
        self.widget.placeholder = dice_placeholder(table)
        self.label = dice_label(who, table, alerta=self.alerta)
        self.set_hint(self.own_hint)  # no reading of dice typed for someone else

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input is not self.widget:
            return
        read = zero_read_as_ten(event.value)
        reading = "" if read is None else _("0 reads as 10: {dice}").format(dice=read)
        self.set_hint("  ".join(part for part in (reading, self.own_hint) if part))


def save_or_cancel(keyed: Callable[[str, str], str]) -> ComposeResult:
    """The end of an edit form: its error line, then Save and Cancel with their keys
    (`keyed`: the dialog's own, which names the key the DJ has bound)."""
    yield Static("", id="form-error")
    with Horizontal(classes="buttons"):
        yield Button(keyed(_("Save ({key})"), "dialog.confirm"), id="save", variant="primary")
        yield Button(keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

