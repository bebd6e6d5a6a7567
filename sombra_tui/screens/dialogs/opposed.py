"""Opposed actions: every participant's TA (O2, O3, E4) and then the result (T5, O4)."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Select, Static

from sombra_tui.engine.commands import OpposedRoll, ResolveOpposed
from sombra_tui.engine.dice import Dice, DiceRoller, parse_dice
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import EventKind, LogEvent
from sombra_tui.engine.model import MAX_GD, MAX_STAT, OppositionMode, Role
from sombra_tui.engine.state import CombatState, Step
from sombra_tui.screens.dialogs.base import (
    Dialog,
    Field,
    FormError,
    FormSelect,
    TextInput,
    parse_int,
)
from sombra_tui.widgets.formatting import Palette, event_text


def _slug(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name.encode("ascii", "replace")
                   .decode())


class OpposedDialog(Dialog[ResolveOpposed]):
    def __init__(self, state: CombatState, step: Step,
                 check: Callable[[ResolveOpposed], str | None],
                 roller: Callable[[], DiceRoller]) -> None:
        super().__init__()
        self.state = state
        self.step = step
        self.action = state.step_action(step)
        assert self.action.opposition is not None
        self.opposition = self.action.opposition
        self.check = check
        self.roller = roller
        self.participants = [step.character, *self.opposition.against]
        self.slugs = {name: f"p{i}_{_slug(name)}" for i, name in enumerate(self.participants)}

    def _defaults(self, name: str) -> tuple[str, str]:
        """Target and GD the engine will use when left empty (the participant's action)."""
        if name == self.step.character:
            target = self.action.target
            return ("" if target is None else str(target)), str(self.action.gd)
        return "", ""

    def compose(self) -> ComposeResult:
        opposition = self.opposition
        kind = ("Direct opposition (O2): the best result wins (T5)"
                if opposition.mode is OppositionMode.DIRECT else
                "Conditioned opposition (O3): the conditioning TA first; the conditioned one "
                "gets +GD if it succeeded, -GD if it failed")
        with Vertical(id="dialog"):
            yield Static(f"Opposed: {self.step.character} — {self.action.description}",
                         id="dialog-title")
            yield Static(kind, classes="note")
            with VerticalScroll():
                for name in self.participants:
                    slug = self.slugs[name]
                    target, gd = self._defaults(name)
                    role = ""
                    if opposition.mode is OppositionMode.CONDITIONED:
                        mine = opposition.role if name == self.step.character else (
                            Role.CONDITIONED if opposition.role is Role.CONDITIONING
                            else Role.CONDITIONING)
                        role = f" ({mine.value})"
                    yield Static(f"{name}{role}", classes="note")
                    with Horizontal(classes="row"):
                        yield Field("Dice (dS first)", TextInput(id=f"{slug}-dice",
                                    placeholder="empty: roll"), field_id=f"{slug}-dice")
                        yield Field("Target", TextInput(target, id=f"{slug}-target", type="integer",
                                    placeholder="from their action"),
                                    field_id=f"{slug}-target")
                        yield Field("GD", TextInput(gd, id=f"{slug}-gd", type="integer",
                                    placeholder="from their action"), field_id=f"{slug}-gd")
                with Horizontal(classes="row"):
                    if opposition.mode is OppositionMode.CONDITIONED:
                        yield Field("Condition size (O3)", TextInput("1", id="size",
                                    type="integer"), field_id="size", hint="GD")
                    yield Field("Tie winner (T5, only for a tie)", FormSelect(
                        [(name, name) for name in self.participants], id="tie",
                        prompt="no tie"), field_id="tie")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button("Resolve (enter)", id="resolve", variant="primary")
                yield Button("Cancel (esc)", id="cancel")

    def on_mount(self) -> None:
        self.query_one(f"#{self.slugs[self.participants[0]]}-dice", Input).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "resolve":
            self.submit()
        else:
            self.dismiss(None)

    def build(self) -> ResolveOpposed:
        roller = self.roller()
        rolls: list[OpposedRoll] = []
        for name in self.participants:
            slug = self.slugs[name]
            text = self.value(f"{slug}-dice").strip()
            try:
                dice: Dice = parse_dice(text) if text else roller.roll()
            except SombraError as error:
                raise FormError(f"{slug}-dice", f"{name}: {error}") from error
            target_text = self.value(f"{slug}-target").strip()
            gd_text = self.value(f"{slug}-gd").strip()
            rolls.append(OpposedRoll(
                character=name, dice=dice,
                target=parse_int(target_text, f"{slug}-target", "Target", 0, MAX_STAT)
                if target_text else None,
                gd=parse_int(gd_text, f"{slug}-gd", "GD", -MAX_GD, MAX_GD)
                if gd_text else None))
        size = 1
        if self.opposition.mode is OppositionMode.CONDITIONED:
            size = parse_int(self.value("size"), "size", "Condition size", 0, MAX_GD, default=1)
        tie = self.query_one("#tie", Select).value
        return ResolveOpposed(character=self.step.character, rolls=rolls,
                              condition_size=size,
                              tie_winner=tie if isinstance(tie, str) else None)

    def submit(self) -> None:
        self.clear_errors()
        try:
            command = self.build()
        except FormError as error:
            self.show_error(error.field, error.message)
            return
        problem = self.check(command)
        if problem:
            # Keep the rolled dice visible so a tie can be broken with the same dice.
            for roll in command.rolls:
                field = self.query_one(f"#{self.slugs[roll.character]}-dice", Input)
                field.value = f"{roll.dice.ds} {roll.dice.a} {roll.dice.b}"
            self.show_error("tie" if "Tie" in problem else None, problem)
            return
        self.dismiss(command)


class OpposedResultDialog(Dialog[None]):
    """Both TAs, the winner by T5 and the O4 reading, before the DJ moves on."""

    def __init__(self, events: list[LogEvent]) -> None:
        super().__init__()
        self.events = [e for e in events if e.kind in (EventKind.TA, EventKind.OPPOSED,
                                                        EventKind.EXTENDED)]

    def compose(self) -> ComposeResult:
        variables = self.app.get_css_variables()
        palette = Palette(success=variables.get("success", "green"),
                          error=variables.get("error", "red"),
                          warning=variables.get("warning", "yellow"))
        with Vertical(id="dialog"):
            yield Static("Opposed result", id="dialog-title")
            for event in self.events:
                yield Static(event_text(event, palette), classes="result-line")
            with Horizontal(classes="buttons"):
                yield Button("OK (enter)", id="ok", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#ok", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)
