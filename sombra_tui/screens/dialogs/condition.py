"""Conditions on a character (C1-C3): adding one, built-in or the DJ's own, and
editing one (its duration, name and grades).
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Input, Select, Static

from sombra_tui import engine as c  # the commands, through the engine's door
from sombra_tui.engine import (
    BUILTIN_NAMES,
    Condition,
    ConditionEffects,
    GdEffect,
    ScopeKind,
    SombraError,
    ask,
    builtin,
)
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Check, Dialog
from sombra_tui.screens.dialogs.fields import (
    Field,
    FormCheckbox,
    FormSelect,
    TextInput,
    save_or_cancel,
)
from sombra_tui.screens.dialogs.parsing import (
    FormError,
    grades_text,
    parse_grades,
    parse_int,
    validated,
)

OTHER = "(other)"
#: The fields of a condition of the DJ's own: off (skipped by Tab) for a built-in one.
OWN_FIELDS = ("own", "gd", "cannot-act", "cannot-react", "out")


class ConditionSelect(FormSelect[str]):
    """The condition list of the condition dialog. A letter picks the next condition
    starting with it (as a closed list does in a desktop form); a number is how long,
    typed into Asaltos (no condition's name starts with one), so that a DJ who types the
    asaltos straight away loses nothing."""

    def __init__(self, options: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(options, **kwargs)
        #: The choices as given (Select keeps its own copy under a private name).
        self.choices = list(options)

    def on_key(self, event: events.Key) -> None:
        character = event.character
        if character is None or not event.is_printable or character.isspace():
            return
        event.stop()
        event.prevent_default()
        if character.isdigit():
            self._to_asaltos(events.Key(event.key, character))
        else:
            self._pick_starting(character)

    def on_paste(self, event: events.Paste) -> None:
        text = event.text.strip()
        if not text:
            return
        event.stop()
        event.prevent_default()
        if text[0].isdigit():
            self._to_asaltos(events.Paste(text))
        else:
            self._pick_starting(text)

    def _to_asaltos(self, event: events.Key | events.Paste) -> None:
        duration = self.screen.query_one("#duration", Input)
        self.screen.set_focus(duration)
        duration.post_message(event)  # after its focus, before any key typed later

    def _pick_starting(self, text: str) -> None:
        labels = [(str(label).casefold(), value) for label, value in self.choices]
        current = next((i for i, (_label, value) in enumerate(labels)
                        if value == self.value), -1)
        wanted = text.casefold()
        order = labels[current + 1:] + labels[:current + 1] if len(wanted) == 1 else labels
        match = next((value for label, value in order
                      if label.lstrip("(").startswith(wanted)), None)
        if match is None:
            self.app.bell()
            return
        self.value = match


class ConditionDialog(Dialog[c.AddCondition]):
    """C2: a built-in condition or the DJ's own, with a duration in asaltos (C3).

    The focus opens on the condition, then Tab goes to how long (Asaltos), then to the
    fields of a condition of the DJ's own, which are off until (other) is chosen: a
    number typed there would be ignored."""

    SUMMARY = True  # the form says what Enter sends (issue 35, D2)

    def __init__(self, name: str, check: Check) -> None:
        super().__init__()
        self.name_ = name
        self.check = check

    def compose(self) -> ComposeResult:
        options = [(name, name) for name in BUILTIN_NAMES] + [(_("(other)"), OTHER)]
        with Vertical(id="dialog"):
            yield Static(_("Condition on {name}").format(name=self.name_), id="dialog-title")
            with Horizontal(classes="row"):
                yield Field(_("Condition"), ConditionSelect(options, value="aturdido",
                                                            allow_blank=False, id="kind"),
                            field_id="kind")
                yield Field(_("Asaltos"), TextInput(id="duration", type="integer",
                                                 placeholder=_("empty: until removed")),
                            field_id="duration")
            with Horizontal(classes="row"):
                yield Field(_("Own name"), TextInput(id="own", placeholder="derribado",
                                                     disabled=True),
                            field_id="own")
                yield Field(_("GD on every TA"), TextInput("0", id="gd", type="integer",
                                                           disabled=True),
                            field_id="gd")
            with Horizontal(classes="row"):
                yield FormCheckbox(_("Cannot act"), False, id="cannot-act", disabled=True)
                yield FormCheckbox(_("Cannot react"), False, id="cannot-react", disabled=True)
                yield FormCheckbox(_("Out"), False, id="out", disabled=True)
            yield Static(_("The own name and the boxes are for (other)."), classes="note")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("Add ({key})"), "dialog.confirm"),
                             id="add", variant="primary")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    def on_mount(self) -> None:
        # At once (not deferred like Widget.focus): the focus never lands elsewhere first.
        self.set_focus(self.query_one("#kind", Select))

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "kind":
            own = event.value == OTHER
            for field_id in OWN_FIELDS:
                self.query_one(f"#{field_id}").disabled = not own

    def condition(self) -> Condition:
        text = self.value("duration").strip()
        duration = parse_int(text, "duration", "Asaltos",
                             *ask.bounds(Condition, "duration")) if text else None
        kind = str(self.query_one("#kind", Select).value)
        if kind != OTHER:
            try:
                return builtin(kind, began=0, duration=duration)
            except SombraError as error:
                raise FormError("duration", str(error)) from error
        own = self.value("own").strip()
        if not own:
            raise FormError("own", _("Give the condition a name."))
        gd = parse_int(self.value("gd"), "gd", "GD", *ask.bounds(GdEffect, "gd"), default=0)
        effects = ConditionEffects(
            cannot_act=self.query_one("#cannot-act", Checkbox).value,
            cannot_react=self.query_one("#cannot-react", Checkbox).value,
            out=self.query_one("#out", Checkbox).value,
            gd=(GdEffect(scope=ScopeKind.ANY, gd=gd),) if gd else ())
        return Condition(name=own[:ask.max_length(Condition, "name")], duration=duration,
                         effects=effects)

    def build(self) -> c.AddCondition:
        return c.AddCondition(character=self.name_, condition=self.condition())


class EditConditionDialog(Dialog[c.EditCondition]):
    """C2: change a condition's duration (C3), name or grades; built-in effects stay."""

    SUMMARY = True  # the form says what Enter sends (issue 35, D2)

    def __init__(self, name: str, condition: Condition, round_: int, check: Check) -> None:
        super().__init__()
        self.name_ = name
        self.condition = condition
        self.round = round_
        self.check = check

    def compose(self) -> ComposeResult:
        condition = self.condition
        left = ask.condition_left(condition, self.round)
        effects = condition.effects
        with Vertical(id="dialog"):
            yield Static(_("{name}'s condition: {condition}").format(
                name=self.name_, condition=condition.name), id="dialog-title")
            with Horizontal(classes="row"):
                yield Field(_("Name"), TextInput(condition.name, id="cname"),
                            field_id="cname")
                yield Field(_("Asaltos left"), TextInput(
                    "" if left is None else str(left), id="left", type="integer",
                    placeholder=_("empty: until removed"),
                    disabled=condition.permanent), field_id="left")
                yield Field(_("Grades"), TextInput(grades_text(effects.gd), id="grades",
                                                   placeholder=_("-1 every TA")),
                            field_id="grades")
            with Horizontal(classes="row"):
                yield FormCheckbox(_("Cannot act"), effects.cannot_act, id="cannot-act")
                yield FormCheckbox(_("Cannot react"), effects.cannot_react, id="cannot-react")
                yield FormCheckbox(_("Out"), effects.out, id="out")
            yield Static(_("Asaltos left: the rounds it still covers, this one included if it "
                           "does."), classes="note")
            yield from save_or_cancel(self.keyed)

    def on_mount(self) -> None:
        self.query_one("#left", Input).focus()

    def edited(self) -> Condition:
        condition = self.condition
        name = self.value("cname").strip()
        if not name:
            raise FormError("cname", _("Give the condition a name."))
        duration = condition.duration
        if not condition.permanent:
            text = self.value("left").strip()
            if not text:
                duration = None
            else:
                left = parse_int(text, "left", _("Asaltos left"),
                                 *ask.bounds(Condition, "duration"))
                try:  # C3 backwards: the duration that leaves `left` rounds from this one
                    duration = ask.condition_duration(condition, self.round, left)
                except SombraError as error:
                    raise FormError(error.field or "left", error.message) from error
        effects = ConditionEffects(
            cannot_act=self.query_one("#cannot-act", Checkbox).value,
            cannot_react=self.query_one("#cannot-react", Checkbox).value,
            out=self.query_one("#out", Checkbox).value,
            gd=parse_grades(self.value("grades"), "grades"))
        name = name[:ask.max_length(Condition, "name")]
        return validated(Condition, condition, {"name": name,
                                                "duration": duration, "effects": effects})

    def build(self) -> c.EditCondition | None:
        condition = self.edited()
        if condition == self.condition:
            return None  # nothing changed: nothing to log
        return c.EditCondition(character=self.name_, condition=condition)
