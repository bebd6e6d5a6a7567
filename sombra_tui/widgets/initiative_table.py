"""Initiative order panel: one row per character with its marks (I3, I4, D7, P4, E1).

The widget's parts: its cells (table_cells: from the engine's one reading of a row),
its columns' layout (table_layout), its drawing (table_drawing) and its cursor
(table_cursor); here, what ties them: the state shown and what it repaints."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip

from sombra_tui import keys
from sombra_tui.engine import CombatState, ask
from sombra_tui.textual_compat import SteadyScrollbars
from sombra_tui.widgets.formatting import Palette
from sombra_tui.widgets.steady import SteadyVirtualSize
from sombra_tui.widgets.table_cells import ALERTA as ALERTA
from sombra_tui.widgets.table_cells import COLUMNS as COLUMNS
from sombra_tui.widgets.table_cells import DECLARATION as DECLARATION
from sombra_tui.widgets.table_cells import DECLARED as DECLARED
from sombra_tui.widgets.table_cells import INI as INI
from sombra_tui.widgets.table_cells import MARKER as MARKER
from sombra_tui.widgets.table_cells import NAME as NAME
from sombra_tui.widgets.table_cells import POINTS as POINTS
from sombra_tui.widgets.table_cells import SIDE as SIDE
from sombra_tui.widgets.table_cells import STATUS as STATUS
from sombra_tui.widgets.table_cells import acting_now as acting_now
from sombra_tui.widgets.table_cells import active_extended as active_extended
from sombra_tui.widgets.table_cells import ordered_names as ordered_names
from sombra_tui.widgets.table_cells import row_for as row_for
from sombra_tui.widgets.table_cells import row_inputs as row_inputs
from sombra_tui.widgets.table_cells import shown_cells as shown_cells
from sombra_tui.widgets.table_cursor import TableCursor
from sombra_tui.widgets.table_drawing import TableDrawing
from sombra_tui.widgets.table_layout import DECLARATION_MIN as DECLARATION_MIN
from sombra_tui.widgets.table_layout import NAME_MAX as NAME_MAX
from sombra_tui.widgets.table_layout import Layout as Layout
from sombra_tui.widgets.table_layout import column_layout as column_layout
from sombra_tui.widgets.table_layout import column_widths as column_widths
from sombra_tui.widgets.theme import FollowsTheme


class InitiativeTable(TableCursor, TableDrawing, FollowsTheme, SteadyVirtualSize,
                      SteadyScrollbars, can_focus=True):
    """The initiative order, a row per character, drawn with Textual's line API.

    A command changes a few rows; only those are rendered again and repainted. A row
    is drawn when it is first in view (a long encounter's first screen draws the rows
    it shows, not all of them), without the row's own style, and kept; its look (zebra
    stripe, cursor) is laid over it when painted, which Textual's Strip caches, so
    scrolling and moving the cursor reuse what is already drawn. The columns' widths
    and each row's height come from every row's cells (a wide name far down the order
    widens its column from the first screen on, as it always did): a row's height is
    how many lines its widest-wrapping cell takes, found without drawing it. The
    header stays on top. The columns fit the panel's width (`column_layout`); a row
    whose Status or Declaration wraps is several lines high. A row that wraps or
    columns that change width are a repaint, not a layout pass of the screen
    (SteadyVirtualSize).
    """

    COMPONENT_CLASSES = {
        "initiative--header",
        "initiative--even-row",
        "initiative--cursor",
    }

    BINDINGS = keys.bindings(keys.Scope.TABLE)

    # The looks of Textual's DataTable, which this replaces, with the theme's primary
    # colour under the cursor.
    DEFAULT_CSS = """
    InitiativeTable {
        height: 1fr;
        /* The columns fit the width: the scrollbar's room is kept whether it shows or
           not, so a row that wraps does not change the width they share. */
        scrollbar-gutter: stable;
        scrollbar-size-vertical: 1;
        background: $surface;
        color: $foreground;
        &:focus { background-tint: $foreground 5%; }
        & > .initiative--header { text-style: bold; background: $panel; color: $foreground; }
        & > .initiative--even-row { background: $surface-lighten-1 50%; }
        &:dark > .initiative--even-row { background: $surface-darken-1 40%; }
        & > .initiative--cursor {
            background: $primary 40%;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus > .initiative--cursor {
            color: $block-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
    }
    """

    class RowSelected(Message):
        """Enter (or a click) on the cursor's row."""

        def __init__(self, table: InitiativeTable, name: str) -> None:
            super().__init__()
            self.table = table
            self.name = name

        @property
        def control(self) -> InitiativeTable:
            return self.table

    class CursorMoved(Message):
        """The cursor is on another row (the queue panel shows that character)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.palette = Palette()
        #: The DJ moved the cursor by hand this round: it stays on their row (a
        #: resolution no longer pulls it to whoever acts, so `e` edits the DJ's row).
        self.dj_chose = False
        self._round = -1
        self._rows: dict[str, tuple[Text, ...]] = {}
        self._inputs: dict[str, tuple[object, ...]] = {}
        self._order: list[str] = []
        self._positions: dict[str, int] = {}
        self._acting: set[str] = set()
        self._layout = column_layout([])
        #: Each row's first line (under the header) and its height, in rows' order.
        self._tops: list[int] = []
        self._heights: list[int] = []
        self.cursor_row = 0
        #: Each row's lines drawn without a row style, by name (see _row_strip): only
        #: the rows shown so far.
        self._strips: dict[str, list[Strip]] = {}
        #: Each row's height in lines for the current layout, by name (see _height).
        self._row_sizes: dict[str, int] = {}
        #: The cursor's row as last painted: (drawn lines, style, painted lines).
        self._cursor_strip: tuple[list[Strip], Style, list[Strip]] | None = None
        #: self.rich_style, which walks the ancestors' backgrounds (tens of microseconds
        #: a call, and every painted line needs it): kept until the styles change.
        self._base_style: Style | None = None
        #: The header as last drawn: (style, widths, strip).
        self._header: tuple[Style, Layout, str, Strip] | None = None
        #: The state last shown, painted again when the theme's colours change.
        self._state: CombatState | None = None

    # ---- reading ---------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self._order)

    @property
    def header_height(self) -> int:
        return 1

    def get_row(self, name: str) -> tuple[Text, ...]:
        return self._rows[name]

    # ---- updating --------------------------------------------------------------------

    def repaint_palette(self) -> None:
        if self._state is not None:
            self.show_state(self._state)

    def show_state(self, state: CombatState) -> None:
        self._state = state
        order = ordered_names(state)
        now = acting_now(state)
        active = active_extended(state)
        due = ask.due_now(state)
        labels = ask.short_labels(state)  # its targets' (issue 39 item 1), once
        rows: dict[str, tuple[Text, ...]] = {}
        inputs: dict[str, tuple[object, ...]] = {}
        changed: set[str] = set()
        for name in order:  # rebuild only the rows whose inputs changed
            key = row_inputs(state, name, now, self.palette, active, due, labels)
            inputs[name] = key
            old = self._rows.get(name)
            if old is not None and self._inputs.get(name) == key:
                rows[name] = old
            else:
                rows[name] = row_for(state, name, now, self.palette, active, due)
                changed.add(name)
        selected = self.selected_name
        layout = column_layout(rows.values(), self._available_width())
        reordered = order != self._order
        self._rows, self._inputs = rows, inputs
        for name in changed | (self._row_sizes.keys() - rows.keys()):
            self._strips.pop(name, None)
            self._row_sizes.pop(name, None)
        old_heights = self._heights
        if not reordered and layout == self._layout:
            self._measure()
            if self._heights != old_heights:
                # A row grew or shrank a line: the rows under it move, those above stay.
                moved = next(index for index, (old, new) in enumerate(
                    zip(old_heights, self._heights, strict=True)) if old != new)
                self._update_virtual_size()
                self._refresh_rows({self._positions[name] for name in changed
                                    if self._positions[name] < moved})
                self._refresh_from(moved)
            else:
                self._refresh_rows({self._positions[name] for name in changed})
        else:
            self._order = order
            self._positions = {name: index for index, name in enumerate(order)}
            self._layout = layout
            self._forget_drawn()
            self._measure()
            self._update_virtual_size()
            self.refresh()
            if selected in self._positions:
                self.cursor_row = self._positions[selected]
            self.cursor_row = max(0, min(self.cursor_row, len(order) - 1))
        if state.round != self._round:  # a new round: the cursor follows the play again
            self._round = state.round
            self.dj_chose = False
        if now and now != self._acting and not self.dj_chose:
            # The cursor follows whoever acts now, unless the DJ chose a row this round.
            first = next(name for name in order if name in now)
            self.move_cursor(self._positions[first], page=True)
        self._acting = now

    def _available_width(self) -> int:
        """The width the columns share (0 before the first layout)."""
        return self.scrollable_content_region.width

    def _forget_drawn(self) -> None:
        """The layout changed: every row is measured and drawn again (when shown)."""
        self._strips.clear()
        self._row_sizes.clear()
        self._cursor_strip = None

    def _measure(self) -> None:
        """Each row's height and first line, as the row is drawn now (see _height)."""
        self._heights = [self._height(name) for name in self._order]
        tops, line = [], 0
        for height in self._heights:
            tops.append(line)
            line += height
        self._tops = tops

    def _relayout(self) -> None:
        """The panel's width changed: fit the columns again."""
        layout = column_layout(self._rows.values(), self._available_width())
        if layout == self._layout:
            return
        self._layout = layout
        self._forget_drawn()
        self._measure()
        self._update_virtual_size()
        self.refresh()

    @property
    def _widths(self) -> tuple[int, ...]:
        return self._layout.widths

    @property
    def _columns(self) -> tuple[int, ...]:
        return self._layout.columns

    def _update_virtual_size(self) -> None:
        width = self._layout.total
        self.virtual_size = Size(width, sum(self._heights) + self.header_height)

    def _refresh_from(self, row: int) -> None:
        """Repaint the lines in view from `row`'s first line down."""
        top = round(self.scroll_y)
        start = max(self._row_lines(row)[0], top)
        end = top + self._shown_rows
        if start < end:
            self.refresh(Region(0, start - top + self.header_height,
                                self.scrollable_content_region.width, end - start))

    def _refresh_rows(self, rows: set[int]) -> None:
        """Repaint the lines of these rows that are in view."""
        top = round(self.scroll_y)
        shown = self._shown_rows
        width = self.scrollable_content_region.width
        for row in rows:
            first, height = self._row_lines(row)
            start, end = max(first, top), min(first + height, top + shown)
            if start < end:
                self.refresh(Region(0, start - top + self.header_height, width, end - start))

    def sizes_changed(self) -> None:
        self._relayout()  # a new width (or a scrollbar came or went): fit the columns

