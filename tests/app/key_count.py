"""Counting the DJ's keys (issue 39 item 8): a flow typed through `Keys` counts every key
it sends, one per key press and one per character of typed text, as a DJ at a keyboard
would type them. Text goes in as one paste event (the same result in the field, and much
faster than a Pilot key press per character), but counts as its characters.

A flow counted here types keys only: it never moves the focus or the cursor by code, so
the count is the whole of what the DJ types. It may read the screen and the state, as
the DJ reads the screen, to choose the next key.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.pilot import Pilot


class Keys:
    """A Pilot that counts the keys it sends."""

    def __init__(self, pilot: Pilot[Any]) -> None:
        self.pilot = pilot
        self.count = 0

    async def press(self, *keys: str) -> None:
        self.count += len(keys)
        await self.pilot.press(*keys)

    async def type(self, text: str) -> None:
        """`text` into the focused field: len(text) keys."""
        self.count += len(text)
        self.pilot.app.post_message(events.Paste(text))
        await self.pilot.pause()

    async def pause(self) -> None:
        await self.pilot.pause()
