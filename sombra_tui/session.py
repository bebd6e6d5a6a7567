"""The open encounter: a Combat plus where it is saved, whether it changed, and its
crash journal. No Textual here: the app holds one Session and renders it."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from sombra_tui import ui_state
from sombra_tui.engine import Combat, Command, Encounter, LogEvent, SombraError, ask, i18n
from sombra_tui.engine.i18n import N_
from sombra_tui.memory import release_freed_memory

if TYPE_CHECKING:
    from sombra_tui.engine import Journal, PlayersSnapshot, Prompt, Recovered

# Issue 24 item 5 (cold start): the file format (storage), the crash journal and the
# players' view are loaded where they are first used, not by the first screen (the app
# loads them once that screen is drawn).

#: Hexadecimal digits made letters (the players' key, below).
_LETTERS = str.maketrans("0123456789", "ghijklmnop")
#: Called with the players' snapshot after every change (issue 23).
PlayersListener = Callable[["PlayersSnapshot"], None]

class Session:
    def __init__(self, combat: Combat, path: Path | None = None) -> None:
        self.combat = combat
        self.path = path
        # A fresh encounter with no history has nothing to lose yet.
        self._saved_marker = (self._marker() if path is not None or not combat.commands
                              else None)
        self.journal: Journal | None = None
        #: Set when the journal could not be written: the app warns once.
        self.journal_problem: str | None = None
        #: Issue 23: who gets the players' snapshot after every change, and the last
        #: one built (rebuilt only when the combat changed or the language did).
        self._players_listeners: list[PlayersListener] = []
        #: Names this combat in the players' snapshots (issue 39 item 6): a second
        #: terminal says when another one appears at the same address. The one its file
        #: or journal keeps (Combat.identity), so that a save as, a restart or a resume
        #: is the same combat; for a file written before that, from the file's place (as
        #: it was named then), else drawn at random. Saving keeps it in the file.
        #: Letters only: no number in it can be mistaken for a value of the sheets.
        if combat.identity is None:
            key = (hashlib.sha256(str(Path(path).resolve()).encode()).hexdigest()[:12]
                   if path is not None else secrets.token_hex(6))
            combat.identity = key.translate(_LETTERS)
        self.players_key = combat.identity
        #: Told that the combat changed, without a snapshot: they ask for one when they
        #: want it (the page's server, once the DJ's screen is drawn).
        self._players_watchers: list[Callable[[], None]] = []
        self._players_cache: PlayersSnapshot | None = None
        #: The DJ's open reacción dialog (issue 37 item 3): the prompt it answers and the
        #: Base GD and DJ grades typed in it (None while one is not a number); the
        #: players' odds read them while that prompt is the open one. None: no dialog.
        self._grades_typed: tuple[Prompt, tuple[int, int] | None] | None = None
        #: What the keys may do (ask.offers), and the combat and revision it is for.
        self._offers: tuple[Combat, int, ask.Offers] | None = None
        #: Set when a players' listener failed: the combat went on (the DJ is told).
        self.players_problem: str | None = None
        #: The crash journal this session was resumed from (None: not a resumed one).
        self.resumed_from: Path | None = None

    @classmethod
    def new(cls, encounter: Encounter) -> Session:
        return cls(Combat(encounter))

    @classmethod
    def create(cls, path: Path, encounter: Encounter | None = None) -> Session:
        """A new encounter (empty unless given) saved at once to `path`, a file that
        does not exist yet; a missing folder or a failed write raises SombraError."""
        path = Path(path)
        if path.exists():
            raise SombraError(N_("{path} already exists: open it instead."),
                              code="session.exists", params={"path": str(path)})
        if not path.parent.is_dir():
            raise SombraError(N_("Cannot create {path}: the folder {folder} does not exist."),
                              code="session.no_folder",
                              params={"path": str(path), "folder": str(path.parent)})
        if encounter is None:
            encounter = Encounter(name=(path.stem.strip() or "Encuentro")[:80])
        session = cls(Combat(encounter), path)
        session.save(path)
        return session

    @classmethod
    def open(cls, path: Path) -> Session:
        """The encounter in `path`, shown at once from its snapshot when it keeps one
        and checked by a replay after the first frame (issue 24; see checked())."""
        from sombra_tui.engine import load

        combat = load(path, background=True)
        release_freed_memory()  # what reading the file freed
        return cls(combat, path)

    async def checked(self) -> str | None:
        """Issue 24: run the check of a combat opened from a snapshot a step at a time,
        letting the event loop in between (the DJ's keys and the screen go on), then
        settle it: the log appears, and the replayed state replaces the snapshot if
        they differ. Returns what the DJ must be told, once (None when all is well).
        A command the DJ gives meanwhile finishes the check first (Combat.settle) and
        is kept; opening another encounter leaves this check unfinished."""
        combat = self.combat
        while combat is self.combat and not combat.check_step():
            release_freed_memory()  # what the step freed (about 0.03 ms)
            await asyncio.sleep(0)
        if combat is not self.combat:  # another encounter was opened meanwhile
            return None
        revision = combat.revision
        self._settle()
        release_freed_memory()  # what the check's replay freed
        if combat.revision != revision:
            self._changed()
        problem, combat.check_problem = combat.check_problem, None
        return None if problem is None else problem.render()

    @classmethod
    def recovered(cls, recovered: Recovered) -> Session:
        session = cls(recovered.combat, recovered.saved_path)
        session.resumed_from = recovered.source
        if not recovered.clean:
            session._saved_marker = None  # what the journal held was never saved
        return session

    # The saved marker is the history's length and last command object: undo
    # then redo puts the same object back, so the file counts as unchanged.
    def _marker(self) -> tuple[int, int, int]:
        commands = self.combat.commands
        return (len(commands), id(commands[-1]) if commands else 0,
                len(self.combat.redo_stack))

    @property
    def dirty(self) -> bool:
        return self._saved_marker != self._marker()

    @property
    def name(self) -> str:
        return self.combat.state.name

    # ---- the screen's own state of this encounter (ui_state) ---------------------------

    def _ui_keys(self) -> list[str]:
        """The journal it was resumed from first (the latest), then its file and its
        journal."""
        keys = [ui_state.journal_key(self.resumed_from)] if self.resumed_from else []
        if self.path is not None:
            keys.append(ui_state.file_key(self.path))
        if self.journal is not None:
            keys.append(ui_state.journal_key(self.journal.path))
        return keys

    def keep_cursor(self, cursor: ui_state.Cursor | None) -> None:
        """Keep the table row the DJ chose (None: none) for a resume or a reopening."""
        ui_state.remember(self._ui_keys(), cursor)

    def kept_cursor(self) -> ui_state.Cursor | None:
        return ui_state.recall(self._ui_keys())

    def keep_draft(self, draft: dict[str, object] | None) -> None:
        """Keep the form the DJ is typing in (None: closed) beside the journal, for a
        resume after a crash (issue 35 item 5); nowhere without a journal."""
        if self.journal is not None:
            ui_state.remember_draft(ui_state.journal_key(self.journal.path), draft)

    def resumed_draft(self) -> dict[str, object] | None:
        """The form left open when the combat this one resumes stopped, taken once."""
        if self.resumed_from is None:
            return None
        key = ui_state.journal_key(self.resumed_from)
        draft = ui_state.recall_draft(key)
        if draft is not None:
            ui_state.remember_draft(key, None)
        return draft

    def keep_group_dice(self, dice: dict[str, str]) -> None:
        """Keep the dice typed for a group's members not sent yet (by name; empty: none)
        beside the journal, in their own slot: another form kept meanwhile does not
        replace them (issue 39 item 3, H1); nowhere without a journal."""
        if self.journal is not None:
            ui_state.remember_group_dice(ui_state.journal_key(self.journal.path), dice)

    def resumed_group_dice(self) -> dict[str, str]:
        """The dice typed for a group's members not sent yet when the combat this one
        resumes stopped, taken once; a draft of their dialog (which also held them) is
        read too, but left for its form."""
        if self.resumed_from is None:
            return {}
        key = ui_state.journal_key(self.resumed_from)
        dice = ui_state.recall_group_dice(key)
        ui_state.remember_group_dice(key, {})
        group = (ui_state.recall_draft(key) or {}).get("group")
        if isinstance(group, dict):
            dice.update({name: typed for name, typed in group.items()
                         if isinstance(typed, str) and typed})
        return dice

    def _settle(self) -> None:
        """Finish the check of a combat opened from a snapshot (Combat.settle). If it
        cut the history (a command that does not replay), the journal restarts from
        the combat as it now is, so that recovery replays what the DJ sees."""
        combat = self.combat
        if not combat.checking:
            return
        count = len(combat.commands)
        combat.settle()
        if len(combat.commands) != count and self.journal is not None:
            folder = self.journal.path.parent
            self.discard_journal()
            self.start_journal(folder)

    # ---- journal ------------------------------------------------------------------

    def start_journal(self, folder: Path) -> None:
        """Journal every change from now on (crash recovery)."""
        try:
            # A resumed combat that was never saved is journaled as unsaved, so that a
            # crash before the next save still offers it (issue 9).
            from sombra_tui.engine import Journal

            self.journal = Journal.start(folder, self.combat, self.path,
                                         unsaved=self.dirty)
        except SombraError as error:
            self.journal = None
            self.journal_problem = str(error)

    def discard_journal(self) -> None:
        if self.journal is not None:
            self.journal.discard()
            self.journal = None

    @contextlib.contextmanager
    def _journal_guard(self) -> Iterator[None]:
        """Around a journal write: if it fails, the combat goes on in memory, the
        journal stops and the DJ is told that recovery is off (journal_problem)."""
        try:
            yield
        except SombraError as error:
            self.journal_problem = str(error)
            self.journal = None

    def offers(self) -> ask.Offers:
        """What the keys may do now (ask.offers), worked out once per state revision
        (Combat.revision: every command, undo and redo) and read by the main screen's
        check_action, its footer and the palette (issue 36)."""
        combat, cached = self.combat, self._offers
        if cached is None or cached[0] is not combat or cached[1] != combat.revision:
            cached = self._offers = (combat, combat.revision, ask.offers(combat.state))
        return cached[2]

    # ---- the players' view (issue 23) ------------------------------------------------

    def players_snapshot(self) -> PlayersSnapshot:
        """The players' view of the combat now; its sequence is Combat.revision, which
        every command, undo and redo increases."""
        cached = self._players_cache
        if (cached is None or cached.sequence != self.combat.revision
                or cached.language != i18n.language()):
            cached = ask.players_view(self.combat.state, self.combat.log_view(),
                                      self.combat.revision, self.players_key,
                                      grades=self._grades_now())
            self._players_cache = cached
        return cached

    def _grades_now(self) -> tuple[int, int] | None:
        """The grades the players' odds read: the DJ's dialog's while the prompt it
        answers is the open one, else none typed (0, 0)."""
        typed = self._grades_typed
        if typed is None or typed[0] != self.combat.state.top_prompt:
            return (0, 0)
        return typed[1]

    def grades_typed(self, prompt: Prompt | None,
                     grades: tuple[int, int] | None = (0, 0)) -> None:
        """The DJ typed the Base GD and DJ grades `grades` (None: one is not a number
        yet) in the reacción dialog that answers `prompt`, or closed it (`prompt`
        None): the players' view is told at once, and its odds read them while that
        prompt is open, so they never disagree with the DJ's dialog (issue 37 item 3)."""
        typed = None if prompt is None else (prompt, grades)
        if typed == self._grades_typed:
            return
        self._grades_typed = typed
        self._players_cache = None
        self._changed()

    def add_players_listener(self, listener: PlayersListener) -> Callable[[], None]:
        """Call `listener` with the players' snapshot after every command, undo and redo,
        and as the DJ types a reacción's grades (grades_typed) (the page's event stream,
        a second terminal); returns what stops it."""
        self._players_listeners.append(listener)

        def stop() -> None:
            if listener in self._players_listeners:
                self._players_listeners.remove(listener)
        return stop

    def add_players_watcher(self, watcher: Callable[[], None]) -> Callable[[], None]:
        """Call `watcher` (with nothing) after every command, undo and redo, and as the
        DJ types a reacción's grades (grades_typed); it reads
        players_snapshot() later, when it wants it, so the snapshot is not built before
        the DJ's screen (issue 23); returns what stops it."""
        self._players_watchers.append(watcher)

        def stop() -> None:
            if watcher in self._players_watchers:
                self._players_watchers.remove(watcher)
        return stop

    def _changed(self) -> None:
        for watcher in list(self._players_watchers):
            try:
                watcher()
            except Exception as error:  # a reader's fault never stops the DJ's combat
                self.players_problem = str(error) or type(error).__name__
        if not self._players_listeners:
            return
        snapshot = self.players_snapshot()
        for listener in list(self._players_listeners):
            try:
                listener(snapshot)
            except Exception as error:  # a reader's fault never stops the DJ's combat
                self.players_problem = str(error) or type(error).__name__

    # ---- changes ------------------------------------------------------------------

    def execute(self, command: Command) -> list[LogEvent]:
        self._settle()  # first: the journal follows what the check gives
        events = self.combat.execute(command)
        if self.journal is not None:
            with self._journal_guard():
                self.journal.record(command, self.combat.dice_drawn)
        self._changed()
        return events

    def undo(self) -> Command:
        self._settle()  # first: the journal follows what the check gives
        command = self.combat.undo()
        if self.journal is not None:
            with self._journal_guard():
                self.journal.record_undo()
        self._changed()
        return command

    def redo(self) -> Command:
        self._settle()  # first: the journal follows what the check gives
        command = self.combat.redo()
        if self.journal is not None:
            with self._journal_guard():
                self.journal.record_redo()
        self._changed()
        return command

    def replace_last(self, command: Command) -> list[LogEvent]:
        """Combat.replace_last, journaled as its steps: undo, then the command; if the
        command is refused, undo and redo (the last command back), and the error raised.
        Made of undo, execute and redo so the journal replays to the same state."""
        self.undo()
        try:
            return self.execute(command)
        except SombraError:
            self.redo()
            raise

    def save(self, path: Path | None = None) -> Path:
        target = path or self.path
        self._settle()
        if target is None:
            raise SombraError(N_("Choose where to save the encounter first (save as)."),
                              code="session.no_path")
        from sombra_tui.engine import save

        save(self.combat, target)
        # Saved as another file: the cursor kept for this combat goes with it, so that
        # the app started on the new file puts it back (ui_state keeps it per file).
        cursor = self.kept_cursor() if target != self.path else None
        self.path = target
        if cursor is not None:
            self.keep_cursor(cursor)
        self._saved_marker = self._marker()
        if self.journal is not None:
            with self._journal_guard():
                self.journal.record_saved(target)
        return target
