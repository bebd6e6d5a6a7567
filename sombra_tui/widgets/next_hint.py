"""The hint of the next key (the panel's first line): what space (or the key the DJ
bound in its place) does now, naming the keys in force. It reads the engine's one answer
(ask.next_step), as the key, the table's marker and the footer do."""

from __future__ import annotations

from collections.abc import Mapping

from sombra_tui import keys
from sombra_tui.engine import CombatState, Phase, ask, i18n
from sombra_tui.engine.ask import NextKind, next_step
from sombra_tui.engine.i18n import N_, _


def next_step_hint(state: CombatState, keymap: Mapping[str, str] | None = None) -> str:
    """What the 'next' key (space unless the DJ rebound it) does now, naming the keys in
    force (`keymap`: the DJ's rebindings). It reads the engine's one answer (ask.next_step),
    as the key, the table's marker and the footer do: they cannot disagree."""
    named = KeyNames(keymap or {})
    step = next_step(state)
    kind, proposal = step.kind, step.proposal
    if kind is NextKind.SETTLE_HIT and proposal is not None:
        if proposal.attacker is None:
            return _("{next}: settle the hit on {target}").format(
                next=named.next, target=proposal.character)
        return _("{next}: settle {attacker}'s hit on {target}").format(
            next=named.next, attacker=proposal.attacker, target=proposal.character)
    if kind is NextKind.SETTLE_THRESHOLD and proposal is not None:
        return i18n.said_of(ask.gender(state, proposal.character),
                            N_("{next}: {condition} for {name}? (confirm or decline)"),
                            next=named.next, condition=proposal.condition,
                            name=proposal.character)
    if kind is NextKind.SETTLE_PREVENT and proposal is not None:
        return i18n.said_of(ask.gender(state, proposal.character),
                            N_("{next}: mark {name} prevented? ({condition})"),
                            next=named.next, name=proposal.character,
                            condition=proposal.condition)
    if kind is NextKind.ADD_CHARACTER:
        return _("{add}: add a character").format(add=named("add_character"))
    if kind is NextKind.START:
        return _("{next}: start asalto 1").format(next=named.next)
    if kind is NextKind.REACT and step.prompt is not None:
        # The same word as the prompt's line below: a counter prompt is a
        # contrarreacción ("counter-reaction" in English), not a plain reaction.
        hint = (_("{next}: {reactor}'s contrarreacción to {author} ({decline}: does not "
                  "react)")
                if step.counter
                else _("{next}: {reactor} reacts to {author} ({decline}: does not react)"))
        return hint.format(next=named.next, reactor=step.prompt.reactor, author=step.author,
                           decline=named("decline"))
    if kind is NextKind.DECLARE:
        return _("{next}: {name} declares").format(next=named.next, name=step.who[0])
    if kind is NextKind.TO_INSTANT:
        return _("{next}: resolve the instant actions").format(next=named.next)
    if kind is NextKind.NEXT_ROUND:
        return _("{next}: start asalto {round}").format(next=named.next, round=step.round)
    if kind is NextKind.RESOLVE:
        return _("{next}: resolve {name}'s action ({roll} rolls, {type} types dice)").format(
            next=named.next, name=step.group[0].character, roll=named("roll"),
            type=named("type_dice"))
    return {Phase.INSTANT: _("{next}: round actions"),
            Phase.ROUND: _("{next}: extended actions"),
            Phase.EXTENDED: _("{next}: end the asalto")}[step.phase].format(next=named.next)



class KeyNames:
    """The keys in force as the DJ reads them in a sentence (their rebindings applied)."""

    def __init__(self, keymap: Mapping[str, str]) -> None:
        self.keymap = keymap
        self.next = self("next_step")

    def __call__(self, binding_id: str) -> str:
        return keys.first_key_in_force(binding_id, self.keymap)

