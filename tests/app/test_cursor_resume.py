"""The table's cursor after a resume (issue 22): the row the DJ chose is kept as the
screen's own state (sombra_tui/ui_state.py), so a resumed crash journal or a reopened
file puts the cursor back there."""

from __future__ import annotations

import re
from pathlib import Path

from textual.pilot import Pilot

from sombra_tui import config
from sombra_tui.app import SombraApp
from sombra_tui.screens.dialogs import ChoiceDialog
from sombra_tui.screens.main import MainScreen
from sombra_tui.session import Session
from sombra_tui.widgets.initiative_table import InitiativeTable
from tests.app.conftest import make_app
from tests.app.layout_states import reaction_prompt
from tests.app.test_pilot_files import save_as


def table_of(app: SombraApp) -> InitiativeTable:
    return app.main_screen.query_one(InitiativeTable)


async def test_a_resumed_combat_puts_the_cursor_where_the_dj_left_it() -> None:
    """The DJ moves the table's cursor to a row, then sombra-tui stops without saving
    (a crash: the journal stays); resuming the combat puts the cursor on that row,
    still the DJ's choice (a resolution does not pull it away this asalto)."""
    first = make_app(Session(reaction_prompt()))
    async with first.run_test(size=(120, 40)) as pilot:
        await first.workers.wait_for_complete()
        await pilot.pause()
        table = table_of(first)
        assert table.selected_name == "Ana"  # the cursor follows the prompt
        table.focus()
        await pilot.press("down", "down", "down")
        assert table.selected_name == "Bruno" and table.dj_chose
    second = make_app()
    async with second.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(second.screen, ChoiceDialog)
        await pilot.press("r")
        await second.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(second.screen, MainScreen)
        assert second.session.combat.state.top_prompt is not None
        table = table_of(second)
        assert table.selected_name == "Bruno" and table.dj_chose


def saved_file(tmp_path: Path) -> SombraApp:
    """The app on the reacción prompt saved as muelle.json (no journal)."""
    path = tmp_path / "muelle.json"
    session = Session(reaction_prompt(), path)
    session.save(path)
    return make_app(session, journal=False)


async def cursor_to_iker(app: SombraApp, pilot: Pilot[None]) -> None:
    """The DJ moves the table's cursor two rows down, to Iker."""
    await pilot.pause()
    table = table_of(app)
    table.focus()
    await pilot.press("down", "down")
    assert table.selected_name == "Iker"


async def test_a_reopened_file_puts_the_cursor_where_the_dj_left_it(tmp_path: Path) -> None:
    path = tmp_path / "muelle.json"
    first = saved_file(tmp_path)
    async with first.run_test(size=(120, 40)) as pilot:
        await cursor_to_iker(first, pilot)
    again = make_app(Session.open(path), journal=False)
    async with again.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert table_of(again).selected_name == "Iker"


async def test_a_file_saved_as_another_name_keeps_the_cursor_for_a_restart(
        tmp_path: Path) -> None:
    """The DJ moves the cursor, then saves under a new name (F2) and quits without
    moving it again: the app started on the new file puts it back there (it was kept
    under the old file's name only)."""
    first = saved_file(tmp_path)
    async with first.run_test(size=(120, 40)) as pilot:
        await cursor_to_iker(first, pilot)
        await pilot.press("f2")
        await save_as(pilot, str(tmp_path / "muelle-2.json"))
        assert first.session.path == tmp_path / "muelle-2.json"
    again = make_app(Session.open(tmp_path / "muelle-2.json"), journal=False)
    async with again.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert table_of(again).selected_name == "Iker" and table_of(again).dj_chose


async def test_a_cursor_that_followed_the_play_is_not_kept(tmp_path: Path) -> None:
    """Without a row chosen, a reopened encounter's cursor follows the play as ever;
    the file of kept cursors is not needed for anything else (unreadable: ignored)."""
    path = tmp_path / "muelle.json"
    session = Session(reaction_prompt(), path)
    session.save(path)
    (config.data_dir()).mkdir(parents=True, exist_ok=True)
    (config.data_dir() / "table-cursor.json").write_text("{not json", encoding="utf-8")
    app = make_app(Session.open(path), journal=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = table_of(app)
        assert table.selected_name == "Ana" and not table.dj_chose
        assert re.search(r"\S", (config.data_dir() / "table-cursor.json").read_text())
