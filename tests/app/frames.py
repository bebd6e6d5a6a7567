"""Frames not painted in the app's tests, but the last one (issue 36 item 8).

Headless, Textual still paints every frame it would show (the compositor renders each
changed line of every widget into strips) and then throws it away: there is no
terminal. Half the CPU of a typical Pilot test went there (measured in README, "Tests
in lanes"). A test reads what the app did (the state, the widgets' values, the rows'
text, the layout's regions) and not the frames, so in tests/app the frames in between
are not painted (`unpainted`); the screen is painted whole once, when the test leaves
`run_test` (`painted_last`), so that a widget that cannot draw the state the test
ended in still fails it.

What still paints every frame: a test marked `paints` (tests/app/test_dialog_shelf.py,
about what is painted and when), the key-monkey soak (its apps
run in processes of their own, and it hunts any exception after any key), the
snapshot tests' pictures
(`export_screenshot` paints what it exports), a test that reads the screen's strips
(they are rendered when read), and everything outside tests/app (the benchmark, the
serial lane's frame counts and the start-up tests count real frames).

Textual's private names, checked against textual 8.2.8 (as sombra_tui/textual_compat.py
for the app): `Screen._compositor_refresh`, the one place every frame goes through (its
top-screen branch paints; the rest is kept), and the compositor's `render_update`.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen

PAINTED = Screen._compositor_refresh
RUN_TEST = App.run_test


def unpainted(screen: Screen[Any]) -> None:
    """`Screen._compositor_refresh` without the paint of the top screen's frame: what
    it marked dirty is cleared as after a paint; a background screen's refresh, the
    inline driver and the mouse-over update are Textual's own."""
    app = screen.app
    if screen is not app.screen or app.is_inline or not app.is_headless:
        PAINTED(screen)
        return
    screen._dirty_widgets.clear()
    screen._compositor._dirty_regions.clear()
    app._update_mouse_over(screen)


def paint_whole(app: App[Any]) -> None:
    """Paint the active screen (and the screens it shows through) whole, as its first
    frame is: a widget's rendering error is raised here."""
    app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)


@contextlib.asynccontextmanager
async def painted_last(app: App[Any], *args: Any, **kwargs: Any) -> AsyncIterator[Pilot[Any]]:
    """`App.run_test`, with the screen painted whole as the test leaves it."""
    async with RUN_TEST(app, *args, **kwargs) as pilot:
        yield pilot
        if app.is_running:
            paint_whole(app)
