"""The main screen: initiative order, declaration queue and resolution log.

Keys build engine commands (often through a dialog) and send them to the
session; the panels then render the new state. No rule logic lives here:
what is legal is asked of the engine (dry runs via `Combat.preview`).

The app hands the screen the session it shows (`MainScreen.session`, data down) and
the screen posts `MainScreen.Changed` after each change (messages up); it never
imports the app.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer

from sombra_tui import engine as c  # the commands, through the engine's door
from sombra_tui import keys
from sombra_tui.engine import (
    TIPO_IV,
    ActionKind,
    Character,
    CombatState,
    ExtendedStatus,
    LogEvent,
    Phase,
    Prompt,
    Proposal,
    ProposalKind,
    SombraError,
    Step,
    ask,
)
from sombra_tui.engine.ask import NextKind
from sombra_tui.engine.i18n import _, pgettext
from sombra_tui.session import Session
from sombra_tui.textual_compat import SteadyHeader, repaint_unshown
from sombra_tui.ui_state import Cursor
from sombra_tui.widgets.declaration_queue import DeclarationQueue
from sombra_tui.widgets.footer import TranslatedFooter
from sombra_tui.widgets.formatting import phase_label
from sombra_tui.widgets.initiative_table import InitiativeTable
from sombra_tui.widgets.resolution_log import ResolutionLog

if TYPE_CHECKING:  # each dialog is imported where it is first shown (issue 24: cold start)
    from sombra_tui.screens.dialogs.base import Dialog
    from sombra_tui.screens.dialogs.declaration import DeclarationEditor
    from sombra_tui.screens.dialogs.hit import HitDialog
    from sombra_tui.screens.dialogs.reaction import ReactionDialog
    from sombra_tui.screens.dialogs.shelf import DialogShelf
    from sombra_tui.screens.dialogs.ta import TADialog

Check = Callable[[Any], SombraError | None]
#: The refusal of a command an open proposal holds back (engine/rules/core.py).
PROPOSAL_OPEN = "proposal.open"

ResultT = TypeVar("ResultT")
#: Below this many columns the footer is compact (no padding around its keys).
COMPACT_BELOW = 100
#: The round's dialogs are built unshown this long after the first screen, one every
#: PREPARE_EVERY seconds (each is a few hundred ms of CPU: keys typed meanwhile wait).
PREPARE_AFTER = 0.5
PREPARE_EVERY = 0.3
#: Turns at most (every REPAINT_EVERY seconds), once the dialogs are built, until each
#: has nothing left to repaint.
SETTLE_TURNS = 10
#: The forms a resume opens again by the action that opened them (issue 35 item 5): the
#: draft's kind -> (this screen's action that opens the dialog the form is opened from,
#: that dialog's action): the sheet (of the draft's character) or the forecast; or
#: this screen's own action. The thing the form was about (a wound, a condition, a
#: note, an extended action), when the draft names it, is the action's argument.
DIALOG_FORMS = {"sheet_hit": ("action_sheet", "action_hit"),
                "sheet_condition": ("action_sheet", "action_condition"),
                "sheet_heal": ("action_sheet", "action_heal"),
                "sheet_wound": ("action_sheet", "edit_wound"),
                "sheet_edit_condition": ("action_sheet", "edit_condition"),
                "note": ("action_forecast", "new_note"),
                "edit_note": ("action_forecast", "edit_note")}
SCREEN_FORMS = {"extended": "adjust_extended", "settings": "action_settings"}
#: Seconds after a command before the kept dialog its next step opens is filled for
#: that use, unshown (the next declarer's, say: its lists of names change), and then
#: every REPAINT_EVERY seconds repainted unshown until nothing is left.
REFILL_AFTER = 0.05
REPAINT_EVERY = 0.02

#: The command each key sends (or the mark it sets): the key, its footer entry and its
#: palette command are offered when the engine allows that command now (check_action).
#: Keys not listed are always offered.
ACTION_COMMANDS: dict[str, type[BaseModel] | c.Mark] = {
    "declare": c.Declare,
    "react": c.React,
    "decline": c.Decline,
    "allow_prompt": c.AllowPrompt,
    "deny_prompt": c.DenyPrompt,
    "roll": c.Resolve,
    "type_dice": c.Resolve,
    "prevent": c.Mark.PREVENTED,
}


class MainScreen(Screen[None]):
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
        #: The encounter shown; the app replaces it (open, recover) and re-renders.
        self.session = session
        self._enabled: tuple[bool | None, ...] = ()
        self._shelf: DialogShelf | None = None
        #: The session whose kept cursor was put back, and the cursor last kept.
        self._cursor_session: Session | None = None
        self._remembered: Cursor | None = None

    @property
    def shelf(self) -> DialogShelf:
        """The dialogs shown again rather than built again (they open in about a frame)."""
        if self._shelf is None:
            from sombra_tui.screens.dialogs.shelf import DialogShelf
            self._shelf = DialogShelf(self.app)
        return self._shelf

    # ---- the round's dialogs, built before the DJ asks for them (issue 21) -----------

    @staticmethod
    def _shelved(kind: str, shape: bool = False) -> tuple[str, Callable[[], Any]]:
        """The shelf's key of one of the round's dialogs and what builds it new."""
        from sombra_tui.screens.dialogs import DeclarationEditor, ReactionDialog, TADialog
        from sombra_tui.screens.dialogs.hit import HitDialog
        makers: dict[str, Callable[[], Any]] = {
            "declaration": DeclarationEditor, "ta": lambda: TADialog(table=shape),
            "reaction": lambda: ReactionDialog(table=shape),
            "hit": lambda: HitDialog(tipo_iv=shape)}
        return f"{kind}-{shape}", makers[kind]

    def round_dialog_shapes(self) -> list[tuple[str, bool]]:
        """The round's dialogs this encounter can ask for, the most needed first: each
        side that rolls (the tracker, the table) and each kind of hit its weapons make."""
        characters = self.state.characters
        sides = sorted({self.state.table_rolls(ch.name) for ch in characters})
        hits = sorted({w.damage_type == TIPO_IV for ch in characters for w in ch.weapons})
        return [("declaration", False), *(("ta", side) for side in sides),
                *(("reaction", side) for side in sides), *(("hit", iv) for iv in hits)]

    def round_dialogs_prepared(self) -> bool:
        """Whether every dialog of `round_dialog_shapes` is built, mounted and repainted
        unshown (the preparing's last turn)."""
        kept = [self.shelf.kept(self._shelved(*shape)[0]) for shape in self.round_dialog_shapes()]
        return self._prepared and all(dialog is not None and dialog.is_mounted
                                      for dialog in kept)

    #: Whether the preparing's last turn ran (prepare_dialogs_soon starts it again).
    _prepared = False
    #: Turns run since every dialog was built, to repaint them unshown.
    _settling = 0

    def prepare_dialogs_soon(self) -> None:
        """Build the round's dialogs unshown, one at a time, while the DJ reads the
        screen: each then opens the first time as fast as it opens again."""
        if getattr(self.app, "prepare_dialogs", False) and self.is_mounted:
            self._prepared = False
            self.set_timer(PREPARE_AFTER, self._prepare_next_dialog)

    def _use_now(self) -> tuple[str, Callable[[], Any], Callable[[Any], bool]] | None:
        """The round's dialog the next step (space) opens now, as its key, maker and
        fill (the same as the step's own), or None when it opens none of them."""
        state = self.state
        step = ask.next_step(state)
        if step.kind is NextKind.DECLARE and state.current_declarer is not None:
            return self._declaration_use(state.current_declarer)
        if step.kind is NextKind.REACT and state.top_prompt is not None:
            return self._reaction_use(state.top_prompt)
        if step.kind is NextKind.SETTLE_HIT and step.proposal is not None and \
                step.proposal.kind is ProposalKind.HIT:
            return self._hit_use(step.proposal)
        if step.kind is NextKind.RESOLVE and (group := state.current_group()):
            acting = self._acting_step(group)
            if state.step_action(acting).kind is not ActionKind.AUTOMATIC and \
                    not self._opposed(acting):
                return self._ta_use(acting)
        return None

    def _prepare_next_dialog(self) -> None:
        if getattr(self.app, "stopping", False):  # nothing more is built (app.py)
            return
        # The dialog the next step opens is filled for that use before it is laid out:
        # its first opening then lays out and draws only what a refill changes.
        use = self._use_now()
        shapes = [self._shelved(kind, shape) for kind, shape in self.round_dialog_shapes()]
        # What the dialogs built before asked to repaint once laid out (their widgets'
        # sizes, the contents written) is repainted now, unshown, not at their first
        # showing, where it cost what a new dialog's first frame does.
        settled = [repaint_unshown(kept) for key, _make in shapes
                   if (kept := self.shelf.kept(key)) is not None]
        for key, make in shapes:
            fill = use[2] if use is not None and use[0] == key else None
            if self.shelf.prepare(key, make, fill):
                self.set_timer(PREPARE_EVERY, self._prepare_next_dialog)
                return
        if not all(settled) and self._settling < SETTLE_TURNS:
            # A repaint is a few ms, not a build: the next turn comes as soon as the
            # widgets' own turns have asked for theirs (a key waits at most that long).
            self._settling += 1
            self.set_timer(REPAINT_EVERY, self._prepare_next_dialog)
            return
        self._settling = 0
        self._prepared = True
        # All built: Python's full collection, due after so many new lasting objects,
        # runs now, while the DJ reads the screen, not inside the first opening of a
        # dialog (100-350 ms at 200 characters, seen in the benchmark).
        gc.collect()

    @property
    def state(self) -> CombatState:
        return self.session.combat.state

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        with Horizontal(id="top"):
            with Vertical(id="initiative-panel"):
                yield InitiativeTable(id="initiative")
            with Vertical(id="queue-panel"):
                yield DeclarationQueue(id="queue")
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

    # ---- rendering --------------------------------------------------------------

    def _label_panels(self) -> None:
        self.query_one("#initiative-panel").border_title = _("Initiative")
        self.query_one("#log-panel").border_title = _("Log")

    def relabel(self) -> None:
        """Everything again in the language in force (the app switched it)."""
        if not self.is_mounted:
            return
        self._label_panels()
        self.query_one("#queue-panel").border_title = ""
        for widget in (self.query_one(InitiativeTable), self.query_one(DeclarationQueue),
                       self.query_one(ResolutionLog)):
            relabel = getattr(widget, "relabel", None)
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
        self.query_one(InitiativeTable).show_state(state)
        table = self.query_one(InitiativeTable)
        if self._cursor_session is not session:  # another encounter (open, resume)
            self._cursor_session = session
            self._recall_cursor()
            self._arrived = session
            self.call_after_refresh(self._open_arrived_hit)
        self.query_one(DeclarationQueue).show_state(state, table.selected_name)
        self.query_one(ResolutionLog).show_events(session.combat.log_view(), force=force_log)
        panel = self.query_one("#queue-panel")
        title = (_("Declarations") if state.phase in (Phase.SETUP, Phase.DECLARATION)
                 else _("Resolution"))
        if panel.border_title != title:  # setting it repaints the whole panel
            panel.border_title = title
        # Refreshing the bindings rebuilds the footer, which is slow, so it is done when
        # what the engine allows changes.
        enabled = tuple(self.check_action(action, ()) for action in ACTION_COMMANDS)
        if enabled != self._enabled:
            self._enabled = enabled
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        command = ACTION_COMMANDS.get(action)
        if command is None:
            return True
        # Worked out once per state revision (Session.offers), however often asked.
        offers = self.session.offers()
        if isinstance(command, c.Mark):
            return command in offers.marks
        # Held back while a proposal is open: the next key settles it first.
        return command in offers.commands

    # ---- running commands ----------------------------------------------------------

    def run_command(self, command: c.Command) -> list[LogEvent] | None:
        """Execute on the session; a refusal is shown and nothing changes."""
        try:
            events = self.session.execute(command)
        except SombraError as error:
            self.notify(str(error), title=_("Not allowed"), severity="error")
            return None
        self._changed()
        return events

    def _changed(self) -> None:
        self.render_state()
        self.post_message(self.Changed())
        self._refill_next_soon()

    #: The timer of the next refill (a command's replaces the one before).
    _refill_timer: Timer | None = None

    def _refill_next_soon(self) -> None:
        """Once the round's dialogs are prepared: shortly after a command, the kept
        dialog the next step opens is filled for that use and repainted, unshown, while
        the DJ reads the screen, as the first one was prepared (issue 21). The next
        declarer's dialog then opens as quickly as the same one again: what changed
        (two lists of some 200 names) is laid out and drawn before the key. At the key
        it is filled again, by the same code, for the state then."""
        if not (self._prepared and self.is_mounted):
            return
        if self._refill_timer is not None:
            self._refill_timer.stop()
        self._refill_timer = self.set_timer(REFILL_AFTER, self._refill_next_dialog)

    def _refill_next_dialog(self) -> None:
        self._refill_timer = None
        if self.app.screen is not self:  # a dialog is open: the DJ is not reading
            return
        use = self._use_now()
        dialog = self.shelf.refill(*use[::2]) if use is not None else None
        if dialog is not None:
            # Once its widgets have asked for what the fill changed (their own turns).
            self.set_timer(REPAINT_EVERY, lambda: self._repaint_unshown(dialog, SETTLE_TURNS))

    def _repaint_unshown(self, dialog: Screen[Any], turns: int, quiet: int = 0) -> None:
        """Repaint `dialog` unshown until it had nothing left twice in a row (a layout
        asks for repaints in its widgets' next turns), at most `turns` times."""
        quiet = quiet + 1 if repaint_unshown(dialog) else 0
        if quiet < 2 and turns:
            self.set_timer(REPAINT_EVERY,
                           lambda: self._repaint_unshown(dialog, turns - 1, quiet))

    def check(self, command: Any) -> SombraError | None:
        """Dry run for dialogs: None when the engine accepts `command`, else its error.

        Refused only because a proposal is open (H1/H7/H11: the dice typed for the next
        step, say), the proposal opens over the dialog, which keeps what was typed and is
        sent again once the proposal is settled."""
        try:
            self.session.combat.preview(command)
        except SombraError as error:
            if error.code == PROPOSAL_OPEN and self.state.proposals:
                dialog = self.app.screen
                self.settle_first(lambda: self._submit_again(dialog))
            return error
        return None

    def _submit_again(self, dialog: Screen[Any]) -> None:
        from sombra_tui.screens.dialogs.base import Dialog
        if self.app.screen is dialog and isinstance(dialog, Dialog):
            dialog.submit()

    # ---- the one key: next step --------------------------------------------------------

    def action_next_step(self) -> None:
        """The one key: whatever the engine says comes next (ask.next_step), the same
        answer the hint, the table's marker and the footer read."""
        step = ask.next_step(self.state)
        match step.kind:
            case NextKind.SETTLE_HIT | NextKind.SETTLE_THRESHOLD | NextKind.SETTLE_PREVENT:
                assert step.proposal is not None
                self.settle_proposal(step.proposal)  # H1/H7/H11: before the next step
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

    # ---- hits, wounds, conditions (H, C) --------------------------------------------------

    def _hit_use(self, proposal: Proposal) -> tuple[str, Callable[[], Any],
                                                    Callable[[Any], bool]]:
        """The shelf's key, maker and fill of the hit dialog of `proposal`."""
        state, check = self.state, self.check
        return (*self._shelved("hit", proposal.damage_type == TIPO_IV),
                lambda dialog: dialog.fill(state, proposal, check))

    def settle_proposal(self, proposal: Proposal,
                        then: Callable[[], object] | None = None) -> None:
        """An open proposal: a hit (every number, editable) or an H7 / H11 question.
        Pushed at once, from the key (not from a worker), as every dialog of a round.

        With `then`: what follows once it is settled (not on escape)."""
        state = self.state

        def settled(command: c.Command) -> None:
            if self.run_command(command) is not None and then is not None:
                then()

        if proposal.kind is ProposalKind.HIT:
            hit: HitDialog = self.shelf.take(*self._hit_use(proposal))
            self.open_dialog(hit, settled)
            return

        def answered(confirm: bool) -> None:
            settled(c.ConfirmProposal(proposal_id=proposal.id) if confirm
                    else c.DeclineProposal(proposal_id=proposal.id))
        from sombra_tui.screens.dialogs.confirm import ConfirmDialog
        from sombra_tui.screens.dialogs.hit_numbers import proposal_question
        self.app.push_screen(ConfirmDialog(
            proposal_question(proposal, state), yes=_("Confirm"),
            no=pgettext("proposal", "Decline")),
            callback=lambda confirm: answered(bool(confirm)))

    def settle_first(self, then: Callable[[], object]) -> None:
        """H1/H7/H11: the open proposals one after another, then `then` (at once when
        none is open); escape on a proposal drops `then`."""
        step = ask.next_step(self.state)
        if step.proposal is None:
            then()
        else:
            self.settle_proposal(step.proposal, lambda: self.settle_first(then))

    def open_hits(self) -> None:
        """H1: a successful attack's hit proposal opens by itself (space accepts it as
        proposed); a second target's hit opens after the first is settled."""
        step = ask.next_step(self.state)
        if step.kind is NextKind.SETTLE_HIT and step.proposal is not None:
            self.settle_proposal(step.proposal, self.open_hits)

    #: An encounter just shown (start, open, resume) whose open hit has not opened yet.
    _arrived: Session | None = None
    #: A resumed form waits for a dialog opened before it (a pending hit) to close.
    _draft_waits = False

    def _open_arrived_hit(self) -> None:
        """H1: an encounter shown for the first time (a file opened, a journal resumed)
        with a hit proposal open opens it, as it opened after the TA. Once the main
        screen is on top: a dialog over it (the offer to resume) is answered first."""
        if self._arrived is not self.session or self.app.screen is not self:
            return
        self._arrived = None
        self.open_hits()

    def on_screen_resume(self) -> None:
        if self._arrived is self.session:  # the dialog over a new encounter is closed
            self.call_after_refresh(self._open_arrived_hit)
        if self._draft_waits:  # a resumed hit or question came first: now the draft
            self.call_after_refresh(self.reopen_draft)

    def resolve(self, command: c.Command) -> list[LogEvent] | None:
        """Run a resolution; the hit it proposes opens at once."""
        events = self.run_command(command)
        if events is not None:
            self.open_hits()
        return events

    def on_key(self, event: events.Key) -> None:
        """A key of the next step (y, t, d, r, ...) that an open proposal holds back opens
        the proposal first, and does its own job once it is settled: the DJ who follows
        the table to the next character is never refused."""
        held = self.session.offers().held
        if not held:
            return
        for action, command in ACTION_COMMANDS.items():
            if command in held and event.key in self._keys_of(action):
                event.stop()
                event.prevent_default()
                if action == "type_dice" and self._dice_to_type():
                    # The dice dialog at once, so that dice typed blind land in it: the
                    # hit opens over it when they are sent (check), then they resolve.
                    self.action_type_dice()
                else:
                    self.settle_first(getattr(self, f"action_{action}"))
                return

    def _dice_to_type(self) -> bool:
        """Whether the acting step has dice the DJ may type now (not an automatic one)."""
        group = self.state.current_group()
        if not group:
            return False
        step = self._acting_step(group)
        return self.state.step_action(step).kind is not ActionKind.AUTOMATIC

    def _keys_of(self, binding_id: str) -> list[str]:
        return (self.keymap.get(binding_id) or keys.BY_ID[binding_id].keys).split(",")

    def action_forecast(self) -> None:
        """What the coming asaltos hold (ask.forecast), and the DJ's notes: each change
        runs here as the DJ makes it (the dialog stays open)."""
        from sombra_tui.screens.dialogs.forecast import ForecastDialog
        forecast = ForecastDialog(lambda: self.state, self.check)
        forecast.keep_draft = self.session.keep_draft  # its note form keeps its draft
        self.open_dialog(forecast, self.run_command)

    def action_sheet(self) -> None:
        """The selected character's sheet: wounds, conditions, weapons, with their keys."""
        name = self.selected()
        if name is None:
            return
        from sombra_tui.screens.dialogs.sheet import CharacterSheet
        sheet = CharacterSheet(lambda: self.state, name, self.check)
        sheet.keep_draft = self.session.keep_draft  # its forms keep their drafts
        self.open_dialog(sheet, self.run_command)

    def action_reveal_character(self) -> None:
        """The players' view shows the selected character (as v on its sheet)."""
        name = self.selected()
        if name is not None:
            self.run_command(c.RevealCharacter(character=name))

    def action_hide_character(self) -> None:
        """The players' view leaves the selected character out until shown again."""
        name = self.selected()
        if name is not None:
            self.run_command(c.HideCharacter(character=name))

    def action_manual_hit(self) -> None:
        name = self.selected()
        if name is None:
            return
        from sombra_tui.screens.dialogs.hit import ManualHitDialog
        dialog = ManualHitDialog(name, self.check)
        self._keeps_draft(dialog, "manual_hit", name)
        self.open_dialog(dialog, self.run_command)

    def action_quick_points(self, sign: str) -> None:
        """Quick damage or healing on the selected row (issue 39 item 4)."""
        if (name := self.selected()) is not None:
            from sombra_tui.screens.dialogs.quick_points import QuickPointsDialog
            dialog = QuickPointsDialog(self.state, name, sign, self.check)
            self._keeps_draft(dialog, "quick_points", name)  # a resume brings it back
            self.open_dialog(dialog, self.run_command)

    # ---- declaration phase ------------------------------------------------------------

    def open_dialog(self, dialog: Dialog[ResultT], then: Callable[[ResultT], object]) -> None:
        """Push `dialog` now (not from a worker): the keys the DJ types next already
        go to it, none to the main screen's bindings; `then` gets a non-None result
        (each one, for a dialog that stays open across several: Dialog.deliver)."""
        def done(result: ResultT | None) -> None:
            if result is not None:
                then(result)
        dialog.results_to = done
        self.app.push_screen(dialog, callback=done)

    def action_declare(self) -> None:
        declarer = self.state.current_declarer
        if declarer is None:
            if self.state.top_prompt is not None:
                self.notify(_("First settle {name}'s reacción prompt.").format(
                    name=self.state.top_prompt.reactor),
                            severity="warning")
            else:
                self.notify(_("Everyone has declared: {next} resolves the round.").format(
                    next=self.key_in_force("next_step")))
            return
        dialog: DeclarationEditor = self.shelf.take(*self._declaration_use(declarer))
        self._keeps_draft(dialog, "declaration", declarer)
        self.open_dialog(dialog, self.run_command)

    def _declaration_use(self, declarer: str) -> tuple[str, Callable[[], Any],
                                                       Callable[[Any], bool]]:
        """The shelf's key, maker and fill of `declarer`'s declaration dialog."""
        state, check = self.state, self.check
        return (*self._shelved("declaration"),
                lambda kept: kept.fill(state, declarer, check))

    def action_react(self) -> None:
        prompt = self.state.top_prompt
        if prompt is None:
            self.notify(_("No reacción prompt is open."), severity="warning")
            return
        dialog: ReactionDialog = self.shelf.take(*self._reaction_use(prompt))
        self._keeps_draft(dialog, "reaction", prompt.reactor)
        if getattr(self._last_command(), "character", None) != prompt.reactor:
            # A question to someone new (a contrarreacción after a reacción): keys typed
            # before it showed were meant for what came before (issue 35 item 4).
            dialog.refuse_typed_ahead(prompt.reactor)
        self.open_dialog(dialog, self.run_command)

    def _last_command(self) -> c.Command | None:
        commands = self.session.combat.commands
        return commands[-1] if commands else None

    def _reaction_use(self, prompt: Prompt) -> tuple[str, Callable[[], Any],
                                                     Callable[[Any], bool]]:
        """The shelf's key, maker and fill of the reacción dialog of `prompt`."""
        state, check, roll = self.state, self.check, self.session.combat.roll
        return (*self._shelved("reaction", state.table_rolls(prompt.reactor)),
                lambda kept: kept.fill(state, prompt, check, roll))

    def action_decline(self) -> None:
        prompt = self.state.top_prompt
        if prompt is None:
            self.notify(_("No reacción prompt is open."), severity="warning")
            return
        self.run_command(c.Decline(character=prompt.reactor))

    def action_deny_prompt(self) -> None:
        prompt = self.state.top_prompt
        if prompt is None:
            self.notify(_("No reacción prompt is open."), severity="warning")
            return
        self.run_command(c.DenyPrompt(character=prompt.reactor))

    def action_allow_prompt(self) -> None:
        """D12: let the selected character react to the latest declaration."""
        name = self.selected()
        state = self.state
        if name is None:
            return
        latest = max(state.declarations.values(), key=lambda d: d.id, default=None)
        if latest is None:
            self.notify(_("Nobody has declared yet this round."), severity="warning")
            return
        self.run_command(c.AllowPrompt(character=name, against=latest.author))

    # ---- resolution phases -------------------------------------------------------------

    def _current_step_character(self) -> str | None:
        group = self.state.current_group()
        if not group:
            self.notify(_("Nothing left to resolve in this phase: {next} moves on.").format(
                next=self.key_in_force("next_step")))
            return None
        return self._acting_step(group).character

    def _acting_step(self, group: list[Step]) -> Step:
        """The step of the acting group the DJ's keys act on: the selected character's,
        else the first."""
        selected = self.selected(quiet=True)
        return next((step for step in group if step.character == selected), group[0])

    def action_roll(self) -> None:
        """Resolve the acting character's step with the seeded roller (T6)."""
        name = self._current_step_character()
        if name is None:
            return
        state = self.state
        step = next(s for s in state.current_group() if s.character == name)
        action = state.step_action(step)
        if action.kind is ActionKind.AUTOMATIC:  # T7: nothing to roll
            self.run_command(c.Resolve(character=name))
            return
        if self._opposed(step):
            self.action_type_dice()
            return
        command = c.Resolve(character=name, dice=self.session.combat.roll())
        problem = self.check(command)
        if problem is None:
            self.resolve(command)
        else:  # e.g. no target value yet: ask for it
            self.action_type_dice()

    def action_type_dice(self) -> None:
        name = self._current_step_character()
        if name is None:
            return
        state = self.state
        step = next(s for s in state.current_group() if s.character == name)
        action = state.step_action(step)
        combat = self.session.combat
        if action.kind is ActionKind.AUTOMATIC:
            self.run_command(c.Resolve(character=name))
            return
        if self._opposed(step):
            from sombra_tui.screens.dialogs.opposed import OpposedDialog
            opposed = OpposedDialog(state, step, self.check, combat.roller)
            self._keeps_draft(opposed, "ta", step.character)  # reopened as a TA is
            self.open_dialog(opposed, self._opposed_result)
            return
        from sombra_tui.screens.dialogs.group_rolls import RollsHost, open_group_rolls
        if open_group_rolls(state, name, RollsHost(  # issue 39 item 3: alike TAs together
                self.check, combat.roller, self.open_dialog, self.run_command,
                self.settle_first)):
            return
        # Not opposed, or nobody able is left to oppose it: the character's own TA.
        dialog: TADialog = self.shelf.take(*self._ta_use(step))
        self._keeps_draft(dialog, "ta", step.character)
        self.open_dialog(dialog, self.resolve)

    def _ta_use(self, step: Step) -> tuple[str, Callable[[], Any], Callable[[Any], bool]]:
        """The shelf's key, maker and fill of the TA dialog of `step`."""
        state, check, roll = self.state, self.check, self.session.combat.roll
        return (*self._shelved("ta", state.table_rolls(step.character)),
                lambda kept: kept.fill(state, step, check, roll))

    def _opposed_result(self, opposed: c.ResolveOpposed) -> None:
        """Run the opposed resolution, then its result dialog (O4, the DJ's decision)."""
        self._show_opposed_result(opposed, self.run_command(opposed))

    def _show_opposed_result(self, opposed: c.ResolveOpposed,
                             events: list[LogEvent] | None) -> None:
        """The result dialog of `events`, shown again after each winner the DJ decides;
        once the outcome is read, the winning attack's hit (H1)."""
        if not events:
            self.open_hits()
            return

        from sombra_tui.screens.dialogs.opposed import OpposedResultDialog, ResultChoice

        def chosen(result: ResultChoice | None) -> None:
            if result is None:  # escape: the result read, nothing more to do
                self.open_hits()
                return
            choice, who = result
            if choice == "confirm":  # O4: the sentinel's confirming TA
                self.free_ta_for(who, events)
                return
            if choice != "winner":
                self.open_hits()
                return
            decided = ask.decide_opposed(opposed, events, who)
            self._show_opposed_result(decided, self._give_outcome(decided))

        self.app.push_screen(OpposedResultDialog(events), chosen)

    def _opposed(self, step: Step) -> bool:
        """An opposed step with someone able left to oppose it (else it is a plain TA)."""
        return ask.is_opposed(self.state, step)

    def _give_outcome(self, decided: c.ResolveOpposed) -> list[LogEvent] | None:
        """T5: the DJ's decision runs in place of the opposed command (same dice); a
        refusal is shown and nothing changes."""
        try:
            events = self.session.replace_last(decided)
        except SombraError as error:
            self.notify(str(error), title=_("Not allowed"), severity="error")
            return None
        self._changed()
        return events

    def free_ta_for(self, name: str, events: list[LogEvent]) -> None:
        """O4: the sentinel's confirming TA, against the value its last TA rolled under."""
        self.action_free_ta(name, ask.confirm_target(events, name),
                            _("confirms the suspicion"))

    def action_free_ta(self, name: str | None = None, target: int | None = None,
                       label: str = "") -> None:
        """The DJ asks any character for a TA outside the steps (perception, first aid,
        O4's confirming TA)."""
        state = self.state
        if not state.characters:
            self.notify(_("Add a character first."), severity="warning")
            return
        who = name if name is not None else self.selected(quiet=True)
        from sombra_tui.screens.dialogs.free_ta import FreeTADialog
        dialog = FreeTADialog(state, who, self.check, self.session.combat.roll,
                              target=target, label=label)
        self._keeps_draft(dialog, "free_ta", who or "")
        self.open_dialog(dialog, self.run_command)

    # ---- marks ------------------------------------------------------------------------

    def selected(self, *, quiet: bool = False) -> str | None:
        name = self.query_one(InitiativeTable).selected_name
        if name is None and not quiet:
            self.notify(_("Select a character first (arrow keys)."), severity="warning")
        return name

    def action_prevent(self) -> None:
        name = self.selected()
        if name is None:
            return
        mark = c.Mark.UNPREVENT if name in self.state.prevented else c.Mark.PREVENTED
        self.run_command(c.SetMark(character=name, mark=mark))

    def action_toggle_out(self) -> None:
        name = self.selected()
        if name is None:
            return
        mark = c.Mark.BACK if name in self.state.out else c.Mark.OUT
        self.run_command(c.SetMark(character=name, mark=mark))

    # ---- history --------------------------------------------------------------------

    def action_undo(self) -> None:
        self._travel(self.session.undo, _("Undone: {command}"))

    def action_redo(self) -> None:
        self._travel(self.session.redo, _("Redone: {command}"))

    def _travel(self, step: Callable[[], c.Command], message: str) -> None:
        """One step through the history (undo or redo), told in `message`."""
        try:
            command = step()
        except SombraError as error:
            self.notify(str(error), severity="warning")
            return
        self.notify(message.format(command=ask.command_label(command)), timeout=3)
        self._changed()

    # ---- characters, extended actions, settings ---------------------------------------------

    def action_add_character(self) -> None:
        """A new character; "4 Matón" adds Matón 1 ... Matón 4 as one command."""
        def command(character: Character) -> c.Command:
            if editor.count is None:
                return c.AddCharacter(character=character)
            return c.AddCharacters(character=character, count=editor.count)

        from sombra_tui.screens.dialogs.character import CharacterEditor
        editor = CharacterEditor(None, lambda ch: self.check(command(ch)), many=True,
                                 state=self.state, side=ask.new_character_side(
                                     self.state, self.selected(quiet=True)))
        editor.command_of = command  # its summary line: the command it adds (D2)
        self._keeps_draft(editor, "character", "")
        self.open_dialog(editor, lambda ch: self._add(command(ch)))

    def action_duplicate_character(self) -> None:
        """A copy of the selected row's sheet, numbered ("Matón 2" -> the next Matón)."""
        name = self.selected()
        if name is None:
            return
        character = self.state.character(name)
        assert character is not None
        self._add(c.AddCharacters(character=character, count=1))

    def _add(self, command: c.Command) -> None:
        events = self.run_command(command)
        added = [event.actor for event in events or () if event.actor]
        if added:
            self.query_one(InitiativeTable).select_name(added[0])
            if len(added) > 1:
                self.notify(_("Added {count} characters: {names}.").format(
                    count=len(added), names=", ".join(added)), timeout=4)

    def action_edit_character(self) -> None:
        name = self.selected()
        if name is None:
            return
        character = self.state.character(name)
        assert character is not None

        def edited(result: Character) -> None:
            if result != character:
                self.run_command(c.EditCharacter(name=name, character=result))
        from sombra_tui.screens.dialogs.character import CharacterEditor
        editor = CharacterEditor(
            character, lambda ch: self.check(c.EditCharacter(name=name, character=ch)),
            state=self.state)
        editor.command_of = lambda ch: c.EditCharacter(name=name, character=ch)
        self._keeps_draft(editor, "character", name)
        self.open_dialog(editor, edited)

    def action_remove_character(self) -> None:
        name = self.selected()
        if name is None:
            return

        def answered(sure: bool) -> None:
            if sure:
                self.run_command(c.RemoveCharacter(name=name))
        from sombra_tui.screens.dialogs.confirm import ConfirmDialog
        self.open_dialog(ConfirmDialog(
            _("Remove {name} from the encounter? The log keeps what {name} did; undo ({undo}) "
              "brings them back.").format(name=name, undo=self.key_in_force("undo")),
            yes=_("Remove")), answered)

    def action_adjust_extended(self) -> None:
        active = [p for p in self.state.extended if p.status is ExtendedStatus.ACTIVE]
        if not active:
            self.notify(_("No extended action is running."), severity="warning")
            return
        name = self.selected(quiet=True)
        self.adjust_extended(next((p for p in active if p.owner == name), active[0]).id)

    def adjust_extended(self, extended_id: int) -> None:
        """The extended action `extended_id`'s form, if it is still running."""
        chosen = next((p for p in self.state.extended if p.id == extended_id
                       and p.status is ExtendedStatus.ACTIVE), None)
        if chosen is None:
            return
        from sombra_tui.screens.dialogs.extended import ExtendedDialog
        dialog = ExtendedDialog(chosen, self.check)
        self._keeps_draft(dialog, "extended", chosen.owner, chosen.id)
        self.open_dialog(dialog, self.run_command)

    def action_settings(self) -> None:
        state = self.state

        def apply(commands: list[c.Command]) -> None:
            for command in commands:
                self.run_command(command)
        from sombra_tui.screens.dialogs.settings import SettingsDialog
        dialog = SettingsDialog(state.name, state.settings, self.check,
                                started=state.phase is not Phase.SETUP)
        self._keeps_draft(dialog, "settings", "")
        self.open_dialog(dialog, apply)

    # ---- a form left open when sombra-tui stopped (issue 35 item 5) --------------------

    def _keeps_draft(self, dialog: Dialog[Any], kind: str, who: str, *item: int) -> None:
        """While the DJ types in `dialog`, its fields are kept beside the journal (with
        the `item` it is about, an extended action's id)."""
        dialog.draft_for = (kind, who, *item)
        dialog.keep_draft = self.session.keep_draft

    def reopen_draft(self, tries: int = SETTLE_TURNS) -> None:
        """After a resume: the form the DJ was typing in when sombra-tui stopped, with
        what was typed, if its command still applies; else a notice with its text."""
        if self.app.screen is not self:  # the offer to resume is still closing
            if tries:
                self.call_after_refresh(self.reopen_draft, tries - 1)
            else:  # a pending hit opened first: once it is closed (on_screen_resume)
                self._draft_waits = True
            return
        if self.state.proposals:  # a pending hit (or question) first, as after the TA
            self._draft_waits = True
            return
        self._draft_waits = False
        draft = self.session.resumed_draft()
        if draft is None:
            return
        from sombra_tui.screens.dialogs.keeping import draft_text
        kind, who, values = draft.get("dialog"), draft.get("who"), draft.get("values")
        item = draft.get("item")  # what the form was about: a wound's id, say (or none)
        if not isinstance(values, dict) or not isinstance(who, str):
            return
        dialog = self._open_for_draft(str(kind), who, *(
            (item,) if isinstance(item, int) else ()))
        if dialog is None:
            self.notify(_("The form left open when sombra-tui stopped no longer applies; "
                          "it held: {text}").format(text=draft_text(values) or "—"),
                        severity="warning", timeout=20)
            return
        for index in range(1, sum(1 for key in values if key.endswith("-description"))):
            if hasattr(dialog, "action_add_action") and index < 4:
                dialog.action_add_action()
        self.call_after_refresh(self._write_draft, dialog, values, 2)

    def _open_for_draft(self, kind: str, who: str, *item: int) -> Dialog[Any] | None:
        state = self.state
        prompt = state.top_prompt
        if kind == "declaration" and state.current_declarer == who:
            self.action_declare()
        elif kind == "reaction" and prompt is not None and prompt.reactor == who:
            self.action_react()
        elif kind == "ta" and who in {step.character for step in state.current_group()}:
            self.query_one(InitiativeTable).select_name(who)
            self.action_type_dice()
        elif kind in ("manual_hit", "free_ta") and (
                not who or state.character(who) is not None) and state.characters:
            if who:
                self.query_one(InitiativeTable).select_name(who)
            (self.action_manual_hit if kind == "manual_hit" else self.action_free_ta)()
        elif kind == "quick_points" and state.character(who) is not None:
            self.query_one(InitiativeTable).select_name(who)
            self.action_quick_points("")  # the draft brings the line back, sign and all
        elif kind in DIALOG_FORMS and (not who or state.character(who) is not None):
            if who:  # the sheet is the selected character's
                self.query_one(InitiativeTable).select_name(who)
            opens, form = DIALOG_FORMS[kind]
            getattr(self, opens)()
            getattr(self.app.screen, form)(*item)  # that dialog's own key for the form
        elif kind in SCREEN_FORMS:
            getattr(self, SCREEN_FORMS[kind])(*item)
        elif kind == "character" and (not who or state.character(who) is not None):
            if who:
                self.query_one(InitiativeTable).select_name(who)
            (self.action_edit_character if who else self.action_add_character)()
        else:
            return None
        from sombra_tui.screens.dialogs.base import Dialog
        screen = self.app.screen
        return screen if isinstance(screen, Dialog) and screen.draft_for == (
            kind, who, *item) else None

    def _write_draft(self, dialog: Dialog[Any], values: dict[str, Any], passes: int) -> None:
        """Put the draft's values in `dialog`; what is not built yet (a section its
        choices open) in a later pass."""
        from sombra_tui.screens.dialogs.keeping import write_values
        missing = write_values(dialog, values)
        if missing and passes > 1:
            self.call_after_refresh(self._write_draft, dialog,
                                    {key: values[key] for key in missing}, passes - 1)

    @on(InitiativeTable.CursorMoved)
    def _cursor_moved(self) -> None:
        """The queue panel shows the selected character's whole declaration; the row
        the DJ chose is kept for a resume (ui_state)."""
        table = self.query_one(InitiativeTable)
        self.query_one(DeclarationQueue).show_state(self.state, table.selected_name)
        self.remember_cursor()

    def remember_cursor(self) -> None:
        """Keep the row the DJ chose (or that they chose none) under the encounter's
        file and journal, so a resume or a reopening puts the cursor back there."""
        table = self.query_one(InitiativeTable)
        name = table.selected_name
        cursor = (Cursor(name, self.state.round)
                  if table.dj_chose and name is not None else None)
        if cursor != self._remembered:
            self._remembered = cursor
            self.session.keep_cursor(cursor)

    def _recall_cursor(self) -> None:
        """A session shown for the first time: the cursor where the DJ left it, if they
        had chosen a row in this asalto (otherwise it follows the play, as it did)."""
        cursor = self.session.kept_cursor()
        table = self.query_one(InitiativeTable)
        if cursor is not None and cursor.round == self.state.round \
                and self.state.character(cursor.name) is not None:
            table.select_name(cursor.name)
            table.dj_chose = True
        self._remembered = cursor

    @on(InitiativeTable.RowSelected)
    def _row_selected(self) -> None:
        """Enter on a row edits the character."""
        self.action_edit_character()

