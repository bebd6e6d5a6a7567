"""The players' view's server (issue 23): one controller over the app's open session
(issue 36 item 2). F8 starts the page and shows its address and QR code, or stops it;
the page follows the open session, whichever it is. Plain Python: it asks through
`Asks`, tells through the app's `notify`; no screen, no Textual."""

from __future__ import annotations

import errno
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING

from sombra_tui.engine import os_reason
from sombra_tui.engine.i18n import _
from sombra_tui.players.ports import DEFAULT_PORT, PortInUse

if TYPE_CHECKING:
    from sombra_tui.control.host import Asks, Host
    from sombra_tui.engine import Prompt
    from sombra_tui.players.server import PlayersServer


class Players:
    """The page's server while it runs, and what keeps it following `host.session`."""

    def __init__(self, host: Host, asks: Asks, *, lan: Callable[[], bool],
                 lan_chosen: Callable[[bool], None]) -> None:
        """`lan`: whether the DJ last wanted the page on the local network;
        `lan_chosen`: the DJ moved it there (True) or to this machine only."""
        self.host = host
        self.asks = asks
        self.lan = lan
        self.lan_chosen = lan_chosen
        #: The page's server while it runs.
        self.server: PlayersServer | None = None
        #: What stops the server following the session.
        self._unfollow: Callable[[], None] | None = None
        #: The port it tries first (0: any free port, for the tests).
        self.port = DEFAULT_PORT
        #: The port the page last ran on while the app runs (None before the first
        #: start): F8 starts it there again, so a page following the old address
        #: reconnects by itself; if it is taken, `port` as the first time.
        self.last_port: int | None = None
        #: The local network's token, kept while the app runs: a phone following the
        #: page reconnects by itself after the DJ stops and starts it again.
        self.token = secrets.token_urlsafe(12)

    @property
    def running(self) -> bool:
        return self.server is not None and self.server.running

    async def toggle(self) -> None:
        """Start the page and show its address and QR code; stop it if it runs."""
        if self.running:
            await self.stop()
            return
        last = self.last_port
        await self.start(self.lan(), self.port if last is None else last, self.show,
                         fallback=None if last in (None, self.port) else self.port)

    async def start(self, lan: bool, port: int, started: Callable[[], object],
                    fallback: int | None = None) -> None:
        """Start the page's server, then `started`; a port in use offers the free one
        it found, or (`fallback`: `port` was the page's last address) the DJ is told
        and `fallback` is tried as the first time."""
        from sombra_tui.players.server import PlayersServer  # aiohttp: on first use
        server = PlayersServer(self.host.session.players_snapshot, lan=lan, port=port,
                               token=self.token)
        try:
            await server.start()
        except PortInUse as error:
            await self._port_in_use(error, lan, port, started, fallback)
            return
        except OSError as error:
            self.host.notify(_("The players' view could not start: {error}").format(
                error=server_reason(error, server.host, port)), severity="error",
                timeout=8)
            return
        self.server = server
        self.last_port = server.port
        self.follow()
        started()

    async def _port_in_use(self, error: PortInUse, lan: bool, port: int,
                           started: Callable[[], object], fallback: int | None) -> None:
        if fallback is not None:
            self.host.notify(_("Port {port}, the players' view's last address, is in use "
                               "now: the page moves to another address (give it to the "
                               "players again).").format(port=port),
                             severity="warning", timeout=8)
            await self.start(lan, fallback, started)
            return
        problem, suggestion = str(error), error.suggestion
        if suggestion is None:
            self.host.notify(problem, severity="error", timeout=8)
            return

        async def answered(yes: bool | None) -> None:
            if yes:
                await self.start(lan, suggestion, started)
            else:
                self.host.notify(problem, severity="error", timeout=8)
        self.asks.confirm(_("{problem} Use port {port}?").format(
            problem=problem, port=suggestion),
            _("Use port {port}").format(port=suggestion), answered)

    def follow(self) -> None:
        """The page follows the open session (after every command, undo and redo); the
        app calls it again when it opens another encounter."""
        if self._unfollow is not None:
            self._unfollow()
            self._unfollow = None
        server = self.server
        if server is None or not server.running:
            return
        server.snapshot = self.host.session.players_snapshot
        self._unfollow = self.host.session.add_players_watcher(server.changed)
        server.refresh()

    async def stop(self, *, quiet: bool = False) -> None:
        server, self.server = self.server, None
        self.follow()
        if server is not None:
            await server.stop()
            if not quiet:
                self.host.notify(_("The players' view stopped."))

    def show(self) -> None:
        """The address and QR code; the DJ may move it to the local network or back
        (then it is shown again), or stop it."""
        server = self.server
        if server is None or not server.running:
            return

        async def move(lan: bool) -> None:
            port = server.port
            await self.stop(quiet=True)
            self.lan_chosen(lan)
            await self.start(lan, port, self.show)
        self.asks.players_page(server, self.stop, move)

    def grades_typed(self, prompt: Prompt | None, grades: tuple[int, int] | None) -> None:
        """The DJ typed a Base GD or DJ grades in the reacción dialog answering `prompt`
        (`grades` None: one is not a number yet), or closed it (`prompt` None): the page
        and the second terminals show the PC's odds at those grades, the DJ's line's
        (issue 37 item 3; the session tells the page's server, which follows it)."""
        self.host.session.grades_typed(prompt, grades)

    def refresh(self) -> None:
        """The page reloads (in the language now in force)."""
        if self.server is not None:
            self.server.refresh()

    def report_problem(self) -> None:
        """A change the page missed, said once."""
        server = self.server
        problem = (server.problem if server else None) or self.host.session.players_problem
        if problem:
            self.host.notify(_("The players' view missed a change: {problem}").format(
                problem=problem), severity="warning", timeout=10)
            self.host.session.players_problem = None
            if server is not None:
                server.problem = None

    async def close(self) -> None:
        """The app stops: so does the page's server."""
        if self.server is not None:
            await self.server.stop()


def server_reason(error: OSError, host: str, port: int) -> str:
    """Why the players' view could not listen, in the DJ's language (S1): the cases a
    server meets in words of their own, the rest as any file's (os_reason)."""
    if error.errno == errno.EADDRINUSE:
        return _("the port {port} is in use by another program").format(port=port)
    if error.errno == errno.EADDRNOTAVAIL:
        return _("this computer has no network address {host} (any more): was the "
                 "network changed?").format(host=host)
    return os_reason(error)
