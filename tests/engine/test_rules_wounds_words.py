"""H2, H3, H10: the wounds' tables and refusals word for word: the default damage types, a
damage's working as the log shows it, a typed damage's check, an unknown type or a
location value out of range; a limb's grade keeps its side.

Written against the mutation lane's survivors in wounds.py (README, "The mutation
lane").
"""

from __future__ import annotations

import pytest

from sombra_tui.engine import Dice
from sombra_tui.engine.commands import ManualHit
from sombra_tui.engine.conditions import ActionScope, BodySide, ScopeKind
from sombra_tui.engine.wounds import (
    MAX_DAMAGE,
    DamageSource,
    Location,
    WoundError,
    WoundSettings,
    damage_for,
    default_damage_types,
    location_value,
    wound_grades,
)
from tests.engine.conftest import char, started


def test_h3_the_default_damage_types_are_the_rules_table() -> None:
    """H3: tipo 0 = d- non-lethal, I = d+ lethal, II = d+ + d- lethal; III-VIII have no
    formula (the DJ types the damage) and are lethal."""
    table = [(t.id, t.formula, t.lethal) for t in default_damage_types()]
    assert table[:4] == [("0", "d-", False), ("I", "d+", True), ("II", "d+ + d-", True),
                         ("III", None, True)]
    assert [t.id for t in default_damage_types()] == [
        "0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII"]


def test_h3_a_damage_shows_its_formula_dice_and_result_once_each() -> None:
    """H3: tipo II over d+ 7, d- 4 is "d+ + d- = 7 + 4 = 11"; the result the DJ settles
    on replaces the formula's; a typed damage keeps the formula and the dice it was
    typed against, and shows no result of its own."""
    dice = Dice.of(2, 7, 4)
    settings = WoundSettings()
    formula = damage_for(settings.damage_type("II"), dice)
    assert (formula.value, formula.source, formula.raw) == (11, DamageSource.FORMULA, 11)
    assert formula.working() == "d+ + d- = 7 + 4 = 11"
    assert formula.working(3) == "d+ + d- = 7 + 4 = 3"
    typed = damage_for(settings.damage_type("I"), dice, typed=9)
    assert (typed.value, typed.source, typed.formula, typed.substituted, typed.raw) == (
        9, DamageSource.TYPED, "d+", "7", None)
    assert typed.working() == "d+ = 7"


def test_h3_a_typed_damage_out_of_range_is_refused_naming_it() -> None:
    """H3: a typed damage beyond MAX_DAMAGE is refused, saying it is the damage."""
    with pytest.raises(WoundError) as info:
        damage_for(WoundSettings().damage_type("I"), Dice.of(2, 7, 4), typed=MAX_DAMAGE + 1)
    assert (info.value.code, str(info.value)) == (
        "wounds.bad_points",
        f"The damage must be a whole number from 0 to {MAX_DAMAGE}, not {MAX_DAMAGE + 1}.")


def test_h3_an_unknown_damage_type_is_refused_listing_the_types() -> None:
    """H3: the types are 0 and I to VIII; another is refused naming it and them."""
    with pytest.raises(WoundError) as info:
        WoundSettings().damage_type("IX")
    assert (info.value.code, info.value.params, str(info.value)) == (
        "wounds.unknown_type",
        {"type": "IX", "names": "0, I, II, III, IV, V, VI, VII, VIII"},
        "There is no damage type 'IX': the types are 0, I, II, III, IV, V, VI, VII, VIII.")


@pytest.mark.parametrize("ds", [11, -1, True])
def test_h2_a_location_value_out_of_range_is_refused_naming_it(ds: int) -> None:
    """H2: a location value is a dS from 1 to 10 (or 0); another is refused, named."""
    with pytest.raises(WoundError) as info:
        location_value(ds)
    assert (info.value.code, info.value.params, str(info.value)) == (
        "wounds.location_value", {"value": repr(ds)},
        f"A location value is a dS from 1 to 10 (or 0), not {ds!r}.")


def test_h10_a_limbs_wound_grade_keeps_its_side() -> None:
    """H10: a grave wound to the left arm adds its grade to that arm's TAs, and the
    breakdown names the side."""
    combat = started(char("Ana", 8, resistencia=5))
    combat.execute(ManualHit(character="Ana", location=Location.BRAZO_IZQUIERDO, damage=12))
    wounds = combat.state.body("Ana").wounds
    [entry] = wound_grades(wounds, ActionScope(arms=frozenset({BodySide.LEFT})))
    assert (entry.gd, entry.scope, entry.side, entry.name, entry.severity) == (
        1, ScopeKind.ARM, BodySide.LEFT, "left arm", "grave")
