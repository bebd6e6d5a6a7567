"""Initiative order panel: one row per character with its marks (I3, I4, D7, P4, E1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.coordinate import Coordinate
from textual.geometry import Size
from textual.render import measure
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey, RowKey

from sombra_tui.engine.initiative import action_order
from sombra_tui.engine.state import CombatState, ExtendedProgress, ExtendedStatus, Phase
from sombra_tui.widgets.formatting import Palette

# Estado before Declaración: when the panel is narrow, the long text is what gets cut.
COLUMNS = ("", "Nombre", "Lado", "Ini", "Alerta", "Estado", "Declaración")
FIXED_WIDTHS = {"": 1, "Nombre": 12, "Lado": 4, "Ini": 7, "Alerta": 6}
DECLARATION_WIDTH = 28


def ordered_names(state: CombatState) -> list[str]:
    """Declaration order (I3) while declaring, action order (I4) while resolving."""
    dj_order = [ch.name for ch in state.characters]
    in_round = [n for n in state.declaration_order if state.character(n) is not None]
    if state.phase is Phase.SETUP or not state.round_initiative:
        return dj_order
    if state.phase is Phase.DECLARATION:
        base = in_round
    else:
        base = [n for n in action_order(state.round_initiative, dj_order)
                if state.character(n) is not None]
    # Reinforcements joined mid-round are listed last until the next round.
    return base + [n for n in dj_order if n not in base]


def acting_now(state: CombatState) -> set[str]:
    if state.phase is Phase.DECLARATION:
        top = state.top_prompt
        if top is not None:
            return {top.reactor}
        return {state.current_declarer} if state.current_declarer else set()
    return {step.character for step in state.current_group()}


def active_extended(state: CombatState) -> dict[str, list[ExtendedProgress]]:
    """Active extended actions by owner (looked up once per render, not once per row)."""
    active: dict[str, list[ExtendedProgress]] = {}
    for progress in state.extended:
        if progress.status is ExtendedStatus.ACTIVE:
            active.setdefault(progress.owner, []).append(progress)
    return active


def row_inputs(state: CombatState, name: str, now: set[str], palette: Palette,
               active: dict[str, list[ExtendedProgress]]) -> tuple[object, ...]:
    """Everything `row_for` reads, cheap to compare: equal inputs make an equal row, so
    only rows whose inputs changed are rebuilt. Keep it in step with `row_for`."""
    return (
        state.character(name), state.round_initiative.get(name), name in now,
        state.declaration_of(name), state.phase is Phase.SETUP,
        name in state.locked, name in state.prevented, name in state.out,
        tuple(progress.progress_text() for progress in active.get(name, ())),
        palette.accent, palette.warning, palette.error,
    )


def row_for(state: CombatState, name: str, now: set[str], palette: Palette,
            active: dict[str, list[ExtendedProgress]] | None = None) -> tuple[Text, ...]:
    character = state.character(name)
    assert character is not None
    primaria, secundaria = state.round_initiative.get(
        name, (character.primaria, character.secundaria))
    marker = Text("▶", style=f"bold {palette.accent}") if name in now else Text("")
    side = Text(character.side.value,
                style=palette.accent if character.side.value == "PC" else palette.warning)
    declaration = state.declaration_of(name)
    summary = declaration.summary() if declaration is not None else ""
    if len(summary) > DECLARATION_WIDTH:
        summary = summary[: DECLARATION_WIDTH - 1] + "…"
    marks: list[Text] = []
    if name not in state.round_initiative and state.phase is not Phase.SETUP:
        marks.append(Text("next round", style="dim"))
    if declaration is not None:
        marks.append(Text("declared", style="dim"))
    if name in now:
        marks.append(Text("now", style=f"bold {palette.accent}"))
    if name in state.locked:
        marks.append(Text("locked", style=f"bold {palette.error}"))
    if name in state.prevented:
        marks.append(Text("prevented", style=f"bold {palette.warning}"))
    if name in state.out:
        marks.append(Text("OUT", style=f"bold reverse {palette.error}"))
    if active is None:
        active = active_extended(state)
    for progress in active.get(name, ()):
        marks.append(Text(f"ext {progress.progress_text()}", style=palette.accent))
    status = Text(" ").join(marks)
    name_style = "strike dim" if name in state.out else ("bold" if name in now else "")
    return (
        marker,
        Text(name, style=name_style),
        side,
        Text(f"{primaria}/{secundaria}"),
        Text(str(character.alerta)),
        status,
        Text(summary, style="italic" if declaration is not None else ""),
    )


#: A cell position that is never a row's (the header is row -1): "the cursor is elsewhere".
ELSEWHERE = Coordinate(-2, -2)
SegmentLines = list[list[Segment]]


def forget(cache: Any, stale: Callable[[Any], bool]) -> None:
    """Drop the entries of a Textual LRUCache whose key is stale."""
    for key in [key for key in cache.keys() if stale(key)]:  # noqa: SIM118 (not a dict)
        cache.discard(key)


def column_widths(rows: Iterable[tuple[Text, ...]]) -> list[Counter[int]]:
    """How many cells of each width each column has (its widest is the largest key)."""
    widths: list[Counter[int]] = [Counter() for _ in COLUMNS]
    for row in rows:
        for index, cell in enumerate(row):
            widths[index][cell.cell_len] += 1
    return widths


class InitiativeTable(DataTable[Text]):
    """Updates changed cells in place; rebuilds rows only when the order changes."""

    DEFAULT_CSS = """
    InitiativeTable { height: 1fr; }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)  # type: ignore[arg-type]
        self.palette = Palette()
        self._rows: dict[str, tuple[Text, ...]] = {}
        self._inputs: dict[str, tuple[object, ...]] = {}
        #: Widest cell of each column, to ask the table to re-measure only when it changes.
        self._widths: list[Counter[int]] = column_widths([])
        self._order: list[str] = []
        self._acting: set[str] = set()
        self._sizes: tuple[Size, ...] = ()
        self._drawn_widths: tuple[int, ...] = ()
        self._label_widths: dict[int, int] = {}

    def on_mount(self) -> None:
        for label in COLUMNS:
            # Short columns get a fixed width: a batch of fresh rows was otherwise drawn
            # with the first row's widths ("10/" for "10/6").
            self.add_column(label, key=label or "now", width=FIXED_WIDTHS.get(label))

    @property
    def selected_name(self) -> str | None:
        if not self._order or self.cursor_row < 0 or self.cursor_row >= len(self._order):
            return None
        return self._order[self.cursor_row]

    def select_name(self, name: str) -> None:
        if name in self._order:
            self.move_cursor(row=self._order.index(name))

    def _follow(self, name: str) -> None:
        """select_name, but a row out of view is brought near the top (a page at a time)
        rather than to the edge: scrolling repaints every visible row, and the acting
        character moves down the table one row per command."""
        row = self._order.index(name)
        if not self._require_update_dimensions:  # row positions are settled
            top = round(self.scroll_y)
            shown = self.scrollable_content_region.height - self.header_height
            if shown > 2 and not top <= row < top + shown:
                self.scroll_to(y=max(0, row - 1), animate=False, immediate=True)
        self.move_cursor(row=row)

    def show_state(self, state: CombatState) -> None:
        order = ordered_names(state)
        now = acting_now(state)
        active = active_extended(state)
        rows: dict[str, tuple[Text, ...]] = {}
        inputs: dict[str, tuple[object, ...]] = {}
        for name in order:  # rebuild only the rows whose inputs changed
            key = row_inputs(state, name, now, self.palette, active)
            inputs[name] = key
            old = self._rows.get(name)
            rows[name] = (old if old is not None and self._inputs.get(name) == key
                          else row_for(state, name, now, self.palette, active))
        if order != self._order:
            selected = self.selected_name
            self.clear()
            for name in order:
                self.add_row(*rows[name], key=name)
            self._order = order
            self._widths = column_widths(rows.values())
            if selected in order:
                self.move_cursor(row=order.index(selected))
        else:
            self._update_cells(order, rows)
        self._rows = rows
        self._inputs = inputs
        if now and now != self._acting:  # the cursor follows whoever acts now
            self._follow(next(name for name in order if name in now))
        self._acting = now

    def _update_cells(self, order: list[str], rows: dict[str, tuple[Text, ...]]) -> None:
        """Update changed cells in place (see _update_quietly for how)."""
        changed: list[tuple[str, int, Text]] = []
        for name in order:
            old, new = self._rows.get(name), rows[name]
            if old is new:
                continue
            for index, cell in enumerate(new):
                if old is None or old[index] != cell:
                    changed.append((name, index, cell))
        if not changed:
            return
        for name, index, cell in changed:  # keep the count of cell widths per column
            counts = self._widths[index]
            old_width = self._rows[name][index].cell_len
            counts[old_width] -= 1
            if not counts[old_width]:
                del counts[old_width]
            counts[cell.cell_len] += 1
        keys = [label or "now" for label in COLUMNS]
        # Rows rendered before the table last settled its column widths (it does so when
        # idle) are stale: then the whole table is redrawn, as update_cell does.
        drawn = tuple(column.get_render_width(self) for column in self.ordered_columns)
        if drawn != self._drawn_widths or not self._can_update_quietly():
            for name, index, cell in changed:
                self.update_cell(name, keys[index], cell, update_width=True)
        else:
            self._update_quietly([(name, keys[index], cell) for name, index, cell in changed],
                                 {index for _, index, _ in changed})
        self._drawn_widths = tuple(column.get_render_width(self)
                                   for column in self.ordered_columns)

    # DataTable.update_cell makes the table forget every row it has rendered, so each
    # command re-rendered all the visible rows (tens of milliseconds with 200
    # characters). When no column changes width, the changed cells are set and only
    # what was rendered from them is forgotten, and only their rows are repainted.
    # This uses DataTable's caches by name; if they ever change, update_cell is used.
    _CACHES = ("_data", "_cell_render_cache", "_row_renderable_cache", "_row_render_cache",
               "_line_cache", "_row_locations", "_require_update_dimensions")

    def _render_line_in_row(self, row_key: RowKey, line_no: int, base_style: Style,
                            cursor_location: Coordinate, hover_location: Coordinate
                            ) -> tuple[SegmentLines, SegmentLines]:
        # With a row cursor, a row looks the same wherever the cursor (or the mouse) is,
        # as long as it is not on that row. DataTable caches rendered rows by the cursor's
        # position, so every move of the cursor (it follows whoever acts) re-rendered all
        # the visible rows; keyed by "not here" instead, only the two rows it left and
        # reached are rendered again.
        if self.cursor_type == "row":
            row = self._row_locations.get(row_key) if row_key in self._row_locations else -1
            if cursor_location.row != row:
                cursor_location = ELSEWHERE
            if hover_location.row != row:
                hover_location = ELSEWHERE
        return super()._render_line_in_row(row_key, line_no, base_style, cursor_location,
                                           hover_location)

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size,
                      layout: bool = True) -> bool:
        # Every layout pass of the screen (the log grows by a line per command) lands
        # here, and ScrollView then repaints both scrollbars even when nothing moved.
        key = (size, virtual_size, container_size, self.virtual_size)
        if key == self._sizes:
            return False
        self._sizes = key
        return super()._size_updated(size, virtual_size, container_size, layout=layout)

    def _can_update_quietly(self) -> bool:
        return all(hasattr(self, name) for name in self._CACHES)

    def _update_quietly(self, changes: list[tuple[str, str, Text]],
                        columns: set[int]) -> None:
        """update_cell(..., update_width=True) for each change, forgetting only what was
        rendered from the changed cells (and from a column whose width changes)."""
        rows = {RowKey(name) for name, _, _ in changes}
        cells = {(RowKey(name), ColumnKey(column)) for name, column, _ in changes}
        for name, column, cell in changes:
            self._data[RowKey(name)][ColumnKey(column)] = cell
        # A column with a changed cell ends as wide as its widest cell or its label,
        # as DataTable makes it (it does not shrink a column until one of its cells
        # changes, so that is not always the case before).
        resized: set[ColumnKey] = set()
        for index in columns:
            column = self.ordered_columns[index]
            width = max(max(self._widths[index], default=0), self._label_width(index))
            if column.content_width != width:
                column.content_width = width
                if column.auto_width:  # a fixed-width column looks the same
                    resized.add(column.key)
        indexes = {self._row_locations.get(row) for row in rows}
        forget(self._cell_render_cache,
               lambda key: key[1] in resized or (key[0], key[1]) in cells)
        forget(self._row_renderable_cache, lambda key: key[1] in indexes)
        self._line_cache.clear()
        if resized:  # every row is laid out anew; the table's size is updated when idle
            self._row_render_cache.clear()
            self._require_update_dimensions = True
            self.refresh()
            return
        forget(self._row_render_cache, lambda key: key[0] in rows)
        for index in indexes:
            if index is not None:
                self.refresh_row(index)

    def _label_width(self, index: int) -> int:
        if index not in self._label_widths:
            label = self.ordered_columns[index].label
            self._label_widths[index] = measure(self.app.console, label, 1)
        return self._label_widths[index]
