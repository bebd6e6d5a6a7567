"""H2-H4, H6, H12, C1, C3, T8: bounds, settings and refusals of wounds, conditions and
the DJ's free TA, exactly.

Written against the mutation lane's survivors (README, "Mutation testing").
"""

from __future__ import annotations

import pytest

from sombra_tui.engine.commands import FreeTA
from sombra_tui.engine.conditions import (
    ActionScope,
    BodySide,
    Condition,
    ConditionEffects,
    ConditionError,
    ConditionSource,
    ConditionSpec,
    GdEffect,
    ScopeKind,
    SourceKind,
    builtin,
    condition_grades,
    severity_label,
)
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.rules.resolution import free_ta_roll
from sombra_tui.engine.wounds import (
    MAX_DAMAGE,
    MAX_POINTS,
    Counters,
    DamageType,
    Location,
    SideMapping,
    WoundSettings,
    heal_golpe,
    heal_herida,
    tipo_iv_prefill,
)
from tests.engine.conftest import char, dice, started


def test_h6_h12_healing_takes_any_count_of_points_up_to_the_counters_bound() -> None:
    """H6, H12: the DJ heals any number of points the counters can hold (more than one
    hit's damage can be); beyond, the refusal names the healing and the bound."""
    many = MAX_DAMAGE + 1
    left = MAX_POINTS - many
    assert heal_herida(Counters(g=MAX_POINTS, w=MAX_POINTS), many) == Counters(g=left,
                                                                             w=left)
    assert heal_golpe(Counters(g=MAX_POINTS, w=0), many) == Counters(g=left, w=0)
    for heal in (heal_golpe, heal_herida):
        with pytest.raises(SombraError) as info:
            heal(Counters(), MAX_POINTS + 1)
        assert info.value.code == "wounds.bad_points"
        assert str(info.value) == (f"The healing must be a whole number from 0 to "
                                   f"{MAX_POINTS}, not {MAX_POINTS + 1}.")


@pytest.mark.parametrize(("mapping", "ds", "location"), [
    (SideMapping.EVEN_LEFT, 4, Location.BRAZO_IZQUIERDO),
    (SideMapping.EVEN_RIGHT, 4, Location.BRAZO_DERECHO),
    (SideMapping.EVEN_RIGHT, 9, Location.PIERNA_IZQUIERDA),
    (SideMapping.EVEN_LEFT, 10, Location.CABEZA),
])
def test_h4_h2_the_tipo_iv_list_starts_at_the_ds_location_by_the_sides_setting(
        mapping: SideMapping, ds: int, location: Location) -> None:
    """H4: the list the DJ fills is pre-filled with the dS location, read with the
    encounter's sides (H2 Interpretation setting), and no damage until typed."""
    [entry] = tipo_iv_prefill(dice(ds, 5, 5), WoundSettings(side_mapping=mapping))
    assert (entry.location, entry.damage) == (location, 0)


def test_h3_writing_one_damage_type_keeps_the_others() -> None:
    """H3: the DJ writes one type's formula; the rest of the table is unchanged."""
    settings = WoundSettings()
    entry = DamageType(id="III", formula="d+ * 2", lethal=True)
    changed = settings.with_damage_type(entry)
    assert [t.id for t in changed.damage_types] == [t.id for t in settings.damage_types]
    for old, new in zip(settings.damage_types, changed.damage_types, strict=True):
        assert new == (entry if old.id == "III" else old)


def test_c3_asaltos_left_below_one_is_refused_naming_the_condition() -> None:
    """C3: editing the asaltos left to under 1 is refused: removing ends it now."""
    aturdido = Condition(name="aturdido", duration=2, began=3)
    assert aturdido.duration_for_left(4, 1) == 1
    with pytest.raises(ConditionError) as info:
        aturdido.duration_for_left(4, 0)
    assert (info.value.code, info.value.params, info.value.field) == (
        "condition.too_short", {"name": "aturdido", "left": 0}, "left")


def test_c1_a_condition_a_rule_proposed_says_so() -> None:
    """C1: a condition's source: a rule's (H7), not the DJ's."""
    source = ConditionSource.of_rule("H7")
    assert (source.kind, source.rule) == (SourceKind.RULE, "H7")
    assert severity_label("a la pata coja") == "a la pata coja"


def test_t8_t3_t4_a_free_ta_uses_the_encounters_points_per_grade_and_quality() -> None:
    """T8: the DJ's free TA is a TA like any other: the encounter's points per GD (T3)
    and its niveles de calidad setting (T4) apply."""
    combat = started(char("Ana", 8), points_per_gd=3, niveles_de_calidad=False)
    result, _, target = free_ta_roll(combat.state, FreeTA(character="Ana", target=12, gd=2,
                                                          dice=dice(1, 1, 1)))
    assert result is not None and target == 12
    assert (result.total, result.points_per_gd, result.quality) == (9, 3, None)


@pytest.mark.parametrize(("effect", "label"), [
    (GdEffect(scope=ScopeKind.ANY, gd=1), "every TA"),
    (GdEffect(scope=ScopeKind.PHYSICAL, gd=1), "physical actions"),
    (GdEffect(scope=ScopeKind.ARM, side=BodySide.LEFT, gd=1), "left arm"),
])
def test_c1_h10_a_grade_names_its_scope(effect: GdEffect, label: str) -> None:
    """C1, H10: a condition's grade applies to every TA, to physical actions or to one
    limb's, and says which."""
    assert effect.scope_label() == label


def test_h10_a_limbs_grade_keeps_its_side() -> None:
    """H10: the breakdown of a TA names the limb of a condition's grade."""
    cast = Condition(name="escayola", began=0, effects=ConditionEffects(gd=(
        GdEffect(scope=ScopeKind.ARM, side=BodySide.LEFT, gd=2),)))
    [entry] = condition_grades([cast], 1, ActionScope(arms=frozenset({BodySide.LEFT})))
    assert (entry.gd, entry.scope, entry.side, entry.name) == (
        2, ScopeKind.ARM, BodySide.LEFT, "escayola")


def test_h9_dolor_intenso_adds_no_grade_unless_the_setting_says() -> None:
    """H9 (Interpretation, a setting): dolor intenso adds 0 GD by default."""
    spec = ConditionSpec(name="dolor intenso")
    assert spec.start(began=1, source=ConditionSource()).effects.gd == ()
    assert spec.start(began=1, source=ConditionSource(),
                      dolor_intenso_gd=1).effects.gd != ()


def test_c2_the_built_in_conditions_refuse_what_they_cannot_be() -> None:
    """C2: muerto never expires (no duration); a name that is not built in is refused,
    listing those that are. A built-in condition not yet on anyone has no id (0)."""
    with pytest.raises(ConditionError) as info:
        builtin("muerto", began=1, duration=2)
    assert (info.value.code, info.value.params, str(info.value)) == (
        "condition.permanent", {"name": "muerto"},
        "muerto never expires, so it takes no duration.")
    names = "aturdido, inconsciente, dolor intenso, desarmado, sangrando, muerto"
    with pytest.raises(ConditionError) as info:
        builtin("cojo", began=1)
    assert (info.value.code, info.value.params, str(info.value)) == (
        "condition.unknown_builtin", {"name": "cojo", "names": names},
        f"'cojo' is not a built-in condition; built in are {names}.")
    assert builtin("aturdido", began=0).id == 0
