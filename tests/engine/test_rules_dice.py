"""T1-T7: the action roll (TA), checked rule by rule against RULES.md."""

from __future__ import annotations

import itertools

import pytest

from sombra_tui.engine import (
    ActionKind,
    Combat,
    Dice,
    DiceRoller,
    EventKind,
    Phase,
    Quality,
    Rank,
    Resolve,
    Settings,
    SombraError,
    StepStatus,
    best_of,
    compare_ta,
    parse_dice,
    quality_of,
    resolve_ta,
)
from sombra_tui.engine.dice import gd_name, zero_read_as_ten
from tests.engine.conftest import (
    act,
    advance_to,
    assert_refused,
    char,
    declare,
    dice,
    events_of,
    make_combat,
    started,
)

# --------------------------------------------------------------------------- T1


def test_t1_dado_sombra_is_kept_apart_and_the_others_rank_into_d_plus_d_minus() -> None:
    for a, b in [(2, 9), (9, 2)]:
        roll = Dice.of(7, a, b)
        assert roll.ds == 7
        assert (roll.d_plus, roll.d_minus) == (9, 2)
        assert str(roll).startswith("dS 7")


def test_t1_dado_sombra_is_never_d_plus_even_when_it_is_the_highest_die() -> None:
    roll = Dice.of(10, 3, 5)
    assert (roll.d_plus, roll.d_minus) == (5, 3)
    # T4 'bajo' looks at d+ + d- only: dS 10 with 2, 2 is bajo, the same dice with
    # 10 among the two others is not.
    assert quality_of(Dice.of(10, 2, 2)) is Quality.BAJO
    assert quality_of(Dice.of(2, 2, 10)) is Quality.MEDIO


def test_t1_a_roll_is_three_d10_with_every_face_from_1_to_10() -> None:
    roller = DiceRoller(1234)
    rolls = [roller.roll() for _ in range(400)]
    faces = {value for r in rolls for value in (r.ds, r.a, r.b)}
    assert faces == set(range(1, 11))


# --------------------------------------------------------------------------- T2


@pytest.mark.parametrize(
    ("ds", "a", "b", "gd", "modifier", "target"),
    [
        (3, 4, 2, 0, 0, 9),  # exactly on target
        (3, 4, 2, 1, 0, 14),  # the worked example: 9 + 5 = 14
        (6, 6, 2, 0, 0, 12),  # 14 > 12
        (1, 1, 2, -2, 0, 0),  # Muy fácil: 4 - 10 = -6
        (10, 10, 9, 2, 3, 50),
        (5, 7, 1, 1, -4, 13),
    ],
)
def test_t2_total_success_and_margin(ds: int, a: int, b: int, gd: int, modifier: int,
                                     target: int) -> None:
    result = resolve_ta(Dice.of(ds, a, b), target=target, gd=gd, modifier=modifier)
    expected_total = ds + a + b + 5 * gd + modifier
    assert result.total == expected_total
    assert result.success is (expected_total <= target)
    assert result.margin == target - expected_total


def test_t2_roll_under_boundary_equal_succeeds_one_over_fails() -> None:
    roll = Dice.of(4, 4, 4)  # 12
    assert resolve_ta(roll, target=12).success
    assert resolve_ta(roll, target=12).margin == 0
    assert not resolve_ta(roll, target=11).success
    assert resolve_ta(roll, target=11).margin == -1


def test_t2_round_action_target_is_the_skill_value_of_the_character() -> None:
    combat = started(char("Ana", 8, skills={"Pelea": 13}))
    declare(combat, "Ana", act("punches", skill="pelea"))
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Ana", dice=dice(5, 4, 3), modifier=1))
    step = combat.state.steps[0]
    assert step.result is not None
    assert step.result.target == 13
    assert step.result.total == 5 + 4 + 3 + 1
    assert step.result.success  # 13 <= 13
    assert step.result.margin == 0


def test_t2_resolution_without_a_value_to_roll_under_is_refused() -> None:
    combat = started(char("Ana", 8))
    declare(combat, "Ana", act("does something vague"))
    advance_to(combat, Phase.ROUND)
    assert_refused(combat, Resolve(character="Ana", dice=dice(1, 1, 1)), match="roll under")
    combat.execute(Resolve(character="Ana", dice=dice(1, 2, 3), target=6))
    assert combat.state.steps[0].result is not None
    assert combat.state.steps[0].result.success


# --------------------------------------------------------------------------- T3


def test_t3_grade_names(spanish: str) -> None:
    assert [gd_name(g) for g in (-2, -1, 0, 1, 2)] == [
        "Muy fácil", "Fácil", "Normal", "Difícil", "Muy difícil"]
    assert gd_name(3).startswith("Muy difícil")
    assert gd_name(3) != gd_name(2)
    assert gd_name(4) != gd_name(3)


@pytest.mark.parametrize("gd", [-2, -1, 0, 1, 2, 3, 4])
def test_t3_each_grade_is_worth_five_points_by_default(gd: int) -> None:
    roll = Dice.of(5, 5, 4)
    assert resolve_ta(roll, target=30, gd=gd).total == 14 + 5 * gd
    assert Settings().points_per_gd == 5


def test_t3_points_per_grade_is_an_encounter_setting() -> None:
    combat = make_combat(char("Ana", 8, skills={"Tiro": 20}), points_per_gd=3, start=True)
    declare(combat, "Ana", act("shoots", skill="Tiro", gd=1))
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Ana", dice=dice(2, 3, 4), extra_gd=1))
    result = combat.state.steps[0].result
    assert result is not None
    # Grades from two sources (the action's +1 and the DJ's +1) add up: 2 grades x 3 points.
    assert result.gd == 2
    assert result.total == 2 + 3 + 4 + 3 * 2


def test_t3_grades_from_different_sources_add_up_on_a_round_action() -> None:
    combat = started(char("Ana", 8, skills={"Tiro": 30}))
    declare(combat, "Ana", act("shoots", skill="Tiro", gd=2))
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Ana", dice=dice(1, 1, 2), extra_gd=-1))
    result = combat.state.steps[0].result
    assert result is not None
    assert result.gd == 1
    assert result.total == 4 + 5 * 1


# --------------------------------------------------------------------------- T4


@pytest.mark.parametrize(
    ("roll", "quality"),
    [
        ((5, 5, 5), Quality.ALTO),
        ((1, 1, 1), Quality.ALTO),  # alto wins over bajo (d+ + d- = 2)
        ((10, 10, 10), Quality.ALTO),
        ((9, 3, 1), Quality.BAJO),  # d+ + d- = 4
        ((1, 2, 2), Quality.BAJO),
        ((9, 3, 2), Quality.MEDIO),  # d+ + d- = 5
        ((5, 5, 6), Quality.MEDIO),  # two equal is not alto
        ((1, 1, 10), Quality.MEDIO),
    ],
)
def test_t4_quality_levels(roll: tuple[int, int, int], quality: Quality) -> None:
    assert quality_of(Dice.of(*roll)) is quality


# The six ranks, best first, each with dice and a target that produce it.
SIX_RANKS = [
    (Rank.EXITO_ALTO, (3, 3, 3), 9),  # 9 <= 9, three equal
    (Rank.EXITO_MEDIO, (4, 5, 6), 15),  # 15 <= 15
    (Rank.EXITO_BAJO, (6, 1, 3), 10),  # 10 <= 10, 1 + 3 <= 4
    (Rank.FRACASO_BAJO, (9, 1, 3), 12),  # 13 > 12
    (Rank.FRACASO_MEDIO, (4, 5, 6), 14),  # 15 > 14
    (Rank.FRACASO_ALTO, (8, 8, 8), 23),  # 24 > 23, three equal
]


@pytest.mark.parametrize(("rank", "roll", "target"), SIX_RANKS)
def test_t4_all_six_ranks(rank: Rank, roll: tuple[int, int, int], target: int) -> None:
    result = resolve_ta(Dice.of(*roll), target=target)
    assert result.rank is rank
    assert result.success is (rank >= Rank.EXITO_BAJO)


def test_t4_alto_reads_as_critico_and_pifia(spanish: str) -> None:
    critical = resolve_ta(Dice.of(3, 3, 3), target=9)
    fumble = resolve_ta(Dice.of(8, 8, 8), target=23)
    assert "crítico" in critical.label and critical.label.startswith("éxito alto")
    assert "pifia" in fumble.label and fumble.label.startswith("fracaso alto")


def test_t4_ranking_best_first_whatever_the_margins() -> None:
    results = [resolve_ta(Dice.of(*roll), target=target) for _, roll, target in SIX_RANKS]
    for better, worse in itertools.combinations(results, 2):
        assert compare_ta(better, worse) == 1
        assert compare_ta(worse, better) == -1


def test_t4_rank_beats_closeness() -> None:
    medio = resolve_ta(Dice.of(4, 5, 6), target=25)  # éxito medio, margin 10
    bajo = resolve_ta(Dice.of(6, 1, 3), target=10)  # éxito bajo, margin 0
    assert (medio.rank, bajo.rank) == (Rank.EXITO_MEDIO, Rank.EXITO_BAJO)
    assert compare_ta(medio, bajo) == 1


def test_t4_quality_off_only_success_beats_failure(spanish: str) -> None:
    triple = Dice.of(3, 3, 3)  # alto with quality on
    plain = Dice.of(4, 5, 6)
    on_alto = resolve_ta(triple, target=14)  # margin 5
    on_medio = resolve_ta(plain, target=15)  # margin 0
    assert compare_ta(on_alto, on_medio) == 1  # alto beats medio
    off_alto = resolve_ta(triple, target=14, quality_levels=False)
    off_medio = resolve_ta(plain, target=15, quality_levels=False)
    assert off_alto.quality is None and off_medio.quality is None
    assert off_alto.rank == off_medio.rank  # both just "éxito"
    assert compare_ta(off_medio, off_alto) == 1  # closer to its target wins
    assert off_alto.label == "éxito"
    off_fumble = resolve_ta(Dice.of(8, 8, 8), target=23, quality_levels=False)
    off_bad_fail = resolve_ta(Dice.of(10, 10, 9), target=5, quality_levels=False)
    assert off_fumble.label == "fracaso"
    assert compare_ta(off_alto, off_fumble) == 1
    assert compare_ta(off_fumble, off_bad_fail) == 1  # 1 over beats 24 over


def test_t4_quality_setting_defaults_on_and_applies_in_combat() -> None:
    assert Settings().niveles_de_calidad is True
    for quality_on in (True, False):
        combat = make_combat(char("Ana", 8), niveles_de_calidad=quality_on, start=True)
        declare(combat, "Ana", act("shoots", target=12))
        advance_to(combat, Phase.ROUND)
        combat.execute(Resolve(character="Ana", dice=dice(2, 2, 2)))
        result = combat.state.steps[0].result
        assert result is not None
        assert result.quality is (Quality.ALTO if quality_on else None)


# --------------------------------------------------------------------------- T5


def test_t5_equal_rank_closer_to_own_target_wins() -> None:
    near = resolve_ta(Dice.of(4, 5, 6), target=16)  # éxito medio, margin 1
    far = resolve_ta(Dice.of(4, 5, 6), target=30)  # éxito medio, margin 15
    assert compare_ta(near, far) == 1
    assert compare_ta(far, near) == -1
    assert best_of({"far": far, "near": near}) == ["near"]


def test_t5_equal_rank_failures_closer_wins() -> None:
    one_over = resolve_ta(Dice.of(4, 5, 6), target=14)  # fracaso medio by 1
    six_over = resolve_ta(Dice.of(4, 5, 6), target=9)  # fracaso medio by 6
    assert compare_ta(one_over, six_over) == 1


def test_t5_closeness_uses_each_own_target() -> None:
    # Different skills: totals 20 vs 10, but both are 2 under their own targets.
    a = resolve_ta(Dice.of(6, 7, 7), target=22)
    b = resolve_ta(Dice.of(2, 4, 4), target=12)
    assert a.rank == b.rank == Rank.EXITO_MEDIO
    assert compare_ta(a, b) == 0
    assert best_of({"a": a, "b": b}) == ["a", "b"]


def test_t5_exact_tie_is_left_to_the_dj() -> None:
    first = resolve_ta(Dice.of(3, 4, 5), target=13)
    second = resolve_ta(Dice.of(5, 4, 3), target=13)
    assert compare_ta(first, second) == 0
    assert best_of({"x": first, "y": second, "z": resolve_ta(Dice.of(9, 9, 8), target=13)}) \
        == ["x", "y"]


# --------------------------------------------------------------------------- T6


def test_t6_seeded_roller_is_reproducible() -> None:
    assert _rolls(77, 20) == _rolls(77, 20)
    assert _rolls(77, 20) != _rolls(78, 20)


def _rolls(seed: int, count: int) -> list[Dice]:
    roller = DiceRoller(seed)
    return [roller.roll() for _ in range(count)]


def test_t6_combat_rolls_depend_only_on_seed_and_draws() -> None:
    """T6: the same seed and the same draws give the same dice; each roll is a new draw
    (rolling twice at one history length does not repeat the dice)."""
    one = started(char("Ana", 8), seed=5)
    two = started(char("Ana", 8), seed=5)
    assert one.roll() == two.roll()
    firsts = [one.roll() for _ in range(12)]
    assert len(set(firsts)) > 1  # not the same dice every time
    seconds = [two.roll() for _ in range(12)]
    assert firsts == seconds
    declare(one, "Ana")
    declare(two, "Ana")
    assert one.roll() == two.roll()


@pytest.mark.parametrize(
    ("text", "values"),
    [("3 4 2", (3, 4, 2)), ("3,4,2", (3, 4, 2)), ("342", (3, 4, 2)),
     ("10 1 1", (10, 1, 1)), (" 1, 10 ,10 ", (1, 10, 10)),
     ("0 4 2", (10, 4, 2)), ("3 0 0", (3, 10, 10)), ("302", (3, 10, 2))],
)
def test_t6_typed_dice_dado_sombra_first(text: str, values: tuple[int, int, int]) -> None:
    typed = parse_dice(text)
    assert (typed.ds, typed.a, typed.b) == values


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("3 4 11", "1 to 10"), ("11 4 2", "1 to 10"), ("3 4 100", "1 to 10"),
     ("3 4", "three"), ("3 4 2 1", "three"),
     ("", "three dice"), ("a b c", "not a die"), ("3 -4 2", "1 to 10"),
     ("-3 4 2", "1 to 10")],
)
def test_t6_typed_value_outside_1_to_10_is_refused_clearly(text: str, fragment: str) -> None:
    with pytest.raises(SombraError) as info:
        parse_dice(text)
    assert fragment in str(info.value)


def test_t6_refusal_names_the_die_and_the_value() -> None:
    with pytest.raises(SombraError, match=r"^The dS must be from 1 to 10 \(a 0 reads as "
                                          r"10\), not 11\.$"):
        Dice.of(11, 4, 2)
    with pytest.raises(SombraError, match=r"third die.*1 to 10.*11"):
        Dice.of(3, 4, 11)
    with pytest.raises(SombraError, match=r"second die.*1 to 10.*-1"):
        Dice.of(3, -1, 2)


def test_t6_a_typed_0_is_the_d10_face_for_10_and_reads_as_10() -> None:
    """T6 (issue 35 item 8): a Spanish d10 shows 0 for 10; typed, it reads as 10, in
    whatever place of the three, and the reading is given to the field to show."""
    assert Dice.of(0, 4, 2) == Dice(ds=10, a=4, b=2)
    assert parse_dice("0 4 2") == parse_dice("10 4 2")
    assert str(parse_dice("3,0,5")) == "dS 3 + 10 + 5"
    assert zero_read_as_ten("3 0 5") == Dice(ds=3, a=10, b=5)
    assert zero_read_as_ten("000") == Dice(ds=10, a=10, b=10)
    assert zero_read_as_ten("3 10 5") is None  # no 0 typed: nothing to explain
    assert zero_read_as_ten("0 11 5") is None  # not dice: the refusal says why
    assert zero_read_as_ten("0 5") is None


@pytest.mark.parametrize(("text", "said"), [("3 11 2", "El segundo dado debe ir de 1 a 10"),
                                            ("3 2 11", "El tercer dado debe ir de 1 a 10"),
                                            ("12 2 1", "El dS debe ir de 1 a 10")])
def test_t6_the_refusal_names_the_die_in_spanish(spanish: str, text: str, said: str) -> None:
    """Found in a playtest: "El third die debe ir de 1 a 10, no 11."."""
    with pytest.raises(SombraError) as info:
        parse_dice(text)
    assert str(info.value).startswith(said)


# --------------------------------------------------------------------------- T7


def _automatic_combat() -> Combat:
    combat = started(char("Ana", 8))
    declare(combat, "Ana", act("walks to the door", kind=ActionKind.AUTOMATIC))
    advance_to(combat, Phase.ROUND)
    return combat


def test_t7_automatic_action_never_rolls() -> None:
    combat = _automatic_combat()
    assert len(combat.state.steps) == 1
    combat.execute(Resolve(character="Ana"))
    step = combat.state.steps[0]
    assert step.status is StepStatus.DONE
    assert step.result is None
    [event] = events_of(combat, EventKind.TA, rule="T7")
    assert event.ta is None


def test_t7_dice_or_a_dj_outcome_for_an_automatic_action_are_refused() -> None:
    combat = _automatic_combat()
    assert_refused(combat, Resolve(character="Ana", dice=dice(1, 2, 3)), match="never roll")
    assert_refused(combat, Resolve(character="Ana", accept=True), match="never roll")


def test_t7_a_difficulty_action_does_need_dice() -> None:
    combat = started(char("Ana", 8))
    declare(combat, "Ana", act("jumps the gap", target=12))
    advance_to(combat, Phase.ROUND)
    assert_refused(combat, Resolve(character="Ana"), match="dice")
