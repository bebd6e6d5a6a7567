"""The declaration form repeats the character's last declaration (issue 39 item 2): one
key (ctrl+l) writes last asalto's declaration into the form, each action with its kind,
description, skill, targets, weapon, what it uses and opposition, and the affected list
(D1, D2, H1, H10, O3); the summary line shows the command before Enter sends it, and it
is the very declaration of the asalto before. In round 1 there is nothing to repeat:
the form says so."""

from __future__ import annotations

import pytest

from sombra_tui.engine import ActionScope, BodySide, ask, i18n
from sombra_tui.engine import commands as c
from sombra_tui.engine.model import (
    Action,
    ActionKind,
    Encounter,
    Opposition,
    OppositionMode,
    Reading,
    Role,
)
from sombra_tui.engine.wounds import Weapon
from sombra_tui.screens.dialogs import DeclarationEditor
from tests.app.conftest import MIN_SIZE, SIZE, char, make_app, session_after, text_of
from tests.app.harness import Harness, declaration_dialog

ANA = char("Ana", 8, 3, 14, skills={"Armas cortas": 13},
           weapons=[Weapon(name="cuchillo", damage_type="0"),
                    Weapon(name="pistola", damage_type="I", skill="Armas cortas")])
SHOOT = Action(description="dispara a Bruno", skill="Armas cortas", targets=["Bruno"],
               weapon=ANA.weapons[1], scope=ActionScope(arms=frozenset({BodySide.LEFT})),
               opposition=Opposition(mode=OppositionMode.CONDITIONED, against=["Bruno"],
                                     role=Role.CONDITIONING, reading=Reading.ATTACK))
SHOUT = Action(kind=ActionKind.AUTOMATIC, description="grita a Carla", targets=["Carla"])
NOTHING = {"en": "Ana has no declaration of an earlier asalto to repeat.",
           "es": "Ana no tiene una declaración de un asalto anterior que repetir."}
HINT = {"en": "ctrl+l repeats the last declaration",
        "es": "ctrl+l repite la última declaración"}
CASES = pytest.mark.parametrize(("language", "size"), [
    ("en", SIZE), ("es", SIZE), ("en", MIN_SIZE), ("es", MIN_SIZE)],
    ids=["en-120x40", "es-120x40", "en-80x24", "es-80x24"])


def encounter() -> Encounter:
    return Encounter(name="E", seed=1, characters=[ANA, char("Bruno", 12, 5, 12),
                                                   char("Carla", 15, 2, 13)])


def round_one() -> list[c.Command]:
    """Ana declares a conditioned shot with her pistol and a shout (then is prevented,
    so the asalto ends without rolls); Bruno and Carla declare inaction."""
    return [c.StartCombat(), c.Declare(character="Ana", actions=[SHOOT, SHOUT]),
            c.Declare(character="Bruno", actions=[]), c.Declare(character="Carla", actions=[]),
            c.SetMark(character="Ana", mark=c.Mark.PREVENTED),
            *(c.Advance() for _phase in range(5))]


def speak(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)


@CASES
async def test_d1_ctrl_l_repeats_last_asaltos_declaration_shown_before_enter(
        language: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    speak(language, monkeypatch)
    session = session_after(encounter(), *round_one())
    combat = session.combat
    assert (combat.state.round, combat.state.current_declarer) == (2, "Ana")
    last = ask.last_declaration(combat.state, "Ana")
    assert last is not None and last.actions == [SHOOT, SHOUT]
    app = Harness(session, dialog=declaration_dialog, language=language)  # the DJ's d
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, DeclarationEditor)
        assert text_of(app, "#dialog-title").endswith(HINT[language])  # the key, named
        await pilot.press("ctrl+l")
        for _turn in range(6):  # the opposition's fields are built, then written
            await pilot.pause()
        expected = c.Declare(character="Ana", actions=[SHOOT, SHOUT],
                             affected=["Bruno", "Carla"])
        shown = ask.describe(combat.state, expected).render()
        assert text_of(app, "#summary").endswith(shown)
        await pilot.press("enter")
        await pilot.pause()
        assert combat.commands[-1] == expected
        declared = combat.state.declaration_of("Ana")
        assert declared is not None
        assert (declared.actions, declared.affected) == (last.actions, last.affected)


@CASES
async def test_d1_in_the_first_asalto_there_is_nothing_to_repeat(
        language: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    speak(language, monkeypatch)
    app = Harness(session_after(encounter(), c.StartCombat()), dialog=declaration_dialog,
                  language=language)  # the DJ's d
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert isinstance(app.screen, DeclarationEditor)
        assert HINT[language] not in text_of(app, "#dialog-title")  # nothing to repeat
        assert text_of(app, "#form-error") == NOTHING[language]
        assert len(app.session.combat.commands) == 1


async def test_d1_d_ctrl_l_enter_declares_last_asaltos_declaration_again() -> None:
    """Three keys, typed without a pause: the same declaration as the asalto before."""
    app = make_app(session_after(encounter(), *round_one()), journal=False)
    async with app.run_test(size=MIN_SIZE) as pilot:
        await pilot.press("d", "ctrl+l", "enter")
        await pilot.pause()
        declared = app.session.combat.state.declaration_of("Ana")
        assert declared is not None and declared.actions == [SHOOT, SHOUT]
