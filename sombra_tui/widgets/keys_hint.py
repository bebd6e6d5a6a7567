"""A line of keys and what they do ("h hit · c condition · v show to players"), wrapped
between two keys only: a narrow dialog never leaves a key at the end of one line and
its words at the start of the next."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from textual import events
from textual.widgets import Static

SEPARATOR = " · "


def wrap_between(items: Sequence[str], width: int) -> str:
    """`items` joined by SEPARATOR, a line break instead where the next would not fit in
    `width` cells (an item longer than a line is left to the widget to fold)."""
    lines: list[str] = []
    line = ""
    for item in items:
        joined = f"{line}{SEPARATOR}{item}" if line else item
        if line and cell_len(joined) > width:
            lines.append(line + SEPARATOR.rstrip())
            line = item
        else:
            line = joined
    lines.append(line)
    return "\n".join(lines)


class KeysHint(Static):
    """`items` ("v show to players"), joined and wrapped between two items at the
    width the widget gets."""

    def __init__(self, items: Sequence[str], *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(SEPARATOR.join(items), markup=False, id=id, classes=classes)
        self.items = list(items)

    def on_resize(self, event: events.Resize) -> None:
        width = self.content_region.width or event.size.width
        if width > 0:
            self.update(wrap_between(self.items, width))
