"""What the next key opens (issue 36): the dialog a screen shows for a step, read with
the rules' own code (T7, O2, O3, O5, H1, H7, H11), so that no screen tests an action's
kind or its opposition. ask.next_step gives it for the next step (NextStep.opens),
`acting` for the step the DJ's keys act on.
"""

from __future__ import annotations

from enum import StrEnum

from sombra_tui.engine.model import ActionKind
from sombra_tui.engine.rules.opposition import plan_opposition, step_opposition
from sombra_tui.engine.state import CombatState, ProposalKind, Step


class Opens(StrEnum):
    """What the next key opens (issue 36): the dialog a screen shows for the next step,
    or NOTHING when the key sends its command at once. A screen reads it and never
    tests an action's kind or its opposition itself."""

    NOTHING = "nothing"  # the command is sent at once (StartCombat, Advance)
    NO_ROLL = "no_roll"  # T7: an automatic action resolves with nothing to roll
    HIT = "hit"  # H1: the hit proposal, every number editable
    QUESTION = "question"  # H7, H11: confirm or decline the proposal
    DECLARATION = "declaration"  # D1: the declarer's declaration
    REACTION = "reaction"  # D4-D9: the top prompt's reacción
    TA = "ta"  # T1-T6: the character's own TA (O5: nobody able left to oppose it)
    OPPOSED = "opposed"  # O2, O3: the opposed TAs, someone able left to oppose it


#: What settling each kind of proposal opens (H1: the hit's numbers; H7, H11: a question).
SETTLE_OPENS = {ProposalKind.HIT: Opens.HIT, ProposalKind.THRESHOLD: Opens.QUESTION,
                ProposalKind.PREVENT: Opens.QUESTION}


def step_opens(state: CombatState, step: Step) -> Opens:
    """What resolving `step` opens: nothing to roll for an automatic action (T7), the
    opposed TAs while someone able is left to oppose it (O2, O3, O5), else the
    character's own TA (T1-T6)."""
    if state.step_action(step).kind is ActionKind.AUTOMATIC:
        return Opens.NO_ROLL
    if step_opposition(state, step) is None or plan_opposition(state, step).solo:
        return Opens.TA
    return Opens.OPPOSED


def acting(state: CombatState, selected: str | None) -> tuple[Step, Opens] | None:
    """P3: the acting group's step the DJ's keys act on (the `selected` character's,
    else the group's first) and what resolving it opens (step_opens); None when nothing
    is left to resolve in this phase. Read whatever proposal is open: a key of the step
    then waits for it (H1), but what it will open is known (the dice typed blind)."""
    group = state.current_group()
    if not group:
        return None
    step = next((s for s in group if s.character == selected), group[0])
    return step, step_opens(state, step)
