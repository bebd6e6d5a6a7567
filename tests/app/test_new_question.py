"""A contrarreacción prompt is a new question (issue 35 item 4, D9): its title says
whose and to which reacción, and keys typed for what came before (space, then the next
step's text and Enter, before it showed) neither fill nor answer it."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input, Static

from sombra_tui.engine import commands as c
from sombra_tui.engine import i18n
from sombra_tui.engine.model import Action, Character, Encounter, Side
from sombra_tui.engine.state import PromptKind
from sombra_tui.screens.dialogs import ReactionDialog
from tests.app.conftest import (
    MIN_SIZE,
    SIZE,
    make_app,
    notifications,
    on_main_screen,
    send_keys,
    session_after,
)


def encounter() -> Encounter:
    return Encounter(name="Noche", seed=2, characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14, side=Side.PC,
                  skills={"Esquivar": 12}),
        Character(name="Matón", primaria=10, secundaria=2, alerta=10, skills={"Pelea": 13})])


def matón_attacks_ana() -> list[c.Command]:
    return [c.StartCombat(),
            c.Declare(character="Ana", actions=[Action(description="vigila",
                                                       skill="Esquivar")]),
            c.Declare(character="Matón", actions=[Action(
                description="golpea a Ana", skill="Pelea", targets=["Ana"])])]


@pytest.mark.parametrize(("size", "language"), [(SIZE, "en"), (MIN_SIZE, "es")],
                         ids=["120x40-en", "80x24-es"])
async def test_d9_keys_typed_before_the_contrarreaccion_showed_do_not_answer_it(
        size: tuple[int, int], language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The report: space, Ana's reacción succeeds; space, then "golpea" and Enter typed
    at once (meant for the next step): Matón is neither rolled nor locked, his
    question stays open and empty, and the DJ is told the keys were not used."""
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)
    app = make_app(session_after(encounter(), *matón_attacks_ana()), journal=False)
    async with app.run_test(size=size) as pilot:
        combat = app.session.combat
        await pilot.press("space")
        assert isinstance(app.screen, ReactionDialog)
        await pilot.press(*"3 4 2", "tab", *"se agacha", "enter")
        [react] = [cmd for cmd in combat.commands if isinstance(cmd, c.React)]
        assert react.character == "Ana"
        prompt = combat.state.top_prompt
        assert prompt is not None and prompt.kind is PromptKind.COUNTER
        assert prompt.reactor == "Matón"
        before = len(combat.commands)

        await send_keys(pilot, "space", *"golpea", "enter")
        for _ in range(3):
            await pilot.pause()
        assert len(combat.commands) == before  # nothing sent: not rolled
        assert "Matón" not in combat.state.locked  # not locked
        dialog: Any = app.screen
        assert isinstance(dialog, ReactionDialog) and dialog.character.name == "Matón"
        assert dialog.query_one("#a0-description", Input).value == ""
        title = str(dialog.query_one("#dialog-title", Static).content)
        assert title == {"en": "Matón's contrarreacción to Ana's reacción “se agacha”",
                         "es": "Contrarreacción de Matón a la reacción de Ana «se agacha»"
                         }[language]
        told = [message for severity, message in notifications(app)
                if severity == "warning" and "golpea" in message]
        assert told and "Matón" in told[0]

        # Keys typed once it shows are its own: the DJ declines it, Matón unlocked.
        await pilot.press("ctrl+b")
        assert on_main_screen(app)
        assert isinstance(combat.commands[-1], c.Decline)
        assert "Matón" not in combat.state.locked
