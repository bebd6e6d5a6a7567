"""The players' page on a TV (issue 39 item 6): a 12-character combat whole on one
screen at 1920x1080 and at 1280x720 (a grid of cards, type that shrinks to fit: a TV
cannot scroll), the open question said once, and the combat shown at once from the page
itself, before its event stream connects (no "Connecting…" first)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from sombra_tui.engine import Action, Declare, Encounter, Side, StartCombat
from sombra_tui.players.server import PlayersServer
from sombra_tui.session import Session
from tests.engine.conftest import char
from tests.players.serving import session as two

NAMES = ["Ana la Roja", "Bruno", "Carla Méndez", "Dimas", "Eloísa", "Fermín el Tuerto",
         "Gala", "Hugo", "Irene Valcárcel", "Julián", "Matón 1", "Matón 2"]


def twelve() -> Session:
    """Twelve characters, half PCs, each with a declaration (cards of two lines)."""
    s = Session.new(Encounter(characters=[
        char(name, 20 - i, i % 5, 12, side=Side.PC if i < 6 else Side.NPC)
        for i, name in enumerate(NAMES)]))
    s.execute(StartCombat())
    while (declarer := s.combat.state.current_declarer) is not None:
        s.execute(Declare(character=declarer, actions=[
            Action(description="se cubre tras la barricada y dispara")]))
    return s


@pytest.fixture
async def served_twelve() -> AsyncIterator[PlayersServer]:
    server = PlayersServer(twelve().players_snapshot, port=0)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.mark.parametrize("viewport", [{"width": 1920, "height": 1080},
                                      {"width": 1280, "height": 720}])
async def test_a_twelve_character_combat_fits_a_tv_without_scrolling(
        browser: Any, served_twelve: PlayersServer, viewport: dict[str, int]) -> None:
    from playwright.async_api import expect

    page = await (await browser.new_context(viewport=viewport)).new_page()
    await page.goto(served_twelve.url)
    cards = page.locator("#characters li")
    await expect(cards).to_have_count(12)
    await expect(page.locator("#status")).to_be_empty()
    height = await page.evaluate("document.documentElement.scrollHeight")
    assert height <= viewport["height"]
    for index in range(12):
        box = await cards.nth(index).bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["y"] >= 0, index
        assert box["x"] + box["width"] <= viewport["width"], index
        assert box["y"] + box["height"] <= viewport["height"], (index, box)
    # Still readable from the sofa: the names at least 16 px.
    size = await page.locator("#characters .name").first.evaluate(
        "(node) => parseFloat(getComputedStyle(node).fontSize)")
    assert size >= 16


async def test_the_first_state_is_in_the_served_page_before_the_stream(
        browser: Any) -> None:
    """The stream refused: the page still shows the combat (from the page itself), and
    never says it is connecting."""
    from playwright.async_api import expect

    s = two()
    s.execute(StartCombat())
    server = PlayersServer(s.players_snapshot, port=0)
    await server.start()
    try:
        async with aiohttp.ClientSession() as http, http.get(server.url) as response:
            html = await response.text()
        assert "Ana declares." in html  # in what was served, with no script run
        page = await (await browser.new_context()).new_page()
        await page.route("**/events", lambda route: route.abort())
        await page.goto(server.url)
        await expect(page.locator("#now")).to_have_text("Ana declares.")
        await expect(page.locator("#round")).to_have_text("Asalto 1")
        await expect(page.locator("#characters li")).to_have_count(2)
        assert "Connecting" not in await page.locator("body").inner_text()
    finally:
        await server.stop()


async def test_an_open_question_is_said_once(browser: Any) -> None:
    """D6: Ana may react to Bruno: the page asks her once ("Ana: do you react to
    Bruno?"), not a second time in the sentence of who acts ("Ana may react.")."""
    from playwright.async_api import expect

    s = two()
    s.execute(StartCombat())
    s.execute(Declare(character="Ana", actions=[Action(description="aims at the door")]))
    s.execute(Declare(character="Bruno", actions=[Action(description="shoots Ana",
                                                         targets=["Ana"])]))
    server = PlayersServer(s.players_snapshot, port=0)
    await server.start()
    try:
        page = await (await browser.new_context()).new_page()
        await page.goto(server.url)
        await expect(page.locator("#prompt")).to_have_text("Ana: do you react to Bruno?")
        await expect(page.locator("#status")).to_be_empty()
        above_log = await page.evaluate(
            "[...document.querySelectorAll('main > :not(#log-section)')]"
            ".map((node) => node.innerText).join('\\n')")
        assert above_log.count("react") == 1, above_log
    finally:
        await server.stop()




async def test_plain_print_after_large_print_fits_a_tv_again(
        browser: Any, served_twelve: PlayersServer) -> None:
    """A TV's bookmark asks for large print (a third larger: the 12 cards may then need
    more than the screen); switched back to plain print on the page, the type is fitted
    anew and the 12 cards fit again, none under the switches."""
    from playwright.async_api import expect

    page = await (await browser.new_context(viewport={"width": 1920, "height": 1080})
                  ).new_page()
    await page.goto(served_twelve.url + "?print=large")
    await expect(page.locator("#characters li")).to_have_count(12)
    await expect(page.locator("#large-print")).to_have_attribute("aria-pressed", "true")
    await page.locator("#large-print").click()
    await expect(page.locator("#large-print")).to_have_attribute("aria-pressed", "false")
    assert await page.evaluate("document.documentElement.scrollHeight") <= 1080
    spill = await page.evaluate(
        "(() => { const area = document.getElementById('characters').parentElement"
        ".getBoundingClientRect().bottom; return [...document.querySelectorAll("
        "'#characters li')].map((n) => n.getBoundingClientRect().bottom - area)"
        ".filter((d) => d > 0.5); })()")
    assert spill == []
