"""The odds line (issue 37): one short line with the engine's chances before a roll, in
the DJ's words ("Chance: 35 % combining · 8 % substituting"), where a decision is made:
the reacción prompt, the TA dialogs, the opposed dialog and the declaration form.

The chances and their words are the engine's (ask.reaction_odds, ask.ta_odds_of,
ask.declared_odds, ask.opposed_odds); the line only shows them, and shows nothing when
the DJ prefers not to know (the app's preference, config.Preferences.show_odds).
"""

from __future__ import annotations

from textual.app import App
from textual.widgets import Static

from sombra_tui.engine.i18n import _


def odds_shown(app: App[object]) -> bool:
    """The DJ's preference (default: shown)."""
    loaded = getattr(app, "preferences", None)
    return loaded is None or loaded.preferences.show_odds


class OddsLine(Static):
    """The chances of what is about to be rolled, or nothing (hidden when empty)."""

    DEFAULT_CSS = """
    OddsLine { height: auto; color: $text-muted; }
    OddsLine.-empty { display: none; }
    """

    def __init__(self) -> None:
        super().__init__("", id="odds", classes="-empty")

    def show_words(self, words: str | None) -> None:
        """`words` (the engine's) after "Chance:", or nothing when there are none or
        the DJ hides the odds."""
        text = (_("Chance: {odds}").format(odds=words)
                if words and odds_shown(self.app) else "")
        self.update(text)
        self.set_class(not text, "-empty")
