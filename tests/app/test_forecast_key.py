"""What the coming asaltos hold (issue 37 item 4), on a key: l opens the engine's
forecast (conditions ending, bleeding due, extended TAs, the DJ's notes) asalto by
asalto, in the DJ's language, at 80x24 and 120x40; l (or Escape) closes it."""

from __future__ import annotations

import pytest

from sombra_tui.engine import commands as c
from sombra_tui.screens.dialogs.forecast import ForecastDialog
from sombra_tui.session import Session
from tests.app.conftest import MIN_SIZE, SIZE, make_app
from tests.app.layout_states import wounded_combat

SAID = {
    "en": ["Asalto 1 (this one)", "se va la luz", "Asalto 2", "llegan los guardias",
           "Asalto 3", "aturdido ends for Matón", "Asalto 4",
           "dolor intenso ends for Carla"],
    "es": ["Asalto 1 (este)", "se va la luz", "Asalto 2", "llegan los guardias",
           "Asalto 3", "aturdido termina para Matón", "Asalto 4",
           "dolor intenso termina para Carla"],
}


@pytest.mark.parametrize("size", [SIZE, MIN_SIZE], ids=["120x40", "80x24"])
@pytest.mark.parametrize("language", ["en", "es"])
async def test_n_shows_what_the_coming_asaltos_hold(language: str,
                                                    size: tuple[int, int]) -> None:
    combat = wounded_combat()
    combat.execute(c.AddNote(round=1, text="se va la luz"))
    combat.execute(c.AddNote(round=2, text="llegan los guardias"))
    app = make_app(Session(combat), journal=False, language=language)
    async with app.run_test(size=size) as pilot:
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, ForecastDialog)
        shown = app.screen.shown()
        at = [shown.index(words) for words in SAID[language]]
        assert at == sorted(at), shown  # asalto by asalto, in order
        assert "sangra" not in shown and "bleeds" not in shown  # not before asalto 6 (H9)
        before = len(app.session.combat.commands)
        await pilot.press("l")
        await pilot.pause()
        assert app.screen is app.main_screen
        assert len(app.session.combat.commands) == before  # reading changes nothing


async def test_nothing_due_is_said() -> None:
    app = make_app(journal=False, language="en")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, ForecastDialog)
        assert "Nothing is due in the next 5 asaltos." in app.screen.shown()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.main_screen



@pytest.mark.parametrize(("language", "said"), [
    ("en", "**◆** something is due for this character this asalto"),
    ("es", "**◆** algo le toca a este personaje este asalto")])
def test_the_help_says_what_the_table_s_due_mark_means(language: str, said: str) -> None:
    """Issue 37 item 4: the table's ◆ (row_marks.DUE) is explained in the help's legend
    of the table's marks, in the DJ's language."""
    from sombra_tui.engine import i18n
    from sombra_tui.screens.dialogs.help import help_text
    from sombra_tui.widgets.row_marks import DUE

    i18n.set_language(language)
    text = help_text()
    assert DUE.glyph == "◆" and said in text
