"""D5-D7, T8, S2: a character hidden from the players until it acts (issue 23) shows at
its first TA, an Alerta TA (D6) included, and not when it only declines (D4).

Written against the mutation lane's survivors (README, "Mutation testing").
"""

from __future__ import annotations

from sombra_tui.engine import (
    Combat,
    Concealment,
    Declare,
    Decline,
    Encounter,
    EventKind,
    HideCharacter,
    React,
    Side,
    StartCombat,
)
from tests.engine.conftest import SUB, act, char, dice


def _prompted_ana() -> Combat:
    """Ana (hidden until she acts) is prompted by Bruno's shot (D4)."""
    combat = Combat(Encounter(name="E", characters=[
        char("Ana", 8, 3, 14, side=Side.PC), char("Bruno", 12, 5, 12)]))
    combat.execute(HideCharacter(character="Ana", until_acts=True))
    combat.execute(StartCombat())
    combat.execute(Declare(character="Ana", actions=[act("waits")]))
    combat.execute(Declare(character="Bruno", actions=[act("shoots Ana", "Ana", target=5)]))
    assert combat.state.concealed == {"Ana": Concealment.UNTIL_ACTS}  # a prompt: no act
    return combat


def test_d6_an_alerta_ta_shows_a_character_hidden_until_it_acts() -> None:
    """D6: a reaction's Alerta TA is a TA: Ana shows, and the log says so (S2)."""
    combat = _prompted_ana()
    events = combat.execute(React(character="Ana", mode=SUB, actions=[act("dives")],
                                  dice=dice(1, 1, 2)))
    assert combat.state.concealed == {}
    [shown] = [e for e in events if e.code == "players.revealed"]
    assert (shown.kind, shown.actor, shown.text) == (
        EventKind.ENCOUNTER, "Ana", "Ana acts: now in the players' view.")


def test_d4_declining_a_reaction_does_not_show_the_character() -> None:
    """D4: a declined prompt rolls nothing: Ana stays hidden."""
    combat = _prompted_ana()
    combat.execute(Decline(character="Ana"))
    assert combat.state.concealed == {"Ana": Concealment.UNTIL_ACTS}
