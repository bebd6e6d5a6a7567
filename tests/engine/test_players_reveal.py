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
    PlayerViewSettings,
    React,
    ResolveOpposed,
    RevealCharacter,
    Settings,
    Side,
    SideView,
    StartCombat,
)
from sombra_tui.engine.commands import AddCharacter, EditCharacter
from tests.engine.conftest import SUB, act, char, dice
from tests.engine.test_rules_opposed import carla_attacks_bruno, roll


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


def test_s1_renaming_a_shown_character_while_another_is_hidden() -> None:
    """S1 (issue 23): a rename keeps who is hidden: the hidden one stays hidden, the
    renamed one (shown) stays shown."""
    combat = Combat(Encounter(name="E", characters=[char("Ana", 8), char("Bruno", 12)]))
    combat.execute(HideCharacter(character="Bruno"))
    combat.execute(EditCharacter(name="Ana", character=char("Anita", 8)))
    assert combat.state.concealed == {"Bruno": Concealment.UNTIL_REVEALED}
    combat.execute(EditCharacter(name="Bruno", character=char("Bruno el Rojo", 12)))
    assert combat.state.concealed == {"Bruno el Rojo": Concealment.UNTIL_REVEALED}


def test_o3_each_hidden_partner_of_an_opposition_shows_at_its_ta() -> None:
    """O3 (issue 23): one command rolls both sides; the hidden side shows at its own TA,
    even after a line about someone shown."""
    combat = carla_attacks_bruno()
    combat.execute(HideCharacter(character="Bruno", until_acts=True))
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(3, 3, 4))]))
    assert combat.state.concealed == {}


def test_s1_a_newcomer_of_a_hidden_side_is_hidden_as_it_joins_and_no_one_else() -> None:
    """Issue 23: NPCs hidden until they act: a newcomer NPC is hidden at once, and one
    the DJ has revealed stays shown when someone else joins."""
    settings = Settings(players=PlayerViewSettings(npc=SideView(hidden_until_acts=True)))
    combat = Combat(Encounter(name="E", settings=settings, characters=[
        char("Ana", 8, side=Side.PC), char("Bruno", 12)]))
    assert combat.state.concealed == {"Bruno": Concealment.UNTIL_ACTS}
    combat.execute(RevealCharacter(character="Bruno"))
    combat.execute(AddCharacter(character=char("Dora", 4)))
    assert combat.state.concealed == {"Dora": Concealment.UNTIL_ACTS}
