"""The DJ's key for the players' view (issue 23 item 4): F8 starts the page and shows
its address and QR code, F8 stops it; the local network is the DJ's choice; a port in
use offers a free one; the page follows the DJ's commands."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
from textual.widgets import Checkbox, Static

from sombra_tui import config
from sombra_tui.app import SombraApp
from sombra_tui.screens.dialogs import ConfirmDialog
from sombra_tui.screens.dialogs.players import PlayersViewDialog
from sombra_tui.session import Session
from tests.app.conftest import SIZE, make_app, worked_example_encounter
from tests.players.serving import next_event


def app_on_any_port() -> SombraApp:
    app = make_app(Session.new(worked_example_encounter()), journal=False)
    app.players_port = 0
    return app


async def test_f8_starts_shows_the_address_and_qr_and_the_page_follows_the_dj() -> None:
    app = app_on_any_port()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f8")
        await pilot.pause()
        server = app.players_server
        assert server is not None and server.running and not server.lan
        assert isinstance(app.screen, PlayersViewDialog)
        url = str(app.screen.query_one("#players-url", Static).render())
        assert url == f"http://127.0.0.1:{server.port}/" == server.url
        qr = app.screen.query_one("#players-qr", Static).render()
        assert "▀" in str(qr)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.main_screen and server.running  # closing keeps it
        async with aiohttp.ClientSession() as http, http.get(url + "events") as stream:
            assert (await next_event(stream))["round"] == 0
            await pilot.press("space")  # start the combat
            snapshot = await next_event(stream)
            assert snapshot["round"] == 1 and snapshot["now"] == "Ana declares."
            await pilot.press("f8")  # stops it
            await pilot.pause()
            assert app.players_server is None and not server.running
            async with asyncio.timeout(5):
                assert await stream.content.read() == b""


async def test_the_palette_starts_it_too() -> None:
    app = app_on_any_port()
    async with app.run_test(size=SIZE) as pilot:
        command = next(c for c in app.get_system_commands(app.main_screen)
                       if c.title == "Players' view (start / stop)")
        command.callback()
        await pilot.pause()
        assert app.players_server is not None and app.players_server.running
        assert isinstance(app.screen, PlayersViewDialog)
        await pilot.click("#stop")
        await pilot.pause()
        assert app.players_server is None and app.screen is app.main_screen


async def test_the_local_network_is_opt_in_and_carries_a_token() -> None:
    app = app_on_any_port()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f8")
        await pilot.pause()
        assert app.players_server is not None and app.players_server.token is None
        await pilot.click("#players-lan")
        await pilot.pause()
        server = app.players_server
        assert server is not None and server.lan and server.token
        dialog = app.screen
        assert isinstance(dialog, PlayersViewDialog)
        assert dialog.query_one("#players-lan", Checkbox).value
        assert str(dialog.query_one("#players-url", Static).render()).endswith(
            f":{server.port}/{server.token}/")
        assert app.preferences.preferences.players_lan
        await pilot.press("f8")
        await pilot.pause()
        assert app.players_server is None
        await pilot.press("f8")  # again: the same token, so phones reconnect by themselves
        await pilot.pause()
        again = app.players_server
        assert again is not None and again.lan and again.token == server.token
        await pilot.press("f8")
        await pilot.pause()


async def test_the_local_network_box_looks_empty_when_off_and_enter_only_closes() -> None:
    """Found in a playtest: a plain Checkbox showed X when off, and Enter ticked it,
    opening the page to the local network."""
    app = app_on_any_port()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f8")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, PlayersViewDialog)
        box = dialog.query_one("#players-lan", Checkbox)
        assert not box.value and "X" not in box.render_line(0).text
        box.focus()
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        server = app.players_server
        assert app.screen is app.main_screen  # closed, the page still running
        assert server is not None and server.running and not server.lan
        assert not app.preferences.preferences.players_lan
        await pilot.press("f8")
        await pilot.pause()


async def test_the_choice_is_remembered() -> None:
    app = app_on_any_port()
    app.remember_theme = True
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f8")
        await pilot.pause()
        await pilot.click("#players-lan")
        await pilot.pause()
        assert config.load_preferences().preferences.players_lan
        await pilot.press("f8")
        await pilot.pause()


async def test_a_port_in_use_offers_a_free_one() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        app = app_on_any_port()
        app.players_port = port
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("f8")
            await pilot.pause()
            question = app.screen
            assert isinstance(question, ConfirmDialog)
            assert f"Port {port} is in use" in question.question
            await pilot.press("y")
            await pilot.pause()
            server = app.players_server
            assert server is not None and server.running and server.port != port
            assert isinstance(app.screen, PlayersViewDialog)
            await pilot.press("f8")
            await pilot.pause()


async def test_another_encounter_is_followed_at_once() -> None:
    app = app_on_any_port()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f8", "escape")
        await pilot.pause()
        server = app.players_server
        assert server is not None
        async with aiohttp.ClientSession() as http, \
                http.get(f"http://127.0.0.1:{server.port}/events") as stream:
            assert [row["name"] for row in (await next_event(stream))["characters"]] \
                == ["Ana", "Bruno", "Carla"]
            app.session = Session.new(worked_example_encounter().model_copy(
                update={"characters": []}))
            assert (await next_event(stream))["characters"] == []
        await pilot.press("f8")
        await pilot.pause()


async def test_a_change_the_pages_missed_is_told_to_the_dj() -> None:
    app = app_on_any_port()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f8", "escape")
        await pilot.pause()
        assert app.players_server is not None
        app.players_server.problem = "no snapshot"
        await pilot.press("space")
        await pilot.pause()
        assert any("The players' view missed a change: no snapshot" in str(n.message)
                   for n in app._notifications)
        assert app.players_server.problem is None
        await pilot.press("f8")
        await pilot.pause()
