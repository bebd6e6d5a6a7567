"""The players' web page (issue 23): an aiohttp server in the app's own event loop.

`/` is the page (page.html: big type, light and dark, in the DJ's language; on a TV
the whole combat fits the screen) with the snapshot of the moment in it, shown at once;
it opens `/events`, a server-sent event stream: the whole snapshot (PlayersSnapshot as
JSON) on connect and after every change, so a browser that connects or reconnects is
right at once; `retry:` makes the browser reconnect by itself when the server restarts.
It accepts no input: GET (and HEAD) only; anything else is 404 or 405, briefly.

The DJ's screen never waits for a browser: `changed` (a session watcher, called after
every command) only sets a timer; FAN_OUT_DELAY_S later, once the DJ's screen is
drawn, the snapshot is built and its JSON, encoded once, goes in each client's queue
of one, replacing any older one a slow client has not read yet; each client's own
task writes it. A stuck client (its socket full: it stopped reading) is dropped after
WRITE_TIMEOUT_S, its connection closed; a page that closes frees its place at once
(aiohttp cancels its stream's handler when the connection is lost), not at the next
keep-alive.

On this machine only by default; on the local network (opt-in) every path starts with
a random token and anything without it is 404.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from string import Template

from aiohttp import web

from sombra_tui.engine import PlayersSnapshot, i18n
from sombra_tui.engine.i18n import N_, _
from sombra_tui.players.ports import DEFAULT_PORT, PortInUse, free_port_after

#: Connected browsers (event streams) at most; past it a clear page (503).
MAX_CLIENTS = 64
#: A browser reconnects this long after the stream dropped (the SSE `retry:` field).
RETRY_MS = 1000
#: A comment line this often keeps proxies and phones from closing an idle stream and
#: finds phones that vanished without closing (a page that closes is seen at once).
HEARTBEAT_S = 15.0
#: A client that cannot take one snapshot in this long is dropped, its connection
#: closed (it reconnects once it reads again). Read at each write: the tests shorten it.
WRITE_TIMEOUT_S = 10.0
#: The pages get a change this long after it, once the DJ's screen has been drawn (the
#: screen is drawn at the next frame, 1/60 s, and settles a frame or two later): the
#: DJ never waits for the pages, and changes coming faster go out as one.
FAN_OUT_DELAY_S = 0.1
#: Requests are tiny: a long request line or header is refused (400) before any handler.
MAX_LINE = 2048
MAX_FIELD = 4096

PAGE = Path(__file__).with_name("page.html")

#: The page's words (its data comes in the snapshot, already in the DJ's language).
PAGE_WORDS = {
    "title": N_("Players' view"),
    "lost": N_("Connection lost: reconnecting…"),
    "asalto": N_("Asalto {round}"),
    "log": N_("Log"),
    "full": N_("Too many screens are following this combat. Close one and reload "
               "this page."),
    "empty": N_("Nobody is shown yet."),
    "looks": N_("How this page looks"),
    "large": N_("Large print"),
    "safe": N_("Colour-blind safe"),
}
FULL_PAGE = N_("Too many screens are following this combat ({count}). Close one of "
               "them and reload this page.")


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the route
            address: str = probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"
    return address


def sse_event(data: str, sequence: int) -> bytes:
    """One server-sent event: the snapshot's JSON (one line) with its sequence as id."""
    return f"retry: {RETRY_MS}\nid: {sequence}\ndata: {data}\n\n".encode()


@dataclass(eq=False)
class _Client:
    queue: asyncio.Queue[bytes | None]


class PlayersServer:
    """The page and its event stream; `start` and `stop` run in the app's loop."""

    def __init__(self, snapshot: Callable[[], PlayersSnapshot], *, lan: bool = False,
                 port: int = DEFAULT_PORT, max_clients: int = MAX_CLIENTS,
                 token: str | None = None) -> None:
        #: The snapshot now (the session's players_snapshot), read for each new client.
        self.snapshot = snapshot
        self.lan = lan
        self.port = port
        self.max_clients = max_clients
        #: On the local network, every path starts with it.
        self.token = (token or secrets.token_urlsafe(12)) if lan else None
        self._clients: set[_Client] = set()
        self._runner: web.AppRunner | None = None
        self._closing = False
        #: Set when a change could not be sent to the pages (the app tells the DJ).
        self.problem: str | None = None
        #: The timer that sends the pages the change (see `changed`).
        self._fan_out_handle: asyncio.TimerHandle | None = None

    # ---- the address ------------------------------------------------------------

    @property
    def host(self) -> str:
        return "0.0.0.0" if self.lan else "127.0.0.1"

    @property
    def prefix(self) -> str:
        return f"/{self.token}" if self.token else ""

    @property
    def url(self) -> str:
        """The page's address, to type or scan (the token in it on the local network)."""
        address = lan_address() if self.lan else "127.0.0.1"
        return f"http://{address}:{self.port}{self.prefix}/"

    @property
    def running(self) -> bool:
        return self._runner is not None

    @property
    def clients(self) -> int:
        return len(self._clients)

    # ---- the application --------------------------------------------------------------

    def application(self) -> web.Application:
        app = web.Application(client_max_size=1024)
        app.router.add_get(f"{self.prefix}/", self._page)
        app.router.add_get(f"{self.prefix}/events", self._events, allow_head=False)
        return app

    async def start(self) -> str:
        """Listen; the page's address. PortInUse when the port is taken."""
        if self._runner is not None:
            return self.url
        self._closing = False
        # handler_cancellation: a stream's handler is cancelled when its page closes
        # the connection, so its place is free at once (not at the next keep-alive).
        runner = web.AppRunner(self.application(), access_log=None, shutdown_timeout=1.0,
                               max_line_size=MAX_LINE, max_field_size=MAX_FIELD,
                               handler_cancellation=True)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port,
                           reuse_address=True)
        try:
            await site.start()
        except OSError as error:
            await runner.cleanup()
            if error.errno in (errno.EADDRINUSE, errno.EACCES):
                raise PortInUse(self.port, free_port_after(self.host, self.port),
                                denied=error.errno == errno.EACCES) from error
            raise
        if self.port == 0:  # any free port (the tests): the one the system gave
            self.port = int(runner.addresses[0][1])
        self._runner = runner
        return self.url

    async def stop(self) -> None:
        """Close every stream and stop listening (browsers reconnect when it is back)."""
        runner, self._runner = self._runner, None
        self._closing = True
        if self._fan_out_handle is not None:
            self._fan_out_handle.cancel()
            self._fan_out_handle = None
        for client in list(self._clients):
            _replace(client.queue, None)
        if runner is not None:
            await runner.cleanup()

    # ---- publishing -------------------------------------------------------------------

    def changed(self) -> None:
        """The combat changed (a session watcher): never waits. FAN_OUT_DELAY_S later,
        once the DJ's screen has been drawn, the snapshot is read (built then, not
        before the DJ's screen) and sent; changes that come faster go as one."""
        if self._fan_out_handle is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not in the app's loop: at once
            self._fan_out()
            return
        self._fan_out_handle = loop.call_later(FAN_OUT_DELAY_S, self._fan_out)

    def publish(self, snapshot: PlayersSnapshot) -> None:
        """Send `snapshot` to every page now (a session listener, the tests)."""
        self._send(snapshot)

    def _fan_out(self) -> None:
        self._fan_out_handle = None
        if not self._clients:  # nobody following: nothing is built
            return
        try:
            self._send(self.snapshot())
        except Exception as error:  # the pages miss one change; the DJ is told, goes on
            self.problem = str(error) or type(error).__name__

    def _send(self, snapshot: PlayersSnapshot) -> None:
        latest = sse_event(snapshot.model_dump_json(), snapshot.sequence)
        for client in self._clients:
            _replace(client.queue, latest)

    def refresh(self) -> None:
        """Send the snapshot now (after the language changed, or another encounter)."""
        self._send(self.snapshot())

    # ---- handlers ---------------------------------------------------------------------

    async def _page(self, request: web.Request) -> web.Response:
        if len(self._clients) >= self.max_clients:
            return web.Response(status=503, text=full_page(len(self._clients)),
                                content_type="text/html", charset="utf-8")
        return web.Response(text=page_html(f"{self.prefix}/events", self.snapshot()),
                            content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-store",
                                     "Referrer-Policy": "no-referrer"})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        if len(self._clients) >= self.max_clients:
            return web.Response(status=503, text=_(PAGE_WORDS["full"]))
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-store",
            "X-Accel-Buffering": "no"})
        await response.prepare(request)
        client = _Client(asyncio.Queue(maxsize=1))
        self._clients.add(client)
        try:
            snapshot = self.snapshot()
            await self._write(request, response, sse_event(snapshot.model_dump_json(),
                                                  snapshot.sequence))
            while not self._closing:
                try:
                    chunk = await asyncio.wait_for(client.queue.get(), HEARTBEAT_S)
                except TimeoutError:
                    chunk = b": \n\n"
                if chunk is None:
                    break
                await self._write(request, response, chunk)
        except ConnectionError:
            pass  # the browser went away: it reconnects by itself
        except TimeoutError:  # stuck (its socket full): dropped, its connection closed
            if request.transport is not None:
                request.transport.abort()
        finally:
            self._clients.discard(client)
        return response

    @staticmethod
    async def _write(request: web.Request, response: web.StreamResponse,
                     chunk: bytes) -> None:
        """Write `chunk` and wait until the connection took it (aiohttp alone waits only
        once 64 KiB are pending): a page whose socket is full is stuck after one
        snapshot, TimeoutError WRITE_TIMEOUT_S later."""
        async def flushed() -> None:
            await response.write(chunk)
            await request.writer.drain()
        await asyncio.wait_for(flushed(), WRITE_TIMEOUT_S)


def _replace(queue: asyncio.Queue[bytes | None], item: bytes | None) -> None:
    """Put `item` in a queue of one, dropping the older one a slow client left."""
    with contextlib.suppress(asyncio.QueueEmpty):
        queue.get_nowait()
    queue.put_nowait(item)


# ---- the page ---------------------------------------------------------------------------


def _script_json(value: object) -> str:
    """JSON safe inside a <script> element."""
    return (json.dumps(value, ensure_ascii=False).replace("<", "\\u003c")
            .replace(">", "\\u003e").replace("&", "\\u0026"))


def page_html(events: str, snapshot: PlayersSnapshot | None = None) -> str:
    """The page, with the combat as it is now (`snapshot`) in it: it shows it at once,
    before its event stream connects, and the stream then keeps it up to date."""
    words = {key: _(text) for key, text in PAGE_WORDS.items()}
    first = snapshot.model_dump(mode="json") if snapshot is not None else None
    return Template(PAGE.read_text(encoding="utf-8")).substitute(
        lang=i18n.language(), title=_html(words["title"]),
        looks=_html(words["looks"]),
        large=_html(words["large"]), safe=_html(words["safe"]),
        config=_script_json({"events": events, "lang": i18n.language(), "words": words,
                             "snapshot": first}))


def full_page(count: int) -> str:
    return (f"<!doctype html><html lang=\"{i18n.language()}\"><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{_html(_(PAGE_WORDS['title']))}</title>"
            "<body style=\"font: 1.5rem/1.4 system-ui, sans-serif; margin: 2rem\">"
            f"<p>{_html(_(FULL_PAGE).format(count=count))}</p></body></html>")


def _html(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))
