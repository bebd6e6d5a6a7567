"""A players' page everyone can read (issue 40 item 5), in a real browser: every text
at least 4.5:1 against its background (WCAG AA), measured from the computed colours in
light and dark, plain, in large print and with the colour-blind-safe colours; the page's
switch of looks (remembered on the device, or given in the address for a TV);
prefers-reduced-motion and prefers-color-scheme followed; `lang` the DJ's language."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from sombra_tui.engine import commands as c
from sombra_tui.engine import i18n
from sombra_tui.engine.wounds import Location
from sombra_tui.players.server import PlayersServer
from sombra_tui.session import Session
from tests.engine.test_players_view import at_prompt
from tests.web.test_players_page import TV, open_page

#: WCAG 2's AA level for normal text.
AA = 4.5

#: Every element with text of its own, shown, with its colour and its effective
#: background (the backgrounds of it and its ancestors composited from the root down,
#: the canvas white below), the opacities on the way applied to the text: the ratio.
CONTRASTS_JS = """
() => {
  const parse = (text) => {
    const p = text.match(/[\\d.]+/g).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  const over = (top, below) => ({r: top.r * top.a + below.r * (1 - top.a),
                                 g: top.g * top.a + below.g * (1 - top.a),
                                 b: top.b * top.a + below.b * (1 - top.a), a: 1});
  const channel = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92
                                                        : Math.pow((v + 0.055) / 1.055, 2.4); };
  const luminance = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g)
                           + 0.0722 * channel(c.b);
  const found = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const style = getComputedStyle(el);
    if (!own || !el.getClientRects().length || style.visibility !== "visible") continue;
    const chain = [];
    for (let e = el; e; e = e.parentElement) chain.unshift(e);
    let background = {r: 255, g: 255, b: 255, a: 1};
    let opacity = 1;
    for (const e of chain) {
      const s = getComputedStyle(e);
      background = over(parse(s.backgroundColor), background);
      opacity *= Number(s.opacity);
    }
    const fg = parse(style.color);
    const text = over({...fg, a: fg.a * opacity}, background);
    const [light, dark] = [luminance(text), luminance(background)].sort((x, y) => y - x);
    found.push({text: el.textContent.trim().slice(0, 40), tag: el.tagName,
                cls: el.className || el.id, ratio: (light + 0.05) / (dark + 0.05),
                color: style.color, background: JSON.stringify(background)});
  }
  return found;
}
"""


def rich_session() -> Session:
    """A prompt open, Ana acting, Bruno out with a wound and conditions, declarations and
    a log: every kind of text the page shows."""
    combat = at_prompt()
    combat.execute(c.ManualHit(character="Bruno", location=Location.PECHO, damage=30))
    combat.execute(c.SetMark(character="Bruno", mark=c.Mark.OUT))
    return Session(combat)


@pytest.fixture
async def server() -> AsyncIterator[PlayersServer]:
    session = rich_session()
    served = PlayersServer(session.players_snapshot, port=0)
    await served.start()
    try:
        yield served
    finally:
        await served.stop()


async def shown(browser: Any, url: str, **context: Any) -> Any:
    from playwright.async_api import expect

    page = await open_page(browser, url, viewport=TV, **context)
    await expect(page.locator("#prompt")).to_have_text("Ana: do you react to Bruno?")
    await expect(page.locator("#status")).to_be_empty()
    return page


def unreadable(measured: list[dict[str, Any]]) -> list[str]:
    return [f"{m['tag']}.{m['cls']} {m['text']!r}: {m['ratio']:.2f} ({m['color']} on "
            f"{m['background']})" for m in measured if m["ratio"] < AA]


@pytest.mark.parametrize("look", ["plain", "large", "safe"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_every_text_is_at_least_aa_contrast_in_each_look(
        browser: Any, server: PlayersServer, scheme: str, look: str) -> None:
    """WCAG AA (4.5:1) for every text, from the computed colours, the page's switch used
    as a player would; the connection-lost notice too (the server stopped)."""
    from playwright.async_api import expect

    page = await shown(browser, server.url, color_scheme=scheme)
    plain_size = await page.evaluate("parseFloat(getComputedStyle(document.documentElement)"
                                     ".fontSize)")
    if look != "plain":
        button = page.locator({"large": "#large-print", "safe": "#safe-colours"}[look])
        await button.click()
        await expect(button).to_have_attribute("aria-pressed", "true")
    classes = await page.evaluate("document.documentElement.className")
    assert classes.split() == ([] if look == "plain" else [look])
    measured = await page.evaluate(CONTRASTS_JS)
    texts = " ".join(m["text"] for m in measured)
    for wanted in ("Ana", "Bruno", "out of the fight", "sangrando", "aims at Bruno",
                   "Ana: do you react to Bruno?", "Large print", "Log"):
        assert wanted in texts, wanted  # measured, not skipped
    assert unreadable(measured) == []
    size = await page.evaluate("parseFloat(getComputedStyle(document.documentElement)"
                               ".fontSize)")
    assert size >= 1.3 * plain_size if look == "large" else size == plain_size
    await server.stop()
    await expect(page.locator("#status")).to_have_text("Connection lost: reconnecting…")
    status = [m for m in await page.evaluate(CONTRASTS_JS) if m["cls"] == "status"]
    assert status and unreadable(status) == []


async def test_the_looks_are_kept_on_the_device_and_given_by_the_address(
        browser: Any, server: PlayersServer) -> None:
    """A phone keeps its player's choice over a reload; a TV's bookmark says it in the
    address (?print=large&colours=safe), which wins over what the device kept."""
    from playwright.async_api import expect

    page = await shown(browser, server.url)
    await page.locator("#safe-colours").click()
    await page.reload()
    await expect(page.locator("#safe-colours")).to_have_attribute("aria-pressed", "true")
    assert await page.evaluate("document.documentElement.className") == "safe"
    tv = await shown(browser, server.url + "?print=large&colours=safe")
    assert set((await tv.evaluate("document.documentElement.className")).split()) == {
        "large", "safe"}
    await expect(tv.locator("#large-print")).to_have_attribute("aria-pressed", "true")
    plain = await shown(browser, server.url + "?colours=plain")
    assert await plain.evaluate("document.documentElement.className") == ""


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
async def test_prefers_reduced_motion_stops_the_transitions(
        browser: Any, server: PlayersServer, motion: str) -> None:
    page = await shown(browser, server.url, reduced_motion=motion)
    durations = await page.evaluate(
        "[...document.querySelectorAll('#characters li')].map("
        "(li) => getComputedStyle(li).transitionDuration)")
    assert durations and all((d == "0s") == (motion == "reduce") for d in durations)


async def test_prefers_color_scheme_picks_light_or_dark(
        browser: Any, server: PlayersServer) -> None:
    backgrounds = {}
    for scheme in ("light", "dark"):
        page = await shown(browser, server.url, color_scheme=scheme)
        backgrounds[scheme] = await page.evaluate("getComputedStyle(document.body)"
                                                  ".backgroundColor")
    assert backgrounds == {"light": "rgb(247, 245, 240)", "dark": "rgb(18, 18, 18)"}


@pytest.mark.parametrize("language", ["es", "en"])
async def test_the_pages_lang_is_the_djs_language(
        browser: Any, server: PlayersServer, language: str) -> None:
    from playwright.async_api import expect

    i18n.set_language(language)
    page = await open_page(browser, server.url)
    assert await page.evaluate("document.documentElement.lang") == language
    await expect(page.locator("#large-print")).to_have_text(
        {"es": "Letra grande", "en": "Large print"}[language])
