"""TA entry: roll or type three dice (dS first), with the numbers shown live (T2, T6)."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Select, Static

from sombra_tui import keys
from sombra_tui.engine.commands import Resolve
from sombra_tui.engine.conditions import total_gd
from sombra_tui.engine.dice import Dice, format_gd, parse_dice, resolve_ta
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.i18n import _
from sombra_tui.engine.machine import action_scope, ta_grade_entries
from sombra_tui.engine.model import MAX_GD, MAX_STAT
from sombra_tui.engine.state import CombatState, Step
from sombra_tui.screens.dialogs.base import (
    Dialog,
    Field,
    FormError,
    FormSelect,
    TextInput,
    dice_placeholder,
    parse_int,
    read_dice,
    refill_inputs,
)
from sombra_tui.widgets.formatting import ta_text
from sombra_tui.widgets.theme import theme_palette

ROLL, DJ_SUCCESS, DJ_FAILURE = "roll", "success", "failure"


class TADialog(Dialog[Resolve]):
    BINDINGS = keys.bindings(keys.Scope.ROLL)

    def __init__(self, state: CombatState, step: Step,
                 check: Callable[[Resolve], SombraError | None], roll: Callable[[], Dice]) -> None:
        super().__init__()
        self._take(state, step, check, roll)

    def _take(self, state: CombatState, step: Step,
              check: Callable[[Resolve], SombraError | None], roll: Callable[[], Dice]) -> None:
        self.state = state
        self.step = step
        self.action = state.step_action(step)
        self.check = check
        self.roll = roll
        character = state.character(step.character)
        #: H10/C1: the wound and condition grades this TA carries, named.
        self.grades = ([] if character is None else
                       ta_grade_entries(state, step.character,
                                        action_scope(character, self.action)))
        self.base_gd = state.step_gd(step) + total_gd(self.grades)
        skill_value = (character.skill_value(self.action.skill)
                       if character is not None and self.action.skill else None)
        self.default_target = self.action.target if self.action.target is not None \
            else skill_value
        #: The table rolls this character's dice: the dice field comes first and Enter
        #: with it empty asks for them (the tracker's side: Enter rolls).
        self.table = state.table_rolls(step.character)

    def refill(self, state: CombatState, step: Step,
               check: Callable[[Resolve], SombraError | None], roll: Callable[[], Dice]
               ) -> bool:
        """Become what `TADialog(state, step, check, roll)` would be (DialogShelf, which
        keeps one per side that rolls: the dice come first or last)."""
        if state.table_rolls(step.character) != self.table:
            return False
        self._take(state, step, check, roll)
        self.query_one("#dialog-title", Static).update(self._title())
        target = "" if self.default_target is None else str(self.default_target)
        refill_inputs(self, {"target": target, "extra": "0", "modifier": "0", "dice": ""})
        self.query_one("#field-extra", Field).set_hint(self.gd_hint())
        self.query_one("#outcome", Select).value = ROLL
        self.query_one("#ta-preview", Static).update("")
        self._focus_first()
        return True

    def _title(self) -> str:
        action = self.action
        skill = f" ({action.skill})" if action.skill else ""
        return _("TA: {character} — {description}{skill}").format(
            character=self.step.character, description=action.description, skill=skill)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self._title(), id="dialog-title")
            if self.table:
                yield from self._dice_row()
            with Horizontal(classes="row"):
                yield Field(_("Target value"), TextInput(
                    "" if self.default_target is None else str(self.default_target),
                    id="target", type="integer"), field_id="target")
                yield Field(_("Extra GD"), TextInput("0", id="extra", type="integer"),
                            field_id="extra", hint=self.gd_hint())
                yield Field(_("Modifier"), TextInput("0", id="modifier", type="integer"),
                            field_id="modifier")
            if not self.table:
                yield from self._dice_row()
            yield Static("", id="ta-preview")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("Resolve ({key})"), "dialog.confirm"),
                             id="resolve", variant="primary")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    def gd_hint(self) -> str:
        """The GD breakdown: the action's, then each wound and condition (H10)."""
        own = self.base_gd - total_gd(self.grades)
        parts = [_("action GD {gd}").format(gd=format_gd(own)),
                 *(g.describe() for g in self.grades)]
        return ", ".join(parts)

    def _dice_row(self) -> ComposeResult:
        with Horizontal(classes="row"):
            yield Field(_("Dice (dS first)"), TextInput(
                id="dice", placeholder=dice_placeholder(self.table)), field_id="dice",
                hint=self.keyed(_("{key} rolls"), "dialog.roll"))
            yield Field(_("Outcome"), FormSelect(
                [(_("From the dice"), ROLL), (_("DJ: success, no roll"), DJ_SUCCESS),
                 (_("DJ: failure, no roll"), DJ_FAILURE)],
                value=ROLL, allow_blank=False, id="outcome"), field_id="outcome")

    def on_mount(self) -> None:
        self._focus_first()

    def _focus_first(self) -> None:
        first = "#target" if self.default_target is None and not self.table else "#dice"
        self.set_focus(self.query_one(first, Input))

    def action_roll(self) -> None:
        dice = self.roll()
        self.query_one("#dice", Input).value = f"{dice.ds} {dice.a} {dice.b}"

    def on_input_changed(self, event: Input.Changed) -> None:
        self.update_preview()

    def update_preview(self) -> None:
        preview = self.query_one("#ta-preview", Static)
        try:
            target, extra, modifier = self.numbers()
            dice = parse_dice(self.value("dice"))
        except (FormError, SombraError):
            preview.update("")
            return
        settings = self.state.settings
        result = resolve_ta(dice, target=target, gd=self.base_gd + extra, modifier=modifier,
                            points_per_gd=settings.points_per_gd,
                            quality_levels=settings.niveles_de_calidad)
        preview.update(ta_text(result, theme_palette(self.app)))

    def numbers(self) -> tuple[int, int, int]:
        target = parse_int(self.value("target"), "target", _("Target value"), 0, MAX_STAT)
        extra = parse_int(self.value("extra"), "extra", _("Extra GD"), -MAX_GD, MAX_GD, default=0)
        modifier = parse_int(self.value("modifier"), "modifier", _("Modifier"), -MAX_STAT,
                             MAX_STAT, default=0)
        return target, extra, modifier

    def submit(self) -> None:
        self.clear_errors()
        outcome = self.query_one("#outcome", Select).value
        try:
            if self.table and outcome == ROLL:  # the table's dice first: ask for them
                read_dice(self.value("dice"), "dice", self.roll, table=True,
                          roll_key=self.key_in_force("dialog.roll"))
            target, extra, modifier = self.numbers()
            dice: Dice | None = None
            accept: bool | None = None
            if outcome == ROLL:
                dice = read_dice(self.value("dice"), "dice", self.roll, table=self.table,
                                 roll_key=self.key_in_force("dialog.roll"))
            else:
                accept = outcome == DJ_SUCCESS
        except FormError as error:
            self.show_error(error.field, error.message)
            return
        command = Resolve(character=self.step.character, dice=dice, target=target,
                          extra_gd=extra, modifier=modifier, accept=accept)
        self.finish(command)
