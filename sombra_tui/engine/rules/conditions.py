"""Conditions on a state (C1-C4): adding, editing and removing them, a condition that
starts (C4, H11), out by condition, expiry, and inaction for the unable.

The vocabulary of section C (models and pure arithmetic, no CombatState, no commands)
lives in engine/conditions.py; what decides on a state or handles a command lives here.
"""

from __future__ import annotations

from sombra_tui.engine import commands as c
from sombra_tui.engine.coded import CodedError
from sombra_tui.engine.conditions import (
    BUILTIN_NAMES,
    DOLOR_INTENSO,
    Condition,
    can_act,
    end_of_round,
    is_out,
    preventing_action,
    prevents_pending_action,
)
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.frozen import trusted
from sombra_tui.engine.i18n import N_, Msg, lazy
from sombra_tui.engine.model import ActionKind
from sombra_tui.engine.registry import (
    RESOLUTION_PHASES,
    handles,
)
from sombra_tui.engine.rules.core import Emitter, gender_of, need_character, new_id, set_body
from sombra_tui.engine.rules.marks import mark_now_or_later
from sombra_tui.engine.state import (
    CombatState,
    Declaration,
    Phase,
    Proposal,
    ProposalKind,
)


def held_for_group(state: CombatState, name: str) -> bool:
    """C4: whether what begins on `name` now (a condition; from format version 4 a
    wound's grades too) waits for a simultaneous group: `name` is a member of the group
    whose turn is in progress (P4)."""
    return (state.phase in RESOLUTION_PHASES and state.group_in_progress()
            and name in state.acting_group_members())


def release_held(state: CombatState, held: list[int], emit: Emitter) -> None:
    """C4/H11 (rules_v4): the group has acted; each condition held for it takes effect
    now, and asks H11's question if its character's round action is still to come (a
    member of an instant group)."""
    if not state.settings.rules_v4:
        return
    for name, body in list(state.bodies.items()):
        for condition in body.conditions:
            if condition.id in held and state.character(name) is not None:
                propose_prevented(state, name, condition, emit)


def condition_started(state: CombatState, name: str, condition: Condition,
                       emit: Emitter) -> None:
    """C4: effects act through their rules; H11 proposes prevented for a pending action.
    A condition begun inside a simultaneous group's turn on one of its members affects
    the group's members only after the group: a member yet to roll still rolls."""
    held = held_for_group(state, name)
    if held:
        state.held_conditions.append(condition.id)
        emit(EventKind.CONDITION, Msg(N_("{name}'s {condition} takes effect after the "
                                         "simultaneous group."),
                                      name=name, condition=condition.name
                                      ).about(gender_of(state, name)),
             actor=name, rule="C4", code="condition.held",
             data={"id": condition.id, "condition": condition.name})
    if condition.effects.out:
        sync_out(state, name, emit)
    if not held:
        propose_prevented(state, name, condition, emit)


def propose_prevented(state: CombatState, name: str, condition: Condition,
                      emit: Emitter) -> None:
    """H11: a condition that begins (or, held for a simultaneous group, takes effect)
    leaving `name` aturdido, inconsciente, dead or disarmed with its round action still
    pending proposes marking it prevented (P4); the DJ's answer decides, even for a
    condition that leaves it unable to act (unable_by_conditions leaves the action to
    it). Off (older files): C4 at once for those.

    From format version 4 (rules_v4): in the instant phase too (H11 in any phase an
    attack resolves in); one question per condition, the answer about that condition
    only; nothing is asked of a character another condition already stops (C4 skips
    its step)."""
    if not prevents_pending_action(condition) or name in state.prevented \
            or name in state.out or not round_action_pending(state, name):
        return
    if not (state.settings.wounds.unable_asks_prevented
            or can_act(state.body(name).conditions, state.round)):
        return
    own = [p for p in state.proposals if p.kind is ProposalKind.PREVENT and p.character == name]
    if state.settings.rules_v4:
        if any(p.condition_id == condition.id for p in own) \
                or any(m.character == name and m.mark == c.Mark.PREVENTED.value
                       for m in state.pending_marks) \
                or _stopped_besides(state, name, condition):
            return
    elif own:
        return
    proposal = Proposal(id=new_id(state), kind=ProposalKind.PREVENT, character=name,
                        condition=condition.name, reason=condition.name,
                        condition_id=condition.id if state.settings.rules_v4 else None,
                        round=state.round)
    state.proposals.append(proposal)
    emit(EventKind.PROPOSAL, Msg(N_("{name} is {condition} with a round action pending: "
                                    "mark prevented?"), name=name,
                                 condition=condition.name).about(gender_of(state, name)),
         actor=name, rule="H11", code="prevent.proposed",
         data={"proposal": proposal.id, "condition": condition.name})


def round_action_pending(state: CombatState, name: str) -> bool:
    """H11: whether `name`'s round action of this round is still to come: a pending step
    in the round phase; from format version 4, in the instant phase, a round (or
    automatic) action declared."""
    if state.phase is Phase.ROUND:
        return any(step.character == name and step.extended_id is None
                   for step in state.pending_steps())
    if state.phase is Phase.INSTANT and state.settings.rules_v4:
        declaration = state.declaration_of(name)
        return declaration is not None and any(
            action.kind in (ActionKind.ROUND, ActionKind.AUTOMATIC)
            for action in declaration.actions)
    return False


def _answered(state: CombatState, name: str) -> set[int]:
    """H11 (rules_v4): the conditions (ids) of `name` against which its round action
    stands: the DJ declined "prevented?" for them this round, or is being asked now."""
    return {*state.excused, *(p.condition_id for p in state.proposals
                              if p.kind is ProposalKind.PREVENT and p.character == name
                              and p.condition_id is not None)}


def _stopped_besides(state: CombatState, name: str, condition: Condition) -> bool:
    """C4: another condition in effect (not answered, H11) already stops `name`'s round
    action: its step is skipped whatever is answered about `condition`."""
    answered = _answered(state, name)
    return any(cond.id != condition.id and cond.id not in answered
               for cond in preventing_action(state.effective_conditions(name), state.round))


def sync_out(state: CombatState, name: str, emit: Emitter) -> None:
    """C4: out is P4's mark: an out condition makes the character out; when the last one
    ends, the character is back, unless the DJ also marked it out by hand (that mark
    stays until the DJ lifts it)."""
    if state.character(name) is None:
        return
    out = is_out(state.body(name).conditions, state.round) or name in state.hand_out
    # C4/P4: an out or back mark still waiting for the simultaneous group that no longer
    # agrees (its condition ended, or began again, inside the group's turn) is withdrawn:
    # the condition's effect ends with it.
    waiting = [p for p in state.pending_marks if p.character == name
               and p.mark in (c.Mark.OUT.value, c.Mark.BACK.value)]
    if waiting and (waiting[-1].mark == c.Mark.OUT.value) != out:
        state.pending_marks = [p for p in state.pending_marks if p not in waiting]
    elif waiting:
        return
    if out and name not in state.out:
        mark_now_or_later(state, name, c.Mark.OUT, emit)
    elif not out and name in state.out:
        mark_now_or_later(state, name, c.Mark.BACK, emit)


def _describe_condition(condition: Condition) -> Msg:
    if condition.permanent:
        return Msg(N_("{name} (never expires)"), name=condition.name)
    if condition.duration is None:
        return Msg(N_("{name} (until removed)"), name=condition.name)
    covered = condition.covered_rounds()
    assert covered is not None
    return lazy.ngettext("{name} ({count} asalto: round {first})",
                         "{name} ({count} asaltos: rounds {first}-{last})", "count",
                         name=condition.name, count=condition.duration, first=covered.start,
                         last=covered.stop - 1)


@handles(c.AddCondition, label=N_("add condition"))
def _add_condition(state: CombatState, cmd: c.AddCondition, emit: Emitter) -> None:
    need_character(state, cmd.character)
    condition = cmd.condition.model_copy(update={"id": new_id(state),
                                                 "began": state.round})
    body = state.body(cmd.character)
    set_body(state, cmd.character, conditions=(*body.conditions, condition))
    # Said as Spanish says it: "está aturdida", "tiene dolor intenso"; a condition of the
    # DJ's own naming may be a noun or an adjective, so its sentence says neither.
    if condition.name == DOLOR_INTENSO:
        template = N_("DJ: {name} has {condition}.")
    elif condition.name in BUILTIN_NAMES:
        template = N_("DJ: {name} is {condition}.")
    else:
        template = N_("DJ: new condition for {name}: {condition}.")
    emit(EventKind.CONDITION, Msg(template, name=cmd.character,
                                  condition=_describe_condition(condition)
                                  ).about(gender_of(state, cmd.character)),
         actor=cmd.character, override=True, rule="C2", code="condition.started",
         data={"condition": condition.name, "id": condition.id,
               "duration": condition.duration, "last_round": condition.last_round})
    condition_started(state, cmd.character, condition, emit)


def _need_condition(state: CombatState, name: str, condition_id: int) -> Condition:
    need_character(state, name)
    condition = state.body(name).condition(condition_id)
    if condition is None:
        raise CodedError("condition.unknown", N_("{character} has no condition #{id}."),
                         params={"character": name, "id": condition_id})
    return condition


@handles(c.EditCondition, label=N_("edit condition"))
def _edit_condition(state: CombatState, cmd: c.EditCondition, emit: Emitter) -> None:
    old = _need_condition(state, cmd.character, cmd.condition.id)
    body = state.body(cmd.character)
    set_body(state, cmd.character, conditions=tuple(
        cmd.condition if cond.id == old.id else cond for cond in body.conditions))
    emit(EventKind.CONDITION, Msg(N_("DJ edits {name}'s {old}: {condition}."),
                                  name=cmd.character, old=old.name,
                                  condition=_describe_condition(cmd.condition)),
         actor=cmd.character, override=True,
         rule="C2", code="condition.edited", data={"id": old.id,
                                                   "condition": cmd.condition.name})
    sync_out(state, cmd.character, emit)


@handles(c.RemoveCondition, label=N_("remove condition"))
def _remove_condition(state: CombatState, cmd: c.RemoveCondition, emit: Emitter) -> None:
    old = _need_condition(state, cmd.character, cmd.condition_id)
    body = state.body(cmd.character)
    set_body(state, cmd.character,
              conditions=tuple(cond for cond in body.conditions if cond.id != old.id))
    emit(EventKind.CONDITION, Msg(N_("DJ removes {name}'s {condition}."),
                                  name=cmd.character, condition=old.name),
         actor=cmd.character, override=True, rule="C2", code="condition.removed",
         data={"id": old.id, "condition": old.name})
    sync_out(state, cmd.character, emit)


def expire_conditions(state: CombatState, emit: Emitter) -> None:
    """C3 at the end of the round: the conditions whose last round this is end (a
    condition ending now still covered it)."""
    for name in list(state.bodies):
        body = state.bodies[name]
        expiry = end_of_round(body.conditions, state.round)
        if not expiry.expired:
            continue
        state.bodies[name] = body.model_copy(update={"conditions": expiry.kept})
        for condition in expiry.expired:
            emit(EventKind.CONDITION, Msg(N_("{name}'s {condition} ends."), name=name,
                                          condition=condition.name), actor=name,
                 rule="C3", code="condition.expired",
                 data={"id": condition.id, "condition": condition.name})
        if state.character(name) is not None:
            sync_out(state, name, emit)


def declare_inaction_for_unable(state: CombatState, emit: Emitter) -> None:
    """C4/D1: a declarer who cannot act declares inaction (logged)."""
    while not state.prompts:
        name = state.current_declarer
        if name is None or name not in state.bodies:
            return
        blockers = preventing_action(state.bodies[name].conditions, state.round)
        if not blockers:
            return
        declaration = trusted(Declaration, id=new_id(state), author=name)
        state.declarations[declaration.id] = declaration
        state.current[name] = declaration.id
        names = ", ".join(dict.fromkeys(cond.name for cond in blockers))
        emit(EventKind.SKIPPED, Msg(N_("{name} is {conditions}: declares inaction."),
                                    name=name, conditions=names
                                    ).about(gender_of(state, name)), actor=name,
             rule="C4", code="declare.cannot_act", data={"conditions": names})


def unable_by_conditions(state: CombatState, name: str) -> str | None:
    """C4: the conditions that leave `name` unable to act now, named, or None."""
    if name not in state.bodies:
        return None
    # C4: a condition begun inside the group's turn waits for the group.
    conditions = state.effective_conditions(name)
    if state.phase is Phase.ROUND and state.settings.rules_v4:
        # H11: the round action stands against each condition the DJ answered (or is
        # asked about), and only those: another still stops it (C4).
        answered = _answered(state, name)
        conditions = tuple(cond for cond in conditions if cond.id not in answered)
    elif state.phase is Phase.ROUND and round_action_left_to_dj(state, name):
        # H11: one begun this round leaves the round action to the DJ's answer.
        conditions = tuple(cond for cond in conditions if cond.began != state.round)
    blockers = preventing_action(conditions, state.round)
    return ", ".join(dict.fromkeys(cond.name for cond in blockers)) or None


def round_action_left_to_dj(state: CombatState, name: str) -> bool:
    """H11 before format version 4: whether `name`'s pending round action waits for the
    DJ's answer to prevented (a proposal open) or stands by it (declined this round
    phase), against every condition begun this round."""
    return name in state.acts_despite or any(
        p.kind is ProposalKind.PREVENT and p.character == name for p in state.proposals)
