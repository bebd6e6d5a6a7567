"""`sombra-tui players` (issue 23 item 5): a second terminal that follows the DJ's page's
event stream and reconnects by itself when the page restarts."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual.pilot import Pilot
from textual.widgets import Static

from sombra_tui import cli
from sombra_tui.engine import (
    Action,
    ChangeSettings,
    Declare,
    Dice,
    HideCharacter,
    React,
    ReactionMode,
    StartCombat,
)
from sombra_tui.players.server import PlayersServer
from sombra_tui.players.terminal import PlayersApp, events_url
from tests.players.serving import served, session

SIZE = (120, 40)


async def until(pilot: Pilot[None], condition: Callable[[], bool]) -> None:
    """Let the app run until `condition` holds (5 s at most)."""
    async with asyncio.timeout(5):
        while not condition():
            await pilot.pause(0.02)


def text(app: PlayersApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


def test_the_events_address_keeps_the_token() -> None:
    assert events_url("http://192.168.1.2:8765/abc/") == "http://192.168.1.2:8765/abc/events"
    assert events_url("http://127.0.0.1:8765") == "http://127.0.0.1:8765/events"


async def test_it_follows_the_djs_combat_and_reconnects_after_a_restart() -> None:
    s = session()
    async with served(s) as server:
        app = PlayersApp(f"http://127.0.0.1:{server.port}/")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.snapshot is not None)
            assert text(app, "#now") == "The combat has not started."
            s.execute(StartCombat())
            await until(pilot, lambda: app.snapshot is not None and app.snapshot.round == 1)
            assert text(app, "#round") == "Asalto 1 · Declaration"
            assert text(app, "#now") == "Ana declares."
            assert "Bruno" in app.export_screenshot()  # the table, on screen
            await server.stop()
            await until(pilot, lambda: not app.connected)
            assert "reconnecting" in text(app, "#status")
            s.execute(HideCharacter(character="Bruno"))  # while the page was down
            await server.start()
            await until(pilot, lambda: app.connected)
            assert app.snapshot is not None and app.snapshot.sequence == 2
            assert all(row.name != "Bruno" for row in app.snapshot.characters)


async def test_nobody_there_yet_says_so_and_keeps_trying() -> None:
    server = PlayersServer(session().players_snapshot, port=0)
    await server.start()
    port = server.port
    await server.stop()  # a free port nobody listens on
    app = PlayersApp(f"http://127.0.0.1:{port}/")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "reconnecting" in text(app, "#status"))
        assert app.snapshot is None


def test_the_command_line_refuses_an_address_without_http(capsys: object) -> None:
    import pytest

    with pytest.raises(SystemExit) as exited:
        cli.main(["players", "192.168.1.2:8765"])
    assert exited.value.code == 2


async def test_a_public_note_shows_while_its_asalto_lasts() -> None:
    """Issue 37 item 5: the DJ's public note of the asalto under way, under the prompt;
    a private one never; none shown, the line takes no room."""
    from sombra_tui.engine import AddNote, ask

    s = session()
    s.execute(AddNote(round=1, text="LLEGAN-LOS-GUARDIAS", public=True))
    s.execute(AddNote(round=1, text="SOLO-DJ"))
    app = PlayersApp("http://127.0.0.1:9/")  # nobody there: the test shows snapshots
    async with app.run_test(size=SIZE) as pilot:
        combat = s.combat
        app.show(ask.players_view(combat.state, combat.log, combat.revision))
        await pilot.pause()
        assert not app.query_one("#notes", Static).display  # not started: none yet
        s.execute(StartCombat())
        app.show(ask.players_view(combat.state, combat.log, combat.revision))
        await pilot.pause()
        assert text(app, "#notes") == "• LLEGAN-LOS-GUARDIAS"
        assert app.query_one("#notes", Static).display
        assert "SOLO-DJ" not in app.export_screenshot()


async def test_a_prompted_pcs_own_odds_show_under_the_question_never_an_npcs() -> None:
    """Issue 37 item 3 (D6, D9): with the DJ's setting on, Ana (a PC, Alerta 14) reads
    her own chances under her question; Bruno's (an NPC's) contrarreacción question
    comes without them."""
    s = session()
    settings = s.combat.state.settings
    s.execute(ChangeSettings(settings=settings.model_copy(update={
        "players": settings.players.model_copy(update={"reaction_odds": True})})))
    s.execute(StartCombat())
    s.execute(Declare(character="Ana", actions=[Action(description="aims at the door")]))
    s.execute(Declare(character="Bruno", actions=[Action(description="shoots Ana",
                                                         targets=["Ana"])]))
    async with served(s) as server:
        app = PlayersApp(f"http://127.0.0.1:{server.port}/")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.snapshot is not None)
            assert text(app, "#prompt") == (
                "Ana: do you react to Bruno?\nAna: 35 % combining · 8 % substituting")
            s.execute(React(character="Ana", mode=ReactionMode.SUBSTITUTE,
                            actions=[Action(description="dives")], dice=Dice.of(3, 4, 2)))
            await until(pilot, lambda: "Bruno:" in text(app, "#prompt"))
            assert text(app, "#prompt") == "Bruno: do you make a contrarreacción to Ana?"
