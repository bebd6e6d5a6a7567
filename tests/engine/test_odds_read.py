"""The odds the screens show (issue 37 items 2, 3): an opposition of any number of sides
(O2, T5) checked against a brute-force count written from RULES.md's words; the odds of
an action while it is declared (T2, H10) and of an opposition before its dice (O2, O3),
read from a state by the door; and the words they are shown in, in both languages."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings

from sombra_tui.engine import Phase, ask, i18n
from sombra_tui.engine.commands import ManualHit, OpposedRoll, ResolveOpposed
from sombra_tui.engine.conditions import ActionScope
from sombra_tui.engine.model import ActionKind, Opposition, OppositionMode, Role
from sombra_tui.engine.odds import (
    OUTCOMES,
    TASpec,
    best_odds,
    conditioned_odds,
    direct_odds,
    ta_odds,
)
from sombra_tui.engine.wounds import Location
from tests.engine.conftest import act, advance_to, char, declare, dice, started
from tests.engine.test_odds import counted, sides, t5


def brute_best(specs: list[TASpec]) -> tuple[list[int], int]:
    """O2 by T5 read literally over the outcomes of every side: how often each side has
    the one best result, and how often the best is shared (a tie)."""
    wins = [0] * len(specs)
    tied = 0
    groups: list[list[tuple[tuple[str, int], int]]] = [
        list(counted(spec).items()) for spec in specs]

    def walk(index: int, chosen: list[tuple[str, int]], weight: int) -> None:
        nonlocal tied
        if index == len(groups):
            best = [i for i, mine in enumerate(chosen)
                    if all(t5(mine, other) >= 0 for other in chosen)]
            if len(best) == 1:
                wins[best[0]] += weight
            else:
                tied += weight
            return
        for key, count in groups[index]:
            walk(index + 1, [*chosen, key], weight * count)

    walk(0, [], 1)
    return wins, tied


@settings(max_examples=30, deadline=None)
@given(both=sides(2))
def test_o2_t5_best_odds_of_two_sides_are_a_direct_opposition(both: list[TASpec]) -> None:
    wins, tie = best_odds(both)
    odds = direct_odds(*both)
    assert (wins, tie) == ((odds.first, odds.second), odds.tie)


@settings(max_examples=6, deadline=None)
@given(three=sides(3))
def test_o2_t5_three_sides_are_the_brute_force_count(three: list[TASpec]) -> None:
    """O2 with three characters: each one's chance of the single best result, and of a
    tie for the best (the DJ breaks it), counted over every outcome of the three TAs."""
    wins, tie = best_odds(three)
    found, tied = brute_best(three)
    total = OUTCOMES ** 3
    assert wins == tuple(Fraction(n, total) for n in found)
    assert tie == Fraction(tied, total)
    assert sum(wins) + tie == 1


def test_t2_h10_a_declared_actions_odds_carry_the_skill_and_the_wounds_grades() -> None:
    """While Ana declares, the chance of her shot is her Armas at the GD typed plus the
    wound grades her TA would carry (H10: a leve wound on her shooting arm, +1); a
    target typed wins over the skill's (T2); an automatic action rolls nothing (T7);
    no value known yet, no chance."""
    combat = started(char("Ana", 8, 3, 14, skills={"Armas": 17}, resistencia=5),
                     char("Bruno", 12, 5, 12))
    state = combat.state
    shot = ask.declared_odds(state, "Ana", skill="Armas", gd=1)
    assert shot == ta_odds(TASpec(target=17, gd=1))
    combat.execute(ManualHit(character="Ana", location=Location.BRAZO_DERECHO, damage=5))
    hurt = ask.declared_odds(combat.state, "Ana", skill="Armas", gd=1)
    assert hurt == ta_odds(TASpec(target=17, gd=2))
    # A mental action does not carry the arm's wound (H10).
    thought = ask.declared_odds(combat.state, "Ana", skill="Armas", gd=1,
                                scope=ActionScope(physical=False))
    assert thought == ta_odds(TASpec(target=17, gd=1))
    assert ask.declared_odds(combat.state, "Ana", skill="Armas", target=10) == ta_odds(
        TASpec(target=10, gd=1))
    assert ask.declared_odds(combat.state, "Ana", skill="Armas",
                             kind=ActionKind.AUTOMATIC) is None
    assert ask.declared_odds(combat.state, "Ana", skill="Vuelo") is None
    assert ask.declared_odds(combat.state, "Ana") is None


def test_o3_an_oppositions_odds_before_the_dice_are_the_resolvers_values() -> None:
    """Carla (15, GD 0) conditions Bruno's dodge (14, GD 1): the chances are O3's with
    those values, and follow the size and the values the DJ types; a value missing,
    no chances."""
    combat = started(char("Bruno", 12, 5, 12), char("Carla", 15, 2, 13))
    declare(combat, "Bruno", act("dodges", target=14, gd=1, opposition=Opposition(
        mode=OppositionMode.CONDITIONED, against=["Carla"], role=Role.CONDITIONED)))
    declare(combat, "Carla", act("fights", target=15, opposition=Opposition(
        mode=OppositionMode.CONDITIONED, against=["Bruno"], role=Role.CONDITIONING)))
    advance_to(combat, Phase.ROUND)
    state = combat.state
    step = next(s for s in state.current_group())
    [pair] = ask.opposed_odds(state, step)
    odds = conditioned_odds(TASpec(target=15), TASpec(target=14, gd=1))
    assert pair.names == ("Carla", "Bruno") and pair.wins == (odds.first, odds.second)
    assert pair.tie == odds.tie
    [bigger] = ask.opposed_odds(state, step, {"Bruno": (12, None)}, size=2)
    odds = conditioned_odds(TASpec(target=15), TASpec(target=12, gd=1), 2)
    assert bigger.wins == (odds.first, odds.second)
    # And the dice the resolver then reads give a result these odds counted.
    combat.execute(ResolveOpposed(character=step.character, rolls=[
        OpposedRoll(character="Carla", dice=dice(2, 3, 4)),
        OpposedRoll(character="Bruno", dice=dice(3, 3, 4))]))
    bruno = next(s for s in combat.state.steps if s.character == "Bruno")
    assert bruno.result is not None and bruno.result.gd == 2  # 1, +1: Carla succeeded


def test_o2_three_grab_the_idol_and_an_unknown_value_gives_no_odds() -> None:
    grab = Opposition(mode=OppositionMode.DIRECT, against=["Bruno", "Carla"])
    combat = started(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12),
                     char("Carla", 15, 2, 13))
    declare(combat, "Ana", act("grabs the idol", target=15, opposition=grab))
    declare(combat, "Bruno", act("grabs the idol", target=12, opposition=Opposition(
        mode=OppositionMode.DIRECT, against=["Ana", "Carla"])))
    declare(combat, "Carla", act("grabs the idol", opposition=Opposition(
        mode=OppositionMode.DIRECT, against=["Ana", "Bruno"])))
    advance_to(combat, Phase.ROUND)
    step = next(s for s in combat.state.current_group())
    assert ask.opposed_odds(combat.state, step) == []  # Carla has no value yet
    [everyone] = ask.opposed_odds(combat.state, step, {"Carla": (16, None)})
    specs = {"Ana": TASpec(target=15), "Bruno": TASpec(target=12),
             "Carla": TASpec(target=16)}
    wins, tie = best_odds([specs[name] for name in everyone.names])
    assert (everyone.wins, everyone.tie) == (wins, tie)
    assert set(everyone.names) == set(specs)


@pytest.mark.parametrize(("language", "words"), [
    ("en", ("35 % success · critical <1 % · fumble 1 %", "35 % success",
            "35 % combining · 8 % substituting",
            "contrarreacción at GD +1: 8 % combining or substituting")),
    ("es", ("35 % de éxito · crítico <1 % · pifia 1 %", "35 % de éxito",
            "35 % combinando · 8 % sustituyendo",
            "contrarreacción a GD +1: 8 % combinando o sustituyendo")),
])
def test_d6_d9_t4_the_odds_in_the_djs_words(language: str, words: tuple[str, ...]) -> None:
    """Issue 37's "35 % combinando · 8 % sustituyendo" (Alerta 14, D6); a
    contrarreacción names its own GD (D9); T4's critical and fumble only with quality
    levels on."""
    i18n.set_language(language)
    try:
        plain, no_levels, reaction, counter = words
        assert ta_odds(TASpec(target=14)).words() == plain
        assert ta_odds(TASpec(target=14, quality_levels=False)).words() == no_levels
        combine, substitute = ta_odds(TASpec(target=14)), ta_odds(TASpec(target=14, gd=1))
        assert ask.ReactionOdds(combine=combine, substitute=substitute, combine_gd=0,
                                substitute_gd=1, counter=False).words() == reaction
        assert ask.ReactionOdds(combine=substitute, substitute=substitute, combine_gd=1,
                                substitute_gd=1, counter=True).words() == counter
    finally:
        i18n.set_language("en")

