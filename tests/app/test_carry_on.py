"""The party goes on from the app (issue 38 item 4): the palette's "Carry the party on"
asks who and how much time between, shows what the time did (H9, C3) before anything
is applied, and starts the new encounter with their wounds and conditions."""

from __future__ import annotations

from textual.command import CommandPalette

from sombra_tui.engine import StartCombat
from sombra_tui.screens.dialogs import ChoiceDialog
from sombra_tui.screens.dialogs.carry import CarryOnDialog
from sombra_tui.screens.dialogs.confirm import ConfirmDialog
from sombra_tui.session import Session
from tests.app.conftest import SIZE, fill, make_app, on_main_screen, type_text
from tests.engine.test_carry import fight


async def test_carry_the_party_on_from_the_palette_after_three_asaltos() -> None:
    """The PCs are ticked; 3 asaltos between end Ana's aturdido (C3) and count Bruno's
    grave wound (H9): said before, then the new encounter starts with them only."""
    app = make_app(Session(fight()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        assert CommandPalette.is_open(app)
        await type_text(pilot, "Carry the party on")
        await pilot.press("enter")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, CarryOnDialog)
        await fill(pilot, "asaltos", "3")
        await pilot.press("enter")
        await pilot.pause()
        confirm = app.screen
        assert isinstance(confirm, ConfirmDialog)
        assert "Ana's aturdido ends in the time between." in confirm.question
        assert "Start a new encounter with Bruno, Ana?" in confirm.question
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)  # the old combat was never saved
        await pilot.press("d")  # discard it
        await pilot.pause()
        assert on_main_screen(app)
        state = app.session.combat.state
        assert [ch.name for ch in state.characters] == ["Bruno", "Ana"]
        assert state.body("Bruno").counters.w == 13
        assert [c.name for c in state.body("Ana").conditions] == ["sangrando"]
        app.session.combat.execute(StartCombat())
        assert app.session.combat.log[0].code == "carry.from"


async def test_the_length_of_an_asalto_is_an_encounter_setting() -> None:
    """Issue 38: the rules give no length of an asalto; the DJ fills it in the settings
    (g), refused out of range, logged; the carry-on dialog starts from it."""
    from sombra_tui.screens.dialogs import SettingsDialog
    from tests.app.conftest import field_error, session_after, worked_example_encounter

    app = make_app(session_after(worked_example_encounter()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        assert isinstance(app.screen, SettingsDialog)
        await fill(pilot, "asalto-seconds", "0")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SettingsDialog)
        assert field_error(app, "asalto-seconds") == (
            "Length of an asalto (seconds) must be from 1 to 3600, not 0.")
        await fill(pilot, "asalto-seconds", "6")
        await pilot.press("enter")
        await pilot.pause()
        assert on_main_screen(app)
        assert app.session.combat.state.settings.asalto_seconds == 6
        assert "Length of an asalto (seconds) not said -> 6" in app.session.combat.log[-1].text
        app.action_carry_on()
        await pilot.pause()
        assert isinstance(app.screen, CarryOnDialog)
        assert app.screen.value("seconds") == "6"
