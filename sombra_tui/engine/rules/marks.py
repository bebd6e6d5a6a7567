"""Marks (P4): prevented, out, back; marks deferred to the end of a group, and a step
given back."""

from __future__ import annotations

from sombra_tui.engine import commands as c
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.i18n import N_, Msg, Text
from sombra_tui.engine.registry import (
    RESOLUTION_PHASES,
    handles,
)
from sombra_tui.engine.rules.core import Emitter, gender_of, need_character
from sombra_tui.engine.state import (
    CombatState,
    PendingMark,
    Phase,
    StepStatus,
)

#: Marks that fit only some phases (P4): nothing is prevented before the first round,
#: nor once the round actions are over.
MARK_PHASES: dict[c.Mark, tuple[Phase, ...]] = {
    c.Mark.PREVENTED: (Phase.DECLARATION, Phase.INSTANT, Phase.ROUND),
    c.Mark.UNPREVENT: tuple(phase for phase in Phase if phase is not Phase.SETUP),
}


def mark_allowed(state: CombatState, mark: c.Mark) -> bool:
    """Whether `mark` (prevented, out, ...) fits the combat's phase now (P4)."""
    phases = MARK_PHASES.get(mark)
    return phases is None or state.phase in phases


def unable_reason(state: CombatState, name: str) -> str | None:
    """P4: why `name` cannot act now, in the language in force (see unable_msg)."""
    reason = unable_msg(state, name)
    return None if reason is None else reason.render()


def unable_msg(state: CombatState, name: str) -> Msg | None:
    """P4: why `name` cannot act now (out, prevented in the round phase, gone), if so.
    A mark held for a simultaneous group (P4) does not count until it applies."""
    if state.character(name) is None:
        return Msg(N_("left the encounter"))
    if name in state.out:
        return Msg(N_("out"))
    if state.phase is Phase.ROUND and name in state.prevented:
        return Msg(N_("prevented")).about(gender_of(state, name))
    return None


def waits_for_group(state: CombatState, name: str) -> bool:
    """P4: whether a mark (or an out condition's mark) on `name` made now waits for the
    simultaneous group whose turn is in progress: a member's does (a character with a
    step at the group's place in this phase); anyone else's takes effect at once.
    Files before format version 4 (rules_v4 off) held everyone's."""
    if state.phase not in RESOLUTION_PHASES or not state.group_in_progress():
        return False
    return not state.settings.rules_v4 or name in state.acting_group_members()


def _apply_mark(state: CombatState, name: str, mark: c.Mark, emit: Emitter,
                deferred: bool = False) -> None:
    after: Text = Msg(N_(" after the simultaneous group")) if deferred else ""
    if mark is c.Mark.OUT and name not in state.out:
        state.out.append(name)
        emit(EventKind.MARK, Msg(N_("{name} is out{after}: cannot act or react."),
                                 name=name, after=after), actor=name,
             rule="P4")
    elif mark is c.Mark.PREVENTED and name not in state.prevented:
        state.prevented.append(name)
        emit(EventKind.MARK, Msg(N_("{name} is prevented{after}: the round action is "
                                    "cancelled."),
                                 name=name, after=after).about(gender_of(state, name)),
             actor=name, rule="P4")
    elif mark is c.Mark.BACK and name in state.out:
        state.out.remove(name)
        emit(EventKind.MARK, Msg(N_("{name} is back in the combat{after}."),
                                 name=name, after=after), actor=name, rule="P4")
        _give_back(state, name, emit)
    elif mark is c.Mark.UNPREVENT and name in state.prevented:
        state.prevented.remove(name)
        emit(EventKind.MARK, Msg(N_("{name} is no longer prevented{after}."),
                                 name=name, after=after).about(gender_of(state, name)),
             actor=name, rule="P4")
        _give_back(state, name, emit)


def _give_back(state: CombatState, name: str, emit: Emitter) -> None:
    """P4/P5: a mark lifted before the character's group has acted (nobody of that group
    or a later one has made a TA) gives back the steps the mark had skipped."""
    if state.phase not in RESOLUTION_PHASES or name in state.out \
            or state.character(name) is None:
        return
    if state.phase is Phase.ROUND and name in state.prevented:
        return
    steps = list(state.steps)  # a new list: steps otherwise only ever leave pending
    restored = False
    for position, step in enumerate(steps):
        if (step.character != name or step.status is not StepStatus.SKIPPED
                or step.skipped_for not in ("out", "prevented")
                or state.group_started(step.group)):
            continue
        # Finished steps are shared between clones: replace, never change, this one.
        steps[position] = step.model_copy(update={"status": StepStatus.PENDING,
                                                  "skipped_for": None})
        progress = (state.extended_by_id(step.extended_id)
                    if step.extended_id is not None else None)
        if progress is not None and step.skipped_for == "out":
            progress.rounds_counted += 1  # P5: the round counts again
        restored = True
        emit(EventKind.MARK, Msg(N_("{name} gets \"{description}\" back: the group has not "
                                    "acted yet."),
                                 name=name,
                                 description=state.step_action(step).description), actor=name,
             rule="P5" if step.extended_id is not None else "P4")
    if restored:
        state.steps = steps


def apply_pending_marks(state: CombatState, emit: Emitter) -> None:
    marks, state.pending_marks = state.pending_marks, []
    for pending in marks:
        if state.character(pending.character) is not None:
            _apply_mark(state, pending.character, c.Mark(pending.mark), emit, deferred=True)


#: P4: the log line of a mark that waits for its simultaneous group.
_PENDING_MARK = {
    c.Mark.OUT: N_("{name} will be out once the simultaneous group has acted."),
    c.Mark.PREVENTED: N_("{name} will be prevented once the simultaneous group has acted"
                         "."),
    c.Mark.BACK: N_("{name} will be back once the simultaneous group has acted."),
    c.Mark.UNPREVENT: N_("{name} will no longer be prevented once the simultaneous group "
                         "has acted."),
}


@handles(c.SetMark, label=N_("set mark"))
def _set_mark(state: CombatState, cmd: c.SetMark, emit: Emitter) -> None:
    need_character(state, cmd.character)
    name, mark = cmd.character, cmd.mark
    if not mark_allowed(state, mark) and state.phase is Phase.SETUP:
        raise SombraError(N_("No round is running yet: nothing to prevent."),
                          code="mark.no_round")
    if not mark_allowed(state, mark):  # P4: the round actions are over
        raise SombraError(N_("The round actions are over; nothing is left to prevent this "
                             "round."),
                          code="mark.round_over")
    pending_same = any(p.character == name and p.mark == mark.value
                       for p in state.pending_marks)
    already = {
        c.Mark.OUT: name in state.out,
        c.Mark.PREVENTED: name in state.prevented,
        c.Mark.BACK: name not in state.out,
        c.Mark.UNPREVENT: name not in state.prevented,
    }[mark]
    if already or pending_same:
        state_word = {c.Mark.OUT: "already out", c.Mark.PREVENTED: "already prevented",
                      c.Mark.BACK: "not out", c.Mark.UNPREVENT: "not prevented"}[mark]
        template = {c.Mark.OUT: N_("{name} is already out."),
                    c.Mark.PREVENTED: N_("{name} is already prevented."),
                    c.Mark.BACK: N_("{name} is not out."),
                    c.Mark.UNPREVENT: N_("{name} is not prevented.")}[mark]
        raise SombraError(template, code="mark.already",
                          params={"name": name, "state": state_word}
                          ).about(gender_of(state, name))
    # C4: an out mark made by hand stays until the DJ lifts it, whatever conditions end.
    if mark is c.Mark.OUT:
        state.hand_out.append(name)
    elif mark is c.Mark.BACK and name in state.hand_out:
        state.hand_out.remove(name)
    if waits_for_group(state, name):  # P4
        state.pending_marks.append(PendingMark(character=name, mark=mark.value))
        emit(EventKind.MARK, Msg(_PENDING_MARK[mark], name=name).about(gender_of(state, name)),
             actor=name, rule="P4")
        return
    _apply_mark(state, name, mark, emit)


def mark_now_or_later(state: CombatState, name: str, mark: c.Mark, emit: Emitter) -> None:
    """P4: a mark on a member of a simultaneous group in progress waits for the group."""
    if waits_for_group(state, name):
        if not any(p.character == name and p.mark == mark.value for p in state.pending_marks):
            state.pending_marks.append(PendingMark(character=name, mark=mark.value))
            emit(EventKind.MARK, Msg(_PENDING_MARK[mark], name=name
                                     ).about(gender_of(state, name)), actor=name, rule="P4")
        return
    _apply_mark(state, name, mark, emit)
