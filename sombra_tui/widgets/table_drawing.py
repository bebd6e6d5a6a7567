"""How the DJ's initiative table draws its lines: a row's cells wrapped to their
columns, drawn once without the row's style and kept; the zebra stripe and the cursor
laid over them when painted (see InitiativeTable)."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.strip import Strip

from sombra_tui.engine import i18n
from sombra_tui.engine.i18n import _
from sombra_tui.widgets.table_cells import (
    COLUMNS,
    DECLARATION,
    MARKER,
    NAME,
    STATUS,
    KeptEnd,
    shown_cells,
)
from sombra_tui.widgets.table_host import TableHost

#: Spaces before each cell (and as many after it, unless the panel is narrow).
CELL_PADDING = 1
#: A Declaration takes at most this many lines, the last one ending in "…" (the queue
#: panel lists every declaration whole).
DECLARATION_LINES = 1


class TableDrawing(TableHost):
    """The table's drawing (a part of InitiativeTable): its lines, header and rows."""

    @property
    def base_style(self) -> Style:
        if self._base_style is None:
            self._base_style = self.rich_style
        return self._base_style

    def on_focus(self, event: events.Focus) -> None:
        self._base_style = None
        self.refresh()  # the cursor's look depends on the focus

    def on_blur(self, event: events.Blur) -> None:
        self._base_style = None
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()  # a new theme: every row is drawn again
        self._base_style = None

    # ---- rendering -------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        if y < self.header_height:
            strip = self._header_strip()
        else:
            line = y - self.header_height + scroll_y
            row = self._row_at(line)
            if not 0 <= row < len(self._order) \
                    or line >= self._tops[row] + self._heights[row]:
                return Strip.blank(width, self.base_style)
            strip = self._row_strip(row)[line - self._tops[row]]
        return strip.crop_extend(scroll_x, scroll_x + width, self.base_style)

    def _header_strip(self) -> Strip:
        style = self.base_style + self.get_component_rich_style("initiative--header")
        key = self._layout
        if self._header is None or self._header[:3] != (style, key, i18n.language()):
            labels = tuple(Text(_(COLUMNS[index])) if index != MARKER else Text("")
                           for index in self._columns)
            self._header = (style, key, i18n.language(), self._draw(labels, style)[0])
        return self._header[3]

    def _lines(self, name: str) -> list[Strip]:
        """`name`'s row drawn without a row style (kept until it changes)."""
        bare = self._strips.get(name)
        if bare is None:
            bare = self._strips[name] = self._draw(
                shown_cells(self._rows[name], self._columns, self._widths), Style())
            self._row_sizes[name] = len(bare)
        return bare

    def _height(self, name: str) -> int:
        """`name`'s row's height in lines, as `_draw` would draw it: only the cells
        wider than their column are wrapped to find it (kept until the row or the
        layout changes)."""
        height = self._row_sizes.get(name)
        if height is None:
            height = self._row_sizes[name] = max(len(lines) for lines in self._wrapped(
                shown_cells(self._rows[name], self._columns, self._widths)))
        return height

    def _row_strip(self, row: int) -> list[Strip]:
        name = self._order[row]
        bare = self._lines(name)
        base = self.base_style
        if row == self.cursor_row:
            style = base + self.get_component_rich_style("initiative--cursor")
            cached = self._cursor_strip
            if cached is not None and cached[0] is bare and cached[1] == style:
                return cached[2]
            # The cursor's background under the cells, its text colour over theirs
            # (as Textual's DataTable draws its cursor).
            lines = [strip.apply_style(style) for strip in bare]
            if style.color is not None:
                lines = [Strip(Segment.apply_style(list(strip), post_style=Style(
                    color=style.color)), strip.cell_length) for strip in lines]
            self._cursor_strip = (bare, style, lines)
            return lines
        if row % 2:
            even = base + self.get_component_rich_style("initiative--even-row")
            return [strip.apply_style(even) for strip in bare]
        return [strip.apply_style(base) for strip in bare]

    def _cell_lines(self, cell: Text, width: int, column: int) -> list[Text]:
        """`cell` in lines of `width`: Status, Declaration and Name wrap at words (the
        Declaration to DECLARATION_LINES, its last line ending in "…"); the short
        columns fit their width by construction."""
        if isinstance(cell, KeptEnd) and cell.cell_len > width:
            return [cell.fitted(width)]  # its targets kept whole (issue 39 item 1)
        if column not in (STATUS, DECLARATION, NAME) or cell.cell_len <= width \
                or (column == DECLARATION and DECLARATION_LINES == 1):
            return [cell]  # cut with "…" where it is drawn
        lines = list(cell.wrap(self.app.console, width, overflow="fold"))
        if column == DECLARATION and len(lines) > DECLARATION_LINES:
            lines = lines[:DECLARATION_LINES]
            last = lines[-1].copy()
            last.rstrip()
            if last.cell_len >= width:
                last.truncate(width - 1)
            last.append("…")
            lines[-1] = last
        return lines or [Text("")]

    def _wrapped(self, cells: tuple[Text, ...]) -> list[list[Text]]:
        """Each cell's lines in its column (see _cell_lines)."""
        return [self._cell_lines(cell, width, column) for cell, width, column in
                zip(cells, self._widths, self._columns, strict=True)]

    def _draw(self, cells: tuple[Text, ...], style: Style) -> list[Strip]:
        """A row's lines: each cell wrapped (see _cell_lines) and padded to its column."""
        console = self.app.console
        columns = self._wrapped(cells)
        height = max(len(lines) for lines in columns)
        pad = " " * CELL_PADDING
        after = " " * (self._layout.gap - CELL_PADDING)
        total = self._layout.total
        strips = []
        for index in range(height):
            segments: list[Segment] = []
            for lines, width in zip(columns, self._widths, strict=True):
                text = Text(pad, end="")
                fitted = lines[index].copy() if index < len(lines) else Text("")
                fitted.truncate(width, overflow="ellipsis", pad=True)
                text.append_text(fitted)
                text.append(after)
                # The row's style goes under the cell's own (Text.render leaves it out).
                segments.extend(Segment.apply_style(text.render(console), style))
            strips.append(Strip(segments, total))
        return strips
