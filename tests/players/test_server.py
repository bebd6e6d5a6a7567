"""The players' web page and its event stream (issue 23 items 3, 4 and 6), through a
real aiohttp server on a free port of this machine and aiohttp's client."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from sombra_tui.engine import Encounter, HideCharacter, Side, StartCombat
from sombra_tui.engine.commands import Declare
from sombra_tui.players.server import PlayersServer, PortInUse, sse_event
from sombra_tui.session import Session
from tests.engine.conftest import act, char
from tests.engine.test_players_view import (
    ANA_ALERTA,
    ANA_SKILL,
    BRUNO_ALERTA,
    BRUNO_PV,
    BRUNO_SKILL,
    NOTE_ANA,
    NOTE_BRUNO,
    resolved,
)
from tests.engine.test_session_players import prompted_session
from tests.players.serving import next_event, served, session


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as client:
        yield client


def base(server: PlayersServer) -> str:
    return f"http://127.0.0.1:{server.port}{server.prefix}"


async def test_the_page_is_served_in_the_djs_language(http: aiohttp.ClientSession) -> None:
    async with served(session()) as server:
        async with http.get(base(server) + "/") as response:
            assert response.status == 200
            assert response.content_type == "text/html"
            page = await response.text()
        assert '<html lang="en">' in page and "<title>Players' view</title>" in page
        assert '"events": "/events"' in page


async def test_the_page_in_spanish(http: aiohttp.ClientSession, spanish: str) -> None:
    async with served(session()) as server:
        async with http.get(base(server) + "/") as response:
            page = await response.text()
        assert '<html lang="es">' in page and "Vista de los jugadores" in page


async def test_the_first_event_is_the_whole_snapshot_then_it_follows_commands(
        http: aiohttp.ClientSession) -> None:
    s = session()
    async with served(s) as server, http.get(base(server) + "/events") as response:
        assert response.status == 200
        assert response.content_type == "text/event-stream"
        first = await next_event(response)
        assert first == json.loads(s.players_snapshot().model_dump_json())
        assert first["round"] == 0
        s.execute(StartCombat())
        second = await next_event(response)
        assert (second["round"], second["sequence"]) == (1, 1)
        assert second["now"] == "Ana declares."


async def test_d6_the_page_follows_the_grades_the_dj_types(
        http: aiohttp.ClientSession) -> None:
    """Issue 37 item 3 (D6): Ana prompted, her odds shown; the DJ types a Base GD of +1
    in her reacción dialog: the page gets her figures at +1 at once (the same state, so
    the same sequence), and the state's again when the dialog closes."""
    s = prompted_session()
    prompt = s.combat.state.top_prompt
    async with served(s) as server, http.get(base(server) + "/events") as response:
        first = await next_event(response)
        assert first["prompt_odds"] == "Ana: 35 % combining · 8 % substituting"
        s.grades_typed(prompt, (1, 0))
        typed = await next_event(response)
        assert typed["prompt_odds"] == "Ana: 8 % combining · <1 % substituting"
        assert typed["sequence"] == first["sequence"]
        s.grades_typed(None)
        assert (await next_event(response))["prompt_odds"] == first["prompt_odds"]


def test_an_event_carries_retry_and_the_sequence() -> None:
    assert sse_event('{"a": 1}', 7) == b'retry: 1000\nid: 7\ndata: {"a": 1}\n\n'


async def test_a_slow_client_gets_only_the_newest_snapshot(
        http: aiohttp.ClientSession) -> None:
    """publish never waits: a client that has not read keeps one snapshot, the newest."""
    s = session()
    async with served(s) as server, http.get(base(server) + "/events") as response:
        await next_event(response)
        s.execute(HideCharacter(character="Bruno"))
        s.undo()
        s.execute(StartCombat())  # three changes before the client reads
        latest = await next_event(response)
        assert latest["sequence"] == 3 and latest["round"] == 1


async def test_a_client_dropping_mid_stream_changes_nothing(
        http: aiohttp.ClientSession) -> None:
    s = session()
    async with served(s) as server:
        staying = await http.get(base(server) + "/events")
        await next_event(staying)
        async with aiohttp.ClientSession() as other:
            leaving = await other.get(base(server) + "/events")
            await next_event(leaving)
            assert server.clients == 2
        # the other client's connection is gone
        s.execute(StartCombat())
        assert (await next_event(staying))["round"] == 1
        s.execute(Declare(character="Ana", actions=[act("aims at Bruno", "Bruno")]))
        assert (await next_event(staying))["sequence"] == 2
        async with asyncio.timeout(5):
            while server.clients != 1:
                await asyncio.sleep(0.01)
        staying.close()


async def test_on_the_local_network_the_token_is_required(
        http: aiohttp.ClientSession) -> None:
    async with served(session(), lan=True) as server:
        assert server.token and len(server.token) >= 16
        assert server.url.endswith(f":{server.port}/{server.token}/")
        root = f"http://127.0.0.1:{server.port}"
        for path in ("/", "/events", f"/{server.token}x/", "/x/events"):
            async with http.get(root + path) as response:
                assert response.status == 404, path
                assert len(await response.read()) < 100
        async with http.get(root + f"/{server.token}/") as response:
            assert response.status == 200
        async with http.get(root + f"/{server.token}/events") as response:
            assert (await next_event(response))["round"] == 0


async def test_on_this_machine_only_by_default() -> None:
    server = PlayersServer(session().players_snapshot)
    assert server.host == "127.0.0.1" and server.token is None
    assert server.url == "http://127.0.0.1:8765/"


async def test_unknown_paths_other_methods_and_oversized_requests_briefly(
        http: aiohttp.ClientSession) -> None:
    async with served(session()) as server:
        async with http.get(base(server) + "/admin") as response:
            assert response.status == 404
        async with http.post(base(server) + "/", data=b"x" * 100_000) as response:
            assert response.status == 405
        async with http.put(base(server) + "/events") as response:
            assert response.status == 405
        async with http.head(base(server) + "/events") as response:
            assert response.status == 405  # a stream holds a place: only GET opens one
        async with http.get(base(server) + "/" + "a" * 5000) as response:
            assert response.status in (400, 414)
        async with http.get(base(server) + "/",
                            headers={"X-Big": "b" * 10_000}) as response:
            assert response.status in (400, 431)
        async with http.get(base(server) + "/") as response:
            assert response.status == 200  # still serving


async def test_past_the_cap_a_clear_page(http: aiohttp.ClientSession) -> None:
    async with served(session(), max_clients=1) as server:
        first = await http.get(base(server) + "/events")
        await next_event(first)
        async with http.get(base(server) + "/") as response:
            assert response.status == 503
            assert "Too many screens are following this combat (1)" in await response.text()
        async with http.get(base(server) + "/events") as response:
            assert response.status == 503
        first.close()


async def test_the_port_in_use_names_it_and_offers_another() -> None:
    s = session()
    async with served(s) as server:
        second = PlayersServer(s.players_snapshot, port=server.port)
        with pytest.raises(PortInUse) as caught:
            await second.start()
        assert caught.value.suggestion not in (None, server.port)
        assert f"Port {server.port} is in use" in str(caught.value)
        assert f"Port {caught.value.suggestion} is free" in str(caught.value)
        assert not second.running


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_port_not_allowed_to_this_user_is_not_called_in_use(
        monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    """A port below 1024 without the system's permission (EACCES; root here, so the
    system's refusal is made up) is named as not allowed, not as taken by another
    program, and a free one is still offered, in the DJ's language."""
    import errno

    from aiohttp import web

    from sombra_tui.engine import i18n

    async def refused(_site: web.TCPSite) -> None:
        raise OSError(errno.EACCES, "Permission denied")
    monkeypatch.setattr(web.TCPSite, "start", refused)
    i18n.set_language(language)
    server = PlayersServer(session().players_snapshot, port=80)
    with pytest.raises(PortInUse) as caught:
        await server.start()
    assert caught.value.denied and caught.value.suggestion not in (None, 80)
    text = str(caught.value)
    assert "in use" not in text and "en uso" not in text and "80" in text
    assert {"en": "is not allowed to this user", "es": "no está permitido"}[language] in text
    assert not server.running


async def test_stop_ends_the_streams_and_start_serves_again(
        http: aiohttp.ClientSession) -> None:
    s = session()
    async with served(s) as server:  # stopped at the end however the test ends
        port = server.port
        response = await http.get(base(server) + "/events")
        await next_event(response)
        await server.stop()
        assert not server.running
        async with asyncio.timeout(5):
            assert await response.content.read() == b""  # the stream ended
        await server.start()
        assert server.port == port
        async with http.get(base(server) + "/events") as again:
            assert (await next_event(again))["sequence"] == 0


async def test_nothing_the_players_may_not_see_in_the_page_or_the_stream(
        http: aiohttp.ClientSession) -> None:
    s = Session(resolved())  # Carla hidden, a TA and a reacción rolled
    async with served(s) as server:
        async with http.get(base(server) + "/") as response:
            page = await response.text()
        async with http.get(base(server) + "/events") as response:
            stream = json.dumps(await next_event(response), ensure_ascii=False)
        for text in (page, stream):
            for secret in (ANA_ALERTA, ANA_SKILL, BRUNO_ALERTA, BRUNO_SKILL, BRUNO_PV):
                assert str(secret) not in text, secret
            for word in (NOTE_ANA, NOTE_BRUNO, "VIII", "Esquivar", "Pistola", "Carla"):
                assert word not in text, word
        assert "Bruno" in stream


async def test_a_stuck_client_delays_nobody(http: aiohttp.ClientSession) -> None:
    """A page that never reads: the DJ's commands go on at once and the other pages
    still get every change (its own stream waits on its own)."""
    s = Session.new(Encounter(characters=[
        char("Ana", 8, 3, 14, side=Side.PC), char("Bruno", 12, 5, 12),
        *(char(f"Matón {n}", 10, 2, 10) for n in range(1, 41))]))
    async with served(s) as server:
        _reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")  # and never reads
        await writer.drain()
        async with http.get(base(server) + "/events") as response:
            await next_event(response)
            async with asyncio.timeout(5):
                while server.clients != 2:
                    await asyncio.sleep(0.01)
            s.execute(HideCharacter(character="Bruno"))
            big = s.players_snapshot()
            started = time.perf_counter()
            assert len(big.model_dump_json()) > 3000
            for _i in range(3000):  # ~10 MB: far more than the stuck one's buffers
                server.publish(big)
                await asyncio.sleep(0)  # the streams write
            assert time.perf_counter() - started < 10
            s.execute(StartCombat())
            latest = await next_event(response)
            while latest["round"] != 1:
                latest = await next_event(response)
            assert latest["sequence"] == 2
        writer.close()


async def test_a_snapshot_that_fails_is_reported_and_the_stream_goes_on(
        http: aiohttp.ClientSession) -> None:
    s = session()
    async with served(s) as server, http.get(base(server) + "/events") as response:
        await next_event(response)
        real = server.snapshot

        def broken() -> Any:
            raise RuntimeError("no snapshot")

        server.snapshot = broken
        server._fan_out()
        assert server.problem == "no snapshot"
        server.snapshot = real
        s.execute(StartCombat())
        assert (await next_event(response))["round"] == 1
