"""The one list of commands: each handler registers itself with its command type, the
phases it fits (P1) and how undo/redo name it.

`REGISTRY` replaces the lists that had to agree by hand (the machine's handlers, the
phase table of allowed.py, the undo/redo names). A handler registers when its module
in `engine/rules/` is imported; importing `sombra_tui.engine.rules` registers them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.i18n import N_, _
from sombra_tui.engine.state import CombatState, Phase

if TYPE_CHECKING:
    from sombra_tui.engine.rules.core import Emitter

C = TypeVar("C", bound=BaseModel)
Handler = Callable[[CombatState, Any, "Emitter"], None]

#: The phases in which steps are resolved (P1), in their order.
RESOLUTION_PHASES = (Phase.INSTANT, Phase.ROUND, Phase.EXTENDED)
#: Every phase once the combat has started.
NOT_SETUP = tuple(phase for phase in Phase if phase is not Phase.SETUP)

#: The phases as a refusal names them ("the instant phase").
PHASE_WORDS: dict[Phase, str] = {
    Phase.SETUP: N_("setup"), Phase.DECLARATION: N_("declaration"),
    Phase.INSTANT: N_("instant"), Phase.ROUND: N_("round"), Phase.EXTENDED: N_("extended"),
    Phase.END_OF_ROUND: N_("end_of_round"),
}


@dataclass(frozen=True)
class Entry:
    """One command type: its handler, its name for undo/redo and the phases it fits."""

    command: type[BaseModel]
    handler: Handler
    #: N_ msgid: how undo/redo name the command.
    label: str
    #: The phases the command fits (P1); None: every phase.
    phases: tuple[Phase, ...] | None = None
    #: N_ msgid: "Cannot {doing} now: ...", the refusal in any other phase ...
    doing: str = ""
    #: ... unless the command has a refusal of its own: (code, N_ message).
    refusal: tuple[str, str] | None = None
    #: Refused while a proposal is open (H1/H7/H11): the handler calls need_no_proposal.
    settles_first: bool = False


REGISTRY: dict[type[BaseModel], Entry] = {}


def handles(command: type[C], *, label: str, phases: tuple[Phase, ...] | None = None,
            doing: str = "", refusal: tuple[str, str] | None = None,
            settles_first: bool = False,
            ) -> Callable[[Callable[[CombatState, C, Emitter], None]],
                          Callable[[CombatState, C, Emitter], None]]:
    """Register the decorated function as `command`'s one handler."""
    def register(handler: Callable[[CombatState, C, Emitter], None]
                 ) -> Callable[[CombatState, C, Emitter], None]:
        if command in REGISTRY:
            raise RuntimeError(f"{command.__name__} has two handlers")
        REGISTRY[command] = Entry(command, handler, label, phases, doing, refusal,
                                  settles_first)
        return handler
    return register


def entry_for(command_type: type[BaseModel]) -> Entry:
    """The registry entry of `command_type`; SombraError for a type with no handler."""
    entry = REGISTRY.get(command_type)
    if entry is None:
        raise SombraError(N_("Unknown command {command}."),
                          code="command.unknown", params={"command": command_type.__name__})
    return entry


def check_fits(state: CombatState, command: BaseModel) -> None:
    """Raise SombraError when `command` does not fit the combat's phase."""
    entry = REGISTRY.get(type(command))
    if entry is None or entry.phases is None or state.phase in entry.phases:
        return
    if entry.refusal is not None:
        code, message = entry.refusal
        raise SombraError(message, code=code)  # an N_ template
    # The words inside the sentence are translated as it is made (it is shown at once).
    needed = _(" or ").join(_(PHASE_WORDS[phase]) for phase in entry.phases)
    raise SombraError(N_("Cannot {doing} now: the combat is in the {phase} phase; that needs"
                         " the {allowed} phase."), code="phase.wrong",
                      params={"doing": _(entry.doing), "phase": _(PHASE_WORDS[state.phase]),
                              "allowed": needed})


def label_of(command: BaseModel | type[BaseModel]) -> str:
    """How undo/redo name a command, translated: "accept hit (Iker)"; for a type, the
    label alone ("accept hit")."""
    if isinstance(command, type):
        return _(entry_for(command).label)
    label = _(entry_for(type(command)).label)
    name = getattr(command, "character", None) or getattr(command, "name", None)
    if isinstance(name, str):
        return f"{label} ({name})"
    character_name = getattr(name, "name", None)  # AddCharacter carries a Character
    if isinstance(character_name, str):
        return f"{label} ({character_name})"
    return label
