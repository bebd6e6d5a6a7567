"""The players' view's QR code (issue 23 item 4): the quiet zone of 4 light modules the
QR standard asks for, and the whole code, the address, the box and the buttons on an
80x24 screen even for the longest address the page has (a LAN address, its token and a
five-digit port)."""

from __future__ import annotations

import pytest
from textual.widget import Widget

from sombra_tui.screens.dialogs.players import QUIET_ZONE, PlayersViewDialog, qr_text
from tests.app.conftest import MIN_SIZE, make_app

LONGEST = "http://192.168.100.200:65535/Xq3vB7kTn2Lw9pQa/"  # a 16-character token
ADDRESSES = (LONGEST, "http://192.168.1.20:8765/Xq3vB7kTn2Lw9pQa/", "http://127.0.0.1:8765/")
LIGHT = "white on white"


@pytest.mark.parametrize("url", ADDRESSES)
def test_the_code_has_a_quiet_zone_of_four_modules(url: str) -> None:
    text = qr_text(url)
    rows = text.split("\n")
    assert QUIET_ZONE == 4
    assert len(rows) <= 19 and all(len(row) <= 37 for row in rows)  # fits 80x24

    # Each cell is a half block with its own style: the upper module's colour on the
    # lower one's.
    styles = [[str(span.style) for span in sorted(row.spans, key=lambda s: s.start)]
              for row in rows]
    assert all(len(cells) == len(row) for cells, row in zip(styles, rows, strict=True))

    def light(row: int, column: int) -> bool:
        """Both modules of a cell light."""
        return styles[row][column] == LIGHT

    # A line is two modules: the first two and the last two lines, the first four and
    # the last four columns are light all round.
    width = len(rows[0])
    for row in (0, 1, len(rows) - 2, len(rows) - 1):
        assert all(light(row, column) for column in range(width)), row
    for row in range(len(rows)):
        for column in (*range(QUIET_ZONE), *range(width - QUIET_ZONE, width)):
            assert light(row, column), (row, column)
    assert not all(light(2, column) for column in range(width))  # the code begins


async def test_at_80x24_the_whole_code_and_the_buttons_are_on_screen() -> None:
    app = make_app(journal=False)
    async with app.run_test(size=MIN_SIZE) as pilot:
        await app.push_screen(PlayersViewDialog(LONGEST, lan=True, clients=3,
                                                stop_keys="f8", shown_as="F8"))
        await pilot.pause()
        screen = app.screen.region
        for selector in ("#players-qr", "#players-url", "#players-lan", "#stop", "#close"):
            widget = app.screen.query_one(selector, Widget)
            assert screen.contains_region(widget.region), selector
        qr = app.screen.query_one("#players-qr", Widget)
        assert qr.region.height == len(qr_text(LONGEST).split("\n"))
