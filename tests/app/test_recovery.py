"""Crash recovery in the app: an unfinished combat's journal is offered at start-up."""

from __future__ import annotations

from pathlib import Path

from sombra_tui import config
from sombra_tui.engine import Action, Character, Declare, Encounter, StartCombat
from sombra_tui.engine.journal import find_journals
from sombra_tui.screens.dialogs import ChoiceDialog, ConfirmDialog
from sombra_tui.screens.main import MainScreen
from sombra_tui.session import Session
from tests.app.conftest import SIZE, make_app


def crashed_session() -> Session:
    """A session that journaled three commands and was never saved nor closed."""
    session = Session.new(Encounter(name="Noche en el puerto", characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14),
        Character(name="Bruno", primaria=12, secundaria=5, alerta=12),
    ]))
    session.start_journal(config.journal_dir())
    session.execute(StartCombat())
    session.execute(Declare(character="Ana", actions=[Action(description="aims")]))
    return session


async def test_resume_restores_the_unsaved_combat() -> None:
    crashed = crashed_session()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        assert "Noche en el puerto" in app.screen.question
        assert "asalto 1" in app.screen.question
        # The phase as the DJ reads it, not its code name (found in a playtest).
        assert "(Declaration)" in app.screen.question, app.screen.question
        await pilot.press("r")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert app.session.combat.state == crashed.combat.state
        assert app.session.dirty
        assert "*" in app.screen.title
        # The old journal is replaced by the resumed session's own.
        journals = find_journals(config.journal_dir())
        assert len(journals) == 1
        assert crashed.journal is not None and journals[0] != crashed.journal.path


async def test_later_keeps_the_journal_and_opens_the_demo() -> None:
    crashed_session()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        await pilot.pause()
        assert app.session.name != "Noche en el puerto"
        assert len(find_journals(config.journal_dir())) == 2  # kept + this session's


async def test_discard_asks_then_deletes(tmp_path: Path) -> None:
    crashed = crashed_session()
    assert crashed.journal is not None
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await pilot.pause()
        await pilot.pause()
        assert not crashed.journal.path.exists()


async def test_quitting_cleanly_leaves_no_journal() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert len(find_journals(config.journal_dir())) == 1
        await pilot.press("q")
    assert app.is_running is False
    assert find_journals(config.journal_dir()) == []


async def test_an_untouched_demo_left_behind_offers_nothing() -> None:
    """Issue 9: a process killed with the untouched demo open leaves a journal of nothing;
    the next start must not offer to resume "asalto 0" (and forgets that journal)."""
    first = make_app()
    async with first.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert first.session.journal is not None
        left = first.session.journal.path
    assert left.exists()  # not quit: as after a kill
    second = make_app()
    async with second.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not isinstance(second.screen, ChoiceDialog)
        await pilot.pause()
        await pilot.pause()
        assert isinstance(second.screen, MainScreen)
        assert not left.exists()
        assert find_journals(config.journal_dir()) == [second.session.journal.path]


async def test_a_resumed_combat_killed_at_once_is_offered_again(tmp_path: Path) -> None:
    """Issue 9: saved, changed, crashed; resumed and crashed before any key: the next
    start offers it again, with the change that was never saved."""
    crashed = crashed_session()
    crashed.save(config.data_dir() / "puerto.json")
    crashed.execute(Declare(character="Bruno", actions=[Action(description="waits")]))
    resumed = make_app()
    async with resumed.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert resumed.session.combat.commands == crashed.combat.commands
    again = make_app()
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ChoiceDialog), "the unsaved work was not offered"
        await pilot.press("r")
        await pilot.pause()
        await pilot.pause()
        assert again.session.combat.commands == crashed.combat.commands
        assert again.session.dirty
