"""TA entry: roll or type three dice (dS first), with the numbers shown live (T2, T6)."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Select, Static

from sombra_tui import keys
from sombra_tui.engine import (
    CombatState,
    Dice,
    Resolve,
    SombraError,
    Step,
    ask,
    format_gd,
    parse_dice,
)
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.fields import (
    DiceField,
    Field,
    FormSelect,
    TextInput,
    refill_inputs,
)
from sombra_tui.screens.dialogs.odds_line import OddsLine
from sombra_tui.screens.dialogs.parsing import FormError, parse_int, read_dice
from sombra_tui.screens.dialogs.shelf import ShelfDialog
from sombra_tui.widgets.formatting import ta_text
from sombra_tui.widgets.theme import theme_palette

ROLL, DJ_SUCCESS, DJ_FAILURE = "roll", "success", "failure"


class TADialog(ShelfDialog[Resolve]):
    """A step's TA. Its shape is the side that rolls: the table's dice come first."""

    BINDINGS = keys.bindings(keys.Scope.ROLL)

    def __init__(self, *, table: bool) -> None:
        super().__init__()
        #: The table rolls this character's dice: the dice field comes first and Enter
        #: with it empty asks for them (the tracker's side: Enter rolls).
        self.table = table

    @classmethod
    def for_use(cls, state: CombatState, step: Step,
                check: Callable[[Resolve], SombraError | None],
                roll: Callable[[], Dice]) -> TADialog:
        dialog = cls(table=state.table_rolls(step.character))
        dialog.fill(state, step, check, roll)
        return dialog

    def fill(self, state: CombatState, step: Step,
             check: Callable[[Resolve], SombraError | None], roll: Callable[[], Dice]
             ) -> bool:
        """This step's TA; False if the other side rolls it (another shape)."""
        if state.table_rolls(step.character) != self.table:
            return False
        self.state = state
        self.step = step
        self.action = state.step_action(step)
        self.check = check
        self.roll = roll
        # The TA as Resolve would make it with nothing typed yet: the step's GD and the
        # wound and condition grades it carries, named (H10/C1), and its target (T2).
        preview = ask.ta_preview(state, Resolve(character=step.character))
        self.gd = preview.gd
        self.default_target = preview.target
        self.shown_if_mounted()
        return True

    def show(self) -> None:
        self.query_one("#dialog-title", Static).update(self._title())
        target = "" if self.default_target is None else str(self.default_target)
        refill_inputs(self, {"target": target, "extra": "0", "modifier": "0", "dice": ""})
        self.query_one("#field-dice", DiceField).set_owner(self.step.character, self.table)
        self.query_one("#gd-breakdown", Static).update(self.gd_hint())
        self.query_one("#outcome", Select).value = ROLL
        self.update_preview()
        first = "#target" if self.default_target is None and not self.table else "#dice"
        self.set_focus(self.query_one(first, Input))

    def _title(self) -> str:
        action = self.action
        skill = f" ({action.skill})" if action.skill else ""
        return _("TA: {character} — {description}{skill}").format(
            character=self.step.character, description=action.description, skill=skill)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("", id="dialog-title")
            if self.table:
                yield from self._dice_row()
            with Horizontal(classes="row"):
                yield Field(_("Target value"), TextInput(id="target", type="integer"),
                            field_id="target")
                yield Field(_("Extra GD"), TextInput("0", id="extra", type="integer"),
                            field_id="extra")
                yield Field(_("Modifier"), TextInput("0", id="modifier", type="integer"),
                            field_id="modifier")
            # The GD breakdown on a line of its own, wrapped: a field's label line has
            # no room for the wounds' and conditions' grades (80x24).
            yield Static("", id="gd-breakdown", classes="note")
            yield OddsLine()  # before the dice, with every grade (issue 37)
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
        parts = [_("action GD {gd}").format(gd=format_gd(self.gd.base)),
                 *(g.describe() for g in self.gd.grades)]
        return ", ".join(parts)

    def _dice_row(self) -> ComposeResult:
        with Horizontal(classes="row"):
            yield DiceField("dice", who=self.step.character if self.used else "",
                            table=self.table, hint=self.keyed(_("{key} rolls"), "dialog.roll"))
            yield Field(_("Outcome"), FormSelect(
                [(_("From the dice"), ROLL), (_("DJ: success, no roll"), DJ_SUCCESS),
                 (_("DJ: failure, no roll"), DJ_FAILURE)],
                value=ROLL, allow_blank=False, id="outcome"), field_id="outcome")

    def action_roll(self) -> None:
        dice = self.roll()
        self.query_one("#dice", Input).value = f"{dice.ds} {dice.a} {dice.b}"

    def on_input_changed(self, event: Input.Changed) -> None:
        self.update_preview()

    def update_preview(self) -> None:
        if not self.used:  # prepared, not yet given its use
            return
        preview = self.query_one("#ta-preview", Static)
        odds = self.query_one(OddsLine)
        try:
            target, extra, modifier = self.numbers()
        except FormError:
            preview.update("")
            odds.show_words(None)
            return
        command = Resolve(character=self.step.character, target=target, extra_gd=extra,
                          modifier=modifier)
        chances = ask.ta_odds_of(self.state, command)
        odds.show_words(None if chances is None else chances.words())
        try:
            dice = parse_dice(self.value("dice"))
        except SombraError:
            preview.update("")
            return
        result = ask.ta_preview(self.state, command.model_copy(update={"dice": dice})).result
        preview.update("" if result is None else ta_text(result, theme_palette(self.app)))

    def numbers(self, *, need_target: bool = True) -> tuple[int | None, int, int]:
        """Target, extra GD and modifier; the target may be left empty when the DJ
        decides the outcome (D12: nothing is rolled under it)."""
        text = self.value("target")
        target = (parse_int(text, "target", _("Target value"), *ask.bounds(Resolve, "target"))
                  if need_target or text.strip() else None)
        extra = parse_int(self.value("extra"), "extra", _("Extra GD"),
                          *ask.bounds(Resolve, "extra_gd"), default=0)
        modifier = parse_int(self.value("modifier"), "modifier", _("Modifier"),
                             *ask.bounds(Resolve, "modifier"), default=0)
        return target, extra, modifier

    def build(self) -> Resolve:
        outcome = self.query_one("#outcome", Select).value
        if self.table and outcome == ROLL:  # the table's dice first: ask for them
            read_dice(self.value("dice"), "dice", self.roll, table=True,
                      roll_key=self.key_in_force("dialog.roll"))
        target, extra, modifier = self.numbers(need_target=outcome == ROLL)
        dice: Dice | None = None
        accept: bool | None = None
        if outcome == ROLL:
            dice = read_dice(self.value("dice"), "dice", self.roll, table=self.table,
                             roll_key=self.key_in_force("dialog.roll"))
        else:
            accept = outcome == DJ_SUCCESS
        return Resolve(character=self.step.character, dice=dice, target=target,
                       extra_gd=extra, modifier=modifier, accept=accept)
