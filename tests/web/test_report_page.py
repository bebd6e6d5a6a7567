"""The combat report's HTML page in a real browser (issue 38 item 5): at A4 print size
and at phone size it fits its width, fetches nothing, keeps the body outline's colours
(H2's locations coloured by H8's severity) and prints on A4 pages."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from sombra_tui.engine.report import combat_report
from sombra_tui.engine.wounds import Severity
from sombra_tui.report import render
from sombra_tui.report.html import COLOURS
from tests.engine.test_report import play_key_moments
from tests.engine.test_worked_example_hits import play_worked_example_h_and_c

#: A4 at 96 dpi (210 x 297 mm), and a phone.
A4 = {"width": 794, "height": 1123}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "worked.report.html"
    path.write_text(render(combat_report(play_worked_example_h_and_c()), "html"),
                    encoding="utf-8")
    return path


async def _open(browser: Any, path: Path, viewport: dict[str, int]) -> tuple[Any, list[str]]:
    page = await (await browser.new_context(viewport=viewport)).new_page()
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    await page.goto(path.as_uri())
    return page, [url for url in fetched if url != path.as_uri()]


def _rgb(colour: str) -> str:
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({red}, {green}, {blue})"


async def _fill(page: Any, character: str, location: str) -> str:
    return str(await page.eval_on_selector(
        f'[data-character="{character}"] [data-location="{location}"]',
        "element => getComputedStyle(element).fill"))


async def test_report_page_at_a4_print_size(browser: Any, page_file: Path) -> None:
    """Printed (A4): nothing fetched, no horizontal overflow, two columns of cards, each
    card whole on a page; Bruno's right arm leve (orange), his head sin importancia
    (yellow), his left arm unhurt (H2, H8); the PDF is A4."""
    page, fetched = await _open(browser, page_file, A4)
    await page.emulate_media(media="print")
    assert fetched == []
    assert await page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    columns = await page.eval_on_selector(".cards", "e => getComputedStyle(e)"
                                          ".gridTemplateColumns.split(' ').length")
    assert columns == 2
    assert await _fill(page, "Bruno", "brazo derecho") == _rgb(COLOURS[Severity.LEVE])
    assert await _fill(page, "Bruno", "cabeza") == _rgb(COLOURS[Severity.SIN_IMPORTANCIA])
    assert await _fill(page, "Bruno", "brazo izquierdo") == _rgb(COLOURS[None])
    assert await _fill(page, "Ana", "cabeza") == _rgb(COLOURS[Severity.LEVE])
    avoid = await page.eval_on_selector(".card", "e => getComputedStyle(e).breakInside")
    assert avoid == "avoid"
    pdf = await page.pdf(prefer_css_page_size=True)
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)
    assert boxes and {(round(float(w)), round(float(h))) for w, h in boxes} == {(595, 842)}


async def test_report_page_at_phone_size(browser: Any, page_file: Path) -> None:
    """On a phone: one column, nothing wider than the screen, the body outline shown."""
    page, fetched = await _open(browser, page_file, PHONE)
    assert fetched == []
    assert await page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    columns = await page.eval_on_selector(".cards", "e => getComputedStyle(e)"
                                          ".gridTemplateColumns.split(' ').length")
    assert columns == 1
    box = await page.eval_on_selector('[data-character="Bruno"] svg',
                                      "e => e.getBoundingClientRect().width")
    assert box > 50
    widest = await page.evaluate(
        "Math.max(...[...document.querySelectorAll('body *')].map("
        "e => e.getBoundingClientRect().right))")
    assert widest <= PHONE["width"]


async def write_screenshots(browser: Any, folder: Path) -> None:
    """The README's pictures (python -m tests.web.test_report_page)."""
    from sombra_tui.engine.i18n import set_language

    for language, suffix in (("en", ""), ("es", "-es")):
        set_language(language)
        path = folder / f"report{suffix}.html"
        report = replace(combat_report(play_key_moments()), name="Emboscada en el muelle")
        path.write_text(render(report, "html"), encoding="utf-8")
        page, _ = await _open(browser, path, A4)
        await page.emulate_media(media="print")
        await page.screenshot(path=str(folder / f"report{suffix}.png"))
        page, _ = await _open(browser, path, PHONE)
        await page.screenshot(path=str(folder / f"report-phone{suffix}.png"))


if __name__ == "__main__":
    import asyncio
    import sys

    from playwright.async_api import async_playwright

    from tests.web.conftest import CHROMIUM

    async def _main() -> None:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            await write_screenshots(browser, Path(sys.argv[1]))
            await browser.close()

    asyncio.run(_main())
