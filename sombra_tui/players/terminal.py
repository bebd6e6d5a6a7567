"""`sombra-tui players [URL]` (issue 23 item 5): the players' view in a second terminal
(a projector, a second monitor), following the DJ's page's event stream. It reconnects
by itself when the DJ's app restarts the page; it sends nothing back; q quits.

Issue 39 item 6: in a narrow terminal (80x24) the log goes under the characters, the
newest line first (never cut off at the bottom); a character's wounds stay on one line;
another combat served at the same address (the snapshot's `encounter` changed) is said,
above the new one."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from sombra_tui import keys
from sombra_tui.engine import PlayersSnapshot
from sombra_tui.engine.i18n import N_, _
from sombra_tui.players.ports import DEFAULT_PORT
from sombra_tui.players.server import PAGE_WORDS, RETRY_MS

DEFAULT_URL = f"http://127.0.0.1:{DEFAULT_PORT}/"
#: Log lines shown (the newest).
LOG_SHOWN = 12
CONNECTING = N_("Connecting to {url}…")
LOST = N_("Connection lost: reconnecting to {url}…")
REFUSED = N_("The page at {url} answered {status}: reconnecting…")
ANOTHER = N_("The DJ's app at {url} now shows another combat: this one.")
#: Narrower than this, the log goes under the characters.
NARROW = 100


def events_url(url: str) -> str:
    """The event stream of the page at `url` (its token kept)."""
    return url.rstrip("/") + "/events"


async def read_events(response: aiohttp.ClientResponse) -> Any:
    """Each event's data, parsed (server-sent events: `data:` lines, a blank line ends)."""
    data: list[str] = []
    async for raw in response.content:
        line = raw.decode("utf-8").rstrip("\r\n")
        if line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
        elif not line and data:
            yield json.loads("\n".join(data))
            data = []


class PlayersApp(App[None]):
    """The snapshot, big and plain: the round, who acts, the table, the last log lines."""

    TITLE = "sombra-tui"
    CSS = """
    Screen { padding: 0 1; }
    #status { background: $warning; color: $text; height: auto; }
    #status.-hidden { display: none; }
    #round { text-style: bold; color: $accent; height: auto; }
    #now { text-style: bold; height: auto; margin-bottom: 1; }
    #prompt { color: $warning; height: auto; }
    #now.-hidden, #prompt.-hidden { display: none; }
    #notes { color: $error; text-style: bold; height: auto; }
    #notes.-hidden { display: none; }
    #news { background: $warning; color: $text; text-style: bold; height: auto; }
    #news.-hidden { display: none; }
    #body { height: 1fr; }
    #characters { width: 3fr; height: auto; }
    #log { width: 2fr; height: auto; color: $text-muted; padding-left: 2; }
    .-narrow #body { layout: vertical; }
    .-narrow #characters { width: 1fr; height: auto; max-height: 70%; }
    .-narrow #log { width: 1fr; height: 1fr; padding-left: 0; padding-top: 1; }
    """
    BINDINGS = keys.bindings(keys.Scope.PLAYERS)

    def __init__(self, url: str = DEFAULT_URL) -> None:
        super().__init__()
        self.url = url
        #: The newest snapshot shown (None before the first).
        self.snapshot: PlayersSnapshot | None = None
        self.connected = False
        #: The combat followed (the first snapshot's `encounter`).
        self.encounter: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(_(CONNECTING).format(url=self.url), id="status")
        yield Static("", id="news", classes="-hidden")
        yield Static(_(PAGE_WORDS["title"]), id="round")
        yield Static("", id="now")
        yield Static("", id="prompt", classes="-hidden")
        yield Static("", id="notes", classes="-hidden")
        with Horizontal(id="body"):
            yield VerticalScroll(Static("", id="characters-table"), id="characters")
            yield Static("", id="log")

    def on_mount(self) -> None:
        self.title = _(PAGE_WORDS["title"])
        self.run_worker(self.follow(), exclusive=True, group="follow")
        self.fit()

    def on_resize(self) -> None:
        self.fit()

    def fit(self) -> None:
        """The narrow layout below NARROW columns (the log under the characters)."""
        narrow = self.size.width < NARROW
        if self.screen.has_class("-narrow") != narrow:
            self.screen.set_class(narrow, "-narrow")
            if self.snapshot is not None:
                self.show(self.snapshot)

    async def follow(self) -> None:
        """Follow the stream; when it drops or cannot connect, try again shortly."""
        timeout = aiohttp.ClientTimeout(total=None, sock_connect=5)
        while True:
            try:
                async with aiohttp.ClientSession(timeout=timeout) as http, \
                        http.get(events_url(self.url)) as response:
                    if response.status != 200:
                        self.show_status(_(REFUSED).format(url=self.url,
                                                           status=response.status))
                    else:
                        async for data in read_events(response):
                            self.show(PlayersSnapshot.model_validate(data))
                        self.show_status(_(LOST).format(url=self.url))
            except (aiohttp.ClientError, OSError, TimeoutError, ValueError):
                self.show_status(_(LOST).format(url=self.url))
            await asyncio.sleep(RETRY_MS / 1000)

    def show_status(self, text: str) -> None:
        self.connected = False
        status = self.query_one("#status", Static)
        status.update(text)
        status.remove_class("-hidden")

    def show(self, snapshot: PlayersSnapshot) -> None:
        if self.encounter is None:
            self.encounter = snapshot.encounter
        elif snapshot.encounter != self.encounter:  # another combat at this address
            self.encounter = snapshot.encounter
            news = self.query_one("#news", Static)
            news.update(_(ANOTHER).format(url=self.url))
            news.remove_class("-hidden")
        self.snapshot = snapshot
        self.connected = True
        self.query_one("#status", Static).add_class("-hidden")
        heading = (_(PAGE_WORDS["asalto"]).format(round=snapshot.round) if snapshot.round
                   else _(PAGE_WORDS["title"]))
        self.query_one("#round", Static).update(f"{heading} · {snapshot.phase_label}")
        # An open question says who reacts: the sentence of who acts is not said again.
        now = self.query_one("#now", Static)
        now.update(snapshot.now)
        now.set_class(bool(snapshot.prompt), "-hidden")
        # A prompted PC's chances under its question, when the DJ shows them (issue 37).
        prompt = self.query_one("#prompt", Static)
        prompt.update("\n".join(line for line in (snapshot.prompt, snapshot.prompt_odds)
                                if line))
        prompt.set_class(not snapshot.prompt, "-hidden")
        notes = self.query_one("#notes", Static)  # the DJ's public notes (issue 37)
        notes.update("\n".join(f"• {note}" for note in snapshot.notes))
        notes.set_class(not snapshot.notes, "-hidden")
        self.query_one("#characters-table", Static).update(
            table(snapshot, one_line=self.size.width < NARROW))
        # The newest line first (in bold), so that it is never cut off at the bottom.
        log = Text()
        log.append(_(PAGE_WORDS["log"]), style="bold")
        for index, line in enumerate(reversed(snapshot.log[-LOG_SHOWN:])):
            log.append("\n" + line, style="bold" if index == 0 else "")
        self.query_one("#log", Static).update(log)


def table(snapshot: PlayersSnapshot, one_line: bool = False) -> Table | Text:
    """The characters, a row each; `one_line`: each on one line (a narrow terminal), the
    conditions and declaration cut with "…"."""
    if not snapshot.characters:
        return Text(_(PAGE_WORDS["empty"]))
    grid = Table(show_header=False, box=None, expand=True, pad_edge=False)
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)  # the wounds on one line ("G 3 · W 1 / PV 15")
    grid.add_column(ratio=1, no_wrap=one_line, overflow="ellipsis" if one_line else "fold")
    for row in snapshot.characters:
        name = Text(("▶ " if row.now else "  ") + row.name,
                    style="bold reverse" if row.now else "bold")
        who = " ".join(part for part in (row.side_label, row.initiative) if part)
        state = ", ".join([*row.marks, *([row.wounds.text] if row.wounds else [])])
        detail = " · ".join([*(c.text for c in row.conditions),
                             *([row.declaration] if row.declaration else [])])
        grid.add_row(name, who, Text(state, style="bold red" if row.marks else ""),
                     Text(detail, style="italic"))
    return grid


def main(url: str) -> int:
    PlayersApp(url).run()
    return 0
