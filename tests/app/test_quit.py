"""Every way out of the app asks first when there are unsaved changes: q, ctrl+q (also
from inside a dialog), ctrl+c and the command palette's Quit (issue 12 item 6)."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette

from sombra_tui.screens.dialogs import ChoiceDialog, DeclarationEditor
from tests.app.conftest import SIZE, make_app, on_main_screen, type_text


@pytest.mark.parametrize("key", ["q", "ctrl+q", "ctrl+c"])
async def test_each_quit_key_asks_with_unsaved_changes(key: str) -> None:
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")  # a change: the encounter is unsaved
        await pilot.press(key)
        assert isinstance(app.screen, ChoiceDialog)
        assert "unsaved changes" in str(app.screen.question)
        await pilot.press(key)  # again while asking: still one question, no exit
        assert len([s for s in app.screen_stack if isinstance(s, ChoiceDialog)]) <= 1
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        assert on_main_screen(app) and app.return_code is None  # cancelled: still running
        await pilot.press(key)
        await pilot.press("d")  # discard
        await pilot.pause()
        assert app.return_code == 0


async def test_ctrl_q_inside_a_dialog_asks_too() -> None:
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "d")
        assert isinstance(app.screen, DeclarationEditor)
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("escape")  # (the declaration's worker still waits: no wait_for)
        await pilot.pause()
        assert isinstance(app.screen, DeclarationEditor) and app.return_code is None
        await pilot.press("ctrl+q", "d")
        await pilot.pause()
        assert app.return_code == 0


async def test_the_palette_s_quit_asks_with_unsaved_changes() -> None:
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.press("ctrl+p")
        assert CommandPalette.is_open(app)
        await type_text(pilot, "Quit")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog), "the palette's Quit exited at once"
        assert app.return_code is None
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        assert on_main_screen(app) and app.return_code is None
        assert app.session.dirty  # nothing was lost
        await pilot.press("ctrl+p")
        await type_text(pilot, "Quit")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert app.return_code == 0


async def test_the_palette_s_quit_exits_at_once_when_everything_is_saved() -> None:
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        assert not app.session.dirty  # the demo, untouched
        await pilot.press("ctrl+p")
        await type_text(pilot, "Quit")
        await pilot.press("enter")
        await pilot.pause()
        assert app.return_code == 0
