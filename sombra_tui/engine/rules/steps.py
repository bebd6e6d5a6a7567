"""What every resolving rule shares: finding the acting step, its target (T2) and what
follows a step (P3/P4)."""

from __future__ import annotations

from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.i18n import N_
from sombra_tui.engine.model import (
    Action,
)
from sombra_tui.engine.rules.conditions import release_held
from sombra_tui.engine.rules.core import Emitter, need_character, need_no_proposal
from sombra_tui.engine.rules.hits import apply_deferred_hits
from sombra_tui.engine.rules.marks import apply_pending_marks
from sombra_tui.engine.state import (
    CombatState,
    Step,
)


def find_step(state: CombatState, name: str, doing: str) -> Step:
    need_character(state, name)
    need_no_proposal(state, doing)
    group = state.current_group()
    for step in group:
        if step.character == name:
            return step
    if any(step.character == name for step in state.pending_steps()):
        acting = ", ".join(dict.fromkeys(step.character for step in group))
        raise SombraError(N_("It is not {name}'s turn yet: {acting} acts first."),
                          code="resolve.not_turn", params={"name": name, "acting": acting})
    raise SombraError(N_("{name} has nothing to resolve in this phase."),
                      code="resolve.nothing", params={"name": name})


def roll_under(state: CombatState, name: str, action: Action, given: int | None) -> int | None:
    """T2: the value `name` rolls under for `action`: the one given, the action's, or the
    character's value of its skill; None when none is known."""
    if given is not None:
        return given
    if action.target is not None:
        return action.target
    character = state.character(name)
    return character.skill_value(action.skill) if character and action.skill else None


def no_target(name: str, action: Action) -> SombraError:
    """T2: the refusal of a TA with no value to roll under."""
    return SombraError(N_("{name}'s action \"{description}\" has no value to roll under: give"
                          " a target."),
                       code="resolve.no_target",
                       params={"name": name, "description": action.description})


def target_for(state: CombatState, name: str, action: Action, given: int | None) -> int:
    value = roll_under(state, name, action, given)
    if value is None:
        raise no_target(name, action)
    return value


def after_step(state: CombatState, step: Step, emit: Emitter) -> None:
    """P3/P4: once a simultaneous group is complete, its deferred marks apply."""
    if not state.group_pending(step.group):
        held = state.held_conditions
        state.held_conditions = []  # C4: the group has acted: its conditions apply now
        state.held_wounds = []  # C4/H10: and its wounds' grades
        apply_pending_marks(state, emit)
        if state.deferred_hits:
            apply_deferred_hits(state, emit)  # H11
        if held:
            release_held(state, held, emit)  # H11: a round action still to come
