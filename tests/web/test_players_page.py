"""The players' page in a real browser (issue 23 items 3, 6 and 7): it shows the round and
follows a DJ's command within a second, reconnects by itself after the server restarts,
needs the token on the local network, shows nothing hidden, and its phone and TV layouts
match the screenshots kept next to this file."""

from __future__ import annotations

import base64
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from sombra_tui.engine import Encounter, Side, StartCombat
from sombra_tui.players.server import PlayersServer
from sombra_tui.session import Session
from tests.engine.conftest import char
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
from tests.players.serving import until

HERE = Path(__file__).resolve().parent
SCREENSHOTS = HERE / "__screenshots__"
#: `SOMBRA_UPDATE_SCREENSHOTS=1 pytest tests/web` writes them anew (check the pictures).
UPDATE = os.environ.get("SOMBRA_UPDATE_SCREENSHOTS") == "1"
#: Pixels that may differ (anti-aliasing): a layout change moves far more.
TOLERANCE = 0.005
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}


def session() -> Session:
    return Session.new(Encounter(characters=[
        char("Ana", 8, 3, 14, side=Side.PC), char("Bruno", 12, 5, 12)]))


@pytest.fixture
async def served() -> AsyncIterator[tuple[Session, PlayersServer]]:
    s = session()
    server = PlayersServer(s.players_snapshot, port=0)
    await server.start()
    s.add_players_watcher(server.changed)
    try:
        yield s, server
    finally:
        await server.stop()


async def open_page(browser: Any, url: str, **context: Any) -> Any:
    page = await (await browser.new_context(**context)).new_page()
    await page.goto(url)
    return page


async def test_the_page_shows_the_round_and_follows_a_command_within_a_second(
        browser: Any, served: tuple[Session, PlayersServer]) -> None:
    from playwright.async_api import expect

    s, server = served
    page = await open_page(browser, server.url)
    await expect(page.locator("#now")).to_have_text("The combat has not started.")
    await expect(page.locator("#characters li")).to_have_count(2)
    s.execute(StartCombat())
    await expect(page.locator("#round")).to_have_text("Asalto 1", timeout=1000)
    await expect(page.locator("#now")).to_have_text("Ana declares.", timeout=1000)
    await expect(page.locator("#status")).to_be_empty()


async def test_a_prompted_pcs_own_odds_show_under_the_question_never_an_npcs(
        browser: Any, served: tuple[Session, PlayersServer]) -> None:
    """Issue 37 item 3 (D6, D9): with the DJ's setting on, Ana (a PC, Alerta 14) reads
    her chances under her question; Bruno's (an NPC's) question comes without them."""
    from playwright.async_api import expect

    from sombra_tui.engine import Action, ChangeSettings, Declare, Dice, React, ReactionMode

    s, server = served
    settings = s.combat.state.settings
    s.execute(ChangeSettings(settings=settings.model_copy(update={
        "players": settings.players.model_copy(update={"reaction_odds": True})})))
    s.execute(StartCombat())
    s.execute(Declare(character="Ana", actions=[Action(description="aims at the door")]))
    s.execute(Declare(character="Bruno", actions=[Action(description="shoots Ana",
                                                         targets=["Ana"])]))
    page = await open_page(browser, server.url)
    await expect(page.locator("#prompt")).to_have_text(
        "Ana: do you react to Bruno?\nAna: 35 % combining · 8 % substituting")
    s.execute(React(character="Ana", mode=ReactionMode.SUBSTITUTE,
                    actions=[Action(description="dives")], dice=Dice.of(3, 4, 2)))
    await expect(page.locator("#prompt")).to_have_text(
        "Bruno: do you make a contrarreacción to Ana?", timeout=1000)


async def test_it_reconnects_by_itself_after_the_server_restarts(
        browser: Any, served: tuple[Session, PlayersServer]) -> None:
    from playwright.async_api import expect

    s, server = served
    page = await open_page(browser, server.url)
    await expect(page.locator("#now")).to_have_text("The combat has not started.")
    await server.stop()
    await expect(page.locator("#status")).to_have_text("Connection lost: reconnecting…")
    s.execute(StartCombat())  # while the page was down
    await server.start()
    await expect(page.locator("#round")).to_have_text("Asalto 1", timeout=10_000)
    await expect(page.locator("#status")).to_be_empty()


async def test_a_tab_that_closes_frees_its_place_at_once(
        browser: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41 item 5: the screens' cap reached (one here), a tab closes and a new one
    follows at once; the keep-alive made an hour long, so only the closed connection
    can have freed the place (it waited for the keep-alive: up to 15 s of "too many
    screens")."""
    from playwright.async_api import expect

    from sombra_tui.players import server as players_server

    monkeypatch.setattr(players_server, "HEARTBEAT_S", 3600.0)
    s = session()
    server = PlayersServer(s.players_snapshot, port=0, max_clients=1)
    await server.start()
    try:
        first = await open_page(browser, server.url)
        await expect(first.locator("#now")).to_have_text("The combat has not started.")
        assert server.clients == 1
        await first.context.close()
        await until(lambda: server.clients == 0)  # freed at once (5 s at most)
        second = await open_page(browser, server.url)
        await expect(second.locator("#now")).to_have_text("The combat has not started.")
        await expect(second.locator("#status")).to_be_empty()
        assert server.clients == 1
    finally:
        await server.stop()


async def test_on_the_local_network_the_token_is_enforced(browser: Any) -> None:
    from playwright.async_api import expect

    s = session()
    server = PlayersServer(s.players_snapshot, port=0, lan=True)
    await server.start()
    try:
        assert server.token is not None
        page = await (await browser.new_context()).new_page()
        response = await page.goto(f"http://127.0.0.1:{server.port}/")
        assert response is not None and response.status == 404
        assert "Asalto" not in await page.content()
        response = await page.goto(f"http://127.0.0.1:{server.port}/{server.token}/")
        assert response is not None and response.status == 200
        await expect(page.locator("#now")).to_have_text("The combat has not started.")
    finally:
        await server.stop()


async def test_nothing_hidden_reaches_the_page(browser: Any) -> None:
    from playwright.async_api import expect

    s = Session(resolved())  # Carla hidden; a TA and a reacción rolled
    server = PlayersServer(s.players_snapshot, port=0)
    await server.start()
    try:
        page = await open_page(browser, server.url)
        await expect(page.locator("#characters li")).to_have_count(2)
        shown = await page.locator("body").inner_text()
        html = await page.content()
        assert "Bruno" in shown
        for text in (shown, html):
            for secret in (ANA_ALERTA, ANA_SKILL, BRUNO_ALERTA, BRUNO_SKILL, BRUNO_PV):
                assert str(secret) not in text, secret
            for word in (NOTE_ANA, NOTE_BRUNO, "VIII", "Esquivar", "Pistola", "Carla"):
                assert word not in text, word
    finally:
        await server.stop()


async def test_a_public_note_shows_on_the_page_a_private_one_never(
        browser: Any, served: tuple[Session, PlayersServer]) -> None:
    """Issue 37 item 5: the DJ's public note of the asalto under way shows on the page
    (and goes once the asalto is over); a private one is nowhere in it."""
    from playwright.async_api import expect

    from sombra_tui.engine import AddNote, Advance, Declare

    s, server = served
    s.execute(AddNote(round=1, text="LLEGAN-LOS-GUARDIAS", public=True))
    s.execute(AddNote(round=1, text="SOLO-DJ"))
    page = await open_page(browser, server.url)
    assert not await page.locator("#notes").is_visible()  # not started: none yet
    s.execute(StartCombat())
    await expect(page.locator("#notes li")).to_have_text(["LLEGAN-LOS-GUARDIAS"])
    assert "SOLO-DJ" not in await page.content()
    while s.combat.state.round < 2:
        declarer = s.combat.state.current_declarer
        s.execute(Declare(character=declarer, actions=[]) if declarer else Advance())
    await expect(page.locator("#notes li")).to_have_count(0)
    assert not await page.locator("#notes").is_visible()


# ---- the phone and TV layouts, compared with the pictures kept here -----------------------

#: Counts the pixels of two PNGs (data URLs) that differ visibly, in the browser itself.
DIFF_JS = """async ([a, b]) => {
  const load = (src) => new Promise((ok, ko) => {
    const image = new Image(); image.onload = () => ok(image); image.onerror = ko;
    image.src = src; });
  const [x, y] = await Promise.all([load(a), load(b)]);
  if (x.width !== y.width || x.height !== y.height) return 1;
  const pixels = (image) => {
    const canvas = document.createElement("canvas");
    canvas.width = image.width; canvas.height = image.height;
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    return context.getImageData(0, 0, image.width, image.height).data; };
  const p = pixels(x), q = pixels(y);
  let differ = 0;
  for (let i = 0; i < p.length; i += 4) {
    if (Math.abs(p[i] - q[i]) + Math.abs(p[i + 1] - q[i + 1]) + Math.abs(p[i + 2] - q[i + 2]) > 48)
      differ++;
  }
  return differ / (p.length / 4);
}"""


def data_url(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode()


async def compare(browser: Any, name: str, png: bytes) -> None:
    reference = SCREENSHOTS / f"{name}.png"
    if UPDATE or not reference.exists():
        SCREENSHOTS.mkdir(exist_ok=True)
        reference.write_bytes(png)
        if not UPDATE:
            pytest.fail(f"{reference} did not exist: written now, check it and commit it")
        return
    page = await (await browser.new_context()).new_page()
    differ = await page.evaluate(DIFF_JS, [data_url(reference.read_bytes()), data_url(png)])
    if differ > TOLERANCE:
        (SCREENSHOTS / f"{name}.actual.png").write_bytes(png)
        pytest.fail(f"{name}: {differ:.1%} of the pixels differ from {reference.name} (the "
                    f"new one is {name}.actual.png; SOMBRA_UPDATE_SCREENSHOTS=1 accepts it)")


@pytest.mark.parametrize(("name", "viewport", "scheme"), [
    ("phone-light", PHONE, "light"),
    ("tv-dark", TV, "dark"),
])
async def test_the_phone_and_tv_layouts(browser: Any, name: str, viewport: dict[str, int],
                                        scheme: str) -> None:
    from playwright.async_api import expect

    s = Session(resolved())
    server = PlayersServer(s.players_snapshot, port=0)
    await server.start()
    try:
        page = await open_page(browser, server.url, viewport=viewport, color_scheme=scheme,
                               device_scale_factor=1)
        await expect(page.locator("#round")).to_have_text("Asalto 1")
        await expect(page.locator("#status")).to_be_empty()
        await compare(browser, name, await page.screenshot(full_page=False))
    finally:
        await server.stop()


async def test_the_page_follows_the_djs_language(
        browser: Any, served: tuple[Session, PlayersServer]) -> None:
    from playwright.async_api import expect

    from sombra_tui.engine import i18n

    s, server = served
    page = await open_page(browser, server.url)
    await expect(page.locator("#now")).to_have_text("The combat has not started.")
    i18n.set_language("es")
    server.refresh()  # as the app does when the DJ changes language
    await expect(page.locator("#now")).to_have_text("El combate no ha empezado.")
    await expect(page).to_have_title("Vista de los jugadores")
    s.execute(StartCombat())
    await expect(page).to_have_title("Asalto 1 · Vista de los jugadores")
