"""Issue 37 item 2: the odds where a decision is made, by keys, in both languages. Each
line shows the engine's figure for a known case (3d10 under 14: 352 of 1,000 outcomes,
35 %; at +1 GD, under 9: 84, 8 %; under 12: 220, 22 %), follows a grade as the DJ
changes it, and is gone when the DJ hides the odds (the app's preference, remembered
in preferences.json)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from sombra_tui import config
from sombra_tui.engine import commands as c
from sombra_tui.engine import i18n
from sombra_tui.engine.model import (
    Action,
    ActionKind,
    Encounter,
    Opposition,
    OppositionMode,
    Reading,
    Role,
    Side,
)
from sombra_tui.engine.odds import TASpec, conditioned_odds, percent
from sombra_tui.engine.wounds import Location
from sombra_tui.screens.dialogs import (
    DeclarationEditor,
    FreeTADialog,
    OpposedDialog,
    ReactionDialog,
    SettingsDialog,
    TADialog,
)
from sombra_tui.screens.dialogs.odds_line import OddsLine
from tests.app.conftest import (
    SIZE,
    choose,
    fill,
    focus,
    make_app,
    session_after,
    worked_example_encounter,
)
from tests.app.harness import Harness, ta_dialog

#: The words of each line, by language.
WORDS = {
    "en": {"reaction": "Chance: 35 % combining · 8 % substituting",
           "based": "Chance: 8 % combining · <1 % substituting",
           "counter": "Chance: contrarreacción at GD 0: 22 % combining or substituting",
           "ta": "Chance: 35 % success · critical <1 % · fumble 1 %",
           "ta+1": "Chance: 8 % success · critical <1 % · fumble 1 %",
           "ta-2": "Chance: 50 % success · critical <1 % · fumble <1 %"},
    "es": {"reaction": "Probabilidad: 35 % combinando · 8 % sustituyendo",
           "based": "Probabilidad: 8 % combinando · <1 % sustituyendo",
           "counter": "Probabilidad: contrarreacción a GD 0: 22 % combinando o sustituyendo",
           "ta": "Probabilidad: 35 % de éxito · crítico <1 % · pifia 1 %",
           "ta+1": "Probabilidad: 8 % de éxito · crítico <1 % · pifia 1 %",
           "ta-2": "Probabilidad: 50 % de éxito · crítico <1 % · pifia <1 %"},
}


#: Ana's own chances on the players' view (issue 37 item 3).
PLAYERS = {"en": "Ana: 35 % combining · 8 % substituting",
           "es": "Ana: 35 % combinando · 8 % sustituyendo"}


@pytest.fixture(params=["en", "es"])
def language(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    code: str = request.param
    monkeypatch.setenv("LANGUAGE", code)
    i18n.set_language(code)
    return code


def odds_line(pilot: Pilot[Any]) -> str:
    """The odds line of the dialog on top, as shown ('' when hidden)."""
    line = pilot.app.screen.query_one(OddsLine)
    text = str(line.content)
    assert bool(text) == line.display, "an empty line takes no room; a full one shows"
    return text


async def hide_the_odds(pilot: Pilot[Any]) -> None:
    """The DJ unticks "Show the odds" in the settings (g) and applies them."""
    await pilot.press("g")
    assert isinstance(pilot.app.screen, SettingsDialog)
    await focus(pilot, "show-odds")
    await pilot.press("space")
    await pilot.press("enter")
    await pilot.pause()
    assert pilot.app.screen is pilot.app.main_screen  # type: ignore[attr-defined]


def bruno_shoots_ana() -> list[c.Command]:
    return [c.StartCombat(),
            c.Declare(character="Ana", actions=[Action(description="aims at the door")]),
            c.Declare(character="Bruno", actions=[Action(description="shoots Ana",
                                                         targets=["Ana"])])]


async def test_d6_d9_the_reaction_prompt_shows_combining_and_substituting(
        language: str) -> None:
    """Ana (Alerta 14) prompted by Bruno's shot: 35 % combining, 8 % substituting
    (D6), before she answers; a base GD of +1 moves both; Bruno's contrarreacción
    (Alerta 12) names its own GD, the same for both choices (D9)."""
    words = WORDS[language]
    app = make_app(session_after(worked_example_encounter(), *bruno_shoots_ana()),
                   journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        assert isinstance(app.screen, ReactionDialog)
        assert odds_line(pilot) == words["reaction"]
        await fill(pilot, "base", "1")
        assert odds_line(pilot) == words["based"]
        await fill(pilot, "base", "0")
        await fill(pilot, "a0-description", "dives")
        await fill(pilot, "dice", "3 4 2")  # 9 + 5 = 14: a success at +1
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.combat.state.declaration_of("Ana").summary().startswith(  # type: ignore[union-attr]
            "dives")
        await pilot.press("r")
        assert isinstance(app.screen, ReactionDialog)
        assert odds_line(pilot) == words["counter"]


def carla_shoots() -> list[c.Command]:
    """Carla's shot (14) is the step to resolve."""
    return [c.StartCombat(), c.Declare(character="Ana", actions=[]),
            c.Declare(character="Bruno", actions=[]),
            c.Declare(character="Carla", actions=[Action(description="shoots", target=14)]),
            c.Advance(), c.Advance()]


async def test_t2_t4_the_ta_dialog_shows_the_chance_before_the_dice(language: str) -> None:
    """Carla's TA under 14: 35 % before any die is typed; an extra GD (T3) and then a
    modifier (T2) as the DJ types them; the chance stays while the dice are typed."""
    words = WORDS[language]
    app = Harness(session_after(worked_example_encounter(), *carla_shoots()),
                  dialog=ta_dialog, language=language)  # the DJ's y: the TA dialog
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TADialog)
        assert odds_line(pilot) == words["ta"]
        await fill(pilot, "extra", "1")
        assert odds_line(pilot) == words["ta+1"]
        await fill(pilot, "extra", "0")
        await fill(pilot, "modifier", "-2")
        assert odds_line(pilot) == words["ta-2"]
        await fill(pilot, "dice", "3 4 2")
        assert odds_line(pilot) == words["ta-2"]


async def test_t8_the_free_ta_shows_the_chance_as_its_value_and_gd_are_typed(
        language: str) -> None:
    words = WORDS[language]
    app = Harness(session_after(worked_example_encounter(), c.StartCombat()),
                  dialog=lambda h: FreeTADialog(h.state, h.state.current_declarer, h.check,
                                                h.roll),
                  language=language)  # the DJ's f on the cursor's row (Ana, I3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, FreeTADialog)
        assert odds_line(pilot) == ""  # nothing to roll under yet
        await fill(pilot, "target", "14")
        assert odds_line(pilot) == words["ta"]
        await fill(pilot, "gd", "1")
        assert odds_line(pilot) == words["ta+1"]


async def test_the_odds_are_gone_when_the_dj_hides_them(language: str) -> None:
    app = make_app(session_after(worked_example_encounter(), *bruno_shoots_ana()),
                   journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await hide_the_odds(pilot)
        assert not app.preferences.preferences.show_odds
        await pilot.press("r")
        assert isinstance(app.screen, ReactionDialog)
        assert odds_line(pilot) == ""
        await fill(pilot, "base", "1")
        assert odds_line(pilot) == ""
        await pilot.press("escape", "y")
        await pilot.press("f")
        assert isinstance(app.screen, FreeTADialog)
        await fill(pilot, "target", "14")
        assert odds_line(pilot) == ""
    app = make_app(session_after(worked_example_encounter(), *carla_shoots()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await hide_the_odds(pilot)
        await pilot.press("y")  # type the dice: the TA dialog
        assert isinstance(app.screen, TADialog)
        assert odds_line(pilot) == ""


async def test_hiding_the_odds_is_remembered_for_every_encounter() -> None:
    app = make_app(session_after(worked_example_encounter(), *bruno_shoots_ana()),
                   journal=False)
    app.remember_theme = True  # this test is about the file
    async with app.run_test(size=SIZE) as pilot:
        await hide_the_odds(pilot)
    assert config.load_preferences().preferences.show_odds is False
    again = make_app(session_after(worked_example_encounter(), *bruno_shoots_ana()),
                     journal=False)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        assert odds_line(pilot) == ""


async def test_the_dj_lets_a_prompted_pc_see_its_own_odds(language: str) -> None:
    """Issue 37 item 3, by keys: off by default; ticked in the settings (g), one
    undoable command; Ana (a PC) then reads her chances on the players' view; an NPC
    prompted never does (tests/engine/test_players_view_odds.py)."""
    encounter = worked_example_encounter()
    encounter.characters[0] = encounter.characters[0].model_copy(update={"side": Side.PC})
    app = make_app(session_after(encounter, *bruno_shoots_ana()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        assert app.session.players_snapshot().prompt_odds is None
        await pilot.press("g")
        assert isinstance(app.screen, SettingsDialog)
        await focus(pilot, "players-odds")
        await pilot.press("space")
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.combat.state.settings.players.reaction_odds
        assert app.session.players_snapshot().prompt_odds == PLAYERS[language]
        await pilot.press("u")
        assert app.session.players_snapshot().prompt_odds is None


async def test_d6_the_players_odds_follow_the_base_gd_the_dj_types(language: str) -> None:
    """Issue 37 item 3 (D6, D9): Ana (a PC) prompted, her odds shown to the players. As
    the DJ types a Base GD in her reacción dialog, the players' figures move with the
    DJ's line (never 35 % while she rolls at +1); a grade that is not a number shows no
    figure on either; Escape (discarding the typing) brings back the state's."""
    encounter = worked_example_encounter()
    encounter.characters[0] = encounter.characters[0].model_copy(update={"side": Side.PC})
    players_odds = encounter.settings.players.model_copy(update={"reaction_odds": True})
    encounter.settings = encounter.settings.model_copy(update={"players": players_odds})
    app = make_app(session_after(encounter, *bruno_shoots_ana()), journal=False)

    def players() -> str | None:
        return app.session.players_snapshot().prompt_odds

    def as_the_djs(line: str) -> str:
        """The DJ's odds line's figures, after the prompted PC's name."""
        return "Ana: " + line.split(": ", 1)[1]

    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        assert isinstance(app.screen, ReactionDialog)
        assert players() == PLAYERS[language] == as_the_djs(odds_line(pilot))
        await fill(pilot, "base", "1")
        await pilot.pause()
        assert odds_line(pilot) == WORDS[language]["based"]
        assert players() == as_the_djs(odds_line(pilot)) != PLAYERS[language]
        await fill(pilot, "base", "-")  # not a number yet: no figure on either
        await pilot.pause()
        assert odds_line(pilot) == "" and players() is None
        await fill(pilot, "base", "1")
        await pilot.pause()
        assert players() == as_the_djs(WORDS[language]["based"])
        await pilot.press("escape", "y")  # throw the typing away
        await pilot.pause()
        assert app.screen is app.main_screen
        assert players() == PLAYERS[language]


def sneak_past_a_guard() -> list[c.Command]:
    """Carla (15) sneaks past Ana (14), who watches for her (O3); Bruno sits it out."""
    def stealth(against: str, role: Role, target: int) -> Action:
        return Action(description="sneaks / watches", target=target, opposition=Opposition(
            mode=OppositionMode.CONDITIONED, against=[against], role=role,
            reading=Reading.STEALTH))
    return [c.StartCombat(),
            c.Declare(character="Ana", actions=[stealth("Carla", Role.CONDITIONED, 14)]),
            c.Declare(character="Bruno", actions=[]),
            c.Declare(character="Carla", actions=[stealth("Ana", Role.CONDITIONING, 15)]),
            c.Advance(), c.Advance()]


def opposed_words(language: str, carla: int, ana: int, size: int = 1) -> str:
    """The line for Carla against Ana: the engine's O3 chances (tested against a
    brute-force count in tests/engine/test_odds.py) in the DJ's words."""
    odds = conditioned_odds(TASpec(target=carla), TASpec(target=ana), size)
    chance, tie = ("Chance", "tie") if language == "en" else ("Probabilidad", "empate")
    return (f"{chance}: Carla {percent(odds.first)} · Ana {percent(odds.second)} · "
            f"{tie} {percent(odds.tie)}")


async def test_o3_t5_the_opposed_dialog_shows_each_sides_chance(language: str) -> None:
    """Before the dice: each side's chance to win and a tie's, with the values of their
    actions; as the DJ types Ana's value and the condition's size, they follow; with
    a value wrong, nothing is shown rather than a wrong figure."""
    app = make_app(session_after(worked_example_encounter(), *sneak_past_a_guard()),
                   journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")
        assert isinstance(app.screen, OpposedDialog)
        assert odds_line(pilot) == opposed_words(language, 15, 14)
        await fill(pilot, "p1_Ana-target", "10")
        assert odds_line(pilot) == opposed_words(language, 15, 10)
        await fill(pilot, "size", "2")
        assert odds_line(pilot) == opposed_words(language, 15, 10, size=2)
        await fill(pilot, "size", "-1")  # below 0: refused
        assert odds_line(pilot) == ""
        await fill(pilot, "size", "1")
        await pilot.press("escape", "y")
        await hide_the_odds(pilot)
        await pilot.press("y")
        assert isinstance(app.screen, OpposedDialog)
        assert odds_line(pilot) == ""


def armed_encounter() -> Encounter:
    """The worked example with Ana's Armas 14 (and Resistencia 5, for a leve wound)."""
    encounter = worked_example_encounter()
    encounter.characters[0] = encounter.characters[0].model_copy(update={
        "skills": {"Armas": 14}, "resistencia": 5})
    return encounter


async def test_t2_h10_the_declaration_shows_the_chance_of_the_action_declared(
        language: str) -> None:
    """As Ana's skill and GD are chosen: Armas 14 gives 35 %, at GD +1 8 %; an
    automatic action rolls nothing (T7), so no line; a leve wound on her main arm
    weighs on a physical action (H10): Armas at GD 0 is then 8 %."""
    words = WORDS[language]
    app = make_app(session_after(armed_encounter(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        assert isinstance(app.screen, DeclarationEditor)
        assert odds_line(pilot) == ""  # nothing to roll under yet
        await fill(pilot, "a0-skill", "Armas")
        assert app.screen.query_one("#a0-target", Input).value == "14"
        assert odds_line(pilot) == words["ta"]
        await fill(pilot, "a0-gd", "1")
        assert odds_line(pilot) == words["ta+1"]
        await choose(pilot, "a0-kind", ActionKind.AUTOMATIC)
        assert odds_line(pilot) == ""
        await pilot.press("escape", "y")
    app = make_app(session_after(armed_encounter(), c.StartCombat(), c.ManualHit(
        character="Ana", location=Location.BRAZO_DERECHO, damage=5)), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        assert isinstance(app.screen, DeclarationEditor)
        await fill(pilot, "a0-skill", "Armas")
        assert odds_line(pilot) == words["ta+1"]
        await pilot.press("escape", "y")
        await hide_the_odds(pilot)
        await pilot.press("d")
        assert isinstance(app.screen, DeclarationEditor)
        await fill(pilot, "a0-skill", "Armas")
        assert odds_line(pilot) == ""
