"""H12 and C2 edits from the character sheet (e), the DJ's free TA with wound grades
(H10), and the sheet's lists typed in the DJ's language."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import OptionList

from sombra_tui.engine import commands as c
from sombra_tui.engine.conditions import builtin
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.model import Encounter, Settings
from sombra_tui.engine.wounds import Location, Severity, Weapon
from sombra_tui.screens.dialogs.condition import EditConditionDialog
from sombra_tui.screens.dialogs.free_ta import FreeTADialog
from sombra_tui.screens.dialogs.lists import format_protection, parse_protection
from sombra_tui.screens.dialogs.parsing import (
    FormError,
    format_weapons,
    parse_grades,
    parse_weapons,
)
from sombra_tui.screens.dialogs.sheet import CharacterSheet
from sombra_tui.screens.dialogs.wound_edit import WoundDialog
from tests.app.conftest import (
    char,
    choose,
    field_error,
    fill,
    make_app,
    session_after,
    text_of,
)

SIZE = (120, 40)


def encounter() -> Encounter:
    return Encounter(name="Heridas", seed=1, settings=Settings(), characters=[
        char("Ana", 8, 3, 14, resistencia=6, skills={"Pelea": 12}),
        char("Bruno", 12, 5, 12, resistencia=7, skills={"Armas": 15},
             weapons=[Weapon(name="pistol", damage_type="II")])])


def sheet_items(pilot_app: Any) -> str:
    items = pilot_app.screen.query_one(OptionList)
    return "\n".join(str(items.get_option_at_index(i).prompt)
                     for i in range(items.option_count))


async def highlight(pilot: Pilot[Any], index: int) -> None:
    items = pilot.app.screen.query_one(OptionList)
    await pilot.press("home", *["down"] * index)
    assert items.highlighted == index


async def test_the_sheet_edits_a_wound_and_refuses_a_bad_grade_keeping_the_form() -> None:
    """H12: e on a wound changes any value, as one undoable command logged as the DJ's."""
    session = session_after(encounter(), c.ManualHit(character="Bruno", location=Location.PECHO,
                                                     damage=14))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        [wound] = combat.state.body("Bruno").wounds
        assert wound.severity is Severity.GRAVE and wound.bleeding
        await pilot.press("down")  # Bruno
        await pilot.press("w")
        assert isinstance(app.screen, CharacterSheet)
        await highlight(pilot, 0)
        await pilot.press("e")
        assert isinstance(app.screen, WoundDialog)
        await fill(pilot, "damage", "9")
        await choose(pilot, "severity", Severity.LEVE.value)
        await fill(pilot, "grades", "+1 elbow")
        await pilot.press("enter")
        assert isinstance(app.screen, WoundDialog)  # refused, naming the problem
        assert "'+1 elbow'" in field_error(app, "grades")
        assert app.screen.value("damage") == "9"  # nothing typed is lost
        await fill(pilot, "grades", "+1 physical actions, +2 left leg")
        await fill(pilot, "rate", "")
        await pilot.press("enter")
        assert isinstance(app.screen, CharacterSheet)
        [edited] = combat.state.body("Bruno").wounds
        assert (edited.id, edited.damage, edited.severity) == (wound.id, 9, Severity.LEVE)
        assert [(g.scope.value, g.gd) for g in edited.gd] == [("physical", 1), ("leg", 2)]
        assert not edited.bleeding
        assert str(combat.state.body("Bruno").counters) == "G 14 / W 14"  # counters stay
        assert "chest 9 lethal, light" in sheet_items(app)
        [event] = [e for e in combat.log if e.code == "wound.edited"]
        assert event.override and event.actor == "Bruno"
        await pilot.press("escape", "u")
        assert combat.state.body("Bruno").wounds == (wound,)


async def test_the_sheet_edits_a_conditions_asaltos_left() -> None:
    """C2, C3: the asaltos left typed are the rounds the condition still covers."""
    session = session_after(encounter(), c.StartCombat(),
                            c.AddCondition(character="Ana",
                                           condition=builtin("aturdido", began=0, duration=2)))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        assert combat.state.round == 1
        [aturdido] = combat.state.body("Ana").conditions
        assert aturdido.rounds_left(1) == 2  # begun in round 1: rounds 2 and 3
        await pilot.press("home", "w")
        assert isinstance(app.screen, CharacterSheet) and app.screen.name_ == "Ana"
        await highlight(pilot, 0)
        await pilot.press("e")
        assert isinstance(app.screen, EditConditionDialog)
        assert app.screen.value("left") == "2"
        await fill(pilot, "left", "5")
        await pilot.press("enter")
        [edited] = combat.state.body("Ana").conditions
        assert edited.rounds_left(1) == 5 and edited.last_round == 6
        assert edited.effects == aturdido.effects
        assert "aturdido (5 asaltos left)" in sheet_items(app)
        assert any(e.code == "condition.edited" for e in combat.log)


async def test_the_free_ta_shows_and_logs_the_wound_grades_of_what_it_uses() -> None:
    """H10: the free TA's preview names the wound; 'legs' leaves the arm wound out."""
    session = session_after(encounter(), c.ManualHit(character="Ana",
                                                     location=Location.BRAZO_DERECHO, damage=6))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        await pilot.press("f")
        assert isinstance(app.screen, FreeTADialog)
        await fill(pilot, "target", "20")
        await fill(pilot, "dice", "1 1 1")
        preview = text_of(app, "#ta-preview")
        assert "right arm" in preview and "+1" in preview
        await choose(pilot, "scope", "legs")
        assert "right arm" not in text_of(app, "#ta-preview")
        await choose(pilot, "scope", "default")
        await fill(pilot, "label", "first aid")
        await pilot.press("enter")
        assert app.screen is app.main_screen
        [ta] = [e for e in combat.log if e.kind is EventKind.TA]
        assert ta.ta is not None and ta.ta.gd == 1
        assert ta.gd is not None and "right arm" in ta.gd.describe()


def test_weapons_and_protection_are_read_and_written_in_spanish(spanish: str) -> None:
    """The sheet's lists in the DJ's language: "no letal" is two words, "pecho" a label."""
    weapons = parse_weapons("puños 0 no letal, porra 0 letal, pistola II")
    assert [(w.name, w.damage_type, w.lethal) for w in weapons] == [
        ("puños", "0", False), ("porra", "0", True), ("pistola", "II", None)]
    assert format_weapons(weapons) == "puños 0 no letal, porra 0 letal, pistola II"
    assert parse_weapons(format_weapons(weapons)) == weapons
    protection = parse_protection("pecho 2, brazo derecho 1")
    assert protection == {Location.PECHO: 2, Location.BRAZO_DERECHO: 1}
    assert parse_protection(format_protection(protection)) == protection
    try:
        parse_protection("codo 2")
    except FormError as error:
        assert "'codo 2'" in error.message and "pecho" in error.message
    else:
        raise AssertionError("an unknown location is refused")
    assert [(g.scope.value, g.side, g.gd) for g in parse_grades("+1 brazo derecho", "g")] == [
        ("arm", "right", 1)]
