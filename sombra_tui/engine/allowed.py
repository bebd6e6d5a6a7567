"""Which command fits which phase (P1): the one table the machine checks before it
applies a command, and the UI asks which keys, footer entries and palette commands to
offer.

A command not in the table fits every phase; whether it is legal then depends on its
values (who, which action), which only the machine can say (`Combat.preview`).
"""

from __future__ import annotations

from typing import NamedTuple

from pydantic import BaseModel

from sombra_tui.engine import commands as c
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.i18n import N_, _
from sombra_tui.engine.state import CombatState, Phase

#: The phases in which steps are resolved (P1), in their order.
RESOLUTION_PHASES = (Phase.INSTANT, Phase.ROUND, Phase.EXTENDED)


class Fit(NamedTuple):
    """The phases a command fits, and how a refusal says what was tried."""

    phases: tuple[Phase, ...]
    #: "Cannot {doing} now: ...", the refusal in any other phase ...
    doing: str = ""
    #: ... unless the command has a refusal of its own: (code, message).
    refusal: tuple[str, str] | None = None


PHASES: dict[type[BaseModel], Fit] = {
    c.StartCombat: Fit((Phase.SETUP,), N_("start the combat")),
    c.Declare: Fit((Phase.DECLARATION,), N_("declare")),  # D1
    c.React: Fit((Phase.DECLARATION,), N_("react")),  # D5
    c.Decline: Fit((Phase.DECLARATION,), N_("decline")),  # D4
    c.DenyPrompt: Fit((Phase.DECLARATION,), N_("be denied a reacción")),  # D12
    c.AllowPrompt: Fit((Phase.DECLARATION,), N_("open a reacción prompt")),  # D12
    c.Resolve: Fit(RESOLUTION_PHASES, N_("resolve an action")),  # P2, P3, P5
    c.ResolveOpposed: Fit(RESOLUTION_PHASES, N_("resolve an opposed action")),  # O2, O3
    c.Advance: Fit(tuple(phase for phase in Phase if phase is not Phase.SETUP), refusal=(
        "advance.not_started", N_("Start the combat first (it opens round 1)."))),
}

#: The phases as a refusal names them ("the instant phase").
PHASE_WORDS: dict[Phase, str] = {
    Phase.SETUP: N_("setup"), Phase.DECLARATION: N_("declaration"),
    Phase.INSTANT: N_("instant"), Phase.ROUND: N_("round"), Phase.EXTENDED: N_("extended"),
    Phase.END_OF_ROUND: N_("end_of_round"),
}

#: Marks that fit only some phases (P4): nothing is prevented before the first round,
#: nor once the round actions are over.
MARK_PHASES: dict[c.Mark, tuple[Phase, ...]] = {
    c.Mark.PREVENTED: (Phase.DECLARATION, Phase.INSTANT, Phase.ROUND),
    c.Mark.UNPREVENT: tuple(phase for phase in Phase if phase is not Phase.SETUP),
}

#: Every command type (the members of the Command union).
COMMAND_TYPES: tuple[type[BaseModel], ...] = (
    c.AddCharacter, c.AddCharacters, c.ImportCharacters, c.EditCharacter, c.RemoveCharacter,
    c.MoveCharacter, c.ChangeSettings, c.RenameEncounter, c.StartCombat, c.Declare,
    c.React, c.Decline, c.DenyPrompt, c.AllowPrompt, c.Resolve, c.ResolveOpposed,
    c.FreeTA, c.SetMark, c.AdjustExtended, c.AbandonExtended, c.Advance,
    # Sections H and C fit every phase: a proposal is settled whenever it is open (H1,
    # H7, H11), and hits by hand, healing, edits and conditions are the DJ's at any
    # time, set-up included (H12, C2, C3: a condition may begin before round 1).
    c.AcceptHit, c.DeclineHit, c.ConfirmProposal, c.DeclineProposal, c.ManualHit,
    c.Heal, c.AttendWound, c.EditWound, c.RemoveWound, c.AddCondition,
    c.EditCondition, c.RemoveCondition, c.SetCounters,
)


def fits(phase: Phase, command: type[BaseModel]) -> bool:
    fit = PHASES.get(command)
    return fit is None or phase in fit.phases


def allowed(state: CombatState) -> frozenset[type[BaseModel]]:
    """The command types that fit the combat's phase now."""
    return frozenset(kind for kind in COMMAND_TYPES if fits(state.phase, kind))


def mark_allowed(state: CombatState, mark: c.Mark) -> bool:
    """Whether `mark` (prevented, out, ...) fits the combat's phase now (P4)."""
    phases = MARK_PHASES.get(mark)
    return phases is None or state.phase in phases


def check_fits(state: CombatState, command: BaseModel) -> None:
    """Raise SombraError when `command` does not fit the combat's phase."""
    fit = PHASES.get(type(command))
    if fit is None or state.phase in fit.phases:
        return
    if fit.refusal is not None:
        code, message = fit.refusal
        raise SombraError(message, code=code)  # an N_ template
    # The words inside the sentence are translated as it is made (it is shown at once).
    needed = _(" or ").join(_(PHASE_WORDS[phase]) for phase in fit.phases)
    raise SombraError(N_("Cannot {doing} now: the combat is in the {phase} phase; that needs"
                         " the {allowed} phase."), code="phase.wrong",
                      params={"doing": _(fit.doing), "phase": _(PHASE_WORDS[state.phase]),
                              "allowed": needed})
