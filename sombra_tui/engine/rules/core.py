"""What every rule module shares: the event emitter and the checks and helpers every
area uses. It imports no area module."""

from __future__ import annotations

from typing import Any

from sombra_tui.engine.coded import CodedError
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import EventKind, LogEvent
from sombra_tui.engine.i18n import N_, Msg
from sombra_tui.engine.model import (
    Character,
)
from sombra_tui.engine.state import (
    Body,
    CombatState,
    ProposalKind,
)


class Emitter:
    """Collects the events of one command, stamped with round and phase."""

    def __init__(self, state: CombatState) -> None:
        self.state = state
        self.events: list[LogEvent] = []

    def __call__(self, kind: EventKind, text: str | Msg, **fields: Any) -> None:
        self.events.append(LogEvent.of(text, round=self.state.round, phase=self.state.phase,
                                       kind=kind, **fields))


def need_character(state: CombatState, name: str) -> Character:
    character = state.character(name)
    if character is None:
        if name in state.removed:
            raise SombraError(N_("{name} was removed from the encounter."),
                              code="character.removed", params={"name": name})
        known = ", ".join(ch.name for ch in state.characters) or "nobody yet"
        raise SombraError(N_("There is no character called {name!r} (the encounter has: "
                             "{known})."),
                          code="character.unknown", params={"name": name, "known": known})
    return character


def gender_of(state: CombatState, name: str) -> str | None:
    """The gender of `name` (model.Gender's value), for the words about them to agree;
    None when nobody is called so."""
    character = state.character(name)
    return None if character is None else character.gender.value


def new_id(state: CombatState) -> int:
    value = state.next_id
    state.next_id += 1
    return value


def set_body(state: CombatState, name: str, **changes: Any) -> Body:
    body = state.body(name).model_copy(update=changes)
    state.bodies[name] = body
    return body


def need_no_proposal(state: CombatState, doing: str) -> None:
    """H1/H7/H11: like a reaction prompt, an open proposal is settled before the next step."""
    if state.proposals:
        first = state.proposals[0]
        template = {
            ProposalKind.HIT: N_("First settle the hit on {character}: accept or decline it, "
                                 "then {doing}."),
            ProposalKind.THRESHOLD: N_("First settle {condition} for {character}: accept "
                                       "or decline it, then {doing}."),
            ProposalKind.PREVENT: N_("First settle prevented for {character}: accept or "
                                     "decline it, then {doing}.")}[first.kind]
        raise CodedError("proposal.open", template,
                         params={"kind": first.kind.value, "character": first.character,
                                 "condition": first.condition or "", "doing": doing}
                         ).about(gender_of(state, first.character)
                                 if first.kind is ProposalKind.PREVENT else None)
