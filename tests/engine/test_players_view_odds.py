"""Issue 37 item 3: the players' view may show a PC's own reacción odds while that PC is
prompted (a setting of the players' view, off by default), never an NPC's: an NPC's
chances would tell its Alerta, which never reaches the players (D6, D9)."""

from __future__ import annotations

import pytest

from sombra_tui.engine import (
    ChangeSettings,
    Combat,
    Declare,
    Encounter,
    PlayerViewSettings,
    React,
    Settings,
    Side,
    StartCombat,
    ask,
    i18n,
    storage,
)
from tests.engine.conftest import SUB, act, char, dice


def prompted(odds: bool) -> Combat:
    """Ana (PC, Alerta 14) declared; Bruno (NPC, Alerta 12) shoots her: her prompt."""
    combat = Combat(Encounter(name="Muelle", settings=Settings(
        players=PlayerViewSettings(reaction_odds=odds)), characters=[
        char("Ana", 8, 3, 14, side=Side.PC), char("Bruno", 12, 5, 12)]))
    combat.execute(StartCombat())
    combat.execute(Declare(character="Ana", actions=[act("aims at the door")]))
    combat.execute(Declare(character="Bruno", actions=[act("shoots Ana", "Ana")]))
    return combat


def view_of(combat: Combat) -> tuple[str | None, str | None]:
    snapshot = ask.players_view(combat.state, combat.log, combat.revision)
    return snapshot.prompt, snapshot.prompt_odds


def test_d6_a_prompted_pcs_own_odds_show_only_with_the_setting() -> None:
    assert PlayerViewSettings().reaction_odds is False  # off by default
    assert view_of(prompted(odds=False)) == ("Ana: do you react to Bruno?", None)
    assert view_of(prompted(odds=True)) == (
        "Ana: do you react to Bruno?", "Ana: 35 % combining · 8 % substituting")


def test_d6_the_odds_in_spanish(spanish: str) -> None:
    assert view_of(prompted(odds=True))[1] == "Ana: 35 % combinando · 8 % sustituyendo"


@pytest.mark.parametrize("odds", [False, True])
def test_d9_an_npcs_odds_never_show(odds: bool) -> None:
    """Ana reacts; Bruno (an NPC) is asked for a contrarreacción: its question shows,
    its chances never, whatever the setting."""
    combat = prompted(odds)
    combat.execute(React(character="Ana", mode=SUB, actions=[act("dives")],
                         dice=dice(3, 4, 2)))
    top = combat.state.top_prompt
    assert top is not None and top.reactor == "Bruno"
    prompt, shown = view_of(combat)
    assert prompt == "Bruno: do you make a contrarreacción to Ana?"
    assert shown is None
    assert "%" not in ask.players_view(combat.state, combat.log,
                                       combat.revision).model_dump_json()


def test_the_setting_is_a_command_named_in_the_djs_words_and_saved() -> None:
    combat = prompted(odds=False)
    settings = combat.state.settings
    combat.execute(ChangeSettings(settings=settings.model_copy(update={
        "players": settings.players.model_copy(update={"reaction_odds": True})})))
    assert combat.log[-1].text == (
        "Settings: A prompted PC's reacción odds for the players off -> on.")
    i18n.set_language("es")
    try:
        assert combat.log[-1].text == (
            "Ajustes: Probabilidades de reacción de un PJ para los jugadores no -> sí.")
    finally:
        i18n.set_language("en")
    assert view_of(combat)[1] == "Ana: 35 % combining · 8 % substituting"
    loaded = storage.loads(storage.dumps(combat))
    assert loaded.state.settings.players.reaction_odds
    combat.undo()
    assert view_of(combat)[1] is None
