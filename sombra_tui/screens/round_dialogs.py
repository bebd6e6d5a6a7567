"""The round's dialogs: one table from what the next step opens (ask.Opens) to how its
dialog is built, prepared unshown, filled for a use, opened and reopened from a draft
(issue 36). A new round dialog is one row of ROUND_DIALOGS.

The dialogs themselves are `ShelfDialog`s, kept on a `DialogShelf`
(screens/dialogs/shelf.py says how they are built once and shown again). `RoundDialogs`
is the main screen's keeper of them: it hands them out filled for a use and opens what
waits for the main screen to be on top again (a hit pending in an encounter just shown,
a form left open when sombra-tui stopped); its `Preparing` (screens/preparing.py)
builds them while the DJ reads the screen (issue 21) and refills the one the next step
opens after each command.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, cast

from sombra_tui.engine import TIPO_IV, CombatState, Dice, SombraError
from sombra_tui.engine.ask import NextKind, NextStep, Opens
from sombra_tui.screens.preparing import Preparing

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen
    from textual.timer import Timer

    from sombra_tui.screens.dialogs.shelf import DialogShelf, ShelfDialog
    from sombra_tui.screens.flow import TableFlow
    from sombra_tui.screens.panels import TablePanels
    from sombra_tui.session import Session

@dataclass(frozen=True)
class Use:
    """What a round dialog is filled with: the state, the thing it is about (a declarer's
    name, a prompt, a step, a proposal) and the screen's dry run and roller."""

    state: CombatState
    thing: Any
    check: Callable[[Any], SombraError | None]
    roll: Callable[[], Dice]


def _sides(state: CombatState) -> list[bool]:
    """Each side that rolls (the tracker, the table) in this encounter."""
    return sorted({state.table_rolls(ch.name) for ch in state.characters})


def _hits(state: CombatState) -> list[bool]:
    """Each kind of hit its weapons make (tipo IV or not)."""
    return sorted({w.damage_type == TIPO_IV for ch in state.characters for w in ch.weapons})


@dataclass(frozen=True)
class RoundDialog:
    """One of the round's dialogs, from its building to its reopening from a draft."""

    #: Its class, as "module:Class" in screens/dialogs (imported when first built, issue
    #: 24), and the keyword that gives it its shape (none: one shape).
    dialog: str
    shaped_by: str | None
    #: The shapes this encounter can ask for, the most needed first (composed by shape).
    shapes: Callable[[CombatState], list[bool]]
    #: The thing a next step gives it (its `acting` step for a resolve step).
    thing: Callable[[NextStep, Any], Any]
    #: The shape a use needs.
    shape: Callable[[CombatState, Any], bool]
    #: Fills a dialog of that shape for a use; False when it cannot take it.
    fill: Callable[[Any, Use], bool]
    #: The character the DJ's typing is kept under (a draft of kind `Opens.value`), or
    #: None when its typing is not kept.
    who: Callable[[Any], str] | None = None
    #: Whether a draft kept under a character still applies (its form opens again).
    applies: Callable[[CombatState, str], bool] = lambda state, who: False
    #: The main screen's action that opens it again; whether a draft's row is selected
    #: first.
    action: str = ""
    selects: bool = False


#: Each round dialog by what the next step opens, in the order they are prepared.
ROUND_DIALOGS: dict[Opens, RoundDialog] = {
    Opens.DECLARATION: RoundDialog(
        "declaration:DeclarationEditor", None, shapes=lambda state: [False],
        thing=lambda step, _acting: step.who[0],
        shape=lambda state, name: False,
        fill=lambda dialog, use: dialog.fill(use.state, use.thing, use.check),
        who=lambda name: name, applies=lambda state, who: state.current_declarer == who,
        action="action_declare"),
    Opens.TA: RoundDialog(
        "ta:TADialog", "table", shapes=_sides, thing=lambda step, acting: acting,
        shape=lambda state, step: state.table_rolls(step.character),
        fill=lambda dialog, use: dialog.fill(use.state, use.thing, use.check, use.roll),
        who=lambda step: step.character,
        applies=lambda state, who: who in {s.character for s in state.current_group()},
        action="action_type_dice", selects=True),
    Opens.REACTION: RoundDialog(
        "reaction:ReactionDialog", "table", shapes=_sides, thing=lambda step, _acting: step.prompt,
        shape=lambda state, prompt: state.table_rolls(prompt.reactor),
        fill=lambda dialog, use: dialog.fill(use.state, use.thing, use.check, use.roll),
        who=lambda prompt: prompt.reactor,
        applies=lambda state, who: state.top_prompt is not None
        and state.top_prompt.reactor == who,
        action="action_react"),
    Opens.HIT: RoundDialog(
        "hit:HitDialog", "tipo_iv", shapes=_hits, thing=lambda step, _acting: step.proposal,
        shape=lambda state, proposal: proposal.damage_type == TIPO_IV,
        fill=lambda dialog, use: dialog.fill(use.state, use.thing, use.check)),
}

ShelfUse = tuple[str, Callable[[], Any], Callable[[Any], bool]]


def _make(row: RoundDialog, shape: bool) -> ShelfDialog[Any]:
    """A new dialog of `row`, of `shape`."""
    module, name = row.dialog.split(":")
    kind = getattr(importlib.import_module(f"sombra_tui.screens.dialogs.{module}"), name)
    dialog: ShelfDialog[Any] = kind(**{row.shaped_by: shape}) if row.shaped_by else kind()
    return dialog


class RoundHost(Protocol):
    """What the keeper needs of the main screen (its parts, never its own methods: a
    command's walk enters the screen's module once, issue 36 item 7)."""

    app: App[Any]
    flow: TableFlow
    panels: TablePanels

    @property
    def is_mounted(self) -> bool: ...
    def set_timer(self, delay: float, callback: Callable[[], object]) -> Timer: ...
    def call_after_refresh(self, callback: Callable[..., object], *args: Any) -> bool: ...


class RoundDialogs:
    """The main screen's round dialogs: built ahead, refilled, taken, and what waits for
    the screen to be on top again."""

    def __init__(self, screen: RoundHost) -> None:
        self.screen = screen
        self._shelf: DialogShelf | None = None
        #: Their building while the DJ reads the screen, and their refilling after each
        #: command (screens/preparing.py).
        self.preparing = Preparing(self)
        #: An encounter just shown (start, open, resume) whose open hit has not opened.
        self.arrived: Session | None = None
        #: A resumed form waits for a dialog opened before it (a pending hit) to close.
        self.draft_waits = False
        self._listening = False
        #: The screen's parts this keeper hands on to (set by the screen): the drafts'
        #: keeper (reopen) and the proposals' (open_hits).
        self.reopen_draft: Callable[[], None] = lambda: None
        self.open_hits: Callable[[], None] = lambda: None

    @property
    def shelf(self) -> DialogShelf:
        """The dialogs shown again rather than built again (they open in about a frame)."""
        if self._shelf is None:
            from sombra_tui.screens.dialogs.shelf import DialogShelf
            self._shelf = DialogShelf(self.screen.app)
        return self._shelf

    @staticmethod
    def key(kind: str, shape: bool = False) -> tuple[str, Callable[[], Any]]:
        """The shelf's key of one of the round's dialogs and what builds it new."""
        return f"{kind}-{shape}", partial(_make, ROUND_DIALOGS[Opens(kind)], shape)

    def shapes(self) -> list[tuple[str, bool]]:
        """The round's dialogs this encounter can ask for, the most needed first."""
        state = self.screen.flow.state
        return [(opens.value, shape) for opens, row in ROUND_DIALOGS.items()
                for shape in row.shapes(state)]

    # ---- a use: the next step's, or the one the DJ asks for ---------------------------

    def use(self, opens: Opens, thing: Any) -> ShelfUse:
        """The shelf's key, maker and fill of the dialog `opens` for `thing`."""
        row, flow = ROUND_DIALOGS[opens], self.screen.flow
        use = Use(flow.state, thing, flow.check, flow.session.combat.roll)
        return (*self.key(opens.value, row.shape(use.state, thing)),
                lambda dialog: row.fill(dialog, use))

    def use_now(self) -> ShelfUse | None:
        """The round's dialog the next step (space) opens now, as its key, maker and
        fill (the same as the step's own), or None when it opens none of them."""
        flow = self.screen.flow
        step = flow.next_step()
        opens, acting = step.opens, None
        if step.kind is NextKind.RESOLVE and \
                (pair := flow.acting(self.screen.panels.selected_name)) is not None:
            acting, opens = pair
        row = ROUND_DIALOGS.get(opens)
        return None if row is None else self.use(opens, row.thing(step, acting))

    def take(self, opens: Opens, thing: Any) -> Any:
        """The dialog `opens` filled for `thing`, its typing kept as a draft."""
        dialog = self.shelf.take(*self.use(opens, thing))
        if (who := ROUND_DIALOGS[opens].who) is not None:
            dialog.keep_drafts_in(self.screen.flow.session.keep_draft, opens.value,
                                  who(thing))
        return dialog

    def draft_forms(self) -> dict[str, tuple[str, Callable[[str], bool], bool]]:
        """The round's forms a draft reopens (TableFlow.draft_opening)."""
        state = self.screen.flow.state
        return {opens.value: (row.action, partial(row.applies, state), row.selects)
                for opens, row in ROUND_DIALOGS.items() if row.who is not None}

    # ---- what waits for the main screen to be on top again ---------------------------

    def arrive(self, session: Session) -> None:
        """An encounter shown for the first time: its open hit opens (H1), once the
        main screen is on top."""
        self.arrived = session
        self.screen.call_after_refresh(self.open_arrived_hit)

    def open_arrived_hit(self) -> None:
        """H1: an encounter shown for the first time (a file opened, a journal resumed)
        with a hit proposal open opens it, as it opened after the TA. Once the main
        screen is on top: a dialog over it (the offer to resume) is answered first."""
        screen = self.screen
        if self.arrived is not screen.flow.session:
            return
        if not self.on_top():
            self.wait_until_on_top()
            return
        self.arrived = None
        self.open_hits()

    def on_top(self) -> bool:
        """Whether the main screen is the one shown (no dialog over it)."""
        return self.screen.app.screen is cast(object, self.screen)

    def wait_until_on_top(self) -> None:
        """Listen for the main screen to be on top again (only while something waits:
        no handler runs at every dialog's closing)."""
        if not self._listening:
            self._listening = True
            self.screen.app.screen_change_signal.subscribe(self.screen,  # type: ignore[arg-type]
                                                          self._screen_changed)

    def _screen_changed(self, shown: Screen[Any]) -> None:
        screen = self.screen
        if shown is not cast(object, screen) or not self.on_top():
            return
        self._listening = False
        screen.app.screen_change_signal.unsubscribe(screen)  # type: ignore[arg-type]
        if self.arrived is screen.flow.session:  # the dialog over a new encounter closed
            screen.call_after_refresh(self.open_arrived_hit)
        if self.draft_waits:  # a resumed hit or question came first: now the draft
            screen.call_after_refresh(self.reopen_draft)
