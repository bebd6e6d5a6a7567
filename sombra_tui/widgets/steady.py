"""Scrolling panels whose content grows without a layout pass of the screen (issue 24)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.geometry import Size
from textual.reactive import Reactive
from textual.widget import Widget

if TYPE_CHECKING:
    _Widget = Widget  # the Textual widget this is mixed into, for the type checker
else:
    _Widget = object


def shows_scrollbar(overflow: str, content: int, room: int) -> bool:
    """Whether a scrollbar with this `overflow` style shows for `content` lines (or
    columns) in `room` (Textual's rule, `Widget._refresh_scrollbars`)."""
    return overflow == "scroll" or (overflow == "auto" and content > room)


class SteadyVirtualSize(_Widget):
    """Mixin for a scrolling widget of a fixed size (CSS: `1fr`, `100%`) whose content
    changes: a log that grows a line, a table whose rows wrap.

    Textual's `Widget.virtual_size` asks for a layout pass of the whole screen each time
    it changes, which is how a ScrollView's scrollbars learn the new size; but the
    widget's own size, and every other widget's, stay as they were. Here a new virtual
    size is a repaint: the scrollbars are told at once (as the layout pass would), and
    only when a scrollbar comes or goes, which changes the room the content has, is a
    layout pass asked for. Put it before the Textual class in the bases.
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def watch_virtual_size(self, size: Size) -> None:
        if not self.size:  # not laid out yet: the first layout places the scrollbars
            return
        styles = self.styles
        width, height = self.container_size
        vertical = shows_scrollbar(styles.overflow_y, size.height, height)
        horizontal = shows_scrollbar(styles.overflow_x, size.width, width)
        if (vertical, horizontal) != (self.show_vertical_scrollbar,
                                      self.show_horizontal_scrollbar):
            # A scrollbar comes or goes: the content's room changes, a layout pass places
            # it. Told here: the layout pass of a ScrollView whose size did not change
            # leaves its scrollbars as they were (a scrollbar with nothing to scroll).
            self.show_vertical_scrollbar = vertical
            self.show_horizontal_scrollbar = horizontal
            self.vertical_scrollbar.display = vertical
            self.horizontal_scrollbar.display = horizontal
            self.refresh(layout=True)
            return
        if vertical and styles.scrollbar_size_vertical:
            bar = self.vertical_scrollbar
            bar.window_virtual_size = size.height
            bar.window_size = height - self.scrollbar_size_horizontal
        if horizontal and styles.scrollbar_size_horizontal:
            bar = self.horizontal_scrollbar
            bar.window_virtual_size = size.width
            bar.window_size = width - self.scrollbar_size_vertical
        self.scroll_x = self.validate_scroll_x(self.scroll_x)
        self.scroll_y = self.validate_scroll_y(self.scroll_y)
