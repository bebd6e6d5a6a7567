"""Opposed actions: every participant's TA (O2, O3, E4) and then the result (T5, O4)."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Select, Static

from sombra_tui import keys
from sombra_tui.engine import (
    MAX_GD,
    MAX_STAT,
    CombatState,
    Dice,
    DiceRoller,
    EventKind,
    LogEvent,
    OpposedRoll,
    ResolveOpposed,
    SombraError,
    Step,
    ask,
)
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.fields import DiceField, Field, FormSelect, TextInput
from sombra_tui.screens.dialogs.odds_line import OddsLine
from sombra_tui.screens.dialogs.parsing import FormError, parse_int, read_dice
from sombra_tui.widgets.formatting import event_text
from sombra_tui.widgets.theme import theme_palette


def _slug(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name.encode("ascii", "replace")
                   .decode())


class OpposedDialog(Dialog[ResolveOpposed]):
    """One TA per participant able to act (the engine's plan: O2, O3, E4, P4)."""

    SUMMARY = True  # the form says what Enter sends (issue 35, D2)

    BINDINGS = keys.bindings(keys.Scope.ROLL)

    #: T5: an undecided tie is shown at the tie-winner field.
    ERROR_FIELDS = {"tie_winner": "tie"}

    def show_problem(self, error: SombraError) -> None:
        """O3: an opponent's missing value is shown at that opponent's value field (the
        cursor goes there), by the error's code; the rest as every dialog does."""
        name = error.params.get("name")
        if error.code == "opposed.no_target" and isinstance(name, str) and name in self.slugs:
            self.show_error(f"{self.slugs[name]}-target", str(error))
            return
        super().show_problem(error)

    def __init__(self, state: CombatState, step: Step,
                 check: Callable[[ResolveOpposed], SombraError | None],
                 roller: Callable[[], DiceRoller]) -> None:
        super().__init__()
        self.state = state
        self.step = step
        self.action = state.step_action(step)
        # O2/O3: its own opposition, or the one declared against it (ask.opposition_of).
        opposition = ask.opposition_of(state, step)
        assert opposition is not None
        self.opposition = opposition
        self.check = check
        self.roller = roller
        self.plan = ask.opposition_plan(state, step)
        self.participants = list(self.plan.rolling)
        self.slugs = {name: f"p{i}_{_slug(name)}" for i, name in enumerate(self.participants)}

    def _defaults(self, name: str) -> tuple[str, str]:
        """Target and GD the engine will use when left empty (the participant's action)."""
        if name == self.step.character:
            target = self.action.target
            return ("" if target is None else str(target)), str(self.state.step_gd(self.step))
        return "", ""

    def _role(self, name: str) -> str:
        if self.plan.direct:
            return ""
        if name in self.plan.conditioning:
            against = [d for c, d in self.plan.pairs if c == name]
            return " " + _("(conditioning {names})").format(names=", ".join(against))
        against = [c for c, d in self.plan.pairs if d == name]
        return " " + _("(conditioned by {names})").format(names=", ".join(against))

    def compose(self) -> ComposeResult:
        kind = (_("Direct opposition: the best result wins")
                if self.plan.direct else
                _("Conditioned opposition: the conditioning TA first; the conditioned one "
                  "gets +GD if it succeeded, -GD if it failed; each pair compared"))
        with Vertical(id="dialog"):
            yield Static(_("Opposed: {character} — {description}").format(
                             character=self.step.character, description=self.action.description),
                         id="dialog-title")
            yield Static(kind, classes="note")
            for name, reason in self.plan.excluded.items():
                yield Static(_("{name} does not take part: {reason}.").format(
                                 name=name, reason=reason), classes="note")
            with VerticalScroll():
                for name in self.participants:
                    slug = self.slugs[name]
                    target, gd = self._defaults(name)
                    yield Static(f"{name}{self._role(name)}", classes="note")
                    with Horizontal(classes="row"):
                        yield DiceField(f"{slug}-dice", who=name,
                                        table=self.state.table_rolls(name))
                        own = ask.opponent_acts(self.state, name, self.plan)
                        yield Field(_("Target"), TextInput(
                            target, id=f"{slug}-target", type="integer",
                            # O3: no action of theirs opposes this: the DJ gives the value.
                            placeholder=_("from their action") if own else _("needed")),
                                    field_id=f"{slug}-target")
                        yield Field(_("GD"), TextInput(gd, id=f"{slug}-gd", type="integer",
                                    placeholder=_("from their action") if own else "0"),
                                    field_id=f"{slug}-gd")
                with Horizontal(classes="row"):
                    if not self.plan.direct:
                        yield Field(_("Condition size"), TextInput("1", id="size",
                                    type="integer"), field_id="size", hint=_("GD"))
                    yield Field(_("Winner (DJ decides; a tie needs one)"), FormSelect(
                        [(name, name) for name in self.participants], id="tie",
                        prompt=_("by the dice")), field_id="tie")
            yield OddsLine()  # each side's chance before the dice (issue 37)
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("Resolve ({key})"), "dialog.confirm"),
                             id="resolve", variant="primary")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    def on_mount(self) -> None:
        self.set_focus(self.query_one(f"#{self.first_field()}", Input))
        self.update_odds()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id and not event.input.id.endswith("-dice"):
            self.update_odds()

    def update_odds(self) -> None:
        """O2/O3, T5: each side's chance to win and a tie's, with the values, GDs and
        size as typed (empty: from their action), by the engine; none while a number
        is wrong or a value to roll under is missing."""
        given: dict[str, tuple[int | None, int | None]] = {}
        try:
            for name in self.participants:
                target, gd = (self.value(f"{self.slugs[name]}-{field}").strip()
                              for field in ("target", "gd"))
                given[name] = (parse_int(target, "target", _("Target"), 0, MAX_STAT)
                               if target else None,
                               parse_int(gd, "gd", _("GD"), -MAX_GD, MAX_GD) if gd else None)
            size = 1 if self.plan.direct else parse_int(
                self.value("size"), "size", _("Condition size"), 0, MAX_GD, default=1)
        except FormError:
            self.query_one(OddsLine).show_words(None)
            return
        comparisons = ask.opposed_odds(self.state, self.step, given, size)
        self.query_one(OddsLine).show_words(
            "; ".join(comparison.words() for comparison in comparisons) or None)

    def first_field(self) -> str:
        """T6: the first value the table must type: the dice of the first participant
        the table rolls for, else the first value the DJ must give (an opponent with no
        action of its own), else the first dice field (empty: the tracker rolls)."""
        for name in self.participants:
            if self.state.table_rolls(name):
                return f"{self.slugs[name]}-dice"
        for name in self.participants:
            if not ask.opponent_acts(self.state, name, self.plan) and \
                    not self._defaults(name)[0]:
                return f"{self.slugs[name]}-target"
        return f"{self.slugs[self.participants[0]]}-dice"

    def action_roll(self) -> None:
        """ctrl+r, as in every dialog: the tracker rolls each dice field still empty."""
        roller = self.roller()
        for name in self.participants:
            field = self.query_one(f"#{self.slugs[name]}-dice", Input)
            if not field.value.strip():
                dice = roller.roll()
                field.value = f"{dice.ds} {dice.a} {dice.b}"

    def build(self) -> ResolveOpposed:
        rollers: list[DiceRoller] = []  # drawn at the first roll (none for the summary)

        def roll() -> Dice:
            rollers[:] = rollers or [self.roller()]
            return rollers[0].roll()
        rolls: list[OpposedRoll] = []
        for name in self.participants:
            slug = self.slugs[name]
            # Each participant's side says who rolls: an empty field of the table's asks
            # for the dice, one of the tracker's rolls.
            dice: Dice = read_dice(self.value(f"{slug}-dice"), f"{slug}-dice", roll,
                                   table=self.state.table_rolls(name), who=name,
                                   roll_key=self.key_in_force("dialog.roll"))
            target_text = self.value(f"{slug}-target").strip()
            gd_text = self.value(f"{slug}-gd").strip()
            rolls.append(OpposedRoll(
                character=name, dice=dice,
                target=parse_int(target_text, f"{slug}-target", _("Target"), 0, MAX_STAT)
                if target_text else None,
                gd=parse_int(gd_text, f"{slug}-gd", _("GD"), -MAX_GD, MAX_GD)
                if gd_text else None))
        size = 1
        if not self.plan.direct:
            size = parse_int(self.value("size"), "size", _("Condition size"), 0, MAX_GD, default=1)
        chosen = self.query_one("#tie", Select).value
        # The DJ's choice decides the outcome, tie or not (logged as a DJ decision).
        return ResolveOpposed(character=self.step.character, rolls=rolls,
                              condition_size=size,
                              winners=[chosen] if isinstance(chosen, str) else [])

    def refused(self, command: ResolveOpposed) -> None:
        # Keep the rolled dice visible so a tie can be broken with the same dice.
        for roll in command.rolls:
            field = self.query_one(f"#{self.slugs[roll.character]}-dice", Input)
            field.value = f"{roll.dice.ds} {roll.dice.a} {roll.dice.b}"


#: What the DJ chose in the result dialog: ("ok", ""), ("confirm", who) for O4's
#: confirming TA, or ("winner", who) to give the outcome to someone else.
ResultChoice = tuple[str, str]


class OpposedResultDialog(Dialog[ResultChoice]):
    """The TAs, the winner by T5 and the O4 reading, before the DJ moves on; from here
    the DJ can give a sentinel its confirming TA (O4) or decide another winner."""

    def __init__(self, events: list[LogEvent]) -> None:
        super().__init__()
        self.events = [e for e in events if e.kind in (EventKind.TA, EventKind.OPPOSED,
                                                        EventKind.EXTENDED,
                                                        EventKind.SKIPPED)]
        outcome = ask.opposed_outcome(events)
        self.confirm = list(outcome.confirm)
        #: Whoever lost a comparison: the DJ may give it to them instead (O2, O3).
        self.others = list(outcome.losers)

    def compose(self) -> ComposeResult:
        palette = theme_palette(self.app)
        with Vertical(id="dialog"):
            yield Static(_("Opposed result"), id="dialog-title")
            for event in self.events:
                yield Static(event_text(event, palette), classes="result-line")
            with Horizontal(classes="buttons"):
                for index, name in enumerate(self.confirm):
                    yield Button(_("Confirming TA: {name} ({key})").format(
                                     name=name, key=self.key_in_force("opposed.confirm_ta")),
                                 id=f"confirm-{index}",
                                 variant="warning")
                for index, name in enumerate(self.others):
                    yield Button(_("DJ: {name} wins").format(
                                     name=name), id=f"winner-{index}")
                yield Button(self.keyed(_("OK ({key})"), "dialog.confirm"),
                             id="ok", variant="primary")

    BINDINGS = keys.bindings(keys.Scope.OPPOSED_RESULT)

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#ok", Button))

    def action_confirm_ta(self) -> None:
        if self.confirm:
            self.dismiss(("confirm", self.confirm[0]))

    def build(self) -> ResultChoice:
        return ("ok", "")

    OWN_BUTTONS = True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button.id or "ok"
        if button.startswith("confirm-"):
            self.dismiss(("confirm", self.confirm[int(button.removeprefix("confirm-"))]))
        elif button.startswith("winner-"):
            self.dismiss(("winner", self.others[int(button.removeprefix("winner-"))]))
        else:
            self.dismiss(("ok", ""))
