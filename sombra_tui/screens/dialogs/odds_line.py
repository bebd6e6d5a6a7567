"""The odds line (issue 37): one short line with the engine's chances before a roll, in
the DJ's words ("Chance: 35 % combining · 8 % substituting"), where a decision is made:
the reacción prompt, the TA dialogs, the opposed dialog and the declaration form.

The chances and their words are the engine's (ask.reaction_odds, ask.ta_odds_of,
ask.declared_odds, ask.opposed_odds); the line only shows them, and shows nothing when
the DJ prefers not to know (the app's preference, config.Preferences.show_odds).

The players' view may show a prompted PC its own reacción odds (issue 37 item 3): the
reacción dialog tells the app the grades typed in it (`ReactionGradesTyped`), so that
the players' odds are read at the same grades as the DJ's line, never other ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import App
from textual.message import Message
from textual.widgets import Input, Select, Static

from sombra_tui.engine import Action, ActionKind, CombatState, Prompt, ask
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.action_choices import SCOPES
from sombra_tui.screens.dialogs.parsing import FormError, parse_int

if TYPE_CHECKING:
    from sombra_tui.screens.dialogs.action_form import ActionForm


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


class ReactionGradesTyped(Message):
    """The DJ typed the Base GD and DJ grades `grades` (None: one is not a number yet)
    in the reacción dialog that answers `prompt`, or closed it (`prompt` None): the
    app's players' view republishes the PC's odds at those grades (Session.grades_typed)."""

    def __init__(self, prompt: Prompt | None, grades: tuple[int, int] | None = (0, 0)
                 ) -> None:
        super().__init__()
        self.prompt = prompt
        self.grades = grades


def action_words(state: CombatState, form: ActionForm) -> str | None:
    """The chances of the action `form` holds as typed so far, while it is declared
    (ask.declared_odds: its value or skill, GD and scope); None while a number is wrong
    or nothing is rolled."""
    p = form.fid
    kind = form.query_one(f"#{p('kind')}", Select).value
    try:
        gd = parse_int(form.query_one(f"#{p('gd')}", Input).value, p("gd"), "GD",
                       *ask.bounds(Action, "gd"), default=0)
        text = form.query_one(f"#{p('target')}", Input).value.strip()
        target = parse_int(text, p("target"), _("Target value"),
                           *ask.bounds(Action, "target")) if text else None
    except FormError:
        return None
    odds = ask.declared_odds(
        state, form.character.name,
        kind=kind if isinstance(kind, ActionKind) else ActionKind.ROUND,
        skill=form.query_one(f"#{p('skill')}", Input).value.strip(), target=target, gd=gd,
        scope=SCOPES.get(str(form.query_one(f"#{p('scope')}", Select).value)))
    return None if odds is None else odds.words()
