"""What the initiative table's parts (TableCursor, TableDrawing) read from the table they
are part of, for the type checker: the parts are mixins of InitiativeTable, whose state
and Textual base they use. At run time `TableHost` is `object`, so the table's bases and
their order are as written in initiative_table.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.style import Style
    from rich.text import Text
    from textual.message import Message
    from textual.scroll_view import ScrollView
    from textual.strip import Strip

    from sombra_tui.widgets.table_layout import Layout

    class TableHost(ScrollView):
        """InitiativeTable as its parts see it (set in its __init__ or defined there)."""

        cursor_row: int
        dj_chose: bool
        _order: list[str]
        _positions: dict[str, int]
        _rows: dict[str, tuple[Text, ...]]
        _layout: Layout
        _tops: list[int]
        _heights: list[int]
        _strips: dict[str, list[Strip]]
        _row_sizes: dict[str, int]
        _cursor_strip: tuple[list[Strip], Style, list[Strip]] | None
        _base_style: Style | None
        _header: tuple[Style, Layout, str, Strip] | None
        #: The table's messages (classes nested in InitiativeTable).
        RowSelected: Callable[[TableHost, str], Message]
        CursorMoved: Callable[[], Message]

        @property
        def header_height(self) -> int: ...
        @property
        def _widths(self) -> tuple[int, ...]: ...
        @property
        def _columns(self) -> tuple[int, ...]: ...
        def _row_at(self, line: int) -> int: ...
        def _refresh_rows(self, rows: set[int]) -> None: ...
else:
    TableHost = object
