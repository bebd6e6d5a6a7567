"""The odds of a TA and of an opposition (issue 37), checked against a brute-force count
over all 1,000 outcomes of 3d10 written from RULES.md's words (T1, T2, T4, T5, O2, O3),
not from the engine's code."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from sombra_tui.engine.dice import Rank
from sombra_tui.engine.odds import (
    OUTCOMES,
    TASpec,
    conditioned_odds,
    direct_odds,
    percent,
    ta_odds,
)

FACES = range(1, 11)


def rules_rank(ds: int, a: int, b: int, spec: TASpec) -> tuple[str, int]:
    """T2 and T4 read literally: (the result's level, its distance from the target)."""
    total = ds + a + b + spec.points_per_gd * spec.gd + spec.modifier
    success = total <= spec.target
    high, low = max(a, b), min(a, b)
    if not spec.quality_levels:
        level = "éxito" if success else "fracaso"
    elif ds == a == b:
        level = "éxito alto" if success else "fracaso alto"
    elif high + low <= 4:
        level = "éxito bajo" if success else "fracaso bajo"
    else:
        level = "éxito medio" if success else "fracaso medio"
    return level, abs(spec.target - total)


#: T4's ranking, best first.
LEVELS = ["éxito alto", "éxito medio", "éxito bajo", "fracaso bajo", "fracaso medio",
          "fracaso alto", "éxito", "fracaso"]
BETTER = {"éxito alto": 5, "éxito medio": 4, "éxito bajo": 3, "fracaso bajo": 2,
          "fracaso medio": 1, "fracaso alto": 0, "éxito": 1, "fracaso": 0}
RANK_OF = {"éxito alto": Rank.EXITO_ALTO, "éxito medio": Rank.EXITO_MEDIO,
           "éxito bajo": Rank.EXITO_BAJO, "fracaso bajo": Rank.FRACASO_BAJO,
           "fracaso medio": Rank.FRACASO_MEDIO, "fracaso alto": Rank.FRACASO_ALTO,
           "éxito": Rank.EXITO, "fracaso": Rank.FRACASO}


def counted(spec: TASpec) -> Counter[tuple[str, int]]:
    return Counter(rules_rank(ds, a, b, spec) for ds, a, b in product(FACES, repeat=3))


def t5(mine: tuple[str, int], theirs: tuple[str, int]) -> int:
    """T5: the better level wins; at equal level the total closer to its target."""
    if BETTER[mine[0]] != BETTER[theirs[0]]:
        return 1 if BETTER[mine[0]] > BETTER[theirs[0]] else -1
    if mine[1] != theirs[1]:
        return 1 if mine[1] < theirs[1] else -1
    return 0


def counted_opposed(first: Counter[tuple[str, int]], second: Counter[tuple[str, int]],
                    only: bool | None = None) -> Counter[int]:
    found: Counter[int] = Counter()
    for mine, count in first.items():
        if only is not None and mine[0].startswith("éxito") is not only:
            continue
        for theirs, other in second.items():
            found[t5(mine, theirs)] += count * other
    return found


specs = st.builds(TASpec, target=st.integers(-5, 45), gd=st.integers(-3, 6),
                  points_per_gd=st.integers(1, 20), modifier=st.integers(-10, 10),
                  quality_levels=st.booleans())


@st.composite
def sides(draw: st.DrawFn, count: int) -> list[TASpec]:
    """`count` TAs of one encounter: quality levels are its setting, shared (T4)."""
    levels = draw(st.booleans())
    return [draw(specs).model_copy(update={"quality_levels": levels}) for _ in range(count)]


def test_t2_the_tables_numbers_for_alerta_14() -> None:
    """Issue 37's example: Alerta 14 combining (GD 0) 35.2 %, substituting (+1 GD)
    8.4 %, a second substitution (+2 GD) 0.4 % (D6)."""
    assert [ta_odds(TASpec(target=14, gd=gd)).success for gd in (0, 1, 2)] == [
        Fraction(352, 1000), Fraction(84, 1000), Fraction(4, 1000)]
    assert [percent(ta_odds(TASpec(target=14, gd=gd)).success) for gd in (0, 1, 2)] == [
        "35 %", "8 %", "<1 %"]


def test_t4_criticals_and_fumbles_are_the_ten_triples() -> None:
    """Three equal dice are alto (T4): 10 of 1,000, a crítico under the target and a
    pifia over it."""
    odds = ta_odds(TASpec(target=15))
    assert odds.critical == Fraction(5, 1000)  # 1-1-1 ... 5-5-5 sum to 15 or less
    assert odds.fumble == Fraction(5, 1000)
    assert ta_odds(TASpec(target=30)).success == 1 and ta_odds(TASpec(target=2)).success == 0


@settings(max_examples=150, deadline=None)
@given(spec=specs)
def test_t2_t4_every_chance_is_the_brute_force_count(spec: TASpec) -> None:
    brute = counted(spec)
    odds = ta_odds(spec)
    by_level: Counter[str] = Counter()
    for (level, _distance), count in brute.items():
        by_level[level] += count
    assert {RANK_OF[level]: count for level, count in by_level.items()} == odds.by_rank
    assert odds.success == Fraction(
        sum(count for level, count in by_level.items() if level.startswith("éxito")),
        OUTCOMES)
    assert sum(odds.by_rank.values()) == OUTCOMES


@settings(max_examples=40, deadline=None)
@given(both=sides(2))
def test_o2_t5_a_direct_opposition_is_the_brute_force_count(both: list[TASpec]) -> None:
    first, second = both
    found = counted_opposed(counted(first), counted(second))
    odds = direct_odds(first, second)
    total = OUTCOMES * OUTCOMES
    assert (odds.first, odds.second, odds.tie) == (
        Fraction(found[1], total), Fraction(found[-1], total), Fraction(found[0], total))
    assert odds.first + odds.second + odds.tie == 1


@settings(max_examples=40, deadline=None)
@given(both=sides(2), size=st.integers(0, 3))
def test_o3_a_conditioned_opposition_is_the_brute_force_count(both: list[TASpec],
                                                              size: int) -> None:
    """The conditioned TA carries +size GD after the conditioning one's success, -size
    after its failure (O3)."""
    conditioning, conditioned = both
    mine = counted(conditioning)
    bonus = conditioned.model_copy(update={"gd": conditioned.gd + size})
    malus = conditioned.model_copy(update={"gd": conditioned.gd - size})
    found = counted_opposed(mine, counted(bonus), only=True) + \
        counted_opposed(mine, counted(malus), only=False)
    odds = conditioned_odds(conditioning, conditioned, size)
    total = OUTCOMES * OUTCOMES
    assert (odds.first, odds.second, odds.tie) == (
        Fraction(found[1], total), Fraction(found[-1], total), Fraction(found[0], total))


def test_o3_the_conditioning_result_moves_the_conditioned_grade() -> None:
    """Against a sure success the conditioned side rolls at +1 GD, against a sure
    failure at -1 GD (O3): its chances are those of a direct opposition so shifted."""
    sure, hopeless, other = TASpec(target=40), TASpec(target=-5), TASpec(target=16)
    assert conditioned_odds(sure, other) == direct_odds(sure, other.shifted(1))
    assert conditioned_odds(hopeless, other) == direct_odds(hopeless, other.shifted(-1))
    assert conditioned_odds(sure, other, size=0) == direct_odds(sure, other)


def test_percent_never_says_never_for_what_can_happen() -> None:
    assert percent(Fraction(1, 1000)) == "<1 %" and percent(Fraction(999, 1000)) == ">99 %"
    assert percent(Fraction(0)) == "0 %" and percent(Fraction(1)) == "100 %"
    assert percent(Fraction(352, 1000)) == "35 %"


# --- the odds the screen shows, from a state (ask) ---


def test_d6_d9_a_prompts_odds_follow_the_worked_example() -> None:
    """RULES.md's worked example: Ana (Alerta 14) prompted by Bruno's shot: combining at
    GD 0 succeeds 35.2 % of the time, substituting at +1 8.4 % (D6). Bruno's
    contrarreacción (Alerta 12) substitutes at no extra grade (D9). Ana, prompted again
    by Carla after one reacción, combines at +1 (D6's accumulation)."""
    from sombra_tui.engine import ask
    from tests.engine.conftest import ANA, BRUNO, CARLA, SUB, act, declare, dice, react, started

    combat = started(ANA, BRUNO, CARLA)
    declare(combat, "Ana", act("aims at the door"))
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    first = ask.reaction_odds(combat.state, combat.state.top_prompt)  # type: ignore[arg-type]
    assert (first.combine_gd, first.substitute_gd, first.counter) == (0, 1, False)
    assert (first.combine.success, first.substitute.success) == (
        Fraction(352, 1000), Fraction(84, 1000))
    react(combat, "Ana", SUB, act("dives behind the desk"), roll=dice(3, 4, 2))
    counter = ask.reaction_odds(combat.state, combat.state.top_prompt)  # type: ignore[arg-type]
    assert counter.counter and counter.combine_gd == counter.substitute_gd == 0
    assert counter.substitute.success == ta_odds(TASpec(target=12)).success
    react(combat, "Bruno", SUB, act("runs to flank her"), roll=dice(6, 6, 2))
    declare(combat, "Carla", act("throws a grenade", "Ana", "Bruno"))
    again = ask.reaction_odds(combat.state, combat.state.top_prompt)  # type: ignore[arg-type]
    assert (again.combine_gd, again.substitute_gd) == (1, 2)
    assert again.combine.success == Fraction(84, 1000)


def test_t2_h10_a_steps_odds_carry_its_grades_and_the_commands_modifier() -> None:
    """The chances of Ana's shot are those of her value at the GD her TA would carry
    (H10: a leve wound on the arm she shoots with, +1), and the DJ's modifier counts
    (T2); an outcome the DJ decides (D12) has none."""
    from sombra_tui.engine import Phase, ask
    from sombra_tui.engine.commands import ManualHit, Resolve
    from sombra_tui.engine.wounds import Location
    from tests.engine.conftest import act, advance_to, char, declare, started

    combat = started(char("Ana", 8, 3, 14, skills={"Armas": 17}, resistencia=5),
                     char("Bruno", 12, 5, 12))
    declare(combat, "Ana", act("shoots Bruno", "Bruno", skill="Armas"), affected=[])
    declare(combat, "Bruno", act("waits"))
    advance_to(combat, Phase.ROUND)
    bruno_step = next(s for s in combat.state.steps if s.character == "Bruno")
    assert ask.step_odds(combat.state, bruno_step) is None  # nothing to roll under
    combat.execute(Resolve(character="Bruno", accept=True))
    plain = ask.ta_odds_of(combat.state, Resolve(character="Ana"))
    assert plain is not None and plain.success == ta_odds(TASpec(target=17)).success
    combat.execute(ManualHit(character="Ana", location=Location.BRAZO_DERECHO, damage=5))
    hurt = ask.ta_odds_of(combat.state, Resolve(character="Ana"))
    assert hurt is not None and hurt.success == ta_odds(TASpec(target=17, gd=1)).success
    eased = ask.ta_odds_of(combat.state, Resolve(character="Ana", modifier=-3))
    assert eased is not None and eased.success == ta_odds(
        TASpec(target=17, gd=1, modifier=-3)).success
    assert ask.ta_odds_of(combat.state, Resolve(character="Ana", accept=True)) is None
    ana_step = next(s for s in combat.state.steps if s.character == "Ana")
    waiting = ask.step_odds(combat.state, ana_step)
    assert waiting is not None and waiting.success == hurt.success
