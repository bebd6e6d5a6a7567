"""O1-O4: independent, direct and conditioned opposition, and the reading of the outcome."""

from __future__ import annotations

import pytest

from sombra_tui.engine import (
    Action,
    Combat,
    Dice,
    EventKind,
    OpposedRoll,
    Opposition,
    OppositionMode,
    Phase,
    Reading,
    Resolve,
    ResolveOpposed,
    Role,
    StepStatus,
    read_outcome,
    resolve_ta,
)
from tests.engine.conftest import (
    ANA,
    BRUNO,
    CARLA,
    act,
    advance_to,
    assert_refused,
    declare,
    decline,
    dice,
    events_of,
    started,
)


def roll(name: str, d: Dice, **fields: int) -> OpposedRoll:
    return OpposedRoll(character=name, dice=d, **fields)


def opposed_event(combat: Combat) -> str:
    [event] = events_of(combat, EventKind.OPPOSED)
    return event.text


def results(combat: Combat) -> dict[str, tuple[int, int, bool]]:
    """Each step's (GD, total, success)."""
    found: dict[str, tuple[int, int, bool]] = {}
    for step in combat.state.steps:
        if step.result is not None:
            found[step.character] = (step.result.gd, step.result.total, step.result.success)
    return found


# --------------------------------------------------------------------------- O1


def test_o1_shooting_each_other_is_two_independent_actions() -> None:
    combat = started(BRUNO, CARLA)
    declare(combat, "Bruno", act("shoots Carla", "Carla", target=15))
    declare(combat, "Carla", act("shoots Bruno", "Bruno", target=15))
    decline(combat, "Bruno")
    advance_to(combat, Phase.ROUND)
    assert_refused(combat, ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(1, 2, 3)), roll("Bruno", dice(1, 2, 3))]), match="not an opposed")
    combat.execute(Resolve(character="Carla", dice=dice(1, 2, 3)))
    assert combat.state.steps[1].status is StepStatus.PENDING  # Bruno has not rolled
    combat.execute(Resolve(character="Bruno", dice=dice(2, 2, 3)))
    # Both succeed: independent actions do not compare.
    assert results(combat) == {"Carla": (0, 6, True), "Bruno": (0, 7, True)}
    assert events_of(combat, EventKind.OPPOSED) == []


# --------------------------------------------------------------------------- O2


def grab(*others: str) -> Action:
    return act("grabs the idol", target=15,
               opposition=Opposition(mode=OppositionMode.DIRECT, against=list(others)))


def three_grab() -> Combat:
    combat = started(ANA, BRUNO, CARLA)
    declare(combat, "Ana", grab("Bruno", "Carla"))
    declare(combat, "Bruno", grab("Ana", "Carla"))
    declare(combat, "Carla", grab("Ana", "Bruno"))
    advance_to(combat, Phase.ROUND)
    return combat


def test_o2_all_roll_when_the_first_acts_and_the_best_wins() -> None:
    combat = three_grab()
    assert_refused(combat, Resolve(character="Carla", dice=dice(1, 2, 3)), match="opposed")
    assert_refused(combat, ResolveOpposed(character="Ana", rolls=[
        roll("Ana", dice(1, 2, 3)), roll("Bruno", dice(1, 2, 3)),
        roll("Carla", dice(1, 2, 3))]), match="turn")
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)),  # 9: éxito medio, margin 6
        roll("Bruno", dice(7, 4, 3)),  # 14: éxito medio, margin 1 -> best
        roll("Ana", dice(1, 1, 2)),  # 4: éxito bajo
    ]))
    assert combat.state.pending_steps() == []
    assert results(combat) == {"Carla": (0, 9, True), "Bruno": (0, 14, True),
                               "Ana": (0, 4, True)}
    assert opposed_event(combat).startswith("Bruno wins")


def test_o2_every_participant_needs_a_roll() -> None:
    combat = three_grab()
    assert_refused(combat, ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(7, 4, 3))]), match="Ana")


def test_o2_exact_tie_is_broken_by_the_dj_and_logged() -> None:
    combat = three_grab()
    tied = [roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(4, 3, 2)),
            roll("Ana", dice(10, 10, 9))]
    assert_refused(combat, ResolveOpposed(character="Carla", rolls=tied), match="Tie")
    assert_refused(combat, ResolveOpposed(character="Carla", rolls=tied, tie_winner="Ana"),
                   match="not among")
    combat.execute(ResolveOpposed(character="Carla", rolls=tied, tie_winner="Bruno"))
    [event] = events_of(combat, EventKind.OPPOSED)
    assert event.text.startswith("Bruno wins") and event.override


# --------------------------------------------------------------------------- O3


def attack(against: str, role: Role, reading: Reading = Reading.ATTACK, gd: int = 0,
           target: int = 15) -> Action:
    return act("fights", target=target, gd=gd, opposition=Opposition(
        mode=OppositionMode.CONDITIONED, against=[against], role=role, reading=reading))


def carla_attacks_bruno(reading: Reading = Reading.ATTACK, dodge_gd: int = 0) -> Combat:
    """Carla (15) conditions, Bruno (12) is conditioned; targets 15 and 14."""
    combat = started(BRUNO, CARLA)
    declare(combat, "Bruno", attack("Carla", Role.CONDITIONED, reading, dodge_gd, 14))
    declare(combat, "Carla", attack("Bruno", Role.CONDITIONING, reading))
    advance_to(combat, Phase.ROUND)
    return combat


def test_o3_conditioning_success_gives_the_conditioned_plus_one_gd() -> None:
    combat = carla_attacks_bruno()
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(3, 3, 4))]))
    # Carla 9 <= 15. Bruno 10 + 5 = 15 > 14: the grade turns his success into a failure.
    assert results(combat) == {"Carla": (0, 9, True), "Bruno": (1, 15, False)}
    assert opposed_event(combat).startswith("Carla wins")


def test_o3_conditioning_failure_gives_the_conditioned_minus_one_gd() -> None:
    combat = carla_attacks_bruno()
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(9, 9, 8)), roll("Bruno", dice(5, 5, 6))]))
    # Carla 26 > 15. Bruno 16 - 5 = 11 <= 14.
    assert results(combat) == {"Carla": (0, 26, False), "Bruno": (-1, 11, True)}
    assert opposed_event(combat).startswith("Bruno wins")


@pytest.mark.parametrize(("size", "success"), [(2, True), (2, False), (0, True), (3, False)])
def test_o3_dj_sets_the_size_of_the_modifier(size: int, success: bool) -> None:
    combat = carla_attacks_bruno(dodge_gd=1)
    carla_dice = dice(2, 3, 4) if success else dice(9, 9, 8)
    combat.execute(ResolveOpposed(character="Carla", condition_size=size, rolls=[
        roll("Carla", carla_dice), roll("Bruno", dice(1, 1, 2))]))
    shift = size if success else -size
    gd, total, _ = results(combat)["Bruno"]
    assert gd == 1 + shift  # the dodge's own grade plus the conditioning shift
    assert total == 4 + 5 * (1 + shift)


def test_o3_conditioned_side_acting_first_still_gets_the_modifier() -> None:
    # Ana (8) attacks Bruno (12), who dodges and acts first in the action order.
    combat = started(ANA, BRUNO)
    declare(combat, "Ana", attack("Bruno", Role.CONDITIONING))
    declare(combat, "Bruno", attack("Ana", Role.CONDITIONED, target=14))
    advance_to(combat, Phase.ROUND)
    combat.execute(ResolveOpposed(character="Bruno", rolls=[
        roll("Bruno", dice(3, 3, 4)), roll("Ana", dice(2, 3, 4))]))
    assert results(combat) == {"Bruno": (1, 15, False), "Ana": (0, 9, True)}
    assert combat.state.pending_steps() == []


def test_o3_opponent_without_an_opposing_action_gets_a_dj_target() -> None:
    combat = started(BRUNO, CARLA)
    declare(combat, "Bruno")
    declare(combat, "Carla", attack("Bruno", Role.CONDITIONING))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(1, 1, 2), target=14)]))
    assert results(combat) == {"Carla": (0, 9, True)}
    [bruno_ta] = [e.ta for e in events_of(combat, EventKind.TA) if e.actor == "Bruno"]
    assert bruno_ta is not None and (bruno_ta.gd, bruno_ta.total) == (1, 9)


def decline_if_prompted(combat: Combat) -> None:
    while combat.state.top_prompt is not None:
        decline(combat, combat.state.top_prompt.reactor)


# --------------------------------------------------------------------------- O4


def _read(reading: Reading, first: tuple[Dice, int], second: tuple[Dice, int],
          winner: str) -> str:
    """The reading when the conditioning 'Att' meets the conditioned 'Def'."""
    a = resolve_ta(first[0], target=first[1])
    b = resolve_ta(second[0], target=second[1])
    return read_outcome(reading, "Att", "Def", {"Att": a, "Def": b}, winner)


SUCCEEDS = (Dice.of(2, 3, 4), 15)  # éxito medio, margin 6
FAILS_BY_2 = (Dice.of(6, 6, 5), 15)  # fracaso medio, 17
FAILS_BY_7 = (Dice.of(9, 6, 7), 15)  # fracaso medio, 22
SUCCEEDS_BARELY = (Dice.of(5, 5, 4), 15)  # éxito medio, margin 1


def test_o4_attack_that_wins_and_succeeds_hits() -> None:
    text = _read(Reading.ATTACK, SUCCEEDS, FAILS_BY_2, "Att")
    assert "hits" in text and "no hit" not in text


def test_o4_attack_whose_ta_failed_does_not_hit_even_if_it_wins() -> None:
    text = _read(Reading.ATTACK, FAILS_BY_2, FAILS_BY_7, "Att")
    assert "no hit" in text


def test_o4_attack_lost_is_avoided() -> None:
    text = _read(Reading.ATTACK, FAILS_BY_7, SUCCEEDS, "Def")
    assert "avoids" in text


def test_o4_infiltrator_winning_with_both_failed_passes_unseen_but_noisy() -> None:
    text = _read(Reading.STEALTH, FAILS_BY_2, FAILS_BY_7, "Att")
    assert "unseen" in text and "noise" in text


def test_o4_infiltrator_winning_with_a_success_passes_quietly() -> None:
    text = _read(Reading.STEALTH, SUCCEEDS_BARELY, FAILS_BY_7, "Att")
    assert "unseen" in text and "noise" not in text


def test_o4_sentinel_winning_with_both_failed_gets_a_new_ta() -> None:
    text = _read(Reading.STEALTH, FAILS_BY_7, FAILS_BY_2, "Def")
    assert "new TA" in text


def test_o4_sentinel_winning_with_a_success_detects() -> None:
    text = _read(Reading.STEALTH, FAILS_BY_2, SUCCEEDS, "Def")
    assert "detects" in text and "new TA" not in text


def test_o4_reading_is_shown_to_the_dj_in_the_log() -> None:
    combat = carla_attacks_bruno()
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(6, 6, 5)),  # 17 > 15, by 2
        roll("Bruno", dice(9, 9, 9)),  # 27 - 5 = 22 > 14, by 8 (fracaso alto)
    ]))
    [event] = events_of(combat, EventKind.OPPOSED)
    assert event.rule == "O4"
    assert event.text.startswith("Carla wins") and "no hit" in event.text


def test_o4_stealth_reading_in_the_log() -> None:
    combat = carla_attacks_bruno(Reading.STEALTH)
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(9, 6, 7)),  # 22 > 15, by 7
        roll("Bruno", dice(6, 6, 6)),  # 18 - 5 = 13 <= 14: éxito alto
    ]))
    text = opposed_event(combat)
    assert text.startswith("Bruno wins") and "detects" in text


@pytest.mark.parametrize(("size", "carla_dice", "word"), [
    (0, dice(2, 3, 4), "succeeded"), (0, dice(9, 9, 8), "failed"),
    (1, dice(2, 3, 4), "succeeded"), (2, dice(9, 9, 8), "failed")])
def test_o3_log_says_how_the_conditioning_ta_went_whatever_the_size(
        size: int, carla_dice: Dice, word: str) -> None:
    """Issue 10, item 5: with size 0 and a successful conditioning TA it said 'failed'."""
    combat = carla_attacks_bruno()
    combat.execute(ResolveOpposed(character="Carla", condition_size=size, rolls=[
        roll("Carla", carla_dice), roll("Bruno", dice(1, 1, 2))]))
    [line] = [e.text for e in events_of(combat, EventKind.TA, rule="O3")
              if e.actor == "Bruno"]
    assert f"conditioning TA {word}" in line
