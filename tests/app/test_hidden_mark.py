"""A character hidden from the players shows as a mark in the DJ's table (issue 39 item
7): "◌" in the marks column, beside "▶", for a character the players' view leaves out,
and for nobody else; the help's legend says what it means, in both languages. Played
by keys: the DJ hides Bruno (V) and shows him again (v)."""

from __future__ import annotations

import pytest

from sombra_tui.engine import commands as c
from sombra_tui.engine import i18n
from sombra_tui.screens.dialogs.help import help_text
from sombra_tui.widgets.initiative_table import MARKER, InitiativeTable
from sombra_tui.widgets.row_marks import HIDDEN, NOW
from tests.app.conftest import MIN_SIZE, SIZE, make_app, session_after, worked_example_encounter

LEGEND = {"en": "hidden from the players", "es": "oculto a los jugadores"}


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("size", [SIZE, MIN_SIZE])
async def test_a_hidden_character_carries_the_mark_and_nobody_else(
        language: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)
    app = make_app(session_after(worked_example_encounter(), c.StartCombat()),
                   journal=False, language=language)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        table = app.main_screen.query_one(InitiativeTable)

        def marks(name: str) -> str:
            return table.get_row(name)[MARKER].plain

        assert [marks(name) for name in ("Ana", "Bruno", "Carla")] == [NOW.glyph, "", ""]
        await pilot.press("down")  # Bruno's row (Ana declares first, I3)
        assert table.selected_name == "Bruno"
        await pilot.press("V")  # the DJ hides him from the players
        await pilot.pause()
        assert "Bruno" in app.session.combat.state.concealed
        assert marks("Bruno") == HIDDEN.glyph
        assert [marks("Ana"), marks("Carla")] == [NOW.glyph, ""]
        # Nothing is cut: the columns still fit the panel.
        assert table._layout.total <= table.scrollable_content_region.width
        assert "Bruno" not in {row.name for row in app.session.players_snapshot().characters}
        await pilot.press("v")  # shown again: the mark goes
        await pilot.pause()
        assert marks("Bruno") == ""
        await pilot.press("u")  # undo brings the concealment, and the mark, back
        await pilot.pause()
        assert marks("Bruno") == HIDDEN.glyph


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_help_s_legend_says_what_the_hidden_mark_means(
        language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)
    [line] = [line for line in help_text().splitlines() if HIDDEN.glyph in line]
    assert LEGEND[language] in line
