"""The resolution log: every event with round and phase, TAs colour-coded (S2)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from textual.events import Resize
from textual.widgets import RichLog

from sombra_tui.engine import LogEvent, LogView
from sombra_tui.textual_compat import (
    rich_log_has_size,
    rich_log_holds_lines,
    rich_log_lines_replaced,
    rich_log_write_held_lines,
)
from sombra_tui.widgets.formatting import Palette, event_text
from sombra_tui.widgets.steady import SteadyVirtualSize
from sombra_tui.widgets.theme import FollowsTheme

#: A full rewrite (a file opened, the first screen, an undo) renders only the latest
#: TAIL events; older ones are rendered PAGE at a time when the log is scrolled to its
#: top. Rendering a log line costs about half a millisecond, and a long combat has
#: tens of thousands of events.
TAIL = 60
PAGE = 100


def _key(events: Sequence[LogEvent], index: int) -> Hashable:
    """What identifies event `index` of `events` from one reading to the next: the
    log view's key (its events are made when read, issue 24), or, for a plain list of
    events (whose objects the widget keeps meanwhile), the object itself."""
    if isinstance(events, LogView):
        return events.key(index)
    return id(events[index])


class ResolutionLog(FollowsTheme, SteadyVirtualSize, RichLog):
    """Appends only the new events; rewrites only when history shrank (undo). A new
    line is a repaint, not a layout pass (SteadyVirtualSize: RichLog sets its virtual
    size with every line)."""

    DEFAULT_CSS = """
    ResolutionLog { background: $surface; scrollbar-size-vertical: 1; }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, min_width=40,
                         **kwargs)  # type: ignore[arg-type]
        #: The events shown (the log view last given: its events are not all kept).
        self._shown: Sequence[LogEvent] = []
        #: Index in _shown of the oldest event rendered (older ones wait for a scroll up).
        self._first = 0
        self._colours: tuple[str, ...] | None = None
        #: Issue 24: how many lines each event rendered from _first on wrapped to (so
        #: an undo drops its events' lines); only trusted while they add up to the lines.
        self._heights: list[int] = []
        #: The width the lines were last wrapped to (0: none yet); a resize to another
        #: width wraps the rendered events again.
        self._wrapped_to = 0
        #: Whether the log shows its end (a resize that makes room for fewer lines
        #: leaves the scroll offset where it was: the end is scrolled to again).
        self._follows_end = True
        self.palette = Palette()

    def repaint_palette(self) -> None:
        if self._shown:  # before the first events, nothing to paint again
            self.show_events(self._shown, force=True)

    def relabel(self) -> None:
        """The events shown rendered again in the language in force (a switch in g),
        the same event at the top of the view, or the end if it was shown."""
        if not self._shown or not rich_log_has_size(self):
            return
        follows_end = self._follows_end
        self._rewrap(follows_end)
        if follows_end:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def on_resize(self, event: Resize) -> None:
        """Before the log has a size RichLog holds every line back; here they are written
        one event at a time (RichLog's own handler, which runs next, then finds none), so
        that each event's height is known for an undo (issue 24). Once it has a size, a
        new width wraps the rendered events again (RichLog keeps its lines as they were
        wrapped), and a log that showed its end shows it again."""
        if not event.size.width:
            return
        width = self.scrollable_content_region.width
        follows_end = self._follows_end  # as before the resize (rewrapping scrolls)
        if not rich_log_has_size(self):
            heights = rich_log_write_held_lines(self)
            if heights and len(heights) <= len(self._heights):
                self._heights[len(self._heights) - len(heights):] = heights
        elif width != self._wrapped_to:
            self._rewrap(follows_end)
        self._wrapped_to = width
        if follows_end:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self._follows_end = self.is_vertical_scroll_end

    def _rewrap(self, follows_end: bool) -> None:
        """Render the events shown again at the log's width, with the same event at the
        top of the view. A log showing its end renders its latest TAIL events only
        (older ones wait for a scroll up, as after a full rewrite)."""
        shown, heights = self._shown, self._heights
        if not shown:
            return
        top = self._first  # the event at the top of the view
        if follows_end:
            self._first = max(self._first, len(shown) - TAIL)
        elif len(heights) == len(shown) - self._first and sum(heights) == len(self.lines):
            line, scroll_y = 0, round(self.scroll_y)
            for height in heights:
                if line + height > scroll_y:
                    break
                line += height
                top += 1
        self.clear()
        self._heights = self._write_quietly(shown[self._first:])
        if not follows_end:
            self.scroll_to(y=sum(self._heights[:top - self._first]), animate=False,
                           immediate=True)

    def show_events(self, events: Sequence[LogEvent], *, force: bool = False) -> None:
        """Show `events` (Combat.log_view, or a list of events): only those not shown
        yet are rendered, or, after an undo, the undone ones' lines dropped."""
        shown = self._shown
        colours = (self.palette.success, self.palette.error, self.palette.warning,
                   self.palette.accent)
        prefix_same = (len(events) >= len(shown)
                       and (not shown or _key(events, len(shown) - 1)
                            == _key(shown, len(shown) - 1)))
        # A forced rewrite (new theme, first screen) is only needed if colours changed.
        # More than TAIL new events at once (a long file's log, once checked, issue 24)
        # are a rewrite too: only the latest TAIL are rendered.
        if prefix_same and (not force or colours == self._colours) \
                and len(events) - len(shown) <= TAIL:
            new = events[len(shown):]
        elif not force and self._cut_to(events):  # an undo: its lines go, no rewrite
            self._shown = _kept(events)
            return
        else:
            self.clear()
            self._heights.clear()
            self._first = max(0, len(events) - TAIL)
            new = events[self._first:]
        self._colours = colours
        self._write(new)
        self._shown = _kept(events)

    def _cut_to(self, events: Sequence[LogEvent]) -> bool:
        """Issue 24: when `events` is what is shown without its last events (an undo),
        drop their lines and say True; else (or if the lines cannot be told apart) do
        nothing and say False. An undo then costs what a command's new lines cost."""
        shown, keep = self._shown, len(events) - self._first
        if not (0 <= keep < len(shown) - self._first and len(events) < len(shown)
                and (not events or _key(events, len(events) - 1)
                     == _key(shown, len(events) - 1))):
            return False
        heights = self._heights
        if (not rich_log_has_size(self) or rich_log_holds_lines(self)
                or len(heights) != len(shown) - self._first
                or sum(heights) != len(self.lines)):
            return False
        del self.lines[sum(heights[:keep]):]
        del heights[keep:]
        rich_log_lines_replaced(self)
        if self.auto_scroll:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.refresh()
        return True

    def _write(self, events: Sequence[LogEvent]) -> None:
        # Scrolled to the end once, now, in the same repaint as the new lines: RichLog's
        # own scroll waits for the next refresh, which repainted the whole log a second
        # time. Before the log has a size RichLog holds the lines back, and its own
        # scroll goes with them.
        now = rich_log_has_size(self)
        heights = self._heights
        for index, event in enumerate(events):
            last = index == len(events) - 1
            before = len(self.lines)
            self.write(event_text(event, self.palette),
                       scroll_end=None if last and not now else False)
            heights.append(len(self.lines) - before)
        if events and now and self.auto_scroll:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._follows_end = self.is_vertical_scroll_end
        if new_value <= 0 < self._first:
            self.call_after_refresh(self._show_older)

    def _show_older(self) -> None:
        """Render the page of events before the oldest shown, keeping the view still."""
        if self._first <= 0 or self.scroll_y > 0:
            return
        start = max(0, self._first - PAGE)
        newer = self.lines
        self.lines = []
        self._heights[:0] = self._write_quietly(self._shown[start:self._first])
        added = len(self.lines)
        self.lines.extend(newer)
        self._first = start
        rich_log_lines_replaced(self)
        self.scroll_to(y=added, animate=False, immediate=True)
        self.refresh()

    def _write_quietly(self, events: Sequence[LogEvent]) -> list[int]:
        """Write `events` without scrolling; how many lines each took."""
        heights = []
        for event in events:
            before = len(self.lines)
            self.write(event_text(event, self.palette), scroll_end=False)
            heights.append(len(self.lines) - before)
        return heights


def _kept(events: Sequence[LogEvent]) -> Sequence[LogEvent]:
    """What the widget keeps of `events`: the log view itself (it does not change), or
    a copy of a list (which its owner may change)."""
    return events if isinstance(events, LogView) else list(events)
