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


def prompted(odds: bool, bruno: Side = Side.NPC) -> Combat:
    """Ana (PC, Alerta 14) declared; Bruno (an NPC unless told, Alerta 12) shoots her:
    her prompt."""
    combat = Combat(Encounter(name="Muelle", settings=Settings(
        players=PlayerViewSettings(reaction_odds=odds)), characters=[
        char("Ana", 8, 3, 14, side=Side.PC), char("Bruno", 12, 5, 12, side=bruno)]))
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


# ---- at the grades the DJ types in the reacción dialog (issue 37 item 3) ---------------


def odds_at(combat: Combat, grades: tuple[int, int] | None) -> str | None:
    return ask.players_view(combat.state, combat.log, combat.revision,
                            grades=grades).prompt_odds


def djs_reading(combat: Combat, base: int, extra: int) -> str:
    """What the DJ's reacción dialog reads for the prompt at those grades (its odds
    line: ask.reaction_odds with the Base GD and DJ grades typed)."""
    prompt = combat.state.top_prompt
    assert prompt is not None
    return ask.reaction_odds(combat.state, prompt, base=base, extra=extra).words()


@pytest.mark.parametrize(("base", "extra", "shown"), [
    (1, 0, "8 % combining · <1 % substituting"),  # combining at GD +1: under 9
    (-1, 0, "72 % combining · 35 % substituting"),  # substituting at GD 0: under 14
    (0, -2, "94 % combining · 72 % substituting"),
])
def test_d6_the_players_read_a_pcs_odds_at_the_grades_the_dj_typed(
        base: int, extra: int, shown: str) -> None:
    """D6: a typed Base GD or DJ grades move the players' figures with the DJ's own:
    the players never read 35 % while the Alerta TA is rolled at another GD."""
    combat = prompted(odds=True)
    assert odds_at(combat, (0, 0)) == "Ana: 35 % combining · 8 % substituting"
    assert odds_at(combat, (base, extra)) == f"Ana: {djs_reading(combat, base, extra)}"
    assert odds_at(combat, (base, extra)) == f"Ana: {shown}"


def test_d6_typed_grades_in_spanish(spanish: str) -> None:
    combat = prompted(odds=True)
    assert odds_at(combat, (1, 0)) == "Ana: 8 % combinando · <1 % sustituyendo"


def test_d6_no_odds_while_a_typed_grade_is_not_a_number() -> None:
    """The DJ's line shows nothing then: the players' shows nothing either, the
    question stays."""
    combat = prompted(odds=True)
    snapshot = ask.players_view(combat.state, combat.log, combat.revision, grades=None)
    assert (snapshot.prompt, snapshot.prompt_odds) == ("Ana: do you react to Bruno?", None)


def test_d9_a_pcs_contrarreaccion_at_the_grades_the_dj_typed() -> None:
    """D9: Bruno, a PC here, asked for a contrarreacción: one figure at its own GD,
    which the typed grades move, the same as the DJ's dialog reads."""
    combat = prompted(odds=True, bruno=Side.PC)
    combat.execute(React(character="Ana", mode=SUB, actions=[act("dives")],
                         dice=dice(3, 4, 2)))
    assert odds_at(combat, (0, 0)) == (
        "Bruno: contrarreacción at GD 0: 22 % combining or substituting")
    for base, extra in ((-1, 0), (0, -1)):
        assert odds_at(combat, (base, extra)) == f"Bruno: {djs_reading(combat, base, extra)}"
        assert odds_at(combat, (base, extra)) == (
            "Bruno: contrarreacción at GD -1: 57 % combining or substituting")
