"""The round state machine: applies DJ commands to a CombatState and emits events.

`apply(state, command)` mutates `state` in place and returns the log events.
It validates before it changes anything it cannot roll back; callers that
must keep the old state on error (the history) apply to a copy. The rules live in
`engine/rules/`, one module per RULES.md area, each handler registered with its
command type (`engine/registry.py`); every rule is cited by id where it is applied.
"""

from __future__ import annotations

import sombra_tui.engine.rules  # noqa: F401  (registers every handler)
from sombra_tui.engine import commands as c
from sombra_tui.engine.carry import apply_carried
from sombra_tui.engine.events import LogEvent
from sombra_tui.engine.frozen import trusted
from sombra_tui.engine.model import Encounter
from sombra_tui.engine.registry import RESOLUTION_PHASES, check_fits, entry_for
from sombra_tui.engine.rules.core import Emitter
from sombra_tui.engine.rules.declaration import settle_prompts
from sombra_tui.engine.rules.players import after_command, conceal_joining, names_before
from sombra_tui.engine.rules.resolution import settle_steps
from sombra_tui.engine.state import CombatState, Phase

__all__ = ["apply", "initial_state"]


def initial_state(encounter: Encounter) -> CombatState:
    # Made of the encounter's own parts, validated when the encounter was: CombatState
    # checks nothing of its own about them, so they are not validated again (issue 24
    # item 5: building CombatState's validator was ~13 ms of the first screen; it is
    # built when a file's snapshot is first read).
    state = trusted(
        CombatState,
        name=encounter.name,
        settings=encounter.settings,
        characters=list(encounter.characters),
    )
    if encounter.carried is not None:  # issue 38: the party carried on
        apply_carried(state, encounter.carried)
    # Issue 23: the encounter's own characters join as any other (hidden until they act
    # when their side's setting says so).
    conceal_joining(state, [character.name for character in state.characters])
    return state


def _settle(state: CombatState, emit: Emitter) -> None:
    """Skip what can no longer happen: D11 prompts of locked/out reactors, P4 steps."""
    if state.phase is Phase.DECLARATION:
        settle_prompts(state, emit)
    elif state.phase in RESOLUTION_PHASES:
        settle_steps(state, emit)


def apply(state: CombatState, command: c.Command) -> list[LogEvent]:
    """Apply one command to `state` in place; return its log events.

    Raises SombraError for an illegal command. The state may then be partly
    changed: apply to a copy when the old state must survive (see history).
    """
    entry = entry_for(type(command))  # registered by the handler (engine/registry.py)
    check_fits(state, command)  # the phases each command fits
    emit = Emitter(state)
    before = names_before(state, command)  # issue 23: who joins, concealed or not
    entry.handler(state, command, emit)
    _settle(state, emit)
    after_command(state, command, before, emit)
    return emit.events
