"""C3 on the screen: at the end of a round, that asalto is spent; the table and the
sheet count a condition's asaltos left from the next one (issue 22: the old count
showed during the end of the round)."""

from __future__ import annotations

import pytest

from sombra_tui.engine import i18n
from sombra_tui.engine.commands import AddCondition
from sombra_tui.engine.conditions import ATURDIDO, builtin
from sombra_tui.engine.state import Phase
from sombra_tui.screens.dialogs.sheet import CharacterSheet
from sombra_tui.session import Session
from sombra_tui.widgets.initiative_table import InitiativeTable
from tests.app.conftest import SIZE, make_app
from tests.engine.conftest import advance_to, char, declare_all_inaction, started


def at_the_end_of_round_two() -> Session:
    """Bruno aturdido for rounds 2 and 3 (begun in round 1); round 2's actions over."""
    combat = started(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12))
    combat.execute(AddCondition(character="Bruno",
                                condition=builtin(ATURDIDO, began=0, duration=2)))
    for _round in (1, 2):
        declare_all_inaction(combat)
        advance_to(combat, Phase.END_OF_ROUND)
        if _round == 1:
            advance_to(combat, Phase.DECLARATION)
    assert (combat.state.round, combat.state.phase) == (2, Phase.END_OF_ROUND)
    return Session(combat)


@pytest.mark.parametrize(("language", "in_sheet"), [("en", "1 asalto left"),
                                                    ("es", "queda 1 asalto")])
async def test_the_end_of_a_round_shows_the_asaltos_still_to_come(language: str,
                                                                   in_sheet: str) -> None:
    app = make_app(at_the_end_of_round_two(), journal=False, language=language)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.main_screen.query_one(InitiativeTable)
        assert "aturdido 1" in table.get_row("Bruno")[3].plain
        table.select_name("Bruno")
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, CharacterSheet)
        assert i18n.language() == language
        sheet = " ".join(str(option.prompt) for option in app.screen.query_one(
            "OptionList").options)  # type: ignore[attr-defined]
        assert in_sheet in sheet, sheet
