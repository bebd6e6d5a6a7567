"""Initiative order panel: one row per character with its marks (I3, I4, D7, P4, E1;
the first column's marks are composed in row_marks)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from typing import NamedTuple

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip

from sombra_tui import keys
from sombra_tui.engine import CombatState, ExtendedProgress, Phase, ask, i18n
from sombra_tui.engine.i18n import N_, _
from sombra_tui.textual_compat import SteadyScrollbars
from sombra_tui.widgets.formatting import Palette, side_label
from sombra_tui.widgets.row_marks import marks_cell
from sombra_tui.widgets.steady import SteadyVirtualSize
from sombra_tui.widgets.theme import FollowsTheme

#: The columns' headings (English msgids, shown in the DJ's language). What a fight
#: changes comes first (G/W of PV, then Status with the conditions and their rounds
#: left). The table fits its panel: Status and Declaration take what the short columns
#: leave and wrap within it (a row grows a line rather than cutting a word), and a
#: narrow panel (80x24) leaves out Alerta, then the Declaration (Status then says
#: "declared"; the queue panel shows the declaration of the cursor's row whole).
COLUMNS = ("", N_("Name"), N_("G/W PV"), N_("Status"), N_("Side"), N_("Ini"), N_("Alerta"),
           N_("Declaration"))
MARKER, NAME, POINTS, STATUS, SIDE, INI, ALERTA, DECLARATION = range(len(COLUMNS))
#: A row holds one cell more than the columns: the "declared" mark Status takes when
#: the Declaration column is left out (see shown_cells).
DECLARED = len(COLUMNS)
#: The columns always shown, at their natural width (widest cell or heading).
SHORT_COLUMNS = (MARKER, NAME, POINTS, SIDE, INI)
#: A name wider than this wraps.
NAME_MAX = 14
#: The narrowest Status and Declaration cells before a column is left out for them, and
#: the Status width below which Alerta makes way.
STATUS_MIN = 10
DECLARATION_MIN = 14
STATUS_COMFORT = 18
#: A Declaration takes at most this many lines, the last one ending in "…" (the queue
#: panel lists every declaration whole).
DECLARATION_LINES = 1
#: Without room to lay out (before the first layout), the Declaration's width.
DECLARATION_WIDTH = 28


def ordered_names(state: CombatState) -> list[str]:
    """Declaration order (I3) while declaring, action order (I4) while resolving."""
    return ask.table_order(state)


def acting_now(state: CombatState) -> set[str]:
    """Who the 'now' marker names: whoever the next key is about (ask.next_step), the
    target of an open hit proposal included (the cursor follows it)."""
    return set(ask.next_step(state).who)


def active_extended(state: CombatState) -> dict[str, list[ExtendedProgress]]:
    """Active extended actions by owner (looked up once per render, not once per row)."""
    return ask.active_extended(state)


def row_inputs(state: CombatState, name: str, now: set[str], palette: Palette,
               active: dict[str, list[ExtendedProgress]],
               due: frozenset[str] = frozenset()) -> tuple[object, ...]:
    """Everything `row_for` reads, cheap to compare: equal inputs make an equal row, so
    only rows whose inputs changed are rebuilt. Keep it in step with `row_for`."""
    return (
        state.character(name), state.round_initiative.get(name), name in now,
        state.declaration_of(name), state.phase,
        name in state.locked, name in state.prevented, name in state.out,
        state.concealed.get(name),
        tuple(progress.progress_text() for progress in active.get(name, ())),
        state.bodies.get(name), state.round, state.settings.wounds.pv_multiplier,
        name in due,
        palette.accent, palette.warning, palette.error, i18n.language(),
    )


#: The table's styles of the marks (their words are the row's: ask.row).
MARK_STYLES = {ask.MarkKind.LOCKED: "bold {error}", ask.MarkKind.PREVENTED: "bold {warning}"}


def row_for(state: CombatState, name: str, now: set[str], palette: Palette,
            active: dict[str, list[ExtendedProgress]] | None = None,
            due: frozenset[str] | None = None) -> tuple[Text, ...]:
    """`name`'s cells, drawn from the engine's one reading of the row (ask.row), which
    the sheet and the players' view read too."""
    row = ask.row(state, name, now, active, due)
    marker = marks_cell(row, palette)  # the marks column: ▶ now, ◌ hidden, ◆ due (row_marks)
    side = Text(side_label(row.side.value),
                style=palette.accent if row.side.value == "PC" else palette.warning)
    colours = {"error": palette.error, "warning": palette.warning}
    # Conditions first (C1), each with its rounds left (C3); folded when the column is
    # narrow (issue 39 item 5: abbreviated, then counted; the sheet and the panel say
    # them whole).
    shown = [condition for condition in row.conditions if condition.name != "sangrando"]
    styles = [f"bold {palette.error}" if condition.blocking else palette.warning
              for condition in shown]  # sangrando is said once, as "sangra"
    marks: list[Text] = []
    if row.bleeding:
        marks.append(Text(_("sangra"), style=palette.error))
    if not row.in_round and state.phase is not Phase.SETUP:
        marks.append(Text(_("next asalto"), style="dim"))
    if row.now:
        marks.append(Text(_("now"), style=f"bold {palette.accent}"))
    for mark in row.marks:
        if mark.kind is ask.MarkKind.OUT:
            marks.append(Text(_("OUT"), style=f"bold reverse {palette.error}"))
        else:
            marks.append(Text(mark.word, style=MARK_STYLES[mark.kind].format(**colours)))
    for progress in row.extended:
        marks.append(Text(_("ext {progress}").format(progress=progress),
                          style=palette.accent))
    pairs = list(zip(shown, styles, strict=True))
    full = [Text(condition.label, style=style) for condition, style in pairs]
    short = [Text(condition.short, style=style) for condition, style in pairs]
    folds = [short] if short != full else []
    folds += [[*short[:kept], Text(f"+{len(short) - kept}", style=palette.warning)]
              for kept in range(len(short) - 1, -1, -1)]
    status = Text(" ").join([*full, *marks])
    out = row.has(ask.MarkKind.OUT)
    name_style = "strike dim" if out else ("bold" if row.now else "")
    points_style = (f"bold {palette.error}" if row.at_pv else palette.warning
                    if row.badly_hurt else "")
    points = Text(f"{row.g}/{row.w} {row.pv}", style=points_style)
    return (
        marker,
        Text(name, style=name_style),
        points,
        status,
        side,
        Text(f"{row.primaria}/{row.secundaria}"),
        Text(str(row.alerta)),
        Text(row.declaration or "", style="italic" if row.declaration is not None else ""),
        # Said in Status when the Declaration column makes way, while it tells who
        # has declared (afterwards everyone in the round has).
        Text(row.declared, style="dim"),
        # Status folded, from the longest to the shortest (see shown_cells).
        *(Text(" ").join([*fold, *marks]) for fold in folds),
    )


#: Spaces before each cell (and as many after it, unless the panel is narrow).
CELL_PADDING = 1


def shown_cells(row: tuple[Text, ...], columns: tuple[int, ...],
                widths: tuple[int, ...] = ()) -> tuple[Text, ...]:
    """The cells of `row` for the columns shown; without the Declaration column, Status
    says "declared" of whoever has declared, while the DJ takes declarations. With the
    columns' `widths`, Status is the longest of its folds that fits its width (issue 39
    item 5: the conditions abbreviated, then counted), else the shortest."""
    mark = row[DECLARED]
    statuses = [row[STATUS], *row[DECLARED + 1:]]
    if DECLARATION not in columns and mark.plain:
        statuses = [Text(" ").join([status, mark]) if status.plain else mark
                    for status in statuses]
    status = statuses[0]
    if widths and STATUS in columns:
        width = widths[columns.index(STATUS)]
        status = next((fold for fold in statuses if fold.cell_len <= width), statuses[-1])
    row = (*row[:STATUS], status, *row[STATUS + 1:])
    return tuple(row[index] for index in columns)


def _natural(rows: list[tuple[Text, ...]], index: int) -> int:
    heading = 1 if index == MARKER else cell_len(_(COLUMNS[index]))
    return max([heading, *(row[index].cell_len for row in rows)])


class Layout(NamedTuple):
    """The columns shown, their widths and the spaces each cell takes beside its text
    (one before it, and one after it too where the panel has room)."""

    columns: tuple[int, ...]
    widths: tuple[int, ...]
    gap: int = 2

    @property
    def total(self) -> int:
        return sum(self.widths) + self.gap * len(self.widths)


def column_layout(rows: Iterable[tuple[Text, ...]], available: int = 0) -> Layout:
    """The layout for a panel `available` columns wide (0: not laid out yet, every
    column at its natural width). The short columns keep their natural width; Status
    and Declaration share the rest (Status up to about half of it, the Declaration
    wrapping); Alerta, then the Declaration, is left out, and the columns close up to
    one space apart, when Status would get narrower than it needs."""
    rows = list(rows)
    natural = {index: _natural(rows, index) for index in range(len(COLUMNS))}
    natural[NAME] = min(natural[NAME], max(NAME_MAX, cell_len(_(COLUMNS[NAME]))))
    if available <= 0:
        columns = tuple(range(len(COLUMNS)))
        widths = {**natural, DECLARATION: min(natural[DECLARATION], DECLARATION_WIDTH)}
        return Layout(columns, tuple(widths[index] for index in columns))
    status_alone = max([natural[STATUS], *(shown_cells(row, (STATUS,))[0].cell_len
                                           for row in rows)])
    chosen: dict[int, int] = {}
    gap = 2
    for gap, alerta, declaration in ((2, True, True), (2, False, True), (2, True, False),
                                     (2, False, False), (1, False, False)):
        fixed = sum(natural[index] + gap for index in SHORT_COLUMNS)
        rest = available - fixed - (natural[ALERTA] + gap if alerta else 0)
        if declaration:
            flex = rest - 2 * gap
            status_need = max(STATUS_MIN, min(natural[STATUS], STATUS_COMFORT))
            if flex < status_need + DECLARATION_MIN:
                continue
            status = max(status_need, min(natural[STATUS], max(
                flex - natural[DECLARATION], flex // 2), flex - DECLARATION_MIN))
            chosen = {STATUS: status, DECLARATION: flex - status}
        else:
            flex = rest - gap
            if (alerta or gap == 2) and flex < max(STATUS_MIN, min(status_alone,
                                                                   STATUS_COMFORT)):
                continue
            chosen = {STATUS: max(flex, STATUS_MIN)}
        if alerta:
            chosen[ALERTA] = natural[ALERTA]
        break
    widths = {**{index: natural[index] for index in SHORT_COLUMNS}, **chosen}
    columns = tuple(sorted(widths))
    return Layout(columns, tuple(widths[index] for index in columns), gap)


def column_widths(rows: Iterable[tuple[Text, ...]]) -> tuple[int, ...]:
    """Each column's natural width (the panel not laid out yet)."""
    return column_layout(rows).widths


class InitiativeTable(FollowsTheme, SteadyVirtualSize, SteadyScrollbars, can_focus=True):
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

    @property
    def selected_name(self) -> str | None:
        if not self._order or not 0 <= self.cursor_row < len(self._order):
            return None
        return self._order[self.cursor_row]

    def get_row(self, name: str) -> tuple[Text, ...]:
        return self._rows[name]

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
        rows: dict[str, tuple[Text, ...]] = {}
        inputs: dict[str, tuple[object, ...]] = {}
        changed: set[str] = set()
        for name in order:  # rebuild only the rows whose inputs changed
            key = row_inputs(state, name, now, self.palette, active, due)
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
