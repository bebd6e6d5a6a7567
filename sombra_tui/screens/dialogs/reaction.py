"""Reaction prompt: combine or substitute, the new action, the Alerta TA (D5-D9, D12)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Input, Select, SelectionList, Static

from sombra_tui import keys
from sombra_tui.engine import (
    Character,
    CombatState,
    Decline,
    Dice,
    Prompt,
    PromptKind,
    React,
    ReactionMode,
    SombraError,
    ask,
    parse_dice,
)
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.action_form import ActionForm, WeaponFor
from sombra_tui.screens.dialogs.declaration import AffectedMixin, other_names
from sombra_tui.screens.dialogs.fields import (
    DiceField,
    Field,
    FormCheckbox,
    FormSelect,
    PickList,
    TextInput,
    refill_inputs,
    refill_picks,
)
from sombra_tui.screens.dialogs.odds_line import OddsLine, ReactionGradesTyped
from sombra_tui.screens.dialogs.parsing import FormError, parse_int, read_dice
from sombra_tui.screens.dialogs.shelf import ShelfDialog
from sombra_tui.widgets.formatting import ta_text
from sombra_tui.widgets.theme import theme_palette


class ReactionDialog(AffectedMixin, ShelfDialog[React | Decline]):
    """A reacción prompt's answer. Its shape is the side that rolls the Alerta dice:
    the table's come first."""

    BINDINGS = keys.bindings(keys.Scope.ROLL, keys.Scope.REACTION)

    def __init__(self, *, table: bool) -> None:
        super().__init__()
        #: The table rolls the reactor's dice: the Alerta dice come first, and Enter
        #: with them empty asks for them (the tracker's side: Enter rolls).
        self.table = table

    @classmethod
    def for_use(cls, state: CombatState, prompt: Prompt,
                check: Callable[[React | Decline], SombraError | None],
                roll: Callable[[], Dice]) -> ReactionDialog:
        dialog = cls(table=state.table_rolls(prompt.reactor))
        dialog.fill(state, prompt, check, roll)
        return dialog

    def fill(self, state: CombatState, prompt: Prompt,
             check: Callable[[React | Decline], SombraError | None],
             roll: Callable[[], Dice]) -> bool:
        """This prompt's answer; False if the other side rolls (another shape) or the
        DJ opened the form's extra fields (it cannot be made as new again)."""
        if state.table_rolls(prompt.reactor) != self.table or (
                self.is_mounted and not self.query_one(ActionForm).can_refill()):
            return False
        self.state = state
        self.prompt = prompt
        self.check = check
        self.roll = roll
        self._affected_touched = False
        self._prefilled = frozenset()
        character = state.character(prompt.reactor)
        assert character is not None
        self.character: Character = character
        self.answered = state.declarations[prompt.declaration_id]
        self.others = other_names(state, prompt.reactor)
        #: H1: the weapon of the skill, else the last one used, else the default (as a
        #: declaration starts with).
        self.weapon_for: WeaponFor = functools.partial(ask.weapon_for, state, prompt.reactor)
        self.shown_if_mounted()
        return True

    def show(self) -> None:
        self.query_one("#dialog-title", Static).update(self._title())
        self.query_one("#declared", Static).update(self._declared())
        refill_inputs(self, {"dice": "", "base": "0", "extra": "0"})
        self.query_one("#field-dice", DiceField).set_owner(self.character.name, self.table)
        self.query_one("#accept", Checkbox).value = False
        self.query_one("#mode", Select).value = ReactionMode.SUBSTITUTE
        self.query_one(ActionForm).fill(self.character, self.others, self.weapon_for)
        refill_picks(self.query_one("#affected", SelectionList), self.others)
        if self.table:
            self.set_focus(self.query_one("#dice", Input), scroll_visible=False)
        else:
            self.query_one(ActionForm).focus_first(scroll_visible=False)
        self.update_preview()

    def _title(self) -> str:
        # A contrarreacción is a new question: whose, and to which reacción (D9).
        title = (_("{character}'s contrarreacción to {author}'s reacción “{reaction}”")
                 if self.prompt.kind is PromptKind.COUNTER
                 else _("{character} may react to {author}"))
        return title.format(character=self.character.name, author=self.answered.author,
                            reaction="; ".join(a.description for a in self.answered.actions))

    def _declared(self) -> Text:
        current = self.state.declaration_of(self.character.name)
        return Text.assemble(
            (_("{name} declared: ").format(name=self.answered.author), "bold"),
            self.answered.summary(),
            "\n", (_("{name} had declared: ").format(name=self.character.name), "bold"),
            current.summary() if current else "—")

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("", id="dialog-title")
            yield Static("", classes="note", id="declared")
            # Outside the scrolling form, so the DJ always sees why the GD is what it is.
            yield Static("", id="gd-breakdown")
            yield OddsLine()  # combining and substituting, before the answer (D6, D9)
            with VerticalScroll():
                with Horizontal(classes="row"):
                    yield Field(_("Reacción"), FormSelect(
                        [(_("Substitute"), ReactionMode.SUBSTITUTE),
                         (_("Combine"), ReactionMode.COMBINE)],
                        value=ReactionMode.SUBSTITUTE, allow_blank=False, id="mode"),
                        field_id="mode", hint=self.key_in_force("reaction.mode"))
                    yield Field(_("Base GD"), TextInput("0", id="base", type="integer"),
                                field_id="base")
                    yield Field(_("DJ grades"), TextInput("0", id="extra", type="integer"),
                                field_id="extra")
                # The table's dice, then at once the reacción's own text (issue 22).
                if self.table:
                    with Horizontal(classes="row"):
                        yield self._dice_field()
                yield ActionForm(prefix="a0",
                                 title=_("The reacción (it opposes the declared action)"),
                                 description_first=True)
                yield Field(_("Directly affected by the reacción"),
                            PickList(id="affected"),
                            field_id="affected", hint=_("space toggles"))
                with Horizontal(classes="row"):
                    if not self.table:
                        yield self._dice_field()
                    yield FormCheckbox(_("Accept without a roll"), id="accept")
            yield Static("", id="ta-preview")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("React ({key})"), "dialog.confirm"),
                             id="react", variant="primary")
                yield Button(self.keyed(_("Decline ({key})"), "reaction.decline"), id="decline")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    def _dice_field(self) -> Field:
        return DiceField("dice", who=self.character.name if self.used else "", alerta=True,
                         table=self.table, hint=self.keyed(_("{key} rolls"), "dialog.roll"))

    CENTRE_FOCUSED = True  # the reacción's description may be below the fold

    # ---- live GD breakdown and TA preview (D6/D9) ------------------------------------

    def mode(self) -> ReactionMode:
        value = self.query_one("#mode", Select).value
        return value if isinstance(value, ReactionMode) else ReactionMode.SUBSTITUTE

    def grades(self) -> tuple[int, int]:
        base = parse_int(self.value("base"), "base", _("Base GD"),
                         *ask.bounds(React, "base_gd"), default=0)
        extra = parse_int(self.value("extra"), "extra", _("DJ grades"),
                          *ask.bounds(React, "extra_gd"), default=0)
        return base, extra

    def update_preview(self) -> None:
        if not self.used:  # prepared, not yet given its use
            return
        odds = self.query_one(OddsLine)
        try:
            base, extra = self.grades()
        except FormError:
            odds.show_words(None)
            return
        odds.show_words(ask.reaction_odds(self.state, self.prompt, base=base,
                                          extra=extra).words())
        text = self.value("dice").strip()
        try:
            dice = parse_dice(text) if text else None
        except SombraError:
            dice = None
        # The Alerta TA does not read the reacción's actions (D6/D9), which may still be
        # half typed: the command is built unvalidated, for the preview only.
        command = React.model_construct(character=self.character.name, mode=self.mode(),
                                        actions=[], dice=dice, base_gd=base, extra_gd=extra)
        preview = ask.ta_preview(self.state, command)
        self.query_one("#gd-breakdown", Static).update(
            _("{character} - Alerta {alerta} - {describe}").format(
                character=self.character.name, alerta=preview.target,
                describe=preview.gd.describe()))
        self.query_one("#ta-preview", Static).update(
            "" if preview.result is None else ta_text(preview.result, theme_palette(self.app)))

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id in ("base", "extra", "dice"):
            self.update_preview()
        if event.input.id in ("base", "extra"):  # the DJ's typing, or a draft brought back
            self.tell_players()

    def tell_players(self) -> None:
        """The grades typed, for the players' odds of this prompt (issue 37 item 3);
        nothing from a dialog not on the screen (built or filled unshown)."""
        if not (self.used and self.is_active):
            return
        try:
            grades: tuple[int, int] | None = self.grades()
        except FormError:
            grades = None
        self.app.post_message(ReactionGradesTyped(self.prompt, grades))

    def dismiss(self, result: React | Decline | None = None) -> AwaitComplete:
        if self.is_active:  # closed: the players' odds read the state's grades again
            self.app.post_message(ReactionGradesTyped(None))
        return super().dismiss(result)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "mode":
            self.update_preview()

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[str]
                                           ) -> None:
        affected = self.query_one("#affected", SelectionList)
        if event.selection_list is affected:
            self.affected_changed_by_hand()
        else:
            self.sync_affected([self.query_one(ActionForm)], affected)

    # ---- actions ------------------------------------------------------------------

    def action_toggle_mode(self) -> None:
        select = self.query_one("#mode", Select)
        select.value = (ReactionMode.COMBINE if self.mode() is ReactionMode.SUBSTITUTE
                        else ReactionMode.SUBSTITUTE)

    def action_roll(self) -> None:
        dice = self.roll()
        self.query_one("#dice", Input).value = f"{dice.ds} {dice.a} {dice.b}"

    def action_decline(self) -> None:
        self.dismiss(Decline(character=self.character.name))

    OWN_BUTTONS = True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        handlers = {"react": self.submit, "decline": self.action_decline,
                    "cancel": self.action_cancel}
        handlers[event.button.id or "cancel"]()

    def build(self) -> React:
        accept = self.query_one("#accept", Checkbox).value
        if self.table and not accept:  # the table's dice first: ask for them
            read_dice(self.value("dice"), "dice", self.roll, table=True,
                      roll_key=self.key_in_force("dialog.roll"))
        base, extra = self.grades()
        action = self.query_one(ActionForm).build()
        dice: Dice | None = None
        if not accept:
            dice = read_dice(self.value("dice"), "dice", self.roll, table=self.table,
                             roll_key=self.key_in_force("dialog.roll"))
        return React(character=self.character.name, mode=self.mode(), actions=[action],
                        affected=self.affected_at_submit(
                            [self.query_one(ActionForm)],
                            self.query_one("#affected", SelectionList)),
                        dice=dice, base_gd=base, extra_gd=extra,
                        accept_without_roll=accept)
