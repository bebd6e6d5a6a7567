"""The resolution log: every event with round and phase, TAs colour-coded (S2)."""

from __future__ import annotations

from textual.widgets import RichLog

from sombra_tui.engine.events import LogEvent
from sombra_tui.widgets.formatting import Palette, event_text


class ResolutionLog(RichLog):
    """Appends only the new events; rewrites only when history shrank (undo)."""

    DEFAULT_CSS = """
    ResolutionLog { background: $surface; }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, min_width=40,
                         **kwargs)  # type: ignore[arg-type]
        self._shown: list[LogEvent] = []
        self.palette = Palette()

    def show_events(self, events: list[LogEvent], *, force: bool = False) -> None:
        shown = self._shown
        prefix_same = (not force and len(events) >= len(shown)
                       and (not shown or events[len(shown) - 1] is shown[-1]))
        if prefix_same:
            new = events[len(shown):]
        else:
            self.clear()
            new = events
        for event in new:
            self.write(event_text(event, self.palette))
        self._shown = list(events)
