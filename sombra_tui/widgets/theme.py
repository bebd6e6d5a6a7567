"""The theme's colours for what is painted as Rich text: one Palette, from the app's theme."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.theme import Theme
from textual.widget import Widget

from sombra_tui.widgets.formatting import Palette


def theme_palette(app: App[Any]) -> Palette:
    """The Palette of the app's current theme: the colours its stylesheet paints with."""
    return Palette.from_variables(app.get_css_variables())


class FollowsTheme:
    """Mixin for a widget that paints Rich text in the theme's colours (`self.palette`).

    Once mounted it takes the palette of the app's theme, and again on every theme
    change; when the colours changed it calls `repaint_palette` to paint again what it
    shows.
    """

    palette: Palette

    def on_mount(self) -> None:
        assert isinstance(self, Widget)
        self.app.theme_changed_signal.subscribe(self, self._follow_theme)
        self._follow_theme()

    def _follow_theme(self, theme: Theme | None = None) -> None:
        assert isinstance(self, Widget)
        palette = theme_palette(self.app)
        if palette != self.palette:
            self.palette = palette
            self.repaint_palette()

    def repaint_palette(self) -> None:
        """Paint again what is shown, in `self.palette` (overridden)."""
