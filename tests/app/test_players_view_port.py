"""The players' view's address across F8 stop and start (issue 41 item 5): it comes back
on the port it last ran on while that port is free of listeners, so a phone or a TV
following the old address reconnects by itself; if another program took the port, the
page starts as the first time and the DJ is told. Only 127.0.0.1."""

from __future__ import annotations

import socket
from typing import Any

import aiohttp

from sombra_tui.app import SombraApp
from sombra_tui.screens.dialogs import ConfirmDialog
from tests.app.conftest import SIZE
from tests.app.test_players_view_key import app_on_any_port
from tests.players.serving import next_event


async def f8(pilot: Any) -> None:
    await pilot.press("f8")
    await pilot.pause()


async def test_stop_and_start_come_back_on_the_same_address() -> None:
    """On any free port the first time (the tests' players_port 0): F8 stop and F8
    start again serve the same address, and a page following it reconnects there (it
    moved to whatever port the system gave)."""
    app = app_on_any_port()
    async with app.run_test(size=SIZE) as pilot:
        await f8(pilot)
        first = app.players_server
        assert first is not None and first.running
        url = first.url
        await pilot.press("escape")
        await f8(pilot)  # stop
        assert app.players_server is None
        await f8(pilot)  # start again
        again = app.players_server
        assert again is not None and again.running and again.url == url
        async with aiohttp.ClientSession() as http, http.get(url + "events") as stream:
            assert (await next_event(stream))["round"] == 0
        await pilot.press("escape")
        await f8(pilot)


async def test_after_the_dj_took_another_port_it_comes_back_there() -> None:
    """The first port was taken and the DJ took the free one offered; once the first
    one is free again, stop and start keep the page where the players follow it (it
    went back to the first port)."""
    app = app_on_any_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        app.players_port = taken.getsockname()[1]
        await the_offered_port_kept(app, taken)


async def the_offered_port_kept(app: SombraApp, taken: socket.socket) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await f8(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")  # use the free port offered
        await pilot.pause()
        server = app.players_server
        assert server is not None and server.port != app.players_port
        offered = server.port
        await pilot.press("escape")
        await f8(pilot)  # stop
        taken.close()  # the first port is free again
        await f8(pilot)
        again = app.players_server
        assert again is not None and again.running and again.port == offered
        await pilot.press("escape")
        await f8(pilot)


async def test_the_last_port_taken_meanwhile_starts_elsewhere_and_says_so() -> None:
    app = app_on_any_port()
    async with app.run_test(size=SIZE) as pilot:
        await f8(pilot)
        server = app.players_server
        assert server is not None
        last = server.port
        await pilot.press("escape")
        await f8(pilot)  # stop
        with socket.socket() as other:  # another program takes it meanwhile
            other.bind(("127.0.0.1", last))
            other.listen()
            await f8(pilot)
            again = app.players_server
            assert again is not None and again.running and again.port != last
            assert any(f"Port {last}, the players' view's last address, is in use"
                       in str(note.message) for note in app._notifications)
            await pilot.press("escape")
            await f8(pilot)
