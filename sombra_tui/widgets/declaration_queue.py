"""The declaration queue panel (the DJ's right-hand panel): its lines, scrolling inside
it, with the part the DJ acts on now kept in view.

Its parts: the lines (panel_lines, from the engine's one reading of the panel), the
details of the cursor's character and of the declarations made (panel_details) and the
hint of the next key (next_hint)."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Group
from rich.text import Span, Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual, visualize

from sombra_tui.engine import CombatState
from sombra_tui.widgets.formatting import Palette
from sombra_tui.widgets.next_hint import KeyNames as KeyNames
from sombra_tui.widgets.next_hint import next_step_hint as next_step_hint
from sombra_tui.widgets.panel_details import action_detail as action_detail
from sombra_tui.widgets.panel_details import declaration_detail as declaration_detail
from sombra_tui.widgets.panel_details import declared_line as declared_line
from sombra_tui.widgets.panel_details import wrapped_height
from sombra_tui.widgets.panel_lines import current_line as current_line
from sombra_tui.widgets.panel_lines import queue_lines as queue_lines
from sombra_tui.widgets.steady import SteadyVirtualSize
from sombra_tui.widgets.theme import FollowsTheme


class DeclarationQueue(SteadyVirtualSize, FollowsTheme, ScrollView):
    """The panel's lines, scrolling inside the panel (issue 24): the widget fills its
    panel whatever it shows, so a command that changes its lines repaints it without
    a layout pass of the screen (a Static of the lines' height made the screen lay out
    again each time they outgrew a small panel, at 80x24 after most commands). It keeps
    the part the DJ acts on now in view, with what fits of the lines above it."""

    # Its scrollbar always shows: one that came and went with the lines would change
    # their width, and each time the screen would be laid out again. (It stands for
    # the padding on the right: the lines keep the width they had in a panel with room.)
    DEFAULT_CSS = """
    DeclarationQueue {
        height: 1fr; padding: 0 0 0 1; overflow-x: hidden; overflow-y: scroll;
        scrollbar-size-vertical: 1;
    }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.palette = Palette()
        self._shown: list[tuple[str, str, list[Span]]] = []
        self._lines: list[Text] = []
        self._strips: list[Strip] = []
        #: How many of the first lines (the hint's) stay put when the panel scrolls.
        self._pinned = 0
        #: The state last shown, painted again when the theme's colours change.
        self._state: CombatState | None = None
        self._selected: str | None = None
        #: The DJ's rebindings (the screen sets them): hints name the keys in force.
        self.keymap: Mapping[str, str] = {}

    @property
    def content(self) -> Group:
        """What the panel shows (its lines, unwrapped)."""
        return Group(*self._lines)

    def repaint_palette(self) -> None:
        if self._state is not None:
            self.show_state(self._state, self._selected)

    def fit(self) -> tuple[int, int]:
        """The width of the lines and the panel's room for them (the widget's
        viewport); 0 before the first layout."""
        region = self.scrollable_content_region
        return region.width, region.height

    def on_resize(self) -> None:
        if self._state is not None:  # the lines wrap (and the declarations fit) anew
            self._shown = []
            self.show_state(self._state, self._selected)

    def show_state(self, state: CombatState, selected: str | None = None) -> None:
        self._state, self._selected = state, selected
        width, room = self.fit()
        lines = queue_lines(state, self.palette, selected, self.keymap, fit=(width, room))
        # Many commands leave the queue as it was. (Text's own == ignores its style.)
        key = [(line.plain, str(line.style), line.spans) for line in lines]
        if key == self._shown:
            return
        self._shown = key
        self._lines = lines
        if width <= 0:  # not laid out yet: its first size shows them (on_resize)
            return
        self._strips = Visual.to_strips(self, visualize(self, Group(*lines)), width, None,
                                        self.visual_style, pad=True)
        # A repaint, or a layout pass only if a scrollbar comes or goes (SteadyVirtualSize).
        self.virtual_size = Size(width, len(self._strips))
        # The hint of the next key stays on the panel's first lines (playtest: at 80x24
        # it scrolled away); under it, what the DJ acts on now in view, with as much as
        # fits above it.
        self._pinned = min(wrapped_height(lines[:1], width), room)
        first, height = current_line(lines, width)
        self.scroll_to(y=max(0, min(first - self._pinned, first + height - room)),
                       animate=False, immediate=True)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        # The hint's lines are pinned; the rest scrolls beneath them.
        index = y if y < self._pinned else y + round(self.scroll_y)
        if 0 <= index < len(self._strips):
            return self._strips[index].crop_extend(0, width, self.rich_style)
        return Strip.blank(width, self.rich_style)
