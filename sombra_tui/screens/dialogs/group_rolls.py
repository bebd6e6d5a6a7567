"""Issue 39 item 3: the TAs of several characters of one side with the same action (the
4 Matones who shot Tomás) in one dialog, one line of dice each. Enter sends each
member's own Resolve, one after another; the hit each one proposes is settled before
the next (H1), as if each TA had been made in its own dialog (P3, T6).

Nothing typed is lost (issue 35): the lines are kept as a draft while the DJ types (a
resume opens the dialog again with them), and the dice typed for members not sent yet
(Escape on a hit between two of them) come back in the next group dialog; while such a
hit is open they are the draft (a resume opens the hit, then their group dialog), and
until they are sent they are kept in their own slot too (the screen's group_dice), so
another form typed meanwhile does not lose them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, Static

from sombra_tui import keys
from sombra_tui.engine import (
    CombatState,
    Dice,
    DiceRoller,
    LogEvent,
    Resolve,
    SombraError,
    Step,
    TAResult,
    ask,
    format_gd,
    parse_dice,
)
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.fields import Field, TextInput, dice_placeholder
from sombra_tui.screens.dialogs.keeping import field_values
from sombra_tui.screens.dialogs.parsing import read_dice
from sombra_tui.widgets.formatting import Palette
from sombra_tui.widgets.theme import theme_palette


class DiceLine(Field):
    """One member's dice on one line: whose, the value rolled under and the GD, then the
    three dice (dS first); its error line under it."""

    DEFAULT_CSS = """
    DiceLine > Horizontal { height: auto; }
    DiceLine .field-label { width: 2fr; color: $text; }
    DiceLine Input { width: 12; }
    DiceLine .dice-reading { width: 2fr; margin-left: 1; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Label(self.label, classes="field-label")
            yield self.widget
            yield Static("", classes="dice-reading")


def reading_of(result: TAResult, palette: Palette) -> Text:
    """T2, T4: a line's TA in short: the total against the value, and the outcome."""
    colour = palette.success if result.success else palette.error
    return Text.assemble(_("{total} vs {target}").format(total=result.total,
                                                         target=result.target) + "  ",
                         (result.label, f"bold {colour}"))


def _slug(index: int) -> str:
    return f"m{index}-dice"


class GroupRollDialog(Dialog[list[Resolve]]):
    """The TAs of `steps` (ask.roll_together), one line of dice each."""

    DEFAULT_CSS = """
    GroupRollDialog #lines { height: auto; max-height: 12; }
    """
    SUMMARY = True  # the form says what Enter sends (issue 35, D2)
    BINDINGS = keys.bindings(keys.Scope.ROLL)

    def __init__(self, state: CombatState, steps: list[Step],
                 check: Callable[[Resolve], SombraError | None],
                 roller: Callable[[], DiceRoller],
                 kept: MutableMapping[str, str] | None = None
                 ) -> None:
        super().__init__()
        #: The dice typed for each member and not sent yet, by name (shared with the
        #: screen: written when the dialog closes, each taken out once sent).
        self.kept: MutableMapping[str, str] = {} if kept is None else kept
        self.state = state
        self.steps = steps
        self.action = state.step_action(steps[0])
        self.names = [step.character for step in steps]
        self.check_one = check
        self.roller = roller
        #: T6: the side rolls (the table types its dice) for every member alike.
        self.table = state.table_rolls(self.names[0])

    def _line_label(self, name: str) -> str:
        """Whose TA, the value rolled under and the whole GD (T2, H10), as Resolve
        would make it with nothing typed."""
        preview = ask.ta_preview(self.state, Resolve(character=name))
        under = "?" if preview.target is None else str(preview.target)
        return _("{name}: under {target}, GD {gd}").format(
            name=name, target=under, gd=format_gd(preview.gd.total))

    def compose(self) -> ComposeResult:
        skill = f" ({self.action.skill})" if self.action.skill else ""
        with Vertical(id="dialog"):
            yield Static(_("TAs together: {description}{skill}").format(
                description=self.action.description, skill=skill), id="dialog-title")
            who = (_("the table rolls: type each line's dice") if self.table
                   else _("the tracker rolls the lines left empty"))
            yield Static(_("One line of dice each (dS first); {who}. Each TA resolves in "
                           "turn, and each hit is settled before the next.").format(who=who),
                         classes="note")
            with VerticalScroll(id="lines"):
                for index, name in enumerate(self.names):
                    yield DiceLine(self._line_label(name), TextInput(
                        id=_slug(index), placeholder=dice_placeholder(self.table),
                        compact=True), field_id=_slug(index))
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("Resolve all ({key})"), "dialog.confirm"),
                             id="resolve", variant="primary")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    def on_mount(self) -> None:
        for index, name in enumerate(self.names):  # typed in an earlier group dialog
            if self.kept.get(name):
                self.query_one(f"#{_slug(index)}", Input).value = self.kept[name]
        self.set_focus(self.query_one(f"#{_slug(0)}", Input))

    def mark_pristine(self) -> None:
        """The form as it opens is its empty lines: dice brought back from an earlier
        dialog count as typed (kept as a draft, asked about on Escape)."""
        self._pristine = {**field_values(self),
                          **{_slug(index): "" for index in range(len(self.names))}}

    def dismiss(self, result: list[Resolve] | None = None) -> AwaitComplete:
        """Sent (a result): each line typed is kept for its member until its TA is sent
        (send_in_turn); backed out: the members' kept dice are forgotten."""
        if self.is_active:
            for index, name in enumerate(self.names):
                typed = self.value(_slug(index)).strip() if result is not None else ""
                if typed:
                    self.kept[name] = typed
                else:
                    self.kept.pop(name, None)
        return super().dismiss(result)

    def on_input_changed(self, event: Input.Changed) -> None:
        """The TA each line's dice make (T2, T4), as the member's own dialog shows it."""
        field = next((node for node in event.input.ancestors if isinstance(node, DiceLine)),
                     None)
        if field is None:
            return
        name = self.names[int(field.field_id[1:].split("-")[0])]
        reading = field.query_one(".dice-reading", Static)
        try:
            dice = parse_dice(event.value)
        except SombraError:
            reading.update("")
            return
        result = ask.ta_preview(self.state, Resolve(character=name, dice=dice)).result
        reading.update("" if result is None else reading_of(result, theme_palette(self.app)))

    def action_roll(self) -> None:
        """ctrl+r, as in every dialog that rolls: each line still empty is rolled."""
        roller = self.roller()
        for index in range(len(self.names)):
            field = self.query_one(f"#{_slug(index)}", Input)
            if not field.value.strip():
                dice = roller.roll()
                field.value = f"{dice.ds} {dice.a} {dice.b}"

    def build(self) -> list[Resolve]:
        rollers: list[DiceRoller] = []  # drawn at the first roll (none for the summary)

        def roll() -> Dice:
            rollers[:] = rollers or [self.roller()]
            return rollers[0].roll()
        return [Resolve(character=name, dice=read_dice(
                    self.value(_slug(index)), _slug(index), roll, table=self.table,
                    who=name, roll_key=self.key_in_force("dialog.roll")))
                for index, name in enumerate(self.names)]

    def problem_with(self, result: list[Resolve]) -> SombraError | None:
        """The first TA is checked now; each next one when its turn comes (after the
        hit the one before it proposes), as the members' own dialogs would."""
        return self.check_one(result[0]) if result else None

    def show_problem(self, error: SombraError) -> None:
        self.show_error(_slug(0), str(error))


@dataclass(frozen=True)
class RollsHost:
    """What the main screen lends the group's rolls: its dry run, its dice, and its
    ways to open a dialog, run a command and settle the proposals it opens first."""

    check: Callable[[Any], SombraError | None]
    roller: Callable[[], DiceRoller]
    open_dialog: Callable[[Any, Callable[[Any], object]], None]
    run_command: Callable[[Any], list[LogEvent] | None]
    settle_first: Callable[[Callable[[], object]], None]
    #: Where the open dialog's lines are kept while typed (the session's draft), and
    #: the dice typed for members not sent yet, by name (the screen's, across dialogs).
    keep_draft: Callable[[dict[str, object] | None], None]
    kept: MutableMapping[str, str]


def open_group_rolls(state: CombatState, name: str, host: RollsHost) -> bool:
    """Issue 39 item 3: `name`'s TA with those of its side's alike steps after it in one
    dialog (ask.roll_together); False when there are none (or one lacks a value to roll
    under: its own dialog asks for it)."""
    steps = ask.roll_together(state, name)
    if not steps or any(ask.ta_preview(state, Resolve(character=step.character)).target
                        is None for step in steps):
        return False
    pending = {step.character for step in state.current_group()}
    for gone in [member for member in host.kept if member not in pending]:
        del host.kept[gone]  # resolved meanwhile, or another step: not for this dialog
    dialog = GroupRollDialog(state, steps, host.check, host.roller, host.kept)
    dialog.keep_drafts_in(host.keep_draft, "ta", name)  # a resume reopens it as a TA
    host.open_dialog(dialog, lambda commands: send_in_turn(host, list(commands)))
    return True


def send_in_turn(host: RollsHost, commands: list[Resolve]) -> None:
    """Each member's Resolve in turn; the hit (or question) each opens is settled before
    the next (H1, H7, H11). A refusal is shown and stops the rest."""
    if not commands:
        return
    first, *rest = commands
    if host.run_command(first) is None:
        return
    host.kept.pop(first.character, None)
    host.keep_draft(rest_draft(host.kept, [command.character for command in rest]))
    host.settle_first(lambda: send_in_turn(host, rest))


def rest_draft(kept: Mapping[str, str], rest: list[str]) -> dict[str, object] | None:
    """The dice typed for the members `rest` not sent yet, as the draft of their group
    dialog (its lines; "group": each one's by name, for the screen's kept dice), kept
    while the hit before them is open; None when none was typed."""
    typed = {name: kept[name] for name in rest if kept.get(name)}
    if not typed:
        return None
    return {"dialog": "ta", "who": rest[0], "group": typed,
            "values": {_slug(index): kept.get(name, "") for index, name in enumerate(rest)}}
