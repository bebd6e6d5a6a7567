"""What the players' tests share: a small encounter and a real server on a free port of
this machine, stopped however the test ends."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

from sombra_tui.engine import Encounter, Side
from sombra_tui.players.server import PlayersServer
from sombra_tui.session import Session
from tests.engine.conftest import char


def session() -> Session:
    return Session.new(Encounter(characters=[
        char("Ana", 8, 3, 14, side=Side.PC), char("Bruno", 12, 5, 12)]))


@asynccontextmanager
async def served(s: Session, **options: Any) -> AsyncIterator[PlayersServer]:
    """A server of `s`'s snapshots that follows its commands, on any free port."""
    server = PlayersServer(s.players_snapshot, port=0, **options)
    await server.start()
    s.add_players_watcher(server.changed)
    try:
        yield server
    finally:
        await server.stop()


async def next_event(response: aiohttp.ClientResponse) -> dict[str, Any]:
    """The next server-sent event's snapshot (heartbeat comments skipped)."""
    data = None
    async with asyncio.timeout(5):
        while True:
            line = (await response.content.readline()).decode()
            if line.startswith("data: "):
                data = json.loads(line.removeprefix("data: "))
            elif line == "\n" and data is not None:
                return data


async def until(condition: Callable[[], bool], seconds: float = 5) -> None:
    """Wait for `condition` (checked at each turn of the loop), at most `seconds`."""
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.01)
