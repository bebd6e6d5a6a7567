"""T3, T4, T6: the dice's words and refusals, exactly.

Written against the mutation lane's survivors (README, "Mutation testing"): each
test pins what the DJ reads (a grade's name, a TA's line, why typed dice are
refused) and the error's code and parameters, so a changed bound, number or
word in `engine/dice.py` fails here.
"""

from __future__ import annotations

import pytest

from sombra_tui.engine import Dice, Phase, Resolve, SombraError, parse_dice, resolve_ta
from sombra_tui.engine.dice import (
    DiceRoller,
    Quality,
    Rank,
    TAResult,
    best_of,
    compare_ta,
    format_gd,
    gd_name,
    quality_of,
    unrolled_ta,
)
from tests.engine.conftest import act, advance_to, char, declare, started


@pytest.mark.parametrize(("gd", "name"), [
    (-4, "Very easy -2"), (-3, "Very easy -1"), (-2, "Very easy"), (-1, "Easy"),
    (0, "Normal"), (1, "Hard"), (2, "Very hard"), (3, "Very hard +1"), (5, "Very hard +3"),
])
def test_t3_grades_beyond_very_hard_and_very_easy_stack_by_name(gd: int, name: str) -> None:
    """T3: grades go on beyond +2 (and below -2) when penalties stack; the name says
    how far beyond."""
    assert gd_name(gd) == name


def test_t3_grades_beyond_the_named_ones_in_spanish(spanish: str) -> None:
    """T3, in the DJ's other language."""
    assert gd_name(3) == "Muy difícil +1"
    assert gd_name(-3) == "Muy fácil -1"


@pytest.mark.parametrize(("gd", "text"), [(-2, "-2"), (0, "0"), (1, "+1"), (12, "+12")])
def test_t3_a_grade_shows_its_sign(gd: int, text: str) -> None:
    """T3: a grade (and a margin) shows + when above zero."""
    assert format_gd(gd) == text


@pytest.mark.parametrize(("text", "code", "params", "message"), [
    ("", "dice.empty", {},
     "Type three dice from 1 to 10, the dS first (for example 3 4 2)."),
    ("   ", "dice.empty", {},
     "Type three dice from 1 to 10, the dS first (for example 3 4 2)."),
    ("3 -4 2", "dice.negative", {"text": "-4"},
     "-4 is not a die: each die is a whole number from 1 to 10."),
    ("3,-12,2", "dice.negative", {"text": "-12"},
     "-12 is not a die: each die is a whole number from 1 to 10."),
    ("3 x 2", "dice.not_a_die", {"text": "x"},
     "'x' is not a die: each die is a whole number from 1 to 10."),
    ("3 4", "dice.count", {"count": 2, "text": "3 4"},
     "Type exactly three dice, the dS first; got 2 in '3 4'."),
    ("3 4 2 1", "dice.count", {"count": 4, "text": "3 4 2 1"},
     "Type exactly three dice, the dS first; got 4 in '3 4 2 1'."),
    ("3 4 11", "dice.out_of_range", {"position": "third die", "value": "11"},
     "The third die must be from 1 to 10 (a 0 reads as 10), not 11."),
    ("3 12 1", "dice.out_of_range", {"position": "second die", "value": "12"},
     "The second die must be from 1 to 10 (a 0 reads as 10), not 12."),
])
def test_t6_typed_dice_refusals_name_the_problem(text: str, code: str,
                                                 params: dict[str, object],
                                                 message: str) -> None:
    """T6: typed dice that are not three values from 1 to 10 are refused with a clear
    message naming the problem, under a stable code with its parameters."""
    with pytest.raises(SombraError) as info:
        parse_dice(text)
    assert (info.value.code, info.value.params, str(info.value)) == (code, params, message)


@pytest.mark.parametrize("value", [2.5, "3", True, None])
def test_t6_a_die_that_is_no_whole_number_is_refused_by_name(value: object) -> None:
    """T6: Dice.of names the die and the value that is not a whole number."""
    with pytest.raises(SombraError) as info:
        Dice.of(3, value, 2)  # type: ignore[arg-type]
    assert info.value.code == "dice.not_whole"
    assert info.value.params == {"position": "second die", "value": str(value)}
    assert str(info.value) == (f"The second die must be a whole number from 1 to 10, "
                               f"not {str(value)!r}.")


@pytest.mark.parametrize(("values", "expected"), [
    ((0, 0, 0), (10, 10, 10)), ((10, 1, 1), (10, 1, 1)), ((1, 10, 0), (1, 10, 10)),
])
def test_t6_the_bounds_of_a_typed_die(values: tuple[int, int, int],
                                      expected: tuple[int, int, int]) -> None:
    """T6: 1..10 are dice, and a 0 reads as 10; -1 and 11 are not."""
    dice = Dice.of(*values)
    assert (dice.ds, dice.a, dice.b) == expected
    for bad in (-1, 11):
        with pytest.raises(SombraError, match="must be from 1 to 10"):
            Dice.of(bad, 1, 1)


def test_t1_t6_the_seeded_roller_draws_every_face_in_order() -> None:
    """T1, T6: the tracker's dice are d10s (1..10) drawn in order from the seed: the
    dS first, then the other two."""
    roller, twin = DiceRoller(7), DiceRoller(7)
    faces = [twin.d10() for _ in range(3 * 200)]
    rolls = [roller.roll() for _ in range(200)]
    assert [v for d in rolls for v in (d.ds, d.a, d.b)] == faces
    assert set(faces) == set(range(1, 11))


@pytest.mark.parametrize(("dice", "quality"), [
    ((2, 1, 3), Quality.BAJO), ((9, 3, 1), Quality.BAJO), ((9, 2, 3), Quality.MEDIO),
    ((1, 1, 1), Quality.ALTO), ((7, 7, 6), Quality.MEDIO), ((1, 1, 2), Quality.BAJO),
])
def test_t4_quality_bounds(dice: tuple[int, int, int], quality: Quality) -> None:
    """T4: alto only with all three equal; bajo iff d+ + d- <= 4 (the dS not counted)."""
    assert quality_of(Dice.of(*dice)) is quality


def test_t2_t4_a_rolled_ta_reads_in_one_line() -> None:
    """T2, T4, S2: the log's line of a TA: dice, GD, modifier, total vs target, margin
    and the result's quality."""
    ta = resolve_ta(Dice.of(3, 4, 2), target=14, gd=1, modifier=-2)
    assert ta.describe() == ("[dS 3 + 4 + 2] GD +1 mod -2 = 12 vs 14 margin +2 "
                             "medium success")
    plain = resolve_ta(Dice.of(6, 6, 2), target=12)
    assert plain.describe() == "[dS 6 + 6 + 2] GD 0 = 14 vs 12 margin -2 medium failure"
    three = resolve_ta(Dice.of(6, 6, 2), target=12, gd=2, points_per_gd=3)  # T3 setting
    assert (three.total, three.points_per_gd) == (20, 3)
    off = resolve_ta(Dice.of(6, 6, 6), target=12, quality_levels=False)
    assert off.describe() == "[dS 6 + 6 + 6] GD 0 = 18 vs 12 margin -6 failure"


@pytest.mark.parametrize(("dice", "target", "label"), [
    ((5, 5, 5), 15, "high success (critical)"), ((5, 5, 5), 14, "high failure (fumble)"),
    ((5, 6, 4), 15, "medium success"), ((5, 6, 4), 14, "medium failure"),
    ((5, 1, 2), 8, "low success"), ((5, 1, 2), 7, "low failure"),
])
def test_t4_each_result_is_named(dice: tuple[int, int, int], target: int, label: str) -> None:
    """T4: the six results by name."""
    assert resolve_ta(Dice.of(*dice), target=target).label == label


def test_d12_t7_a_ta_without_a_roll_reads_as_accepted() -> None:
    """D12, T7: a TA the DJ decided (or an automatic action) says so, success or not,
    and needs no dice; a rolled one does."""
    assert unrolled_ta(target=12).describe() == "accepted without a roll (success)"
    failed = unrolled_ta(target=12, success=False)
    assert failed.describe() == "accepted without a roll (failure)"
    assert (failed.total, failed.success, failed.dice) == (13, False, None)
    assert unrolled_ta(target=12, gd=2).gd == 2
    assert unrolled_ta(target=12).gd == 0
    with pytest.raises(ValueError, match="a rolled TA needs its dice"):
        TAResult(target=12, total=12, success=True)


def test_t5_every_comparison_both_ways() -> None:
    """T5: rank first, then closeness to each own target; a tie is 0; best_of keeps
    every name sharing the best result, in order."""
    crit = resolve_ta(Dice.of(2, 2, 2), target=10)       # éxito alto
    close = resolve_ta(Dice.of(3, 4, 5), target=12)      # éxito medio, margin 0
    far = resolve_ta(Dice.of(3, 4, 5), target=15)        # éxito medio, margin 3
    fail = resolve_ta(Dice.of(3, 4, 5), target=11)       # fracaso medio
    assert (compare_ta(crit, close), compare_ta(close, crit)) == (1, -1)
    assert (compare_ta(close, far), compare_ta(far, close)) == (1, -1)
    assert compare_ta(close, close) == 0
    assert (crit.rank, close.rank, fail.rank) == (Rank.EXITO_ALTO, Rank.EXITO_MEDIO,
                                                  Rank.FRACASO_MEDIO)
    twin = resolve_ta(Dice.of(5, 4, 3), target=12)
    assert best_of({"a": far, "b": close, "c": twin, "d": fail}) == ["b", "c"]
    assert best_of({"a": fail, "b": far}) == ["b"]
    assert best_of({"a": close}) == ["a"]
    assert best_of({}) == []


def test_d12_a_ta_the_dj_decides_keeps_its_grades_and_needs_no_target() -> None:
    """D12: the DJ decides an action's TA without a roll: no value to roll under is
    needed (0 stands for it), and its grades are kept for the log."""
    combat = started(char("Ana", 8))
    declare(combat, "Ana", act("does something vague", gd=1))
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Ana", accept=False))
    result = combat.state.steps[0].result
    assert result is not None
    assert (result.gd, result.target, result.total, result.success, result.unrolled) == (
        1, 0, 1, False, True)
    assert unrolled_ta(target=12).total == 12
