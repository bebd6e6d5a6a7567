"""The main screen: initiative order, declaration queue and resolution log.

Keys build engine commands (often through a dialog) and send them to the session; the
panels then render the new state. The screen composes, renders and binds keys; its
actions are thin: what a key does to the encounter is the table flow's (screens/flow.py,
plain Python: commands, dry runs, proposals, opposed results), and the round's dialogs
are kept, filled and opened by screens/round_dialogs.py (one table). No rule logic
lives here: what is legal and what a step opens are asked of the engine.

The app hands the screen the session it shows (`MainScreen.session`, data down) and
the screen posts `MainScreen.Changed` after each change (messages up); it never
imports the app.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer

from sombra_tui import engine as c  # the commands, through the engine's door
from sombra_tui import keys
from sombra_tui.engine import CombatState, LogEvent, SombraError, Step, ask
from sombra_tui.engine.ask import NextKind, Opens
from sombra_tui.engine.i18n import _
from sombra_tui.screens.drafts import Drafts
from sombra_tui.screens.flow import ACTION_COMMANDS, TableFlow
from sombra_tui.screens.panels import TablePanels
from sombra_tui.screens.proposals import Proposals
from sombra_tui.screens.round_dialogs import RoundDialogs
from sombra_tui.screens.row_actions import RowActions
from sombra_tui.session import Session
from sombra_tui.textual_compat import SteadyHeader
from sombra_tui.widgets.declaration_queue import DeclarationQueue
from sombra_tui.widgets.footer import TranslatedFooter
from sombra_tui.widgets.formatting import phase_label
from sombra_tui.widgets.initiative_table import InitiativeTable
from sombra_tui.widgets.resolution_log import ResolutionLog

if TYPE_CHECKING:  # each dialog is imported where it is first shown (issue 24: cold start)
    from sombra_tui.screens.dialogs.base import Dialog
    from sombra_tui.screens.dialogs.shelf import DialogShelf

__all__ = ["ACTION_COMMANDS", "MainScreen"]

ResultT = TypeVar("ResultT")
#: Below this many columns the footer is compact (no padding around its keys).
COMPACT_BELOW = 100


class MainScreen(RowActions, Screen[None]):
    BINDINGS = keys.bindings(keys.Scope.MAIN)

    DEFAULT_CSS = """
    MainScreen { background: $background; }
    MainScreen #top { height: 1fr; min-height: 8; }
    MainScreen #initiative-panel { width: 3fr; border: round $primary; }
    MainScreen #queue-panel { width: 2fr; border: round $secondary; background: $surface; }
    MainScreen #log-panel { height: 1fr; min-height: 5; border: round $accent; }
    MainScreen #initiative-panel, MainScreen #queue-panel, MainScreen #log-panel {
        border-title-color: $text;
        border-title-style: bold;
    }
    """

    class Changed(Message):
        """The session changed (a command, undo or redo): the app reports what it must
        (e.g. a journal that could not be written). The screen has rendered already."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        #: What the keys do to the encounter (plain Python), over the session shown.
        self.flow = TableFlow(session)
        #: The round's dialogs, built before the DJ asks for them (issue 21).
        self.dialogs = RoundDialogs(self)
        #: The open proposals (settled first) and opposed results, opened over the screen.
        self.settling = Proposals(self)
        self.flow.on_held = self.settling.settle_over_dialog
        #: The forms kept while the DJ types, opened again after a resume.
        self.drafts = Drafts(self)
        self.dialogs.reopen_draft = self.drafts.reopen
        self.dialogs.open_hits = self.settling.open_hits
        #: The initiative table and the declaration queue.
        self.panels = TablePanels(self.flow, id="top")
        self._enabled: tuple[bool | None, ...] = ()

    @property
    def session(self) -> Session:
        """The encounter shown; the app replaces it (open, recover) and re-renders."""
        return self.flow.session

    @session.setter
    def session(self, session: Session) -> None:
        self.flow.session = session
        self.flow.group_dice.clear()  # typed for another encounter's members

    @property
    def state(self) -> CombatState:
        return self.flow.state

    # ---- the round's dialogs, built before the DJ asks (screens/round_dialogs.py) ----

    _shelved = staticmethod(RoundDialogs.key)

    @property
    def shelf(self) -> DialogShelf:
        return self.dialogs.shelf

    @property
    def _refill_timer(self) -> Timer | None:
        return self.dialogs.preparing.refill_timer

    def round_dialog_shapes(self) -> list[tuple[str, bool]]:
        return self.dialogs.shapes()

    def round_dialogs_prepared(self) -> bool:
        return self.dialogs.preparing.all_prepared()

    def prepare_dialogs_soon(self) -> None:
        self.dialogs.preparing.prepare_soon()

    # ---- composing and rendering ------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        yield self.panels
        with Vertical(id="log-panel"):
            yield ResolutionLog(id="log")
        yield TranslatedFooter()

    def on_resize(self, event: events.Resize) -> None:
        # A narrow terminal (80 columns) packs the footer and keeps only its essential
        # keys, so space, undo, help and quit stay in sight in either language.
        footer = self.query_one(TranslatedFooter)
        narrow = event.size.width < COMPACT_BELOW
        footer.compact = narrow
        if footer.narrow != narrow:
            footer.narrow = narrow
            footer.call_later(footer.recompose)

    def key_in_force(self, binding_id: str) -> str:
        """The first key of `binding_id` as the DJ reads it, their keymap applied."""
        return keys.first_key_in_force(binding_id, self.keymap)

    @property
    def keymap(self) -> dict[str, str]:
        """The DJ's rebindings in force (the app resolves them at start-up)."""
        keymap: dict[str, str] = getattr(self.app, "keymap_in_force", {})
        return keymap

    def on_mount(self) -> None:
        self.query_one(DeclarationQueue).keymap = self.keymap
        self._label_panels()
        self.query_one(InitiativeTable).focus()
        # The first render, as soon as the screen counts as mounted (after this handler).
        self.call_later(self.render_state, force_log=True)
        self.prepare_dialogs_soon()

    def _label_panels(self) -> None:
        self.query_one("#initiative-panel").border_title = _("Initiative")
        self.query_one("#log-panel").border_title = _("Log")

    def relabel(self) -> None:
        """Everything again in the language in force (the app switched it)."""
        if not self.is_mounted:
            return
        self._label_panels()
        self.panels.relabel()
        relabel = getattr(self.query_one(ResolutionLog), "relabel", None)
        if callable(relabel):
            relabel()
        self.render_state(force_log=True)
        footer = self.query_one(TranslatedFooter)
        footer.call_later(footer.recompose)
        self.prepare_dialogs_soon()  # the kept dialogs speak the old language
        self.refresh_bindings()

    def render_state(self, *, force_log: bool = False) -> None:
        if not self.is_mounted:  # the first render is queued by on_mount
            return
        session = self.session
        state = session.combat.state
        dirty = " *" if session.dirty else ""
        round_text = _("Asalto {round} · ").format(round=state.round) if state.round else ""
        # Set without Screen's watchers: its title is a reactive that repaints the whole
        # screen (issue 24: a new phase or asalto, or the file's unsaved mark, repainted
        # every panel). The header, the one widget showing it, is told at once.
        self.set_reactive(Screen.title, f"{state.name}{dirty}")
        self.set_reactive(Screen.sub_title, f"{round_text}{phase_label(state.phase)}")
        self.query_one(SteadyHeader).show_title()
        if self.panels.show_state():  # another encounter (open, resume)
            self.dialogs.arrive(session)
        self.query_one(ResolutionLog).show_events(session.combat.log_view(), force=force_log)
        self.flow.group_dice.prune()  # a group's typed dice, while they still apply
        # Refreshing the bindings rebuilds the footer, which is slow, so it is done when
        # what the engine allows changes.
        enabled = self.flow.enabled()
        if enabled != self._enabled:
            self._enabled = enabled
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Worked out once per state revision (Session.offers), however often asked.
        return self.flow.offered(action)

    # ---- running commands ----------------------------------------------------------

    def run_command(self, command: c.Command) -> list[LogEvent] | None:
        """Execute on the session; a refusal is shown and nothing changes."""
        return self.run_with(self.flow.execute, command)

    def run_with(self, run: Callable[[Any], list[LogEvent]], command: Any
                 ) -> list[LogEvent] | None:
        """`run(command)` on the session (TableFlow.execute; T5's decision in place of
        the last command, say), rendered; a refusal is shown and nothing changes."""
        try:
            events = run(command)
        except SombraError as error:
            self.notify(str(error), title=_("Not allowed"), severity="error")
            return None
        self._changed()
        return events

    def _changed(self) -> None:
        self.render_state()
        self.post_message(self.Changed())
        self.dialogs.preparing.refill_soon()

    def check(self, command: Any) -> SombraError | None:
        """Dry run (TableFlow.check): None when the engine accepts `command`, else why."""
        return self.flow.check(command)

    def open_dialog(self, dialog: Dialog[ResultT], then: Callable[[ResultT], object]) -> None:
        """Push `dialog` now (not from a worker): the keys the DJ types next already
        go to it, none to the main screen's bindings; `then` gets a non-None result
        (each one, for a dialog that stays open across several: Dialog.deliver)."""
        def done(result: ResultT | None) -> None:
            if result is not None:
                then(result)
        dialog.results_to = done
        self.app.push_screen(dialog, callback=done)

    def selected(self, *, quiet: bool = False) -> str | None:
        name = self.panels.selected_name
        if name is None and not quiet:
            self.notify(_("Select a character first (arrow keys)."), severity="warning")
        return name

    def select(self, name: str) -> None:  # the table's cursor on `name`'s row
        self.query_one(InitiativeTable).select_name(name)

    @on(InitiativeTable.RowSelected)
    def _row_selected(self) -> None:
        """Enter on a row edits the character."""
        self.action_edit_character()

    def reopen_draft(self) -> None:
        """After a resume: the dice typed for a group's members not sent yet (their next
        dialog opens with them), and the form the DJ was typing in (Drafts)."""
        self.flow.group_dice.restore()
        self.drafts.reopen()

    # ---- the one key: next step --------------------------------------------------------

    def action_next_step(self) -> None:
        """The one key: whatever the engine says comes next (ask.next_step), the same
        answer the hint, the table's marker and the footer read."""
        step = ask.next_step(self.state)
        match step.kind:
            case NextKind.SETTLE_HIT | NextKind.SETTLE_THRESHOLD | NextKind.SETTLE_PREVENT:
                assert step.proposal is not None
                self.settling.settle(step.proposal)  # H1/H7/H11: before the next step
            case NextKind.ADD_CHARACTER | NextKind.START:
                # Refused without characters: the refusal says to add one.
                self.run_command(self.session.combat.start_command())
            case NextKind.REACT:
                self.action_react()
            case NextKind.DECLARE:
                self.action_declare()
            case NextKind.RESOLVE:
                self.action_type_dice()
            case NextKind.TO_INSTANT | NextKind.NEXT_PHASE | NextKind.NEXT_ROUND:
                self.run_command(c.Advance())

    def on_key(self, event: events.Key) -> None:
        """A key of the next step (y, t, d, r, ...) that an open proposal holds back opens
        the proposal first, and does its own job once it is settled: the DJ who follows
        the table to the next character is never refused."""
        for action in self.flow.held_actions():
            if event.key in self._keys_of(action):
                event.stop()
                event.prevent_default()
                if action == "type_dice" and self.flow.dice_to_type(self.selected(quiet=True)):
                    # The dice dialog at once, so that dice typed blind land in it: the
                    # hit opens over it when they are sent (check), then they resolve.
                    self.action_type_dice()
                else:
                    self.settling.settle_first(getattr(self, f"action_{action}"))
                return

    def _keys_of(self, binding_id: str) -> list[str]:
        return (self.keymap.get(binding_id) or keys.BY_ID[binding_id].keys).split(",")

    def resolve(self, command: c.Command) -> list[LogEvent] | None:
        """Run a resolution; the hit it proposes opens at once."""
        events = self.run_command(command)
        if events is not None:
            self.settling.open_hits()
        return events

    # ---- declarations and reacciones (D) ---------------------------------------------

    def action_declare(self) -> None:
        declarer = self.state.current_declarer
        if declarer is None:
            if self.state.top_prompt is not None:
                self.notify(_("First settle {name}'s reacción prompt.").format(
                    name=self.state.top_prompt.reactor), severity="warning")
            else:
                self.notify(_("Everyone has declared: {next} resolves the round.").format(
                    next=self.key_in_force("next_step")))
            return
        self.open_dialog(self.dialogs.take(Opens.DECLARATION, declarer), self.run_command)

    def action_react(self) -> None:
        prompt = self.state.top_prompt
        if prompt is None:
            self.notify(_("No reacción prompt is open."), severity="warning")
            return
        dialog = self.dialogs.take(Opens.REACTION, prompt)
        if getattr(self.flow.last_command(), "character", None) != prompt.reactor:
            # A question to someone new (a contrarreacción after a reacción): keys typed
            # before it showed were meant for what came before (issue 35 item 4).
            dialog.refuse_typed_ahead(prompt.reactor)
        self.open_dialog(dialog, self.run_command)

    # ---- resolution phases (T, O) ------------------------------------------------------

    def _acting(self) -> tuple[Step, Opens] | None:
        """The step the DJ's keys act on and what it opens (ask.NextStep.acting)."""
        acting = self.flow.acting(self.selected(quiet=True))
        if acting is None:
            self.notify(_("Nothing left to resolve in this phase: {next} moves on.").format(
                next=self.key_in_force("next_step")))
        return acting

    def action_roll(self) -> None:
        """Resolve the acting character's step with the seeded roller (T6); nothing to
        roll for an automatic one (T7); the dice dialog when the roll would not do."""
        if (acting := self._acting()) is None:
            return
        command = self.flow.roll(*acting)
        if command is None:  # opposed, or e.g. no target value yet: ask for it
            self.action_type_dice()
        elif acting[1] is Opens.NO_ROLL:
            self.run_command(command)
        else:
            self.resolve(command)

    def action_type_dice(self) -> None:
        if (acting := self._acting()) is None:
            return
        step, opens = acting
        if opens is Opens.NO_ROLL:  # T7: nothing to roll
            self.run_command(c.Resolve(character=step.character))
            return
        if opens is Opens.OPPOSED:
            from sombra_tui.screens.dialogs.opposed import OpposedDialog
            opposed = OpposedDialog(self.state, step, self.flow.check,
                                    self.session.combat.roller)
            self.drafts.keep(opposed, "ta", step.character)  # reopened as a TA is
            self.open_dialog(opposed, self.settling.opposed_result)
            return
        from sombra_tui.screens.dialogs.group_rolls import RollsHost, open_group_rolls
        if open_group_rolls(self.state, step.character, RollsHost(  # issue 39 item 3:
                self.flow.check, self.session.combat.roller,  # alike TAs together
                self.open_dialog, self.run_command, self.settling.settle_first,
                self.session.keep_draft, self.flow.group_dice)):
            return
        # Not opposed, or nobody able is left to oppose it: the character's own TA.
        dialog = self.dialogs.take(Opens.TA, step)
        self.open_dialog(dialog, self.resolve)
        if typed := self.flow.group_dice.pop(step.character, ""):  # the last of a group's
            self.call_after_refresh(self.drafts.write, dialog, {"dice": typed}, 2)
