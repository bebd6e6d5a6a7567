"""The command history: state is the replay of commands over the encounter (S1).

`Combat` is what a UI holds. It executes commands atomically (a refused
command leaves everything as it was), keeps the log, and undoes or redoes any
command without replaying the history: the states before the last few commands
are kept, so undoing one of them is a swap, and so is redoing it (issue 24);
further back, the nearest checkpoint is replayed, never the start.
"""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from sombra_tui.engine import machine
from sombra_tui.engine.commands import Command, StartCombat
from sombra_tui.engine.dice import Dice, DiceRoller
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import LogEvent
from sombra_tui.engine.i18n import N_, Msg
from sombra_tui.engine.model import Encounter
from sombra_tui.engine.state import CombatState

#: A full copy of the state is kept every this many commands. Each shares with the one
#: before it whatever did not change (CombatState.checkpoint). Undo is a swap (below),
#: so checkpoints serve only an undo past the kept states or after a load, which
#: replays at most this many commands once (~10 ms at 200 characters): 256 rather than
#: 64 quarters their memory (issue 24; 1,131 bytes per command at 128 in the bench).
CHECKPOINT_EVERY = 256
#: Issue 24: the states before this many of the last commands are kept, so undo is a
#: swap (a clone per command: ~0.1 ms and ~140 KB at 200 characters), and the states
#: after as many undone ones, so redo is a swap too. Undoing further replays from the
#: nearest checkpoint once and keeps the states it passes again.
UNDO_STATES = 16
#: Issue 24: the commands a step of a snapshot's check replays (~10 ms at 200
#: characters on the bench's machine: the app stays responsive between steps).
CHECK_STEP = 100
#: What the DJ is told when a file's snapshot is not the state its commands give.
SNAPSHOT_DIFFERS = N_("The state saved in the file is not what its commands give: the "
                      "encounter now shows the state the commands give, and its log.")


@contextmanager
def bulk() -> Iterator[None]:
    """Keep the cyclic garbage collector out of a replay.

    A replay creates tens of thousands of small, long-lived, acyclic objects (the
    log's events, declarations, results). With the collector on, each pass they
    trigger walks them again, and a replay took up to twice as long. So it is paused
    meanwhile; reference counting frees everything as usual, and the collector then
    runs as before.

    (It used to move everything to the oldest generation afterwards, freeze then
    unfreeze, unless the program had frozen objects itself. Importing sombra_tui
    freezes what was loaded before it (issue 24 item 5), so the program always has,
    and asking, `gc.get_freeze_count()`, walked every frozen object: 10-20 ms once the
    app is loaded, paid by every Combat made, the first screen's included, and by every
    step of a file's check.)
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Combat:
    """An encounter plus its command history, current state and log."""

    def __init__(self, encounter: Encounter, commands: Iterable[Command] = (),
                 redo: Iterable[Command] = (), *, dice_drawn: int = 0) -> None:
        self.encounter = encounter
        #: T6: how many rollers the tracker has handed out in this encounter (saved with
        #: it): each one starts from its own state of the generator.
        self.dice_drawn = dice_drawn
        self._commands: list[Command] = []
        self._events: list[list[LogEvent]] = []
        #: The log flattened (kept in step with _events: a UI asks for it after every
        #: command, and flattening ten thousand commands' events each time is slow).
        self._log: list[LogEvent] = []
        self._redo: list[Command] = list(redo)
        self._state = machine.initial_state(encounter)
        self._checkpoints: dict[int, CombatState] = {0: self._state.checkpoint(None)}
        #: Issue 24: the states before the last commands: _before[-1] is the state
        #: before _commands[-1], _before[-2] before _commands[-2], and so on (as many
        #: as were kept, up to UNDO_STATES). Never changed: undo puts one back as is.
        self._before: deque[CombatState] = deque(maxlen=UNDO_STATES)
        #: And for redo: the state after each of the last undone commands with its
        #: events (_after[-1] for _redo[-1], as many as were kept), so redo is a swap.
        self._after: deque[tuple[CombatState, list[LogEvent]]] = deque(maxlen=UNDO_STATES)
        #: What loading the file had to say once (an older format converted).
        self.notices: list[str] = []
        #: Issue 23: counts every command executed, undone or redone since this Combat
        #: was made (the players' view numbers its snapshots with it).
        self.revision = 0
        #: Issue 24: a combat opened from a file's snapshot is checked by a replay run
        #: after it is shown (see from_snapshot); None once checked (or never needed).
        self._check: _Check | None = None
        #: What the check found, once, if the snapshot was not what the commands give.
        self.check_problem: Msg | None = None
        with bulk():
            self._replay_to(list(commands), None)

    def _replay_to(self, commands: list[Command], stop: int | None) -> None:
        """Apply commands[len(self._commands):stop] (a history being replayed), with
        their events and checkpoints; SombraError names the first that does not replay
        (the combat is then unusable: its caller drops it)."""
        for index in range(len(self._commands), len(commands) if stop is None else stop):
            command = commands[index]
            try:
                self._commands.append(command)
                events = machine.apply(self._state, command)
                self._events.append(events)
                self._log.extend(events)
                self._maybe_checkpoint()
            except SombraError as error:
                raise SombraError(N_("Command {number} of the history ({command}) does "
                                     "not replay: {reason}"),
                                  code="history.replay_failed",
                                  params={"number": index + 1, "command": command.type,
                                          "reason": str(error)}) from error

    @classmethod
    def from_snapshot(cls, encounter: Encounter, commands: Iterable[Command],
                      redo: Iterable[Command], state: CombatState, *,
                      dice_drawn: int = 0) -> Combat:
        """Issue 24: a combat shown at once as `state` (the snapshot a file keeps of the
        state after its last command), and checked by the replay of `commands` over
        `encounter` on objects of its own, as loading always did, a step at a time
        (check_step: the app runs them between frames) or all at once (settle). The
        snapshot is never trusted further: the log is the replay's (empty until the
        check is done), and whatever changes the combat, reads its log's events or
        saves it first finishes the check. If the replay disagrees with the snapshot,
        the replayed state replaces it and check_problem says so; if a command does not
        replay, the combat is the history before it (check_problem names it)."""
        combat = cls(encounter, (), redo, dice_drawn=dice_drawn)
        combat._commands = list(commands)
        combat._state = state
        combat._check = _Check(encounter, list(combat._commands))
        return combat

    @property
    def checking(self) -> bool:
        """True while the snapshot's check has not been settled (log empty until then)."""
        return self._check is not None

    def check_step(self, count: int = 0) -> bool:
        """Replay the next `count` commands of the check (CHECK_STEP if 0), about 10 ms
        at 200 characters; True when the replay is over (settle then takes it)."""
        check = self._check
        return check is None or check.step(count or CHECK_STEP)

    def settle(self) -> None:
        """Finish the check and take its result: the log, the checkpoints and, if the
        snapshot disagreed, the replayed state and history (check_problem says why).
        A no-op once settled."""
        check = self._check
        if check is None:
            return
        check.step(None)
        self._check = None
        replayed = check.replayed
        self._events = replayed._events
        self._log = replayed._log
        self._checkpoints = replayed._checkpoints
        self._before = deque(maxlen=UNDO_STATES)
        if check.failure is not None:  # the history stops at a command that fails
            self._commands = replayed._commands
            self._redo.clear()
            self._after.clear()
            self._state = replayed._state
            self.check_problem = check.failure
        elif replayed._state != self._state:
            self._state = replayed._state
            self.check_problem = Msg(SNAPSHOT_DIFFERS)
        self.revision += 1

    # ---- reading ---------------------------------------------------------------

    @property
    def state(self) -> CombatState:
        return self._state

    @property
    def commands(self) -> list[Command]:
        return list(self._commands)

    @property
    def redo_stack(self) -> list[Command]:
        return list(self._redo)

    @property
    def log(self) -> list[LogEvent]:
        return list(self._log)

    def events_since(self, count: int) -> list[LogEvent]:
        """Events of the commands from index `count` on (for incremental UIs)."""
        self.settle()
        return [event for events in self._events[count:] for event in events]

    @property
    def can_undo(self) -> bool:
        return bool(self._commands)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    # ---- changing ----------------------------------------------------------------

    def execute(self, command: Command) -> list[LogEvent]:
        """Apply a command; on SombraError nothing changes. Clears the redo stack."""
        self.settle()
        events = self._apply(command)
        self._redo.clear()
        self._after.clear()
        self.revision += 1
        return events

    def preview(self, command: Command) -> list[LogEvent]:
        """The events `command` would emit, without applying it (SombraError if refused)."""
        self.settle()
        return machine.apply(self._state.clone(), command)

    def undo(self) -> Command:
        self.settle()
        if not self._commands:
            raise SombraError(N_("Nothing to undo."),
                              code="history.nothing_to_undo")
        if not self._before:
            self._refill()
        command = self._commands.pop()
        undone = self._events.pop()
        if undone:
            del self._log[-len(undone):]
        self._redo.append(command)
        self._after.append((self._state, undone))  # left as it is, for redo
        self._state = self._before.pop()  # the state before it, as the replay gives
        self._drop_checkpoints_after(len(self._commands))
        self.revision += 1
        return command

    def redo(self) -> Command:
        self.settle()
        if not self._redo:
            raise SombraError(N_("Nothing to redo."),
                              code="history.nothing_to_redo")
        command = self._redo[-1]
        if self._after:  # undone here: the state it left, untouched since (a swap)
            state, events = self._after.pop()
            self._before.append(self._state)
            self._state = state
            self._commands.append(command)
            self._events.append(events)
            self._log.extend(events)
            self._maybe_checkpoint()
        else:  # a redo stack read from a file, or past the kept states
            self._apply(command)
        self._redo.pop()
        self.revision += 1
        return command

    def replace_last(self, command: Command) -> list[LogEvent]:
        """Put `command` in the place of the last command (the DJ's decision on an
        opposed outcome, T5): undo, then execute. If `command` is refused, the last
        command is redone and the error raised, so the history, the redo stack and the
        state are as they were. On success the redo stack is cleared, as by execute."""
        self.undo()
        try:
            return self.execute(command)
        except SombraError:
            self.redo()
            raise

    # ---- dice -------------------------------------------------------------------

    def roller(self) -> DiceRoller:
        """A roller seeded by the encounter's seed and the number of rollers handed out
        before it (T6). Every call is a new draw: no two rolls of an encounter come from
        the same state of the generator, so dice shown in a dialog and then cancelled,
        or rolled for a command later undone, are never rolled again. The same seed and
        the same draws give the same dice (reproducible); the count is saved with the
        encounter, and the dice themselves are stored in the commands anyway."""
        draw = self.dice_drawn
        self.dice_drawn += 1
        return DiceRoller(f"{self.encounter.seed}#{draw}")

    def roll(self) -> Dice:
        return self.roller().roll()

    def start_command(self) -> StartCombat:
        """StartCombat with the I2 d10s rolled when iniciativa variable is on."""
        if not self._state.settings.iniciativa_variable:
            return StartCombat()
        roller = self.roller()
        return StartCombat(initiative_rolls={ch.name: roller.d10()
                                             for ch in self._state.characters})

    # ---- internals ----------------------------------------------------------------

    def _apply(self, command: Command) -> list[LogEvent]:
        # Applied in place to the live state; the state before is kept (a clone), for
        # undo and for a refusal, which puts it back.
        before = self._state.clone()
        try:
            events = machine.apply(self._state, command)
        except BaseException:
            self._state = before
            raise
        self._before.append(before)
        self._commands.append(command)
        self._events.append(events)
        self._log.extend(events)
        self._maybe_checkpoint()
        return events

    def _maybe_checkpoint(self) -> None:
        length = len(self._commands)
        if length % CHECKPOINT_EVERY == 0:
            previous = self._checkpoints.get(length - CHECKPOINT_EVERY)
            self._checkpoints[length] = self._state.checkpoint(previous)

    def _drop_checkpoints_after(self, length: int) -> None:
        # Checkpoints are added in increasing order, so the latest is last: an undo
        # looks at one key, not at all of them.
        checkpoints = self._checkpoints
        while (last := next(reversed(checkpoints))) > length:
            del checkpoints[last]

    def _refill(self) -> None:
        """No state kept before the last command (a loaded history, or many undos):
        replay from the nearest checkpoint before it, keeping the states before the
        last UNDO_STATES commands on the way, so the next undos are swaps again."""
        length = len(self._commands)
        self._drop_checkpoints_after(length)
        base = max(k for k in self._checkpoints if k < length)
        state = self._checkpoints[base].clone()
        keep_from = length - UNDO_STATES
        before: deque[CombatState] = deque(maxlen=UNDO_STATES)
        for index in range(base, length):
            if index >= keep_from:
                before.append(state.clone())
            machine.apply(state, self._commands[index])
        self._before = before


class _Check:
    """Issue 24: the replay that checks a snapshot, on objects of its own (a fresh
    Combat over the encounter and a copy of the commands list; both only read), run a
    step at a time. Once over, `replayed` is the combat the history gives and
    `failure` says why it stops early, if a command did not replay."""

    def __init__(self, encounter: Encounter, commands: list[Command]) -> None:
        self.replayed = Combat(encounter)
        self.failure: Msg | None = None
        self._encounter = encounter
        self._commands = commands

    @property
    def over(self) -> bool:
        return self.failure is not None or len(self.replayed._commands) == len(self._commands)

    def step(self, count: int | None) -> bool:
        """Replay `count` more commands (None: all the rest); True when over."""
        if self.over:
            return True
        done = len(self.replayed._commands)
        stop = None if count is None else min(done + count, len(self._commands))
        try:
            with bulk():
                self.replayed._replay_to(self._commands, stop)
        except SombraError as error:
            number = error.params.get("number")
            self.failure = Msg(N_("The file's history does not replay: {reason} The "
                                  "encounter now shows its history up to that command; "
                                  "the file is unchanged until you save."),
                               reason=str(error))
            # The failed command left the state half changed: replayed afresh up to it.
            before = number - 1 if isinstance(number, int) else 0
            self.replayed = Combat(self._encounter, self._commands[:before])
        return self.over
