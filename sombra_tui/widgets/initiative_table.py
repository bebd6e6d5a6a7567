"""Initiative order panel: one row per character with its marks (I3, I4, D7, P4, E1)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip

from sombra_tui import keys
from sombra_tui.engine import CombatState, ExtendedProgress, ExtendedStatus, Phase, ask, i18n
from sombra_tui.engine.i18n import N_, _
from sombra_tui.textual_compat import SteadyScrollbars
from sombra_tui.widgets.formatting import Palette, side_label
from sombra_tui.widgets.theme import FollowsTheme

#: The columns' headings (English msgids, shown in the DJ's language). What a fight
#: changes comes first (G/W of PV, then Status with the conditions and their rounds
#: left), so a narrow panel (80x24) still shows it; the declaration is what gets cut.
COLUMNS = ("", N_("Name"), N_("G/W PV"), N_("Status"), N_("Side"), N_("Ini"), N_("Alerta"),
           N_("Declaration"))
FIXED_WIDTHS = {"": 1, "Name": 12, "G/W PV": 9, "Side": 5, "Ini": 7, "Alerta": 6}
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
        state.bodies.get(name), state.round, state.settings.wounds.pv_multiplier,
        palette.accent, palette.warning, palette.error, i18n.language(),
    )


def row_for(state: CombatState, name: str, now: set[str], palette: Palette,
            active: dict[str, list[ExtendedProgress]] | None = None) -> tuple[Text, ...]:
    character = state.character(name)
    assert character is not None
    primaria, secundaria = state.round_initiative.get(
        name, (character.primaria, character.secundaria))
    marker = Text("▶", style=f"bold {palette.accent}") if name in now else Text("")
    side = Text(side_label(character.side.value),
                style=palette.accent if character.side.value == "PC" else palette.warning)
    declaration = state.declaration_of(name)
    summary = declaration.summary() if declaration is not None else ""
    if len(summary) > DECLARATION_WIDTH:
        summary = summary[: DECLARATION_WIDTH - 1] + "…"
    marks: list[Text] = []
    # Conditions first (C1), each with its rounds left (C3): a narrow panel shows them.
    body = state.body(name)
    for condition in body.conditions:
        if condition.name == "sangrando":
            continue
        left = ask.condition_left(condition, state.round)
        label = condition.name if left is None else f"{condition.name} {left}"
        blocking = condition.effects.cannot_act or condition.effects.out
        marks.append(Text(label, style=f"bold {palette.error}" if blocking
                          else palette.warning))
    if any(wound.bleeding for wound in body.wounds):
        marks.append(Text(_("sangra"), style=palette.error))
    if name not in state.round_initiative and state.phase is not Phase.SETUP:
        marks.append(Text(_("next asalto"), style="dim"))
    if declaration is not None:
        marks.append(Text(_("declared"), style="dim"))
    if name in now:
        marks.append(Text(_("now"), style=f"bold {palette.accent}"))
    if name in state.locked:
        marks.append(Text(_("locked"), style=f"bold {palette.error}"))
    if name in state.prevented:
        marks.append(Text(i18n.said_of(ask.gender(state, name), N_("prevented")),
                          style=f"bold {palette.warning}"))
    if name in state.out:
        marks.append(Text(_("OUT"), style=f"bold reverse {palette.error}"))
    if active is None:
        active = active_extended(state)
    for progress in active.get(name, ()):
        marks.append(Text(_("ext {progress}").format(progress=progress.progress_text()),
                          style=palette.accent))
    status = Text(" ").join(marks)
    name_style = "strike dim" if name in state.out else ("bold" if name in now else "")
    pv = ask.pv(state, name)
    counters = body.counters
    points_style = (f"bold {palette.error}" if counters.g >= pv else palette.warning
                    if counters.g * 2 >= pv else "")
    points = Text(f"{counters.g}/{counters.w} {pv}", style=points_style)
    return (
        marker,
        Text(name, style=name_style),
        points,
        status,
        side,
        Text(f"{primaria}/{secundaria}"),
        Text(str(character.alerta)),
        Text(summary, style="italic" if declaration is not None else ""),
    )


#: Spaces either side of each cell.
CELL_PADDING = 1


def column_widths(rows: Iterable[tuple[Text, ...]]) -> tuple[int, ...]:
    """Each column's width: fixed for the short ones, else its widest cell or label."""
    widths = [FIXED_WIDTHS.get(label) or len(_(label)) for label in COLUMNS]
    for row in rows:
        for index, cell in enumerate(row):
            if COLUMNS[index] not in FIXED_WIDTHS and cell.cell_len > widths[index]:
                widths[index] = cell.cell_len
    return tuple(widths)


class InitiativeTable(FollowsTheme, SteadyScrollbars, can_focus=True):
    """The initiative order, one line per character, drawn with Textual's line API.

    A command changes a few rows; only those are rendered again and repainted. Each
    row is drawn once without the row's own style and kept; its look (zebra stripe,
    cursor) is laid over it when painted, which Textual's Strip caches, so scrolling
    and moving the cursor reuse what is already drawn. The header stays on top.
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
        self._widths: tuple[int, ...] = column_widths([])
        self.cursor_row = 0
        #: Each row drawn without a row style, by name (see _row_strip).
        self._strips: dict[str, Strip] = {}
        #: The cursor's row as last painted: (drawn row, style, painted row).
        self._cursor_strip: tuple[Strip, Style, Strip] | None = None
        #: self.rich_style, which walks the ancestors' backgrounds (tens of microseconds
        #: a call, and every painted line needs it): kept until the styles change.
        self._base_style: Style | None = None
        #: The header as last drawn: (style, widths, strip).
        self._header: tuple[Style, tuple[int, ...], str, Strip] | None = None
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
        """How many rows fit under the header."""
        return max(0, self.scrollable_content_region.height - self.header_height)

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
        row, shown = self.cursor_row, self._shown_rows
        top = round(self.scroll_y)
        if shown <= 0 or top <= row < top + shown:
            return
        if page:
            target = max(0, row - 1)
        elif row < top:
            target = row
        else:
            target = row - shown + 1
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
        row = offset.y - self.header_height + round(self.scroll_y)
        if not 0 <= row < len(self._order):
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
        rows: dict[str, tuple[Text, ...]] = {}
        inputs: dict[str, tuple[object, ...]] = {}
        changed: set[str] = set()
        for name in order:  # rebuild only the rows whose inputs changed
            key = row_inputs(state, name, now, self.palette, active)
            inputs[name] = key
            old = self._rows.get(name)
            if old is not None and self._inputs.get(name) == key:
                rows[name] = old
            else:
                rows[name] = row_for(state, name, now, self.palette, active)
                changed.add(name)
        selected = self.selected_name
        widths = column_widths(rows.values())
        reordered = order != self._order
        self._rows, self._inputs = rows, inputs
        for name in changed | (self._strips.keys() - rows.keys()):
            self._strips.pop(name, None)
        if reordered or widths != self._widths:
            self._order = order
            self._positions = {name: index for index, name in enumerate(order)}
            self._widths = widths
            self._strips.clear()
            self._update_virtual_size()
            self.refresh()
            if selected in self._positions:
                self.cursor_row = self._positions[selected]
            self.cursor_row = max(0, min(self.cursor_row, len(order) - 1))
        else:
            self._refresh_rows({self._positions[name] for name in changed})
        if state.round != self._round:  # a new round: the cursor follows the play again
            self._round = state.round
            self.dj_chose = False
        if now and now != self._acting and not self.dj_chose:
            # The cursor follows whoever acts now, unless the DJ chose a row this round.
            first = next(name for name in order if name in now)
            self.move_cursor(self._positions[first], page=True)
        self._acting = now

    def _update_virtual_size(self) -> None:
        width = sum(self._widths) + 2 * CELL_PADDING * len(self._widths)
        self.virtual_size = Size(width, len(self._order) + self.header_height)

    def _refresh_rows(self, rows: set[int]) -> None:
        """Repaint the lines of these rows that are in view."""
        top = round(self.scroll_y)
        shown = self._shown_rows
        width = self.scrollable_content_region.width
        for row in rows:
            if top <= row < top + shown:
                self.refresh(Region(0, row - top + self.header_height, width, 1))

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
            row = y - self.header_height + scroll_y
            if not 0 <= row < len(self._order):
                return Strip.blank(width, self.base_style)
            strip = self._row_strip(row)
        return strip.crop_extend(scroll_x, scroll_x + width, self.base_style)

    def _header_strip(self) -> Strip:
        style = self.base_style + self.get_component_rich_style("initiative--header")
        if self._header is None or self._header[:3] != (style, self._widths, i18n.language()):
            labels = tuple(Text(_(label)) if label else Text("") for label in COLUMNS)
            self._header = (style, self._widths, i18n.language(), self._draw(labels, style))
        return self._header[3]

    def _row_strip(self, row: int) -> Strip:
        name = self._order[row]
        bare = self._strips.get(name)
        if bare is None:
            bare = self._strips[name] = self._draw(self._rows[name], Style())
        base = self.base_style
        if row == self.cursor_row:
            style = base + self.get_component_rich_style("initiative--cursor")
            cached = self._cursor_strip
            if cached is not None and cached[0] is bare and cached[1] == style:
                return cached[2]
            # The cursor's background under the cells, its text colour over theirs
            # (as Textual's DataTable draws its cursor).
            strip = bare.apply_style(style)
            if style.color is not None:
                strip = Strip(Segment.apply_style(list(strip), post_style=Style(
                    color=style.color)), strip.cell_length)
            self._cursor_strip = (bare, style, strip)
            return strip
        if row % 2:
            return bare.apply_style(base + self.get_component_rich_style(
                "initiative--even-row"))
        return bare.apply_style(base)

    def _draw(self, cells: tuple[Text, ...], style: Style) -> Strip:
        """One line: each cell cut (with an ellipsis) or padded to its column's width."""
        console = self.app.console
        segments: list[Segment] = []
        pad = " " * CELL_PADDING
        for cell, width in zip(cells, self._widths, strict=True):
            text = Text(pad, end="")
            fitted = cell.copy()
            fitted.truncate(width, overflow="ellipsis", pad=True)
            text.append_text(fitted)
            text.append(pad)
            # The row's style goes under the cell's own (Text.render leaves it out).
            segments.extend(Segment.apply_style(text.render(console), style))
        total = sum(self._widths) + 2 * CELL_PADDING * len(self._widths)
        return Strip(segments, total)
