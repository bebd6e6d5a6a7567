"""The cursor of the DJ's initiative table: where it is, how the keys and a click move
it, and how it is kept in view (see InitiativeTable)."""

from __future__ import annotations

from bisect import bisect_right

from textual import events

from sombra_tui.widgets.table_host import TableHost


class TableCursor(TableHost):
    """The table's cursor (a part of InitiativeTable)."""

    @property
    def selected_name(self) -> str | None:
        if not self._order or not 0 <= self.cursor_row < len(self._order):
            return None
        return self._order[self.cursor_row]

    @property
    def _shown_rows(self) -> int:
        """How many lines fit under the header."""
        return max(0, self.scrollable_content_region.height - self.header_height)

    def _row_at(self, line: int) -> int:
        """The row drawn on `line` (counted under the header from the top of the rows)."""
        return bisect_right(self._tops, line) - 1

    def _row_lines(self, row: int) -> tuple[int, int]:
        """(first line, height) of `row`."""
        if 0 <= row < len(self._tops):
            return self._tops[row], self._heights[row]
        return row, 1

    # ---- the cursor --------------------------------------------------------------------

    def select_name(self, name: str) -> None:
        if name in self._positions:
            self.move_cursor(self._positions[name])

    def move_cursor(self, row: int, *, page: bool = False) -> None:
        """Put the cursor on `row` and scroll it into view: to the nearest edge, or with
        `page`, near the top (the acting character moves down a row per command, and
        every scroll repaints the whole table, so it scrolls a page at a time)."""
        if not self._order:
            self.cursor_row = 0
            return
        row = max(0, min(row, len(self._order) - 1))
        old, self.cursor_row = self.cursor_row, row
        if old != row:
            self._refresh_rows({old, row})
            self.post_message(self.CursorMoved())
        if self._shown_rows <= 0:  # not laid out yet (the first screen): once it is
            self.call_after_refresh(self._bring_into_view, page)
        else:
            self._bring_into_view(page)

    def _bring_into_view(self, page: bool) -> None:
        shown = self._shown_rows
        first, height = self._row_lines(self.cursor_row)
        last = first + min(height, max(1, shown)) - 1
        top = round(self.scroll_y)
        if shown <= 0 or (top <= first and last < top + shown):
            return
        if page:
            before = self._row_lines(self.cursor_row - 1)[1] if self.cursor_row else 0
            target = max(0, first - before)
        elif first < top:
            target = first
        else:
            target = last - shown + 1
        # force: on the first screen the scrollbars are not set up yet.
        self.scroll_to(y=target, animate=False, immediate=True, force=True)

    def choose_row(self, row: int, *, page: bool = False) -> None:
        """The DJ moves the cursor: it stays there for the rest of the round."""
        self.dj_chose = True
        self.move_cursor(row, page=page)

    def action_cursor_up(self) -> None:
        self.choose_row(self.cursor_row - 1)

    def action_cursor_down(self) -> None:
        self.choose_row(self.cursor_row + 1)

    def action_page_up(self) -> None:
        self.choose_row(self.cursor_row - max(1, self._shown_rows - 1))

    def action_page_down(self) -> None:
        self.choose_row(self.cursor_row + max(1, self._shown_rows - 1))

    def action_first_row(self) -> None:
        self.choose_row(0)

    def action_last_row(self) -> None:
        self.choose_row(len(self._order) - 1)

    def action_select_row(self) -> None:
        name = self.selected_name
        if name is not None:
            self.post_message(self.RowSelected(self, name))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y < self.header_height:
            return
        line = offset.y - self.header_height + round(self.scroll_y)
        row = self._row_at(line)
        if not 0 <= row < len(self._order) or line >= self._tops[row] + self._heights[row]:
            return
        if row == self.cursor_row:
            self.action_select_row()
        else:
            self.choose_row(row)

