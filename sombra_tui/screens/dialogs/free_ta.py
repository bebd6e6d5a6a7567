"""The DJ's free TA: any character, outside the steps (O4's confirming TA, a perception
roll, first aid), with target, GD, modifier and rolled or typed dice (T2, T6)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Select, Static

from sombra_tui import keys
from sombra_tui.engine import CombatState, Dice, FreeTA, SombraError, ask
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.action_choices import SCOPES, scope_options
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.fields import DiceField, Field, FormSelect, TextInput
from sombra_tui.screens.dialogs.odds_line import OddsLine
from sombra_tui.screens.dialogs.parsing import FormError, parse_int, read_dice
from sombra_tui.widgets.formatting import ta_text
from sombra_tui.widgets.theme import theme_palette


class FreeTADialog(Dialog[FreeTA]):
    """Returns the FreeTA command; the dice are rolled here when left empty (T6)."""

    SUMMARY = True  # the form says what Enter sends (issue 35, D2)

    BINDINGS = keys.bindings(keys.Scope.ROLL)
    #: T2: no value to roll under (none given, or no such skill) is shown at the target.
    ERROR_FIELDS = {"target": "target"}

    def __init__(self, state: CombatState, character: str | None,
                 check: Callable[[FreeTA], SombraError | None], roll: Callable[[], Dice], *,
                 target: int | None = None, label: str = "") -> None:
        super().__init__()
        self.state = state
        self.names = [ch.name for ch in state.characters]
        self.character = character if character in self.names else (
            self.names[0] if self.names else None)
        self.check = check
        self.roll = roll
        self.default_target = target
        self.default_label = label
        #: The table rolls the character's dice: the dice field comes first, and Enter
        #: with it empty asks for them (checked again for whoever is chosen).
        self.table = self.character is not None and state.table_rolls(self.character)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(_("DJ: free TA (outside the steps)"), id="dialog-title")
            if self.table:
                yield from self._dice_row()
            with Horizontal(classes="row"):
                yield Field(_("Character"), FormSelect(
                    [(name, name) for name in self.names], value=self.character
                    if self.character is not None else Select.NULL,
                    allow_blank=self.character is None, id="who"), field_id="who")
                yield Field(_("What is rolled"), TextInput(id="skill",
                            placeholder=_("a skill, or empty")), field_id="skill",
                            hint=self._skills_hint())
                yield Field(_("Uses"), FormSelect(self._scope_options(), value="default",
                                                  allow_blank=False, id="scope"),
                            field_id="scope")
            with Horizontal(classes="row"):
                yield Field(_("Target value"), TextInput(
                    "" if self.default_target is None else str(self.default_target),
                    id="target", type="integer", placeholder=_("empty: the skill's")),
                    field_id="target")
                yield Field(_("GD"), TextInput("0", id="gd", type="integer"), field_id="gd")
                yield Field(_("Modifier"), TextInput("0", id="modifier", type="integer"),
                            field_id="modifier")
            yield OddsLine()  # before the dice, with every grade (issue 37)
            if not self.table:
                yield from self._dice_row()
            yield Static("", id="ta-preview")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("Roll the TA ({key})"), "dialog.confirm"),
                             id="resolve", variant="primary")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    def _dice_row(self) -> ComposeResult:
        with Horizontal(classes="row"):
            yield DiceField("dice", who=self.character or "", table=self.table,
                            hint=self.keyed(_("{key} rolls"), "dialog.roll"))
            yield Field(_("Why (for the log)"), TextInput(self.default_label, id="label"),
                        field_id="label")

    def _scope_options(self) -> list[tuple[str, str]]:
        character = self.state.character(self.character) if self.character else None
        return scope_options(character.main_arm if character else None)

    def _skills_hint(self) -> str:
        character = self.state.character(self.character) if self.character else None
        if character is None or not character.skills:
            return ""
        return ", ".join(f"{name} {value}" for name, value in character.skills.items())

    def on_mount(self) -> None:
        first = "#dice" if self.default_target is not None or self.table else "#skill"
        self.set_focus(self.query_one(first, Input))
        self.update_preview()  # a value given at opening (O4's confirming TA) has odds

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "who" and isinstance(event.value, str):
            self.character = event.value
            self.query_one("#field-skill", Field).set_hint(self._skills_hint())
            self.query_one("#field-dice", DiceField).set_owner(
                event.value, self.state.table_rolls(event.value))
            scope = self.query_one("#scope", Select)
            value = scope.value
            scope.set_options(self._scope_options())
            scope.value = value
            self.update_preview()
        elif event.select.id == "scope":
            self.update_preview()

    def action_roll(self) -> None:
        dice = self.roll()
        self.query_one("#dice", Input).value = f"{dice.ds} {dice.a} {dice.b}"

    def on_input_changed(self, event: Input.Changed) -> None:
        self.update_preview()

    def update_preview(self) -> None:
        """The chances before the dice, then the numbers as the engine will log them,
        once the fields make a TA (T2, issue 37)."""
        preview = self.query_one("#ta-preview", Static)
        odds = self.query_one(OddsLine)
        try:
            fields = self.fields()
        except FormError:
            odds.show_words(None)
            preview.update("")
            return
        # No dice yet: only what the chances read, unvalidated (build validates).
        chances = ask.ta_odds_of(self.state, FreeTA.model_construct(**fields))
        odds.show_words(None if chances is None else chances.words())
        try:
            command = self.build(roll_if_empty=False)
        except (FormError, SombraError):
            preview.update("")
            return
        ta = ask.ta_preview(self.state, command)  # H10: with the grades the log will keep
        if ta.result is None:  # no value to roll under yet
            preview.update("")
            return
        text = ta_text(ta.result, theme_palette(self.app))
        if ta.gd.grades:
            text.append("\n" + _("GD: {breakdown}").format(breakdown=ta.gd.describe()))
        preview.update(text)

    def fields(self) -> dict[str, Any]:
        """Every field of the FreeTA but its dice, each checked (FormError names it)."""
        who = self.query_one("#who", Select).value
        if not isinstance(who, str):
            raise FormError("who", _("Choose the character who rolls."))
        target_text = self.value("target").strip()
        target = (parse_int(target_text, "target", _("Target value"),
                            *ask.bounds(FreeTA, "target"))
                  if target_text else None)
        gd = parse_int(self.value("gd"), "gd", _("GD"), *ask.bounds(FreeTA, "gd"), default=0)
        modifier = parse_int(self.value("modifier"), "modifier", _("Modifier"),
                             *ask.bounds(FreeTA, "modifier"), default=0)
        skill = self.value("skill").strip()
        label = self.value("label").strip()
        if len(skill) > (longest := ask.max_length(FreeTA, "skill")):
            raise FormError("skill", _("What is rolled must be at most {count} characters."
                                       ).format(count=longest))
        if len(label) > (longest := ask.max_length(FreeTA, "label")):
            raise FormError("label", _("The reason must be at most {count} characters."
                                       ).format(count=longest))
        return {"character": who, "skill": skill, "target": target, "gd": gd,
                "modifier": modifier, "label": label,
                "scope": SCOPES[str(self.query_one("#scope", Select).value)]}

    def build(self, *, roll_if_empty: bool = True) -> FreeTA:
        fields = self.fields()
        text = self.value("dice").strip()
        if not text and not roll_if_empty:
            raise FormError("dice", _("no dice yet"))
        dice = read_dice(text, "dice", self.roll, table=self.state.table_rolls(
            fields["character"]), roll_key=self.key_in_force("dialog.roll"))
        return FreeTA(**fields, dice=dice)

    def refused(self, command: FreeTA) -> None:
        # Keep rolled dice visible: the DJ fixes the target and confirms the same roll.
        self.query_one("#dice", Input).value = (
            f"{command.dice.ds} {command.dice.a} {command.dice.b}")
