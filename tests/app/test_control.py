"""Issue 36 item 2: the app's jobs, each a controller over the session, tested without
the app: a fake host (the session, what the DJ is told), a fake table (what the main
screen is asked to show) and fake dialogs that answer as the test says."""

from __future__ import annotations

import errno
import json
import socket
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from sombra_tui import config
from sombra_tui.control.files import Files
from sombra_tui.control.players import Players
from sombra_tui.engine import Encounter, Side, i18n
from sombra_tui.engine import commands as c
from sombra_tui.engine.journal import JOURNAL_VERSION, find_journals
from sombra_tui.session import Session
from tests.app.test_recovery import crashed_session
from tests.engine.conftest import char


@pytest.fixture(autouse=True)
def english() -> None:
    i18n.set_language("en")


class Host:
    journaling = False
    keymap_in_force: dict[str, str] = {}

    def __init__(self, session: Session) -> None:
        self.session = session
        self.said: list[tuple[str, str, str]] = []  # severity, title, message

    def notify(self, message: str, *, title: str = "", severity: str = "information",
               timeout: float | None = None) -> None:
        self.said.append((severity, title, message))

    def call_after_refresh(self, callback: Callable[[], object]) -> None:
        callback()

    def run_worker(self, work: Coroutine[Any, Any, None], *, group: str = "") -> None:
        work.close()


class Table:
    def __init__(self) -> None:
        self.rendered: list[bool] = []  # force_log of each render
        self.drafts_reopened = 0

    def render_state(self, *, force_log: bool = False) -> None:
        self.rendered.append(force_log)

    def run_command(self, command: object) -> object:
        raise AssertionError("no command in these tests")

    def reopen_draft(self) -> None:
        self.drafts_reopened += 1


class Asks:
    """Each question is recorded; `answer` answers the next one of its kind."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, tuple[Any, ...]]] = []
        self.answers: dict[str, Any] = {}

    def _ask(self, kind: str, answered: Callable[[Any], object], *details: Any) -> None:
        self.asked.append((kind, details))
        if kind in self.answers:
            answered(self.answers.pop(kind))

    def unsaved(self, question: str, answered: Callable[[Any], None]) -> None:
        self._ask("unsaved", answered, question)

    def file(self, mode: str, folder: Path, answered: Callable[[Path | None], None],
             suggested: str = "", **_: Any) -> None:
        self._ask("file", answered, mode, folder, suggested)

    def resume(self, name: str, round: int, phase: str, when: str,
               answered: Callable[[Any], None]) -> None:
        self._ask("resume", answered, name, round, phase)

    def confirm(self, question: str, yes: str, answered: Callable[[Any], object]) -> None:
        self._ask("confirm", answered, question, yes)

    def players_page(self, server: object, stop: Callable[[], Awaitable[None]],
                     move: Callable[[bool], Awaitable[None]]) -> None:
        self.asked.append(("players_page", (server,)))


def a_session() -> Session:
    return Session.new(Encounter(name="Ejemplo", characters=[
        char("Ana", 8, 3, 14, side=Side.PC), char("Bruno", 12, 5, 12)]))


def files_over(session: Session) -> tuple[Files, Host, Table, Asks]:
    host, table, asks = Host(session), Table(), Asks()
    return Files(host, table, asks), host, table, asks  # type: ignore[arg-type]


def test_the_files_controller_refuses_a_bad_file_naming_the_problem(tmp_path: Path) -> None:
    bad = tmp_path / "roto.json"
    bad.write_text("esto no es JSON", encoding="utf-8")
    session = a_session()
    files, host, table, _asks = files_over(session)
    assert files.open_path(bad) is False
    [(severity, title, message)] = host.said
    assert severity == "error" and title == "Not opened"
    assert f"{bad} is not valid JSON" in message
    assert message.endswith("The current encounter stays open.")
    assert host.session is session and table.rendered == []


def test_the_files_controller_opens_a_saved_file_in_place_of_the_open_one(
        tmp_path: Path) -> None:
    saved = a_session()
    saved.save(tmp_path / "ejemplo.json")
    files, host, table, _asks = files_over(a_session())
    assert files.open_path(tmp_path / "ejemplo.json") is True
    assert host.session.path == tmp_path / "ejemplo.json"
    assert [ch.name for ch in host.session.combat.state.characters] == ["Ana", "Bruno"]
    assert table.rendered == [True]  # the log rebuilt for the other encounter
    assert host.said == [("information", "", f"Opened {tmp_path / 'ejemplo.json'}")]


def test_a_failed_save_says_why_and_keeps_the_encounter(tmp_path: Path) -> None:
    session = a_session()
    files, host, table, _asks = files_over(session)
    assert files.save_to(tmp_path / "no-such-folder" / "x.json") is False
    [(severity, title, message)] = host.said
    assert severity == "error" and title == "Not saved"
    assert "nothing was lost" in message and "no-such-folder" in message
    assert host.session is session and session.path is None and table.rendered == []


@pytest.mark.parametrize(("answer", "goes_on"), [("cancel", False), (None, False),
                                                 ("discard", True)])
def test_unsaved_changes_are_settled_before_going_on(answer: str | None,
                                                     goes_on: bool) -> None:
    session = a_session()
    session.execute(c.SetCounters(character="Ana", g=1, w=0))  # a change
    assert session.dirty
    files, _host, _table, asks = files_over(session)
    asks.answers["unsaved"] = answer
    went: list[str] = []
    files.settle_unsaved_then("Save first?", lambda: went.append("on"),
                              lambda: went.append("stopped"))
    assert asks.asked == [("unsaved", ("Save first?",))]
    assert went == (["on"] if goes_on else ["stopped"])


def test_saving_an_unsaved_encounter_asks_where_then_goes_on(tmp_path: Path) -> None:
    session = a_session()
    session.execute(c.SetCounters(character="Ana", g=1, w=0))
    files, _host, _table, asks = files_over(session)
    asks.answers.update(unsaved="save", file=tmp_path / "ejemplo.json")
    went: list[str] = []
    files.settle_unsaved_then("Save first?", lambda: went.append("on"))
    assert [kind for kind, _details in asks.asked] == ["unsaved", "file"]
    assert asks.asked[1][1][2] == "ejemplo.json"  # the name suggested
    assert went == ["on"] and session.path == tmp_path / "ejemplo.json"
    assert not session.dirty


def test_recovery_resumes_the_combat_a_crash_left_and_journals_it() -> None:
    crashed = crashed_session()
    assert crashed.journal is not None
    files, host, table, asks = files_over(a_session())
    asks.answers["resume"] = "resume"
    files.offer_recovery()
    assert asks.asked == [("resume", ("Noche en el puerto", 1, "declaration"))]
    assert host.session.combat.state == crashed.combat.state and host.session.dirty
    assert host.session.journal is not None  # journaled again, in a journal of its own
    assert find_journals(config.journal_dir()) == [host.session.journal.path]
    assert table.rendered == [True] and table.drafts_reopened == 1
    assert host.said == [("information", "", "Resumed \"Noche en el puerto\".")]


@pytest.mark.parametrize("sure", [True, False])
def test_recovery_discards_a_crashed_combat_only_once_the_dj_is_sure(sure: bool) -> None:
    crashed = crashed_session()
    assert crashed.journal is not None
    session = a_session()
    files, host, _table, asks = files_over(session)
    asks.answers.update(resume="discard", confirm=sure)
    files.offer_recovery()
    assert [kind for kind, _details in asks.asked] == ["resume", "confirm"]
    assert crashed.journal.path.exists() is not sure
    assert host.session is session and session.journal is not None  # ours journaled


def test_recovery_cannot_resume_a_journal_of_an_unknown_version_and_keeps_it() -> None:
    """S1: a journal from a newer sombra-tui is not offered as resumable (never read as
    this version's): the DJ is told which journal and version, and it stays on disk."""
    crashed = crashed_session()
    assert crashed.journal is not None
    path = crashed.journal.path
    first, rest = path.read_text(encoding="utf-8").split("\n", 1)
    path.write_text(json.dumps(json.loads(first) | {"format_version": 99}) + "\n" + rest,
                    encoding="utf-8")
    before = path.read_bytes()
    session = a_session()
    files, host, _table, asks = files_over(session)
    files.offer_recovery()
    assert asks.asked == []  # no offer to resume it
    assert [(severity, message) for severity, _title, message in host.said] == [
        ("warning", f"The journal {path} was written by a newer sombra-tui (journal "
                    f"version 99); this one reads up to version {JOURNAL_VERSION}. The "
                    "journal was left in place.")]
    assert path.read_bytes() == before
    assert host.session is session and session.journal is not None  # ours journaled


def players_over(session: Session) -> tuple[Players, Host, Asks]:
    host, asks = Host(session), Asks()
    players = Players(host, asks, lan=lambda: False,  # type: ignore[arg-type]
                      lan_chosen=lambda lan: None)
    players.port = 0  # any free port the first time
    return players, host, asks


async def test_the_players_controller_starts_again_on_the_same_port() -> None:
    """F8, F8, F8: stopped and started again, the page keeps its address, so a page
    that follows it reconnects by itself."""
    players, host, asks = players_over(a_session())
    try:
        await players.toggle()
        first = players.server
        assert first is not None and first.running and first.port != 0
        assert asks.asked == [("players_page", (first,))]  # its address shown
        await players.toggle()
        assert players.server is None and not first.running
        assert host.said[-1] == ("information", "", "The players' view stopped.")
        await players.toggle()
        again = players.server
        assert again is not None and again.running and again.port == first.port
        assert again is not first and again.token == first.token
    finally:
        await players.close()


async def test_the_players_controller_moves_when_its_last_port_was_taken() -> None:
    players, host, _asks = players_over(a_session())
    try:
        await players.toggle()
        assert players.server is not None
        last = players.server.port
        await players.toggle()
        with socket.socket() as other:  # another program takes it meanwhile
            other.bind(("127.0.0.1", last))
            other.listen()
            await players.toggle()
            assert players.server is not None and players.server.running
            assert players.server.port != last
        assert any(severity == "warning" and f"Port {last}, the players' view's last "
                   "address, is in use" in message for severity, _t, message in host.said)
    finally:
        await players.close()


async def test_the_page_follows_the_session_the_app_opens_next() -> None:
    players, host, _asks = players_over(a_session())
    try:
        await players.toggle()
        server = players.server
        assert server is not None
        other = a_session()
        host.session = other
        players.follow()
        assert server.snapshot == other.players_snapshot
    finally:
        await players.close()



async def test_s1_the_players_view_says_why_it_could_not_start_in_the_djs_language(
        spanish: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """S1: a server that cannot listen is named in Spanish with its port, never with
    the system's English ("Address already in use")."""
    from sombra_tui.players.server import PlayersServer

    async def refused(server: PlayersServer) -> str:
        raise OSError(errno.EADDRINUSE, "Address already in use")

    monkeypatch.setattr(PlayersServer, "start", refused)
    players, host, asks = players_over(a_session())
    players.port = 8765
    await players.toggle()
    assert players.server is None and asks.asked == []
    assert host.said == [("error", "", "La vista de los jugadores no ha podido arrancar: "
                                       "el puerto 8765 lo está usando otro programa")]


def test_s1_a_lan_address_gone_is_named_not_in_the_systems_english(spanish: str) -> None:
    from sombra_tui.control.players import server_reason

    gone = OSError(errno.EADDRNOTAVAIL, "Cannot assign requested address")
    assert server_reason(gone, "192.168.1.7", 8765) == (
        "este ordenador no tiene (ya) la dirección de red 192.168.1.7: ¿ha cambiado la red?")
    denied = OSError(errno.EACCES, "Permission denied")
    assert server_reason(denied, "127.0.0.1", 80) == "permiso denegado"
