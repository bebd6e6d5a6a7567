"""The command history: state is the replay of commands over the encounter (S1).

`Combat` is what a UI holds. It executes commands atomically (a refused
command leaves everything as it was), keeps the log, and undoes or redoes any
command without replaying the history: the states before the last few commands
are kept, so undoing one of them is a swap, and so is redoing it (issue 24);
further back, the nearest checkpoint is replayed, never the start.
"""

from __future__ import annotations

import gc
import itertools
from array import array
from bisect import bisect_right
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import overload

from sombra_tui.engine import machine
from sombra_tui.engine.commands import Command, StartCombat
from sombra_tui.engine.dice import Dice, DiceRoller
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import LogEvent
from sombra_tui.engine.i18n import N_, Msg
from sombra_tui.engine.model import Encounter
from sombra_tui.engine.registry import label_of
from sombra_tui.engine.state import CombatState

#: A full copy of the state is kept every this many commands. Each shares with the one
#: before it whatever did not change (CombatState.checkpoint). Undo is a swap (below),
#: so checkpoints serve only an undo past the kept states or after a load, which
#: replays at most this many commands once (~10 ms at 200 characters): 256 rather than
#: 64 quarters their memory (issue 24; 1,131 bytes per command at 128 in the bench).
CHECKPOINT_EVERY = 256
#: Issue 24: the checkpoints of the latest this many blocks are kept; further back, one
#: in SPARSE_CHECKPOINTS (every 1,024 commands), so a long history holds a third as
#: many. An undo that far back replays at most 1,023 commands once (_refill puts the
#: checkpoints it passes back), and so does reading that old part of the log.
DENSE_CHECKPOINTS = 4
SPARSE_CHECKPOINTS = 4
#: Issue 24: the states before this many of the last commands are kept, so undo is a
#: swap (a clone per command: ~0.1 ms and ~140 KB at 200 characters), and the states
#: after as many undone ones, so redo is a swap too. Undoing further replays from the
#: nearest checkpoint once and keeps the states it passes again.
UNDO_STATES = 16
#: Issue 24: the log's events are kept for the commands since the checkpoint before the
#: latest one (256-511 commands); an older command's events are not kept (None) and are
#: replayed from its checkpoint when read (LogView), as an undo past the kept states
#: is: at most 255 commands, or 1,023 where checkpoints are thinned out (about 40 ms at
#: 200 characters, once for that part of the log while the view is read). The events
#: were most of a long history's memory (about 2,000 bytes a command in the bench).
#: The replay is the one the history always is (S1): the same commands from the same
#: state give the same events.
KEPT_EVENT_BLOCKS = 2
#: Every batch of events (a command's, as applied) gets its own number, never reused:
#: what a UI compares to know whether the events it shows are still the log's (LogView.key).
_SERIALS = itertools.count(1)
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
        #: The events of each command, None where not kept (KEPT_EVENT_BLOCKS).
        self._events: list[list[LogEvent] | None] = []
        #: _ends[i]: how many events the commands up to i emitted (in step with
        #: _commands: where each command's events start and end in the log).
        self._ends: array[int] = array("q")
        #: _serials[i]: the number of command i's batch of events (_SERIALS).
        self._serials: array[int] = array("q")
        self._redo: list[Command] = list(redo)
        self._state = machine.initial_state(encounter)
        self._checkpoints: dict[int, CombatState] = {0: self._state.checkpoint(None)}
        #: Issue 24: the states before the last commands: _before[-1] is the state
        #: before _commands[-1], _before[-2] before _commands[-2], and so on (as many
        #: as were kept, up to UNDO_STATES). Never changed: undo puts one back as is.
        self._before: deque[CombatState] = deque(maxlen=UNDO_STATES)
        #: And for redo: the state after each of the last undone commands with its
        #: events (_after[-1] for _redo[-1], as many as were kept), so redo is a swap.
        #: (Each with its batch's number and how many events it has.)
        self._after: deque[tuple[CombatState, list[LogEvent] | None, int, int]] = deque(
            maxlen=UNDO_STATES)
        #: What loading the file had to say once (an older format converted).
        self.notices: list[str] = []
        #: Which combat this is (issue 39 item 6; the players' snapshots' `encounter`),
        #: kept in its file and its crash journal, so that a save as, a restart or a
        #: resume is the same combat. Lowercase letters; None until the app names it.
        self.identity: str | None = None
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
        (the combat is then unusable: its caller drops it). The states before the last
        UNDO_STATES commands of `commands` are kept on the way (a clone each, ~0.1 ms at
        200 characters), so the first undo after a load is a swap, as the next ones."""
        keep_from = len(commands) - UNDO_STATES
        for index in range(len(self._commands), len(commands) if stop is None else stop):
            command = commands[index]
            if index >= keep_from:
                self._before.append(self._state.clone())
            try:
                events = machine.apply(self._state, command)
            except SombraError as error:
                raise SombraError(N_("Command {number} of the history ({command}) does "
                                     "not replay: {reason}"),
                                  code="history.replay_failed",
                                  params={"number": index + 1,
                                          "command": label_of(command),
                                          "reason": str(error)}) from error
            self._push(command, events)

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
        self._ends = replayed._ends
        self._serials = replayed._serials
        self._checkpoints = replayed._checkpoints
        # The states before the last commands, as the replay left them (the snapshot's
        # own state is only ever the one after the last command).
        self._before = replayed._before
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
        """The whole log (every event made: a long history's older events are replayed
        from their checkpoints; a UI reads log_view, which makes only those it reads)."""
        return list(self.log_view())

    def log_view(self) -> LogView:
        """The log as it is now (issue 24): its events are made when read, and `key`
        tells whether an event is still the one a UI showed, without keeping it."""
        return LogView(self._commands, self._events, self._ends, self._serials,
                       self._checkpoints)

    def events_since(self, count: int) -> list[LogEvent]:
        """Events of the commands from index `count` on (for incremental UIs)."""
        self.settle()
        view = self.log_view()
        return view[view.start_of(count):]

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
        command, undone, serial, count = self._pop()
        self._redo.append(command)
        self._after.append((self._state, undone, serial, count))  # left as it is, for redo
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
            state, events, serial, count = self._after.pop()
            self._before.append(self._state)
            self._state = state
            self._push(command, events, serial, count)
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
        self._push(command, events)
        return events

    def _push(self, command: Command, events: list[LogEvent] | None,
              serial: int = 0, count: int = 0) -> None:
        """Add a command applied to the state, with its events (None: not kept; then
        `count` says how many), and the number of their batch (a new one unless given:
        a redo's swap keeps its own)."""
        self._commands.append(command)
        self._events.append(events)
        ends = self._ends
        ends.append((ends[-1] if ends else 0) + (count if events is None else len(events)))
        self._serials.append(serial or next(_SERIALS))
        self._maybe_checkpoint()

    def _pop(self) -> tuple[Command, list[LogEvent] | None, int, int]:
        """Take the last command off, with its events, their batch's number and count."""
        ends = self._ends
        count = ends.pop() - (ends[-1] if ends else 0)
        return self._commands.pop(), self._events.pop(), self._serials.pop(), count

    def _maybe_checkpoint(self) -> None:
        length = len(self._commands)
        if length % CHECKPOINT_EVERY == 0:
            checkpoints = self._checkpoints
            previous = checkpoints.get(length - CHECKPOINT_EVERY)
            checkpoints[length] = self._state.checkpoint(previous)
            older = length - DENSE_CHECKPOINTS * CHECKPOINT_EVERY
            if older > 0 and older % (SPARSE_CHECKPOINTS * CHECKPOINT_EVERY):
                checkpoints.pop(older, None)
            # The events of the block before the previous one are no longer kept.
            events = self._events
            for index in range(max(0, length - KEPT_EVENT_BLOCKS * CHECKPOINT_EVERY),
                               max(0, length - (KEPT_EVENT_BLOCKS - 1) * CHECKPOINT_EVERY)):
                events[index] = None

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
        checkpoints = self._checkpoints
        base = max(k for k in checkpoints if k < length)
        state = checkpoints[base].clone()
        keep_from = length - UNDO_STATES
        before: deque[CombatState] = deque(maxlen=UNDO_STATES)
        added = False
        for index in range(base, length):
            if index >= keep_from:
                before.append(state.clone())
            if index > base and index % CHECKPOINT_EVERY == 0:  # thinned out: back
                checkpoints[index] = state.checkpoint(checkpoints.get(index - CHECKPOINT_EVERY))
                added = True
            machine.apply(state, self._commands[index])
        if added:  # in order again (the latest is last: _drop_checkpoints_after)
            self._checkpoints = dict(sorted(checkpoints.items()))
        self._before = before


class LogView(Sequence[LogEvent]):
    """Issue 24: the log of a combat as it was when asked for (Combat.log_view), its
    events made when read: those of the latest commands are the combat's own, older
    ones are replayed from their checkpoint (each block of CHECKPOINT_EVERY commands at
    most once, while this view is the one read). It holds copies of the combat's lists,
    so it stays what it was after the combat changes.

    `key(i)` identifies event i (the number of its command's batch of events and its
    place in it): equal keys, in two views of the same combat, are the same event,
    whether or not it was made again. A UI compares keys where it compared objects."""

    __slots__ = ("_checkpoints", "_commands", "_ends", "_events", "_made", "_serials")

    def __init__(self, commands: list[Command], events: list[list[LogEvent] | None],
                 ends: array[int], serials: array[int],
                 checkpoints: dict[int, CombatState]) -> None:
        self._ends = ends[:]
        count = len(self._ends)
        self._commands = commands[:count]
        self._events = events[:count]
        self._serials = serials[:]
        self._checkpoints = dict(checkpoints)
        #: The events replayed for commands whose events the combat did not keep.
        self._made: dict[int, list[LogEvent]] = {}

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    @overload
    def __getitem__(self, index: int) -> LogEvent: ...

    @overload
    def __getitem__(self, index: slice) -> list[LogEvent]: ...

    def __getitem__(self, index: int | slice) -> LogEvent | list[LogEvent]:
        length = len(self)
        if isinstance(index, slice):
            start, stop, step = index.indices(length)
            if step != 1:
                return [self[i] for i in range(start, stop, step)]
            return self._between(start, stop)
        if index < 0:
            index += length
        if not 0 <= index < length:
            raise IndexError("log index out of range")
        command = bisect_right(self._ends, index)
        return self.events_of(command)[index - self.start_of(command)]

    def __iter__(self) -> Iterator[LogEvent]:
        for command in range(len(self._ends)):
            yield from self.events_of(command)

    def __reversed__(self) -> Iterator[LogEvent]:
        for command in range(len(self._ends) - 1, -1, -1):
            yield from reversed(self.events_of(command))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LogView | list | tuple):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LogView({len(self)} events of {len(self._ends)} commands)"

    def key(self, index: int) -> tuple[int, int]:
        """What identifies event `index` (see the class's docstring)."""
        if index < 0:
            index += len(self)
        command = bisect_right(self._ends, index)
        return self._serials[command], index - self.start_of(command)

    def start_of(self, command: int) -> int:
        """The index of the first event of command `command` (the log's length past
        the last command)."""
        if command <= 0:
            return 0
        ends = self._ends
        return ends[min(command, len(ends)) - 1]

    def events_of(self, command: int) -> list[LogEvent]:
        """The events command `command` emitted."""
        events = self._events[command]
        if events is None:
            events = self._made.get(command)
            if events is None:
                self._replay_block(command)
                events = self._made[command]
        return events

    def _between(self, start: int, stop: int) -> list[LogEvent]:
        if start >= stop:
            return []
        ends = self._ends
        first, last = bisect_right(ends, start), bisect_right(ends, stop - 1)
        out: list[LogEvent] = []
        for command in range(first, last + 1):
            out.extend(self.events_of(command))
        offset = start - self.start_of(first)
        return out[offset:offset + stop - start]

    def _replay_block(self, command: int) -> None:
        """Replay the commands from the checkpoint before `command` up to the next
        command whose events are kept, keeping what they emit (the last block replayed
        only: a UI reads a long log a page at a time)."""
        base = max(k for k in self._checkpoints if k <= command)
        state = self._checkpoints[base].clone()
        made: dict[int, list[LogEvent]] = {}
        with bulk():
            for index in range(base, len(self._ends)):
                if index > command and (index % CHECKPOINT_EVERY == 0
                                        or self._events[index] is not None):
                    break
                made[index] = machine.apply(state, self._commands[index])
        self._made = made


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
