"""H1-H12: hits and wounds, checked rule by rule against RULES.md (wounds.py).

The last part plays RULES.md's "Worked example (H, C)" through these functions.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from sombra_tui.engine.conditions import (
    ATURDIDO,
    DESARMADO,
    DOLOR_INTENSO,
    INCONSCIENTE,
    MUERTO,
    SANGRANDO,
    ActionScope,
    BodySide,
    ConditionSource,
    ConditionSpec,
    GdEffect,
    ScopeKind,
    builtin,
    can_act,
    can_react,
    condition_grades,
    end_of_round,
    total_gd,
)
from sombra_tui.engine.dice import Dice
from sombra_tui.engine.wounds import (
    MAX_DAMAGE,
    TIPOS,
    Consequences,
    Counters,
    DamageSource,
    DamageType,
    LocatedDamage,
    Location,
    Severity,
    SeverityReading,
    SideMapping,
    Weapon,
    WoundError,
    WoundSettings,
    apply_damage,
    assess,
    attend,
    bleed_at_end_of_round,
    bleed_point,
    bleed_rounds,
    consequences_of,
    damage_for,
    heal_golpe,
    heal_herida,
    lethal_for,
    location_of_value,
    location_value,
    merge_by_location,
    new_wound,
    next_wound_id,
    protected_damage,
    pv_for,
    read_hit,
    severity_of,
    ta_grades,
    threshold_conditions,
    thresholds,
    tipo_iv_count,
    tipo_iv_prefill,
    values_of,
    wound_grades,
)

DEFAULT = WoundSettings()
LEFT, RIGHT = BodySide.LEFT, BodySide.RIGHT
L = Location


def tipo(tipo_id: str, wound_settings: WoundSettings = DEFAULT) -> DamageType:
    return wound_settings.damage_type(tipo_id)


# ------------------------------------------------------------------------------ H1


def test_h1_a_hit_reads_location_from_ds_and_damage_from_d_plus_d_minus() -> None:
    # Same dS, different d+/d-: same location, different damage; nothing new is rolled.
    first = read_hit(Dice.of(2, 9, 4), tipo("II"), DEFAULT, resistencia=5)
    second = read_hit(Dice.of(2, 3, 1), tipo("II"), DEFAULT, resistencia=5)
    assert first.location is second.location is L.PECHO
    assert (first.damage.value, second.damage.value) == (13, 4)
    assert first.dice == Dice.of(2, 9, 4)


def test_h1_a_typed_damage_always_wins_over_the_formula() -> None:
    typed = damage_for(tipo("II"), Dice.of(5, 8, 3), typed=2)
    assert (typed.value, typed.source) == (2, DamageSource.TYPED)
    assert typed.formula == "d+ + d-"  # still shown, for the log
    # ... even where there is no formula at all.
    assert damage_for(tipo("V"), Dice.of(5, 8, 3), typed=9).value == 9
    hit = read_hit(Dice.of(5, 8, 3), tipo("II"), DEFAULT, resistencia=7, damage=21)
    assert hit.assessment is not None
    assert (hit.assessment.damage, hit.assessment.severity) == (21, Severity.GRAVE)


def test_h1_the_dj_overrides_location_lethality_and_severity() -> None:
    hit = read_hit(Dice.of(5, 8, 3), tipo("II"), DEFAULT, resistencia=7,
                   location=L.CABEZA, lethal=False, severity=Severity.GRAVE)
    assert hit.location is L.CABEZA and hit.location_overridden
    assert hit.location_value == 5  # what the dice said stays visible
    assert hit.lethal is False
    assert hit.assessment is not None
    assert hit.assessment.severity is Severity.GRAVE and hit.assessment.severity_overridden
    not_overridden = read_hit(Dice.of(5, 8, 3), tipo("II"), DEFAULT, resistencia=7,
                              location=L.BRAZO_DERECHO, severity=Severity.LEVE)
    assert not not_overridden.location_overridden
    assert not_overridden.assessment is not None
    assert not not_overridden.assessment.severity_overridden


def test_h1_a_weapon_names_a_damage_type_and_may_override_lethality() -> None:
    porra = Weapon(name="porra", damage_type="I", lethal=False)
    assert lethal_for(tipo(porra.damage_type), porra) is False
    assert lethal_for(tipo("I"), Weapon(name="cuchillo", damage_type="I")) is True
    assert lethal_for(tipo("0"), Weapon(name="puño", damage_type="0")) is False
    assert lethal_for(tipo("0"), porra, override=True) is True  # the DJ wins (H12)
    hit = read_hit(Dice.of(5, 8, 3), tipo("I"), DEFAULT, resistencia=7, weapon=porra)
    assert hit.lethal is False


# ------------------------------------------------------------------------------ H2


@pytest.mark.parametrize(
    ("ds", "even_left", "even_right"),
    [
        (10, L.CABEZA, L.CABEZA),  # a 10 is read as 0
        (1, L.PECHO, L.PECHO),
        (2, L.PECHO, L.PECHO),
        (3, L.PECHO, L.PECHO),
        (4, L.BRAZO_IZQUIERDO, L.BRAZO_DERECHO),
        (5, L.BRAZO_DERECHO, L.BRAZO_IZQUIERDO),
        (6, L.ABDOMEN, L.ABDOMEN),
        (7, L.ABDOMEN, L.ABDOMEN),
        (8, L.PIERNA_IZQUIERDA, L.PIERNA_DERECHA),
        (9, L.PIERNA_DERECHA, L.PIERNA_IZQUIERDA),
    ],
)
def test_h2_location_table_and_side_mapping_setting(ds: int, even_left: Location,
                                                    even_right: Location) -> None:
    assert location_of_value(ds) is even_left
    assert location_of_value(ds, SideMapping.EVEN_LEFT) is even_left
    assert location_of_value(ds, SideMapping.EVEN_RIGHT) is even_right
    alt = WoundSettings(side_mapping=SideMapping.EVEN_RIGHT)
    assert read_hit(Dice.of(ds, 2, 1), tipo("I"), alt, resistencia=5).location is even_right


def test_h2_a_ten_is_read_as_zero_and_values_of_one_location_are_one_location() -> None:
    assert location_value(10) == 0
    assert [location_value(v) for v in range(1, 10)] == list(range(1, 10))
    assert values_of(L.ABDOMEN) == (6, 7)
    assert values_of(L.PECHO) == (1, 2, 3)
    assert values_of(L.CABEZA) == (0,)
    assert values_of(L.BRAZO_DERECHO) == (5,)
    assert values_of(L.BRAZO_DERECHO, SideMapping.EVEN_RIGHT) == (4,)
    # 6 and 7 make one abdomen wound (H2, merged as H4 merges).
    merged = merge_by_location([LocatedDamage(location=location_of_value(6), damage=3),
                                LocatedDamage(location=location_of_value(7), damage=4)])
    assert merged == [LocatedDamage(location=L.ABDOMEN, damage=7)]


@pytest.mark.parametrize("bad", [11, -1, True, "5"])
def test_h2_a_location_value_out_of_range_is_refused_with_a_code(bad: object) -> None:
    with pytest.raises(WoundError) as caught:
        location_value(bad)  # type: ignore[arg-type]
    assert caught.value.code == "wounds.location_value"


# ------------------------------------------------------------------------------ H3


def test_h3_default_table_tipo_0_i_ii_and_empty_iii_to_viii() -> None:
    roll = Dice.of(5, 8, 3)
    assert [entry.id for entry in DEFAULT.damage_types] == list(TIPOS)
    assert (damage_for(tipo("0"), roll).value, tipo("0").lethal) == (3, False)  # d-, golpes
    assert (damage_for(tipo("I"), roll).value, tipo("I").lethal) == (8, True)  # d+
    assert (damage_for(tipo("II"), roll).value, tipo("II").lethal) == (11, True)  # d+ + d-
    for empty in ("III", "IV", "V", "VI", "VII", "VIII"):
        reading = damage_for(tipo(empty), roll)
        assert reading.value is None and reading.source is DamageSource.ASK  # ask the DJ
    hit = read_hit(roll, tipo("VI"), DEFAULT, resistencia=5)
    assert hit.needs_damage and hit.assessment is None


def test_h3_the_dj_writes_a_formula_and_lethality_for_a_type() -> None:
    written = DEFAULT.with_damage_type(DamageType(id="III", formula="d+ X d-", lethal=False))
    entry = written.damage_type("III")
    assert entry.formula == "d+ x d-"  # kept as canonical text
    reading = damage_for(entry, Dice.of(5, 8, 3))
    assert (reading.value, reading.formula, reading.substituted) == (24, "d+ x d-", "8 x 3")
    assert entry.lethal is False
    assert DEFAULT.damage_type("III").formula is None  # settings are values, unchanged


def test_h3_a_bad_formula_in_the_table_is_refused_with_the_formula_code() -> None:
    with pytest.raises(ValidationError) as caught:
        DamageType(id="V", formula="d+ x (d- + 2")
    error = caught.value.errors()[0]
    assert error["type"] == "formula.unclosed_bracket"
    assert error["ctx"]["position"] == 5  # the "(" never closed
    assert "^" in error["msg"]


def test_h3_formula_results_are_brought_into_range() -> None:
    below = DamageType(id="V", formula="d- - d+")
    reading = damage_for(below, Dice.of(5, 8, 3))
    assert (reading.value, reading.raw, reading.clamped) == (0, -5, True)
    above = DamageType(id="V", formula="999 x 999")
    assert damage_for(above, Dice.of(5, 8, 3)).value == MAX_DAMAGE


def test_h3_the_table_needs_every_tipo_once_and_unknown_types_are_refused() -> None:
    with pytest.raises(ValidationError):
        WoundSettings(damage_types=DEFAULT.damage_types[:-1])
    with pytest.raises(ValidationError):
        WoundSettings(damage_types=(*DEFAULT.damage_types, DamageType(id="I")))
    shuffled = WoundSettings(damage_types=tuple(reversed(DEFAULT.damage_types)))
    assert [entry.id for entry in shuffled.damage_types] == list(TIPOS)
    with pytest.raises(WoundError) as caught:
        DEFAULT.damage_type("IX")
    assert caught.value.code == "wounds.unknown_type"


# ------------------------------------------------------------------------------ H4


def test_h4_tipo_iv_reaches_d_minus_location_values_prefilled_with_the_ds_location() -> None:
    grenade = Dice.of(7, 9, 4)
    assert tipo_iv_count(grenade) == 4
    hit = read_hit(grenade, tipo("IV"), DEFAULT, resistencia=5)
    assert hit.tipo_iv_count == 4
    assert read_hit(grenade, tipo("II"), DEFAULT, resistencia=5).tipo_iv_count is None
    assert tipo_iv_prefill(grenade, DEFAULT, damage=6) \
        == [LocatedDamage(location=L.ABDOMEN, damage=6)]


def test_h4_values_of_one_location_add_up_into_one_wound() -> None:
    entries = [LocatedDamage(location=L.ABDOMEN, damage=4),
               LocatedDamage(location=L.PECHO, damage=2),
               LocatedDamage(location=L.ABDOMEN, damage=3),
               LocatedDamage(location=L.PECHO, damage=1),
               LocatedDamage(location=L.CABEZA, damage=5)]
    assert merge_by_location(entries) == [LocatedDamage(location=L.ABDOMEN, damage=7),
                                          LocatedDamage(location=L.PECHO, damage=3),
                                          LocatedDamage(location=L.CABEZA, damage=5)]


# ------------------------------------------------------------------------------ H5


@pytest.mark.parametrize(("damage", "protection", "left"),
                         [(11, 0, 11), (11, 4, 7), (3, 3, 0), (2, 5, 0)])
def test_h5_protection_is_subtracted_and_never_below_zero(damage: int, protection: int,
                                                          left: int) -> None:
    assert protected_damage(damage, protection) == left


def test_h5_protection_of_the_hit_location_comes_off_before_severity() -> None:
    vest = {L.PECHO: 4}
    hit = read_hit(Dice.of(2, 8, 6), tipo("II"), DEFAULT, resistencia=6, protection=vest)
    assert hit.assessment is not None
    assert (hit.assessment.damage_in, hit.assessment.protection, hit.assessment.damage) \
        == (14, 4, 10)
    assert hit.assessment.severity is Severity.LEVE  # floor(10 / 6), not floor(14 / 6)
    arm = read_hit(Dice.of(5, 8, 6), tipo("II"), DEFAULT, resistencia=6, protection=vest)
    assert arm.assessment is not None and arm.assessment.protection == 0


# ------------------------------------------------------------------------------ H6


def test_h6_pv_is_multiplier_times_resistencia_and_own_pv_wins() -> None:
    assert pv_for(7, DEFAULT) == 21
    for multiplier in (1, 2, 5, 6):
        assert pv_for(7, WoundSettings(pv_multiplier=multiplier)) == 7 * multiplier
    assert pv_for(7, DEFAULT, own_pv=30) == 30
    with pytest.raises(WoundError) as caught:
        pv_for(0, DEFAULT)
    assert caught.value.code == "wounds.bad_resistencia"


def test_h6_non_lethal_adds_to_g_lethal_to_w_and_g() -> None:
    start = Counters()
    assert (start.g, start.w) == (0, 0)
    assert apply_damage(start, 6, lethal=False) == Counters(g=6, w=0)
    assert apply_damage(start, 6, lethal=True) == Counters(g=6, w=6)
    assert apply_damage(Counters(g=6, w=2), 3, lethal=True) == Counters(g=9, w=5)


def test_h6_healing_a_herida_point_heals_its_golpe_point() -> None:
    assert heal_herida(Counters(g=17, w=11), 2) == Counters(g=15, w=9)
    assert heal_herida(Counters(g=5, w=2), 9) == Counters(g=3, w=0)
    # Golpe points carried by herida points stay until their herida point heals.
    assert heal_golpe(Counters(g=17, w=11), 4) == Counters(g=13, w=11)
    assert heal_golpe(Counters(g=17, w=11), 10) == Counters(g=11, w=11)


def test_h6_w_above_g_is_refused() -> None:
    with pytest.raises(ValidationError):
        Counters(g=3, w=4)
    with pytest.raises(WoundError) as caught:
        apply_damage(Counters(), -1, lethal=True)
    assert caught.value.code == "wounds.bad_points"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["lethal", "golpe", "heal_w", "heal_g", "bleed"]),
                          st.integers(0, 40)), max_size=30),
       st.booleans())
def test_h6_property_w_le_g_le_recorded_damage_after_any_sequence(
        steps: list[tuple[str, int]], bled_herida: bool) -> None:
    wound_settings = WoundSettings(bled_point_is_herida=bled_herida)
    counters = Counters()
    recorded = 0
    for kind, points in steps:
        if kind == "lethal":
            counters, recorded = apply_damage(counters, points, lethal=True), recorded + points
        elif kind == "golpe":
            counters, recorded = apply_damage(counters, points, lethal=False), recorded + points
        elif kind == "heal_w":
            counters = heal_herida(counters, points)
        elif kind == "heal_g":
            counters = heal_golpe(counters, points)
        else:
            counters, recorded = bleed_point(counters, wound_settings), recorded + 1
        assert 0 <= counters.w <= counters.g <= recorded


# ------------------------------------------------------------------------------ H7


def test_h7_g_reaching_pv_proposes_inconsciente_w_reaching_pv_proposes_muerto() -> None:
    report = thresholds(Counters(g=18, w=10), Counters(g=21, w=10), 21)
    assert report.propose_inconsciente and not report.propose_muerto
    assert threshold_conditions(report) == [ConditionSpec(name=INCONSCIENTE)]
    dead = thresholds(Counters(g=18, w=18), Counters(g=24, w=24), 21)
    assert dead.propose_muerto and dead.propose_inconsciente
    # One change brings both: muerto first, inconsciente next if the DJ declines it.
    assert threshold_conditions(dead) == [ConditionSpec(name=MUERTO),
                                          ConditionSpec(name=INCONSCIENTE)]
    # Points beyond PV are reported (logged).
    assert (dead.golpe_over, dead.herida_over) == (3, 3)


def test_h7_no_proposal_below_pv_or_once_already_beyond_it() -> None:
    below = thresholds(Counters(), Counters(g=20, w=20), 21)
    assert not below.propose_inconsciente and not below.propose_muerto
    assert threshold_conditions(below) == []
    again = thresholds(Counters(g=22, w=0), Counters(g=25, w=0), 21)
    assert not again.propose_inconsciente and again.golpe_over == 4
    assert again.golpe_at_pv and not again.herida_at_pv  # still at or beyond PV
    assert not below.golpe_at_pv


# ------------------------------------------------------------------------------ H8


@pytest.mark.parametrize(
    ("damage", "resistencia", "floor", "strict"),
    [
        (0, 7, Severity.SIN_IMPORTANCIA, Severity.SIN_IMPORTANCIA),
        (6, 7, Severity.SIN_IMPORTANCIA, Severity.SIN_IMPORTANCIA),
        (7, 7, Severity.LEVE, Severity.SIN_IMPORTANCIA),  # D = R: leve only by floor
        (8, 7, Severity.LEVE, Severity.LEVE),
        (13, 7, Severity.LEVE, Severity.LEVE),
        (14, 7, Severity.GRAVE, Severity.LEVE),  # D = 2R
        (15, 7, Severity.GRAVE, Severity.GRAVE),
        (40, 7, Severity.GRAVE, Severity.GRAVE),
    ],
)
def test_h8_severity_floor_reading_and_strict_setting(damage: int, resistencia: int,
                                                      floor: Severity, strict: Severity) -> None:
    assert severity_of(damage, resistencia) is floor
    assert severity_of(damage, resistencia, SeverityReading.FLOOR) is floor
    assert severity_of(damage, resistencia, SeverityReading.STRICT) is strict
    strict_settings = WoundSettings(severity_reading=SeverityReading.STRICT)
    assessed = assess(L.PECHO, damage, lethal=True, resistencia=resistencia,
                      settings=strict_settings)
    assert assessed.severity is strict


# ------------------------------------------------------------------------------ H9

ARM_GD = GdEffect(scope=ScopeKind.ARM, side=RIGHT, gd=1)
PHYSICAL_GD = GdEffect(scope=ScopeKind.PHYSICAL, gd=1)


def names(consequences: Consequences) -> list[str]:
    return [spec.name for spec in consequences.conditions]


def test_h9_sin_importancia_has_no_consequence() -> None:
    for location in Location:
        result = consequences_of(location, Severity.SIN_IMPORTANCIA, 3, True, DEFAULT)
        assert result == Consequences() and result.none


def test_h9_cabeza_leve_aturdido_2_asaltos_grave_inconsciente_damage_hours() -> None:
    leve = consequences_of(L.CABEZA, Severity.LEVE, 7, False, DEFAULT)
    assert leve.conditions == (ConditionSpec(name=ATURDIDO, duration=2),)
    assert leve.gd == () and leve.bleed_rate is None
    grave = consequences_of(L.CABEZA, Severity.GRAVE, 15, False, DEFAULT)
    assert grave.conditions == (ConditionSpec(name=INCONSCIENTE, hours=15),)  # until ended


def test_h9_pecho_leve_gd_physical_grave_dolor_intenso_keeping_the_gd() -> None:
    leve = consequences_of(L.PECHO, Severity.LEVE, 8, True, DEFAULT)
    assert leve.gd == (PHYSICAL_GD,)
    assert names(leve) == [SANGRANDO]
    grave = consequences_of(L.PECHO, Severity.GRAVE, 15, True, DEFAULT)
    assert grave.gd == (PHYSICAL_GD,)  # setting: grave keeps the leve GD
    assert names(grave) == [DOLOR_INTENSO, SANGRANDO]
    off = consequences_of(L.PECHO, Severity.GRAVE, 15, True,
                          WoundSettings(grave_keeps_leve_gd=False))
    assert off.gd == ()


def test_h9_brazo_leve_gd_that_arm_grave_dolor_intenso_and_drops_what_it_holds() -> None:
    leve = consequences_of(L.BRAZO_DERECHO, Severity.LEVE, 11, True, DEFAULT)
    assert leve.gd == (ARM_GD,) and leve.reminders == ()
    grave = consequences_of(L.BRAZO_IZQUIERDO, Severity.GRAVE, 15, True, DEFAULT)
    assert grave.gd == (GdEffect(scope=ScopeKind.ARM, side=LEFT, gd=1),)
    assert names(grave) == [DOLOR_INTENSO, DESARMADO, SANGRANDO]
    assert [r.code for r in grave.reminders] == ["wounds.drops_held"]
    assert grave.reminders[0].params == {"side": "left"}


def test_h9_abdomen_as_pecho_and_leg_as_arm_are_settings() -> None:
    abdomen = consequences_of(L.ABDOMEN, Severity.LEVE, 8, True, DEFAULT)
    assert abdomen.gd == (PHYSICAL_GD,)
    not_pecho = consequences_of(L.ABDOMEN, Severity.GRAVE, 15, True,
                                WoundSettings(abdomen_as_pecho=False))
    assert not_pecho.gd == () and names(not_pecho) == [SANGRANDO]
    leg = consequences_of(L.PIERNA_IZQUIERDA, Severity.GRAVE, 15, True, DEFAULT)
    assert leg.gd == (GdEffect(scope=ScopeKind.LEG, side=LEFT, gd=1),)
    assert names(leg) == [DOLOR_INTENSO, SANGRANDO]  # a leg drops nothing
    assert leg.reminders == ()
    not_arm = consequences_of(L.PIERNA_IZQUIERDA, Severity.LEVE, 8, True,
                              WoundSettings(leg_as_arm=False))
    assert not_arm.gd == () and names(not_arm) == [SANGRANDO]


def test_h9_bleeding_rates_only_lethal_and_off_setting() -> None:
    assert consequences_of(L.PECHO, Severity.LEVE, 8, True, DEFAULT).bleed_rate == 16
    assert consequences_of(L.PECHO, Severity.GRAVE, 15, True, DEFAULT).bleed_rate == 5
    assert consequences_of(L.PECHO, Severity.LEVE, 8, False, DEFAULT).bleed_rate is None
    every = WoundSettings(only_lethal_bleeds=False, bleed_rate_leve=10)
    assert consequences_of(L.PECHO, Severity.LEVE, 8, False, every).bleed_rate == 10
    off = WoundSettings(bleeding=False)
    result = consequences_of(L.PECHO, Severity.GRAVE, 15, True, off)
    assert result.bleed_rate is None and SANGRANDO not in names(result)


def test_h9_dolor_intenso_adds_the_setting_grade() -> None:
    spec = ConditionSpec(name=DOLOR_INTENSO)
    default = spec.start(began=1, source=ConditionSource.of_wound(1),
                         dolor_intenso_gd=DEFAULT.dolor_intenso_gd)
    assert condition_grades([default], 2, ActionScope.default()) == []  # adds 0 GD
    one = spec.start(began=1, source=ConditionSource.of_wound(1),
                     dolor_intenso_gd=WoundSettings(dolor_intenso_gd=1).dolor_intenso_gd)
    assert total_gd(condition_grades([one], 2, ActionScope.default())) == 1


def test_h9_bleeding_counts_from_the_next_round_and_loses_at_the_end_of_the_rate_th() -> None:
    wound = new_wound(1, assess(L.PECHO, 15, lethal=True, resistencia=7, settings=DEFAULT), 3)
    assert wound.bleed_rate == 5
    lost_at: list[int] = []
    for round_ in range(1, 15):
        tick = bleed_at_end_of_round(wound, round_)
        wound = tick.wound
        if tick.point_lost:
            lost_at.append(round_)
    assert lost_at == [8, 13] == bleed_rounds(3, 5, 14)  # counted 4-8, then 9-13
    assert wound.bled == 2


def test_h9_a_bled_point_is_a_herida_point_or_by_setting_a_golpe_point() -> None:
    assert bleed_point(Counters(g=17, w=11), DEFAULT) == Counters(g=18, w=12)
    golpe = WoundSettings(bled_point_is_herida=False)
    assert bleed_point(Counters(g=17, w=11), golpe) == Counters(g=18, w=11)


def test_h12_an_attended_wound_stops_bleeding() -> None:
    wound = new_wound(1, assess(L.PECHO, 15, lethal=True, resistencia=7, settings=DEFAULT), 0)
    for round_ in range(1, 5):
        wound = bleed_at_end_of_round(wound, round_).wound
    cared = attend(wound)
    assert cared.attended and not cared.bleeding
    for round_ in range(5, 40):
        assert not bleed_at_end_of_round(cared, round_).point_lost
    # ... and an attended wound keeps its grade (H10).
    assert total_gd(wound_grades([cared], ActionScope.default())) == 1


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 20), st.integers(1, 20), st.integers(0, 60))
def test_h9_property_the_count_loses_a_point_exactly_on_the_schedule(
        wound_round: int, rate: int, last: int) -> None:
    wound = new_wound(1, assess(L.PECHO, 8, lethal=True, resistencia=7, settings=DEFAULT),
                      wound_round).model_copy(update={"bleed_rate": rate})
    lost: list[int] = []
    for round_ in range(1, last + 1):
        tick = bleed_at_end_of_round(wound, round_)
        wound = tick.wound
        lost += [round_] if tick.point_lost else []
    assert lost == bleed_rounds(wound_round, rate, last)
    assert all(r > wound_round for r in lost)


# ----------------------------------------------------------------------------- H10


def test_h10_wound_grades_match_the_action_scope_and_name_each_wound() -> None:
    arm = new_wound(1, assess(L.BRAZO_DERECHO, 8, lethal=True, resistencia=7,
                              settings=DEFAULT), 2)
    chest = new_wound(2, assess(L.PECHO, 8, lethal=True, resistencia=7, settings=DEFAULT), 2)
    leg = new_wound(3, assess(L.PIERNA_IZQUIERDA, 8, lethal=True, resistencia=7,
                              settings=DEFAULT), 2)
    wounds = [arm, chest, leg]
    right_handed = wound_grades(wounds, ActionScope.default(RIGHT))
    assert [e.describe() for e in right_handed] \
        == ["right arm, light wound +1", "chest, light wound +1"]
    assert [e.source_id for e in right_handed] == [1, 2]
    assert total_gd(right_handed) == 2  # wound grades add up
    left_handed = wound_grades(wounds, ActionScope.default(LEFT))
    assert [e.name for e in left_handed] == ["chest"]
    running = ActionScope(physical=True, legs=frozenset({LEFT, RIGHT}))
    assert [e.name for e in wound_grades(wounds, running)] == ["chest", "left leg"]
    # Alerta TAs (D6) are not physical and use no limb.
    assert wound_grades(wounds, ActionScope.alerta()) == []
    # Not physical, by the DJ, but using the right arm: only the arm wound.
    signing = ActionScope(physical=False, arms=frozenset({RIGHT}))
    assert [e.name for e in wound_grades(wounds, signing)] == ["right arm"]


def test_h10_wound_and_condition_grades_add_up_with_each_other() -> None:
    grave = new_wound(1, assess(L.PECHO, 15, lethal=True, resistencia=7, settings=DEFAULT), 2)
    dolor = builtin(DOLOR_INTENSO, began=2, dolor_intenso_gd=1)
    entries = [*wound_grades([grave], ActionScope.default()),
               *condition_grades([dolor], 3, ActionScope.default())]
    assert [e.describe() for e in entries] == ["chest, serious wound +1", "dolor intenso +1"]
    assert total_gd(entries) == 2
    assert ta_grades([grave], [dolor], 3, ActionScope.default()) == entries
    assert ta_grades([grave], [dolor], 3, ActionScope.alerta()) == []


def test_wound_ids_are_fresh() -> None:
    wound = new_wound(4, assess(L.PECHO, 15, lethal=True, resistencia=7, settings=DEFAULT), 2)
    assert next_wound_id([]) == 1
    assert next_wound_id([wound]) == 5


# ----------------------------------------------------------- Worked example (H, C)


def test_worked_example_h_c_bruno_shot_punched_and_bleeding() -> None:
    """RULES.md "Worked example (H, C)": H1-H3, H5, H6, H8-H10 on Bruno."""
    bruno_r, bruno_pv = 7, 21
    assert pv_for(bruno_r, DEFAULT) == bruno_pv
    pistol = Weapon(name="pistola", damage_type="II")
    counters = Counters()

    # Round 2: Carla's TA dS 5, 8, 3 -> 16 <= 17, a hit on Bruno (H1).
    shot_dice = Dice.of(5, 8, 3)
    assert shot_dice.sum <= 17
    shot = read_hit(shot_dice, tipo(pistol.damage_type), DEFAULT, resistencia=bruno_r,
                    weapon=pistol)
    # 1. dS 5 = right arm (H2); tipo II = 8 + 3 = 11, lethal (H3); no protection (H5).
    assert shot.location_value == 5 and shot.location is L.BRAZO_DERECHO
    assert (shot.damage.value, shot.damage.formula, shot.damage.substituted) \
        == (11, "d+ + d-", "8 + 3")
    assert shot.lethal
    assert shot.assessment is not None
    assert shot.assessment.protection == 0 and shot.assessment.damage == 11
    counters = apply_damage(counters, shot.assessment.damage, shot.assessment.lethal)
    assert (counters.w, counters.g) == (11, 11)  # H6
    assert not thresholds(Counters(), counters, bruno_pv).propose_inconsciente
    # 2. floor(11 / 7) = 1, leve (H8): +1 GD right arm, bleeding every 16 asaltos (H9).
    assert shot.assessment.severity is Severity.LEVE
    assert shot.assessment.consequences.gd == (ARM_GD,)
    assert shot.assessment.consequences.bleed_rate == 16
    assert names(shot.assessment.consequences) == [SANGRANDO]
    arm_wound = new_wound(1, shot.assessment, round_=2, cause=pistol.name)
    wounds = [arm_wound]

    # 3. Round 3: Ana punches Bruno, tipo 0: dS 10, 9, 6 -> cabeza, d- = 6, non-lethal.
    punch = read_hit(Dice.of(10, 9, 6), tipo("0"), DEFAULT, resistencia=bruno_r)
    assert punch.location_value == 0 and punch.location is L.CABEZA
    assert punch.damage.value == 6 and not punch.lethal
    assert punch.assessment is not None
    counters = apply_damage(counters, punch.assessment.damage, punch.assessment.lethal)
    assert (counters.g, counters.w) == (17, 11)
    assert punch.assessment.severity is Severity.SIN_IMPORTANCIA  # floor(6 / 7) = 0
    assert punch.assessment.consequences.none
    wounds.append(new_wound(next_wound_id(wounds), punch.assessment, round_=3))

    # 4. Bruno shoots with his right (main) arm in round 3: GD +1 "right arm, leve wound".
    breakdown = wound_grades(wounds, ActionScope.default(RIGHT))
    assert [e.describe() for e in breakdown] == ["right arm, light wound +1"]
    assert total_gd(breakdown) == 1

    # 5. End of each round: at the end of round 18 (16th counted) Bruno bleeds 1 point.
    for round_ in range(3, 19):
        ticks = [bleed_at_end_of_round(wound, round_) for wound in wounds]
        wounds = [tick.wound for tick in ticks]
        for tick in ticks:
            if tick.point_lost:
                counters = bleed_point(counters, DEFAULT)
        if round_ < 18:
            assert (counters.w, counters.g) == (11, 17), round_
    assert (counters.w, counters.g) == (12, 18)
    assert [w.bled for w in wounds] == [1, 0]


def test_worked_example_h_c_ana_clubbed_aturdido_rounds_5_and_6() -> None:
    """RULES.md "Worked example (H, C)": Ana's leve head wound, C3 and C4, no bleeding."""
    ana_r = 6
    club = read_hit(Dice.of(10, 9, 7), tipo("0"), DEFAULT, resistencia=ana_r)
    assert club.location is L.CABEZA
    assert club.damage.value == 7 and not club.lethal
    assert club.assessment is not None
    assert club.assessment.severity is Severity.LEVE  # floor(7 / 6) = 1
    consequences = club.assessment.consequences
    assert consequences.bleed_rate is None  # a non-lethal wound does not bleed
    assert consequences.conditions == (ConditionSpec(name=ATURDIDO, duration=2),)
    wound = new_wound(1, club.assessment, round_=4)
    conditions = [spec.start(began=4, source=ConditionSource.of_wound(wound.id))
                  for spec in consequences.conditions]
    aturdido = conditions[0]
    assert aturdido.covered_rounds() == range(5, 7)
    for round_ in (5, 6):
        # C4: only inaction, no reaction prompts.
        assert not can_act(conditions, round_) and not can_react(conditions, round_)
    assert end_of_round(conditions, 5).expired == ()
    assert end_of_round(conditions, 6).expired == (aturdido,)  # ends at the end of round 6
    assert can_act(end_of_round(conditions, 6).kept, 7)
    for round_ in range(4, 60):
        assert not bleed_at_end_of_round(wound, round_).point_lost


# ----------------------------------------------------------------------------- H12


def test_h12_the_djs_severity_and_consequences_win_over_h8_and_h9() -> None:
    own = Consequences(gd=(GdEffect(scope=ScopeKind.ANY, gd=2),))
    assessed = assess(L.PECHO, 8, lethal=True, resistencia=7, settings=DEFAULT,
                      severity=Severity.GRAVE, consequences=own)
    assert assessed.severity is Severity.GRAVE and assessed.severity_overridden
    assert assessed.consequences == own
    wound = new_wound(1, assessed, 2)
    assert wound.gd == own.gd and wound.bleed_rate is None
    assert total_gd(wound_grades([wound], ActionScope.alerta())) == 2
    # A severity chosen by the DJ gives that severity's H9 consequences.
    leve = assess(L.PECHO, 20, lethal=True, resistencia=7, settings=DEFAULT,
                  severity=Severity.LEVE)
    assert leve.consequences.bleed_rate == 16 and leve.severity_overridden


def test_h12_a_hit_entered_by_hand_is_assessed_like_a_rolled_one() -> None:
    # A fall: no dice, the DJ gives location and damage (a ManualHit).
    fall = assess(L.PIERNA_DERECHA, 9, lethal=False, resistencia=4, settings=DEFAULT,
                  protection=1)
    assert (fall.damage, fall.severity) == (8, Severity.GRAVE)
    assert fall.consequences.gd == (GdEffect(scope=ScopeKind.LEG, side=RIGHT, gd=1),)
    assert fall.consequences.bleed_rate is None  # non-lethal
    assert apply_damage(Counters(), fall.damage, fall.lethal) == Counters(g=8, w=0)
