"""The DJ's table and the players' view say the same of a character (issue 35 item 9):
both read the engine's one reading of its row (ask.row). Played by keys: the DJ marks
Ana prevented (P4); the table and the players' page both say "impedida" (the page said
"impedido")."""

from __future__ import annotations

import pytest

from sombra_tui.engine import commands as c
from sombra_tui.widgets.initiative_table import STATUS, InitiativeTable
from tests.app.conftest import MIN_SIZE, SIZE, make_app, session_after, worked_example_encounter


@pytest.mark.usefixtures("spanish")
@pytest.mark.parametrize("size", [SIZE, MIN_SIZE])
async def test_p4_prevented_reads_impedida_in_the_table_and_the_players_view(
        size: tuple[int, int]) -> None:
    app = make_app(session_after(worked_example_encounter(), c.StartCombat()),
                   journal=False, language="es")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        table = app.main_screen.query_one(InitiativeTable)
        assert table.selected_name == "Ana"  # the first to declare (I3): the cursor's row
        await pilot.press("p")  # the DJ marks her prevented
        await pilot.pause()
        assert "Ana" in app.session.combat.state.prevented
        assert "impedida" in table.get_row("Ana")[STATUS].plain.split()
        [ana] = [row for row in app.session.players_snapshot().characters
                 if row.name == "Ana"]
        assert ana.marks == ["impedida"]
