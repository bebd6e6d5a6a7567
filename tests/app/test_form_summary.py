"""A form's summary line (issue 35, D2): above its buttons, the command Enter would send
now, in the DJ's words, following every field; Enter sends exactly that command.
Played by keys, in both languages, at 80x24 and 120x40."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Button, Static

from sombra_tui.app import SombraApp
from sombra_tui.engine import ask, i18n
from sombra_tui.engine import commands as c
from sombra_tui.engine.model import Action, Character, Encounter, Side
from sombra_tui.engine.wounds import Weapon
from sombra_tui.screens.dialogs import DeclarationEditor, TADialog
from tests.app.conftest import (
    MIN_SIZE,
    SIZE,
    fill,
    focus,
    send_keys,
    session_after,
    toggle,
    type_text,
)
from tests.app.harness import Harness, declaration_dialog, ta_dialog

BOTH = pytest.mark.parametrize(("size", "language"), [
    (SIZE, "en"), (MIN_SIZE, "en"), (SIZE, "es"), (MIN_SIZE, "es")],
    ids=["120x40-en", "80x24-en", "120x40-es", "80x24-es"])

PISTOLA = Weapon(name="pistola", damage_type="II", skill="Armas cortas")


def encounter() -> Encounter:
    return Encounter(name="Muelle", seed=4, characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14, side=Side.PC,
                  skills={"Armas cortas": 12, "Atletismo": 11}, weapons=[PISTOLA]),
        Character(name="Bruno", primaria=12, secundaria=5, alerta=12, skills={"Pelea": 13})])


def speak(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)


def summary(app: SombraApp | Harness) -> str:
    return str(app.screen.query_one("#summary", Static).content)


async def settle(pilot: Any) -> None:
    for _ in range(3):
        await pilot.pause()


def sent_words(app: SombraApp | Harness, state: Any) -> str:
    """The last command the screen sent, in the DJ's words (before it ran: `state`)."""
    key = "enter" if i18n.language() == "en" else "intro"
    words = "sends" if i18n.language() == "en" else "envía"
    return f"{key} {words}: {ask.describe(state, app.session.combat.commands[-1])}"


def assert_fits_above_the_buttons(app: SombraApp | Harness, size: tuple[int, int]) -> None:
    """The line is shown whole, above the buttons, and no button is cut off."""
    line = app.screen.query_one("#summary", Static)
    buttons = list(app.screen.query(Button))
    assert line.region.height >= 1 and line.region.width > 0
    assert all(line.region.bottom <= button.region.y for button in buttons)
    assert all(0 < button.region.bottom <= size[1] and button.region.height >= 1
               for button in buttons)


@BOTH
async def test_d2_the_declaration_s_summary_follows_its_fields_and_enter_sends_it(
        size: tuple[int, int], language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """H1: the weapon follows the skill, and the line says so; a target chosen shows at
    once; Enter sends exactly the command the line said."""
    speak(language, monkeypatch)
    app = Harness(session_after(encounter(), c.StartCombat()), dialog=declaration_dialog,
                  language=language)  # the DJ's d
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, DeclarationEditor)
        await settle(pilot)
        empty = summary(app)
        await type_text(pilot, "dispara a Bruno")
        await settle(pilot)
        described = summary(app)
        assert described != empty and "dispara a Bruno" in described
        await fill(pilot, "a0-skill", "Armas cortas")
        await settle(pilot)
        assert "pistola" in summary(app)
        await toggle(pilot, "a0-targets", ["Bruno"])
        await fill(pilot, "a0-gd", "1")
        await settle(pilot)
        said = summary(app)
        want = {"en": "Ana declares “dispara a Bruno” (Armas cortas, under 12, with pistola, "
                      "GD +1) against Bruno",
                "es": "Ana declara «dispara a Bruno» (Armas cortas, bajo 12, con pistola, "
                      "GD +1) contra Bruno"}[language]
        assert said.endswith(want), said
        assert_fits_above_the_buttons(app, size)
        before = app.session.combat.state.model_copy(deep=True)
        await focus(pilot, "a0-description")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.session.combat.commands[-1], c.Declare)
        assert sent_words(app, before) == said


def at_the_round_phase() -> list[c.Command]:
    return [c.StartCombat(),
            c.Declare(character="Ana", actions=[Action(description="apunta",
                                                       skill="Armas cortas")]),
            c.Declare(character="Bruno", actions=[Action(description="espera", target=10)]),
            c.Advance(), c.Advance(),
            c.Resolve(character="Bruno", dice=c.Dice.of(5, 5, 5))]


@BOTH
async def test_d2_the_ta_s_summary_says_whose_dice_and_its_gd_and_enter_sends_it(
        size: tuple[int, int], language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """T6/T2: the dice typed are the table's (Ana is a PC), the extra GD typed changes
    the GD said; Enter sends those dice at that GD."""
    speak(language, monkeypatch)
    app = Harness(session_after(encounter(), *at_the_round_phase()), dialog=ta_dialog,
                  language=language)  # the DJ's space: Ana's TA
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TADialog) and app.screen.step.character == "Ana"
        await settle(pilot)
        if language == "en":
            assert summary(app).startswith("Type the dice")  # the table's: none yet
        await send_keys(pilot, *"3 4 2")
        await settle(pilot)
        first = summary(app)
        assert ("3·4·2 (the table)" if language == "en" else "3·4·2 (la mesa)") in first
        assert first.endswith("GD 0")
        await fill(pilot, "extra", "2")
        await settle(pilot)
        said = summary(app)
        assert said.endswith("GD +2") and said != first
        assert_fits_above_the_buttons(app, size)
        before = app.session.combat.state.model_copy(deep=True)
        await pilot.press("enter")
        await settle(pilot)
        sent = app.session.combat.commands[-1]
        assert isinstance(sent, c.Resolve) and sent.dice == c.Dice.of(3, 4, 2)
        assert sent.extra_gd == 2
        assert sent_words(app, before) == said
