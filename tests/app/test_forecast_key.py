"""What the coming asaltos hold (issue 37 item 4), on a key: l opens the engine's
forecast (conditions ending, bleeding due, extended TAs, the DJ's notes) asalto by
asalto, in the DJ's language, at 80x24 and 120x40; l (or Escape) closes it."""

from __future__ import annotations

import pytest

from sombra_tui.engine import commands as c
from sombra_tui.screens.dialogs.forecast import ForecastDialog
from sombra_tui.session import Session
from tests.app.conftest import MIN_SIZE, SIZE, make_app
from tests.app.layout_states import ahead_round, wounded_combat

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


AHEAD = {
    "en": ["Asalto 3", 'Lucía: TA of "abre la verja" (2 successes to go)  (extended phase)',
           "Asalto 5", 'Lucía: TA of "abre la verja" (1 success to go)  (extended phase)',
           "Asalto 6", "Bruno bleeds 1 point (chest)  (at its end)",
           "Later", "Asalto 9: amanece  (players see it)",
           "No end in sight", "Iker is out until the DJ brings them back"],
    "es": ["Asalto 3", "Lucía: TA de «abre la verja» (faltan 2 éxitos)  (fase extendida)",
           "Asalto 5", "Lucía: TA de «abre la verja» (falta 1 éxito)  (fase extendida)",
           "Asalto 6", "Bruno sangra 1 punto (pecho)  (al final)",
           "Más tarde", "Asalto 9: amanece  (los jugadores la ven)",
           "Sin final a la vista", "Iker está fuera de combate hasta que el DJ lo devuelva "
           "al combate"],
}


@pytest.mark.parametrize("size", [SIZE, MIN_SIZE], ids=["120x40", "80x24"])
@pytest.mark.parametrize("language", ["en", "es"])
async def test_h9_e3_p5_each_kind_of_line_in_the_djs_language(
        language: str, size: tuple[int, int]) -> None:
    """Asalto 2: the extended TAs due (E3: two, then none while it may be done), the
    bleeding point due (H9), the DJ's note pinned past the five asaltos (Later), who is
    out with no end in sight (P4, P5: so no extended TA of theirs), in order."""
    app = make_app(Session(ahead_round()), journal=False, language=language)
    async with app.run_test(size=size) as pilot:
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, ForecastDialog)
        lines = [line.removeprefix("• ") for line in app.screen.shown().split("\n") if line]
        assert lines == AHEAD[language]


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
