"""C3, C4, H9: conditions and wounds in time: an out condition that ends brings its
character back; a declarer stopped by two conditions declares inaction naming both
(agreeing in Spanish); a wound bleeds from the round after it, never in its own.

Written against the mutation lane's survivors in rules/conditions.py and wounds.py
(README, "The mutation lane").
"""

from __future__ import annotations

from sombra_tui.engine import Advance, EventKind, Phase
from sombra_tui.engine.commands import AddCondition
from sombra_tui.engine.conditions import Condition, ConditionEffects, builtin
from sombra_tui.engine.i18n import set_language
from sombra_tui.engine.wounds import Location, Severity, Wound, bleeds_at_end_of
from tests.engine.conftest import (
    advance_to,
    char,
    declare,
    declare_all_inaction,
    events_of,
    started,
)


def test_c3_c4_an_out_condition_that_ends_brings_its_character_back() -> None:
    """C3, C4/P4: Ana inconsciente for one asalto (covering round 2, C3) is out until it
    ends at the end of round 2; then she is back in the combat, logged after the end."""
    combat = started(char("Ana", 8), char("Bruno", 12))
    combat.execute(AddCondition(character="Ana",
                                condition=builtin("inconsciente", began=1, duration=1)))
    assert combat.state.out == ["Ana"]
    for _ in range(2):
        declare_all_inaction(combat)
        advance_to(combat, Phase.END_OF_ROUND)
        if combat.state.round == 1:
            combat.execute(Advance())
    assert combat.state.out == []
    assert [(e.actor, e.rule, e.text) for e in events_of(combat)
            if e.rule in ("C3", "P4")][-2:] == [
        ("Ana", "C3", "Ana's inconsciente ends."), ("Ana", "P4", "Ana is back in the combat.")]


def test_c4_a_declarer_stopped_by_two_conditions_declares_inaction_naming_both(
        spanish: str) -> None:
    """C4/D1: Ana, atada and aturdida, can only declare inaction when her turn comes; the
    line names both conditions, agreeing with her in Spanish."""
    combat = started(char("Bruno", 8), char("Ana", 12, gender="femenino"))
    combat.execute(AddCondition(character="Ana", condition=Condition(
        name="atada", began=1, effects=ConditionEffects(cannot_act=True))))
    combat.execute(AddCondition(character="Ana", condition=builtin("aturdido", began=1)))
    events = declare(combat, "Bruno")
    [line] = [e for e in events if e.kind is EventKind.SKIPPED]
    assert (line.actor, line.rule, line.text) == (
        "Ana", "C4", "Ana está atada, aturdida: declara inacción.")
    set_language("en")
    assert line.text == "Ana is atada, aturdido: declares inaction."


def test_h9_a_wound_bleeds_from_the_round_after_it() -> None:
    """H9: a wound bleeding a point every asalto, taken in round 1, loses none at the end
    of round 1 and its first at the end of round 2."""
    wound = Wound(id=1, location=Location.PECHO, damage=10, lethal=True,
                  severity=Severity.GRAVE, round=1, bleed_rate=1)
    assert (bleeds_at_end_of(wound, 1), bleeds_at_end_of(wound, 2)) == (False, True)
