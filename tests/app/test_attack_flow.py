"""Issue 22, the attack at the table: a successful attack's hit proposal opens by itself
(H1: space accepts it as proposed), and nothing the DJ types for the next step is ever
refused for a pending proposal: the proposal opens first, or what was typed is kept.

The demo round: Carla's shot at Iker succeeds while Lucía's step waits (P3).
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from sombra_tui import screenshots as shots
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.state import Phase
from sombra_tui.screens.dialogs import TADialog
from sombra_tui.screens.dialogs.wounds import HitDialog
from tests.app.conftest import SIZE, notifications, text_of


async def carlas_shot_hits(pilot: Pilot[Any]) -> None:
    """Carla's TA succeeds (5 4 3 under her Armas cortas): Iker's hit is proposed."""
    await shots.declarations_done(pilot)
    await shots.advance_to(pilot, Phase.ROUND)
    await pilot.press("space")
    await shots.wait_for_screen(pilot, TADialog, "opening Carla's TA")
    await shots.confirm_with_dice(pilot, "5 4 3", TADialog, "resolving Carla's shot")
    await pilot.pause()


async def test_h1_the_hit_proposal_opens_by_itself_and_space_accepts_it() -> None:
    app = shots.make_app(size=SIZE)
    async with app.run_test(size=SIZE) as pilot:
        await carlas_shot_hits(pilot)
        state = app.session.combat.state
        [proposal] = state.proposals
        assert isinstance(app.screen, HitDialog)  # no key needed
        assert app.screen.proposal == proposal
        assert "Carla" in text_of(app, "#dialog-title")
        await pilot.press("space")  # as proposed
        await pilot.pause()
        assert app.screen is app.main_screen and not app.session.combat.state.proposals
        assert app.session.combat.state.body("Iker").counters.w > 0
        await pilot.press("y")  # the next step: Lucía's dice
        await pilot.pause()
        assert isinstance(app.screen, TADialog) and app.screen.step.character == "Lucía"


@pytest.mark.usefixtures("spanish")
async def test_the_same_in_spanish() -> None:
    app = shots.make_app(size=SIZE, language="es")
    async with app.run_test(size=SIZE) as pilot:
        await carlas_shot_hits(pilot)
        assert isinstance(app.screen, HitDialog)
        assert "Carla" in text_of(app, "#dialog-title")
        await pilot.press("space")
        await pilot.pause()
        assert app.screen is app.main_screen and not app.session.combat.state.proposals
        assert app.session.combat.state.body("Iker").counters.w > 0


@pytest.mark.parametrize("key", ["y", "t"])
async def test_a_key_of_the_next_step_opens_the_escaped_proposal_first_then_does_its_job(
        key: str) -> None:
    """The DJ escaped the hit to read the table and follows it to Lucía (y / t): the
    hit opens first, and once it is settled the key does what it says."""
    app = shots.make_app(size=SIZE)
    async with app.run_test(size=SIZE) as pilot:
        await carlas_shot_hits(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.main_screen and app.session.combat.state.proposals
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, HitDialog)  # first the hit
        await pilot.press("space")
        await pilot.pause()
        assert not app.session.combat.state.proposals
        if key == "y":  # then Lucía's dice, as asked
            assert isinstance(app.screen, TADialog) and app.screen.step.character == "Lucía"
        else:  # then Lucía's roll
            tas = [e for e in app.session.combat.log if e.kind is EventKind.TA]
            assert tas[-1].actor == "Lucía"
        assert not [n for n in notifications(app) if n[1] == "error"]


@pytest.mark.parametrize("language", ["en", "es"])
async def test_dice_typed_while_a_proposal_waits_are_kept_and_sent_once_it_is_settled(
        language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A TA dialog open over a pending hit: Enter opens the hit over it, and the dice
    typed there are resolved as soon as the hit is settled (never typed twice)."""
    from sombra_tui.engine import i18n
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)
    app = shots.make_app(size=SIZE, language=language)
    async with app.run_test(size=SIZE) as pilot:
        await carlas_shot_hits(pilot)
        await pilot.press("escape")
        await pilot.pause()
        main = app.main_screen
        state = app.session.combat.state
        step = next(s for s in state.current_group() if s.character == "Lucía")
        dialog = TADialog(state, step, main.check, app.session.combat.roll)
        main.open_dialog(dialog, main.resolve)
        await pilot.pause()
        dialog.query_one("#dice").focus()
        await shots.type_text(pilot, "4 4 1")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HitDialog)  # the hit first
        await pilot.press("space")
        await pilot.pause()
        assert app.screen is main and not app.session.combat.state.proposals
        bruno = [e for e in app.session.combat.log if e.kind is EventKind.TA][-1]
        assert bruno.actor == "Lucía" and bruno.ta is not None
        assert bruno.ta.dice.ds == 4 and (bruno.ta.dice.a, bruno.ta.dice.b) == (4, 1)
