"""`sombra-tui players` at 80x24 (issue 39 item 6): the newest log line stays in view,
a character's wounds stay on one line, q quits, and a new combat at the same address
is said, not shown as if it were the same one."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from sombra_tui.engine import (
    Action,
    Declare,
    Encounter,
    Side,
    StartCombat,
    i18n,
)
from sombra_tui.players.terminal import PlayersApp
from sombra_tui.session import Session
from tests.engine.conftest import char
from tests.players.serving import served, session

SIZE = (80, 24)


def lines(app: PlayersApp) -> list[str]:
    """The screen's lines, as read."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def until(pilot: Pilot[None], condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(5):
        while not condition():
            await pilot.pause(0.02)


def declared(s: Session, *words: str) -> Session:
    s.execute(StartCombat())
    for word in words:
        declarer = s.combat.state.current_declarer
        assert declarer is not None
        s.execute(Declare(character=declarer, actions=[Action(description=word)]))
    return s


async def test_the_newest_log_line_stays_in_view_at_80x24() -> None:
    i18n.set_language("en")
    names = [f"Pj{i}" for i in range(10)]
    s = Session.new(Encounter(characters=[char(name, 20 - i, 0, 12, side=Side.PC)
                                          for i, name in enumerate(names)]))
    declared(s, *(f"se cubre tras la barricada y dispara {i}" for i in range(9)),
             "NEWEST-LINE")
    app = PlayersApp("http://127.0.0.1:9/")  # nobody there: the test shows a snapshot
    async with app.run_test(size=SIZE) as pilot:
        app.show(s.players_snapshot())
        await pilot.pause()
        assert s.players_snapshot().log[-1].endswith("NEWEST-LINE [asalto]")
        assert any("Pj0 declares: NEWEST-LINE" in line for line in lines(app)), \
            "\n".join(lines(app))


async def test_wounds_stay_on_one_line_at_80x24() -> None:
    i18n.set_language("en")
    s = declared(session(), "aims at the door", "shoots Ana")
    app = PlayersApp("http://127.0.0.1:9/")
    async with app.run_test(size=SIZE) as pilot:
        app.show(s.players_snapshot())
        await pilot.pause()
        assert any("G 0 · W 0 / PV 15" in line for line in lines(app)), \
            "\n".join(lines(app))


async def test_q_quits() -> None:
    app = PlayersApp("http://127.0.0.1:9/")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_another_combat_at_the_same_address_is_said() -> None:
    """The DJ's app now serves another encounter on the same port (another file opened,
    a new one): the view says so, and shows the new combat."""
    i18n.set_language("en")
    first = session()
    second = Session.new(Encounter(characters=[char("Zoe", 9, 2, 12, side=Side.PC)]))
    async with served(first) as server:
        app = PlayersApp(f"http://127.0.0.1:{server.port}/")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.snapshot is not None)
            assert not app.query_one("#news", Static).display
            server.snapshot = second.players_snapshot  # as the app does on opening one
            server.refresh()
            await until(pilot, lambda: app.snapshot is not None and any(
                row.name == "Zoe" for row in app.snapshot.characters))
            await pilot.pause()
            news = app.query_one("#news", Static)
            assert news.display
            assert "another combat" in str(news.render())


def test_a_combat_keeps_its_name_in_the_snapshots_another_has_another(tmp_path: Path) -> None:
    """The snapshot's `encounter`: the same file reopened (the DJ's app restarted) is the
    same combat; two new encounters are two combats; it tells nothing of the file."""
    from sombra_tui.engine import Combat

    path = tmp_path / "emboscada.json"
    one = Session(Combat(Encounter(characters=[char("Ana", 8, 3)])), path)
    again = Session(Combat(Encounter(characters=[char("Ana", 8, 3)])), path)
    assert one.players_snapshot().encounter == again.players_snapshot().encounter != ""
    assert "emboscada" not in one.players_snapshot().encounter
    assert session().players_snapshot().encounter != session().players_snapshot().encounter
    assert one.players_snapshot().encounter.isalpha()  # no number like a sheet's value
