"""Which command fits which phase (P1): a view over the registry, which the machine
checks before it applies a command, and the UI asks which keys, footer entries and
palette commands to offer.

A command registered without phases fits every phase; whether it is legal then depends
on its values (who, which action), which only the machine can say (`Combat.preview`).
Sections H and C fit every phase: a proposal is settled whenever it is open (H1, H7,
H11), and hits by hand, healing, edits and conditions are the DJ's at any time, set-up
included (H12, C2, C3: a condition may begin before round 1).
"""

from __future__ import annotations

from typing import NamedTuple

from pydantic import BaseModel

import sombra_tui.engine.rules  # noqa: F401  (registers every handler)
from sombra_tui.engine.registry import PHASE_WORDS, REGISTRY, RESOLUTION_PHASES, check_fits
from sombra_tui.engine.rules.marks import MARK_PHASES, mark_allowed
from sombra_tui.engine.state import CombatState, Phase

__all__ = ["COMMAND_TYPES", "MARK_PHASES", "PHASES", "PHASE_WORDS", "RESOLUTION_PHASES",
           "Fit", "allowed", "check_fits", "fits", "mark_allowed"]


class Fit(NamedTuple):
    """The phases a command fits, and how a refusal says what was tried."""

    phases: tuple[Phase, ...]
    #: "Cannot {doing} now: ...", the refusal in any other phase ...
    doing: str = ""
    #: ... unless the command has a refusal of its own: (code, message).
    refusal: tuple[str, str] | None = None


#: The commands bound to phases (the others fit every phase).
PHASES: dict[type[BaseModel], Fit] = {
    kind: Fit(entry.phases, entry.doing, entry.refusal)
    for kind, entry in REGISTRY.items() if entry.phases is not None}

#: Every command type (the members of the Command union).
COMMAND_TYPES: tuple[type[BaseModel], ...] = tuple(REGISTRY)


def fits(phase: Phase, command: type[BaseModel]) -> bool:
    fit = PHASES.get(command)
    return fit is None or phase in fit.phases


def allowed(state: CombatState) -> frozenset[type[BaseModel]]:
    """The command types that fit the combat's phase now."""
    return frozenset(kind for kind in COMMAND_TYPES if fits(state.phase, kind))
