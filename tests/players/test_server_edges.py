"""The players' server at its edges (issue 41 item 5): a page that closes frees its place
at once, and a stuck page (its socket full) is dropped after the write timeout, its
connection closed, while the other pages are still served. Raw sockets of this machine
(127.0.0.1) play the pages, so that each one closes or stops reading when the test says."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
import pytest

from sombra_tui.engine import Encounter, HideCharacter, Side, StartCombat
from sombra_tui.players import server as players_server
from sombra_tui.players.server import MAX_CLIENTS, PlayersServer
from sombra_tui.session import Session
from tests.engine.conftest import char
from tests.players.serving import next_event, served, session, until


async def open_stream(server: PlayersServer) -> tuple[asyncio.StreamReader,
                                                      asyncio.StreamWriter, bytes]:
    """A page's event stream on its own connection: the reader, the writer and the
    status line the server answered."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(f"GET {server.prefix}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    await writer.drain()
    async with asyncio.timeout(5):
        status = await reader.readline()
    return reader, writer, status


async def first_event(reader: asyncio.StreamReader) -> None:
    """Read up to the first event's data: the stream holds its place by then."""
    async with asyncio.timeout(5):
        while not (await reader.readline()).startswith(b"data: "):
            pass


async def test_a_page_that_closes_frees_its_place_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """64 pages follow the combat (the cap); one closes; a newcomer is let in at once.
    The keep-alive is made an hour long: the place is freed by the closed connection
    itself, not found at the next keep-alive (it was, up to 15 s later, while the cap
    refused newcomers)."""
    monkeypatch.setattr(players_server, "HEARTBEAT_S", 3600.0)
    async with served(session()) as server:
        pages = []
        for _n in range(MAX_CLIENTS):
            reader, writer, status = await open_stream(server)
            assert status.startswith(b"HTTP/1.1 200"), status
            await first_event(reader)
            pages.append(writer)
        assert server.clients == MAX_CLIENTS
        _reader, refused, status = await open_stream(server)
        assert status.startswith(b"HTTP/1.1 503"), status  # the cap holds
        refused.close()
        pages.pop().close()  # one page closes
        await until(lambda: server.clients == MAX_CLIENTS - 1)
        reader, newcomer, status = await open_stream(server)
        assert status.startswith(b"HTTP/1.1 200"), status
        await first_event(reader)
        assert server.clients == MAX_CLIENTS
        for writer in (*pages, newcomer):
            writer.close()
        await until(lambda: server.clients == 0)


def big_session() -> Session:
    """Forty-two characters: a snapshot of several kilobytes."""
    return Session.new(Encounter(characters=[
        char("Ana", 8, 3, 14, side=Side.PC), char("Bruno", 12, 5, 12),
        *(char(f"Matón {n}", 10, 2, 10) for n in range(1, 41))]))


async def test_a_stuck_page_is_dropped_its_connection_closed_the_others_served(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A page that never reads: its socket's buffers made small (its receive buffer, the
    server's send buffer for it), the snapshots fill them and the server's writer for it
    blocks (writing paused). After the write timeout (10 s, shortened here) it is dropped:
    its place freed and its connection closed (it was left open, its handler waiting for
    ever). The other page gets every change meanwhile and after."""
    monkeypatch.setattr(players_server, "WRITE_TIMEOUT_S", 2.0)
    loop = asyncio.get_running_loop()
    s = big_session()
    async with served(s) as server, aiohttp.ClientSession() as http, \
            http.get(f"http://127.0.0.1:{server.port}/events") as other:
        await next_event(other)
        with socket.socket() as stuck:
            stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            stuck.setblocking(False)
            await loop.sock_connect(stuck, ("127.0.0.1", server.port))
            await loop.sock_sendall(stuck, b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            await until(lambda: server.clients == 2)
            connection = server_side(server, stuck.getsockname())
            connection.transport.get_extra_info("socket").setsockopt(
                socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            s.execute(HideCharacter(character="Bruno"))
            big = s.players_snapshot()
            assert len(big.model_dump_json()) > 3000
            async with asyncio.timeout(5):
                while not connection.writing_paused:  # its buffers full: the writer waits
                    server.publish(big)
                    await asyncio.sleep(0.01)
            assert server.clients == 2  # blocked, not yet dropped
            await until(lambda: server.clients == 1, 10)  # dropped after the write timeout
            received = await until_closed(loop, stuck)
            assert 0 < received < 1_000_000  # what its buffers held, then the end
        s.execute(StartCombat())
        latest = await next_event(other)
        async with asyncio.timeout(5):
            while latest["round"] != 1:
                latest = await next_event(other)
        assert latest["sequence"] == 2 and server.clients == 1


def server_side(server: PlayersServer, peer: tuple[str, int]) -> aiohttp.web.RequestHandler:
    """The server's end of the connection whose client end is `peer` (aiohttp's
    protocol: its transport, whether its writing is paused)."""
    runner = server._runner
    assert runner is not None and runner.server is not None
    [connection] = [c for c in runner.server.connections
                    if c.transport is not None
                    and c.transport.get_extra_info("peername") == peer]
    return connection


async def until_closed(loop: asyncio.AbstractEventLoop, sock: socket.socket) -> int:
    """Read `sock` until the server closes it; the bytes read."""
    received = 0
    async with asyncio.timeout(5):
        while True:
            try:
                data = await loop.sock_recv(sock, 65536)
            except ConnectionResetError:
                return received
            if not data:
                return received
            received += len(data)
