"""Every DJ command is also in the command palette, and running it from there works."""

from __future__ import annotations

from sombra_tui import keys
from sombra_tui.engine.state import Phase
from tests.app.conftest import SIZE, make_app


async def test_palette_lists_the_commands_of_the_phase_and_runs_them() -> None:
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        titles = {command.title for command in app.get_system_commands(app.main_screen)}
        # Setup: no declaring or rolling yet, but the rest is there (check_action).
        assert {"Next step", "Undo", "Add a character", "Save", "Open", "Help",
                "Import characters", "Theme", "New encounter",
                "Duplicate the character"} <= titles
        assert "Declare" not in titles and "Roll the TA" not in titles
        start = next(c for c in app.get_system_commands(app.main_screen)
                     if c.title == "Next step")
        await start.callback()
        await pilot.pause()
        assert app.session.combat.state.phase is Phase.DECLARATION
        titles = {command.title for command in app.get_system_commands(app.main_screen)}
        assert {"Declare", "React", "Decline the reacción"} <= titles
        undo = next(c for c in app.get_system_commands(app.main_screen) if c.title == "Undo")
        await undo.callback()
        await pilot.pause()
        assert app.session.combat.state.phase is Phase.SETUP


def test_every_main_screen_action_is_in_the_palette() -> None:
    from sombra_tui.screens.main import MainScreen

    bound = {binding.action for binding in MainScreen.BINDINGS}
    listed = {key.action for key in keys.palette_keys(keys.Scope.MAIN)}
    assert bound <= listed
