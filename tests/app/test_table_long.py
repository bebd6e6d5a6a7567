"""The initiative table with a long encounter (issue 41 item 6): its first screen draws
the rows it shows, not all 200, with the look it always had (the columns' widths and
the rows' heights come from every row, a wide name far down the order included); the
rows further down are drawn as they come into view, and laid out right."""

from __future__ import annotations

from typing import Any

import pytest
from rich.style import Style

from sombra_tui.app import SombraApp
from sombra_tui.engine.history import Combat
from sombra_tui.engine.model import Encounter
from sombra_tui.session import Session
from sombra_tui.widgets.initiative_table import (
    NAME,
    NAME_MAX,
    InitiativeTable,
    column_layout,
    shown_cells,
)
from tests.app.conftest import MIN_SIZE, SIZE, char, make_app

CHARACTERS = 200
#: Wider than the Name column (NAME_MAX): it wraps to two lines, at the order's end.
WIDE = "Guardiana del Umbral Sombrío"
WIDE_AT = CHARACTERS - 2
NAMES = [WIDE if index == WIDE_AT else f"PNJ {index:03d}" for index in range(CHARACTERS)]


def long_session() -> Session:
    encounter = Encounter(name="Larga", characters=[
        char(name, 10 + index % 7, index % 10, 10 + index % 5)
        for index, name in enumerate(NAMES)])
    return Session(Combat(encounter))


def table_of(app: SombraApp) -> InitiativeTable:
    return app.main_screen.query_one(InitiativeTable)


def shown_text(table: InitiativeTable) -> list[str]:
    """The table's lines as painted now (header first)."""
    return ["".join(segment.text for segment in table.render_line(y)).rstrip()
            for y in range(table.scrollable_content_region.height)]


def drawn(table: InitiativeTable, name: str) -> list[str]:
    """`name`'s row drawn in full (as every row was drawn before): its lines' text."""
    return [strip.text.rstrip() for strip in table._draw(
        shown_cells(table.get_row(name), table._columns, table._widths), Style())]


@pytest.mark.parametrize("size", [SIZE, MIN_SIZE])
async def test_a_long_encounters_first_screen_draws_only_the_rows_in_view(
        size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """200 characters: the first screen draws as many rows as it shows (it drew all 200,
    to measure their heights), and lays the columns out from all of them: the Name
    column is as wide as the wide name far out of view needs."""
    drawn_rows: list[tuple[str, ...]] = []
    draw = InitiativeTable._draw

    def counting(self: InitiativeTable, cells: Any, style: Style) -> Any:
        if style == Style():  # a row (the header is drawn in its own style)
            drawn_rows.append(tuple(cell.plain for cell in cells))
        return draw(self, cells, style)

    monkeypatch.setattr(InitiativeTable, "_draw", counting)
    app = make_app(long_session(), journal=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        table = table_of(app)
        assert table.row_count == CHARACTERS
        shown = table._shown_rows
        assert 0 < shown < CHARACTERS
        assert NAMES[shown - 1] in shown_text(table)[-1]  # painted to its last line
        assert len(drawn_rows) <= shown, f"{len(drawn_rows)} rows drawn, {shown} in view"
        assert {row[NAME] for row in drawn_rows} <= set(NAMES[:shown])
        everyone = [table.get_row(name) for name in NAMES]
        assert table._layout == column_layout(everyone, table._available_width())
        assert table._widths[table._columns.index(NAME)] == NAME_MAX


@pytest.mark.parametrize("size", [SIZE, MIN_SIZE])
async def test_the_end_key_on_a_long_encounter_shows_its_last_rows_laid_out_right(
        size: tuple[int, int]) -> None:
    """End scrolls to the bottom: the last row on the table's last line, the wide name
    wrapped on two lines in its column, the other cells beside its first; the rows'
    heights (found without drawing them) are those of the rows drawn in full."""
    app = make_app(long_session(), journal=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        table = table_of(app)
        await pilot.press("end")
        await pilot.pause()
        assert table.selected_name == NAMES[-1]
        assert table.scroll_y == table.max_scroll_y > 0
        rows = [drawn(table, name) for name in NAMES]
        heights = [len(row) for row in rows]
        assert heights[WIDE_AT] == 2 and heights.count(1) == CHARACTERS - 1
        assert table._heights == heights
        assert table.virtual_size.height == sum(heights) + table.header_height
        lines = shown_text(table)
        assert NAMES[-1] in lines[-1]  # the last row on the last line
        first, second = lines[-3], lines[-2]
        assert "Guardiana del" in first and "Umbral Sombrío" not in first
        assert "Umbral Sombrío" in second and NAMES[-1] not in second
        column = first.index("Guardiana")
        assert second.index("Umbral") == column  # the same column
        assert NAMES[-3] in lines[-4]
        # What is painted is every row drawn in full, from the scrolled-to line on.
        every = [line for row in rows for line in row]
        top = round(table.scroll_y)
        assert lines[1:] == every[top:top + table._shown_rows]
