"""The keys, footer and palette offer what the engine offers (engine/ask.py `offered`:
the commands that fit the phase, engine/allowed.py, less those an open proposal holds
back)."""

from __future__ import annotations

import pytest
from pydantic import BaseModel
from textual.binding import Binding

from sombra_tui.engine import ask
from sombra_tui.engine import commands as c
from sombra_tui.engine.allowed import COMMAND_TYPES, allowed, mark_allowed
from sombra_tui.engine.state import CombatState, Phase
from sombra_tui.screens.main import ACTION_COMMANDS
from sombra_tui.widgets.footer import footer_keys
from tests.app import drivers
from tests.app.conftest import SIZE, make_app


def test_each_phase_bound_key_names_an_engine_command() -> None:
    assert all(command in COMMAND_TYPES or isinstance(command, c.Mark)
               for command in ACTION_COMMANDS.values())


async def test_enabled_keys_follow_the_engine_through_a_round() -> None:
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.main_screen
        seen: set[Phase] = set()
        for _ in range(40):
            state = app.session.combat.state
            seen.add(state.phase)
            for action, command in ACTION_COMMANDS.items():
                expected = (ask.mark_offered(state, command) if isinstance(command, c.Mark)
                            else command in ask.offered(state))
                assert screen.check_action(action, ()) is expected, (state.phase, action)
            # The footer shows exactly the allowed ones (of the keys it shows at all).
            footer = {key.action for key in footer_keys(screen)}
            shown = {binding.action for binding in screen.BINDINGS
                     if isinstance(binding, Binding) and binding.show}
            assert {action for action in ACTION_COMMANDS if action in footer} == {
                action for action in ACTION_COMMANDS
                if action in shown and screen.check_action(action, ())}
            if state.phase is Phase.END_OF_ROUND:
                break
            if state.phase is Phase.DECLARATION and state.current_declarer is not None:
                app.main_screen.run_command(c.Declare(character=state.current_declarer))
            elif state.phase is Phase.DECLARATION and state.top_prompt is not None:
                app.main_screen.run_command(c.Decline(character=state.top_prompt.reactor))
            else:
                await pilot.press("space")
            await pilot.pause()
        assert seen >= {Phase.SETUP, Phase.DECLARATION, Phase.INSTANT, Phase.ROUND,
                        Phase.EXTENDED}


async def test_allowed_commands_computed_once_per_state_revision(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36 item 5 (P1, P4): a declaration walked by keys (space opens the editor,
    typing, enter) asks the engine which commands and marks fit at most once per state
    revision (Combat.revision: every command, undo and redo), however many times
    Textual's check_action, the footer and the on_key hold-back read it. The screen
    does not matter (the dialogs offer no engine command): no extra computation per
    screen change. Before, check_action recomputed it each call (~105 per declaration)."""
    calls = {"allowed": 0, "marks": 0}

    def counted_allowed(state: CombatState) -> frozenset[type[BaseModel]]:
        calls["allowed"] += 1
        return allowed(state)

    def counted_mark(state: CombatState, mark: c.Mark) -> bool:
        calls["marks"] += 1
        return mark_allowed(state, mark)

    app = drivers.make_app()
    async with app.run_test(size=SIZE) as pilot:
        await drivers.start(pilot)
        combat = app.session.combat
        before = combat.revision
        monkeypatch.setattr(ask, "allowed", counted_allowed)
        monkeypatch.setattr(ask, "mark_allowed", counted_mark)
        await drivers.declare(pilot, "Ana", "vigila la puerta", "Armas cortas")
        await drivers.settle(pilot)
        assert app.session.combat is combat
        revisions = combat.revision - before + 1  # the one it started at, and each new
    assert combat.revision > before
    assert 0 < calls["allowed"] <= revisions, calls
    assert calls["marks"] <= revisions * len(c.Mark), calls
