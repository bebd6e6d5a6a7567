"""The summary line (issue 35, D2) on the sheet's forms too: a hit by hand (H12), healing
(H6), a condition (C1, C3): what Enter will send, following the fields, and Enter sends
exactly that. By keys, in English at 120x40 and Spanish at 80x24."""

from __future__ import annotations

import pytest

from sombra_tui.screens.dialogs.condition import ConditionDialog
from sombra_tui.screens.dialogs.hit import ManualHitDialog
from sombra_tui.screens.dialogs.sheet import CharacterSheet
from sombra_tui.screens.dialogs.wound_edit import HealDialog
from tests.app.conftest import MIN_SIZE, SIZE, make_app, session_after, type_text
from tests.app.harness import Harness
from tests.app.test_form_summary import (
    assert_fits_above_the_buttons,
    encounter,
    sent_words,
    settle,
    speak,
    summary,
)


@pytest.mark.parametrize(("size", "language"), [(SIZE, "en"), (MIN_SIZE, "es")],
                         ids=["120x40-en", "80x24-es"])
async def test_d2_the_sheets_forms_say_what_enter_sends(
        size: tuple[int, int], language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    speak(language, monkeypatch)
    app = Harness(session_after(encounter()), language=language,  # the DJ's w on Ana
                  dialog=lambda h: CharacterSheet(lambda: h.state, "Ana", h.check))
    async with app.run_test(size=size) as pilot:
        combat = app.session.combat
        await pilot.pause()
        assert isinstance(app.screen, CharacterSheet)
        for key, dialog, typed, words in (
                ("h", ManualHitDialog, "14", {"en": "A hit on Ana", "es": "Ana"}),
                ("plus", HealDialog, "4", {"en": "Heal 4 herida points of Ana",
                                            "es": "Curar 4 puntos de herida de Ana"}),
                ("c", ConditionDialog, "", {"en": "Ana gets", "es": "para Ana"})):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, dialog)
            if typed:
                await type_text(pilot, typed)
            await settle(pilot)
            line = summary(app)
            assert words[language] in line, line
            assert_fits_above_the_buttons(app, size)
            state = combat.state.model_copy(deep=True)
            before = len(combat.commands)
            await pilot.press("enter")
            await settle(pilot)
            assert len(combat.commands) == before + 1
            assert sent_words(app, state) == line  # Enter sent what the line said


async def test_escape_on_a_changed_form_of_the_sheet_asks_first() -> None:
    """Issue 35 item 5 for the forms the sheet opens (a condition): Escape after typing
    asks; keeping goes back to the form with the typing; discarding closes it and
    nothing is sent."""
    from sombra_tui.screens.dialogs.confirm import ConfirmDialog

    app = make_app(session_after(encounter()), journal=False, language="en")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w", "c")
        await settle(pilot)
        assert isinstance(app.screen, ConditionDialog)
        await pilot.press("tab")
        await type_text(pilot, "3")
        await settle(pilot)
        before = len(app.session.combat.commands)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")  # keep editing
        await settle(pilot)
        assert isinstance(app.screen, ConditionDialog)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("y")  # discard
        await settle(pilot)
        assert isinstance(app.screen, CharacterSheet)
        assert len(app.session.combat.commands) == before


async def test_d2_the_settings_say_what_enter_sends() -> None:
    """The encounter's settings (g) send a rename and the settings: the line names both,
    and Enter sends them."""
    from sombra_tui.screens.dialogs.settings import SettingsDialog

    app = make_app(session_after(encounter()), journal=False, language="en")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        await settle(pilot)
        assert isinstance(app.screen, SettingsDialog)
        assert summary(app) == ""  # nothing changed, nothing to send
        await pilot.press("end")
        await type_text(pilot, " 2")
        await settle(pilot)
        assert summary(app) == "enter sends: Rename encounter (Muelle 2)", summary(app)
        await pilot.press("enter")
        await settle(pilot)
        assert app.session.combat.state.name == "Muelle 2"
