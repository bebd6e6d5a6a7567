"""The theme in one place: one Palette from the app's theme, which the panels follow."""

from __future__ import annotations

from sombra_tui.widgets.declaration_queue import DeclarationQueue
from sombra_tui.widgets.formatting import Palette
from sombra_tui.widgets.initiative_table import InitiativeTable
from sombra_tui.widgets.resolution_log import ResolutionLog
from sombra_tui.widgets.theme import theme_palette
from tests.app.conftest import SIZE, make_app


def test_palette_is_read_from_the_theme_variables() -> None:
    variables = {"success": "#00ff00", "error": "#ff0000", "warning": "#ffff00",
                 "accent": "#00ffff"}
    assert Palette.from_variables(variables) == Palette(*variables.values())
    assert Palette.from_variables({}) == Palette()


async def test_panels_follow_a_theme_change() -> None:
    app = make_app(theme="sombra")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")  # round 1: the log and queue have coloured lines
        await pilot.pause()
        panels = [app.main_screen.query_one(kind)
                  for kind in (InitiativeTable, DeclarationQueue, ResolutionLog)]
        before = theme_palette(app)
        assert all(panel.palette == before for panel in panels)
        queue = app.main_screen.query_one(DeclarationQueue)
        assert any(before.accent.lower() in str(span.style).lower()
                   for _, _, spans in queue._shown for span in spans)
        app.theme = "papel"
        await pilot.pause()
        after = theme_palette(app)
        assert after != before
        assert all(panel.palette == after for panel in panels)
        # ... and what they show is painted again in the new colours.
        assert any(after.accent.lower() in str(span.style).lower()
                   for _, _, spans in queue._shown for span in spans)
        log = app.main_screen.query_one(ResolutionLog)
        styles = {str(segment.style) for line in log.lines for segment in line}
        assert not any(before.accent.lower() in style.lower() for style in styles)


def test_the_palette_is_built_in_one_place() -> None:
    """Dialogs and panels take theme_palette(app); none reads the CSS variables itself."""
    from pathlib import Path

    package = Path(__file__).resolve().parents[2] / "sombra_tui"
    readers = sorted(str(path.relative_to(package)) for path in package.rglob("*.py")
                     if "get_css_variables(" in path.read_text(encoding="utf-8"))
    assert readers == ["widgets/theme.py"]
