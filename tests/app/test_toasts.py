"""Toasts never cover the hint of the next key (issue 35 item 7): at 80x24 the undo's
toast ("Deshecho: ...") sat over the panel's first line for seconds, and the hint is the
one line the DJ must always see."""

from __future__ import annotations

import pytest
from rich.console import Group
from textual.geometry import Region
from textual.widgets._toast import Toast

from sombra_tui.app import SombraApp
from sombra_tui.widgets.declaration_queue import DeclarationQueue, wrapped_height
from tests.app.conftest import MIN_SIZE, SIZE, make_app


def hint_region(app: SombraApp) -> Region:
    """Where the panel's hint is drawn: its first lines, pinned at the panel's top."""
    queue = app.main_screen.query_one(DeclarationQueue)
    shown = queue.content
    assert isinstance(shown, Group)
    area = queue.content_region
    height = wrapped_height([shown.renderables[0]], queue.fit()[0])  # type: ignore[list-item]
    assert height >= 1
    return Region(area.x, area.y, area.width, height)


async def assert_undo_toast_clear_of_the_hint(size: tuple[int, int], undone: str) -> None:
    app = make_app(journal=False)
    # Toasts are drawn only when asked for (run_test leaves them out by default).
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.press("space")  # asalto 1 starts
        await pilot.press("u")  # ... and is undone: a toast says so
        await pilot.pause()
        toasts = list(app.screen.query(Toast))
        assert toasts and any(undone in str(toast.render()) for toast in toasts)
        hint = hint_region(app)
        for toast in toasts:
            assert toast.region.area and not toast.region.overlaps(hint), (toast.region, hint)


@pytest.mark.parametrize("size", [SIZE, MIN_SIZE])
async def test_the_undo_toast_leaves_the_hint_in_sight(size: tuple[int, int]) -> None:
    await assert_undo_toast_clear_of_the_hint(size, "Undone:")


@pytest.mark.usefixtures("spanish")
@pytest.mark.parametrize("size", [SIZE, MIN_SIZE])
async def test_the_same_in_spanish(size: tuple[int, int]) -> None:
    await assert_undo_toast_clear_of_the_hint(size, "Deshecho:")
