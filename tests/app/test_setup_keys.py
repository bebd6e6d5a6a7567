"""Issue 39 item 1: a table's set-up in a third of the keys. The same encounter (three
PCs with skills and a weapon each, then "4 Matón") typed by keyboard as a DJ would,
every key counted: at most 120 (the issue measured 363 before)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from sombra_tui.engine.model import Side
from sombra_tui.screens.dialogs.character import CharacterEditor
from sombra_tui.screens.dialogs.new_encounter import NewEncounterDialog
from tests.app.conftest import SIZE, make_app
from tests.app.test_at_the_table import on_main_screen

#: The goal of issue 39 item 1.
MOST_KEYS = 120


class Keys:
    """Presses keys as the DJ does, one by one, and counts them."""

    def __init__(self, pilot: Pilot[Any]) -> None:
        self.pilot = pilot
        self.count = 0

    async def __call__(self, *keys: str) -> None:
        self.count += len(keys)
        await self.pilot.press(*keys)


#: What the DJ types for each character once its dialog is open (a), before enter:
#: name, primaria, secundaria, Alerta, skills, weapon. Right takes a completion: a skill
#: or weapon already in the encounter, or after a comma the next skill not listed.
ANA = ["a", *"Ana", "tab", *"12", "tab", "5", "tab", *"11",
       "tab", *"Pelea 14, Sigilo 11", "tab", *"pistola II", "enter"]
IKER = ["a", *"Iker", "tab", *"10", "tab", "3", "tab", *"12",
        "tab", *"Pe", "right", *"13,", "right", *"12", "tab", "p", "right", "enter"]
EVA = ["a", *"Eva", "tab", *"9", "tab", "6", "tab", *"13",
       "tab", *"Si", "right", *"14,", "right", *"10", "tab", "p", "right", "enter"]
#: The first NPC: the cursor is on a PC's row, ctrl+t takes the other side.
MATONES = ["a", *"4 Matón", "ctrl+t", "tab", "9", "tab", "2", "tab", *"10", "enter"]


@pytest.mark.parametrize("language", ["en", "es"])
async def test_three_pcs_and_four_matones_take_at_most_120_keys(
        language: str, request: pytest.FixtureRequest) -> None:
    """ctrl+n, enter (the offered name), three PCs (the first character is a PC, the
    next take the cursor's row's side) and 4 Matón (ctrl+t: NPC), counted key by key."""
    if language == "es":
        request.getfixturevalue("spanish")
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        keys = Keys(pilot)
        await keys("ctrl+n")
        assert isinstance(app.screen, NewEncounterDialog)
        await keys("enter")
        for typed in (ANA, IKER, EVA, MATONES):
            await keys(typed[0])
            assert isinstance(app.screen, CharacterEditor)
            await keys(*typed[1:])
            assert on_main_screen(app), f"{typed[1:4]} left the dialog open"
        state = app.session.combat.state
        assert [(ch.name, ch.side) for ch in state.characters] == [
            ("Ana", Side.PC), ("Iker", Side.PC), ("Eva", Side.PC), ("Matón 1", Side.NPC),
            ("Matón 2", Side.NPC), ("Matón 3", Side.NPC), ("Matón 4", Side.NPC)]
        sheets = {ch.name: ch for ch in state.characters}
        assert sheets["Ana"].skills == {"Pelea": 14, "Sigilo": 11}
        assert sheets["Iker"].skills == {"Pelea": 13, "Sigilo": 12}
        assert sheets["Eva"].skills == {"Sigilo": 14, "Pelea": 10}
        assert all([w.name for w in sheets[name].weapons] == ["pistola"]
                   for name in ("Ana", "Iker", "Eva"))
        assert (sheets["Eva"].primaria, sheets["Eva"].secundaria, sheets["Eva"].alerta) \
            == (9, 6, 13)
        assert (sheets["Matón 4"].primaria, sheets["Matón 4"].alerta) == (9, 10)
    print(f"set-up keys ({language}): {keys.count}")
    assert keys.count <= MOST_KEYS
