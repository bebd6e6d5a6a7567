"""O1-O4: independent, direct and conditioned opposition, and the reading of the outcome."""

from __future__ import annotations

from typing import Any

import pytest

from sombra_tui.engine import (
    Action,
    Advance,
    ChangeSettings,
    Combat,
    Dice,
    EventKind,
    Mark,
    OpposedRoll,
    Opposition,
    OppositionMode,
    Phase,
    Reading,
    Resolve,
    ResolveOpposed,
    Role,
    SetMark,
    StepStatus,
    ask,
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
    char,
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


# --------------------------------------------------------------------------- who takes part
# Issue 10, item 2: only those able to act take part in an opposition (O5; O2, O3, P4).


def test_o2_p4_an_out_participant_does_not_roll_and_cannot_win() -> None:
    """O5: only characters able to act (not out) take part when the opposition is rolled;
    the out one's dice do not count, its exclusion is logged."""
    combat = three_grab()
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    best_dice = [roll("Carla", dice(2, 3, 4)),  # 9, margin 6
                 roll("Bruno", dice(4, 4, 5)),  # 13, margin 2
                 roll("Ana", dice(7, 4, 3))]  # 14, margin 1: would win
    events = combat.execute(ResolveOpposed(character="Carla", rolls=best_dice))
    assert opposed_event(combat).startswith("Bruno wins")
    assert set(results(combat)) == {"Carla", "Bruno"}
    [skipped] = [e for e in events if e.kind is EventKind.SKIPPED and e.rule == "O2"]
    assert skipped.actor == "Ana" and "out" in skipped.text and "not counted" in skipped.text
    assert combat.state.pending_steps() == []  # Ana's own grab is skipped too


def test_o2_p4_the_out_participants_dice_are_not_needed() -> None:
    """O5: for a round action, a prevented participant does not take part either."""
    combat = three_grab()
    combat.execute(SetMark(character="Bruno", mark=Mark.PREVENTED))
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Ana", dice(7, 4, 3))]))
    assert opposed_event(combat).startswith("Ana wins")
    assert "prevented" in next(e.text for e in events_of(combat, EventKind.SKIPPED)
                               if e.actor == "Bruno" and e.rule == "O2")


@pytest.mark.parametrize("how", ["opposed", "plain"])
def test_o3_p4_conditioner_gone_leaves_the_conditioned_action_as_its_own_ta(
        how: str) -> None:
    """O5: with one able character left, the action is that character's own TA."""
    # Ana (8) attacks Bruno (12), who dodges first; Ana is out: no conditioning.
    combat = started(ANA, BRUNO)
    declare(combat, "Ana", attack("Bruno", Role.CONDITIONING))
    declare(combat, "Bruno", attack("Ana", Role.CONDITIONED, target=14))
    advance_to(combat, Phase.ROUND)
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    command = (ResolveOpposed(character="Bruno", rolls=[roll("Bruno", dice(3, 3, 4))])
               if how == "opposed" else Resolve(character="Bruno", dice=dice(3, 3, 4)))
    events = combat.execute(command)
    assert results(combat) == {"Bruno": (0, 10, True)}  # no conditioning grade
    assert any(e.kind is EventKind.OPPOSED and "own TA" in e.text for e in events)
    assert any(e.kind is EventKind.SKIPPED and e.actor == "Ana" and "out" in e.text
               for e in events)
    assert combat.state.pending_steps() == []


def test_o3_p4_with_everyone_out_the_steps_are_skipped() -> None:
    """O5: with nobody able left, the opposition is not rolled: its steps are skipped,
    each logged."""
    combat = carla_attacks_bruno()
    combat.execute(SetMark(character="Bruno", mark=Mark.OUT))
    events = combat.execute(SetMark(character="Carla", mark=Mark.OUT))
    assert {s.status for s in combat.state.steps} == {StepStatus.SKIPPED}
    skipped = [e for e in combat.log if e.kind is EventKind.SKIPPED]
    assert {e.actor for e in skipped} == {"Bruno", "Carla"}
    assert all("\"fights\" skipped: out" in e.text for e in skipped)
    assert not any(e.kind in (EventKind.TA, EventKind.OPPOSED) for e in events)
    combat.execute(Advance())


def test_o3_opposed_step_with_an_able_opponent_still_refuses_a_single_ta() -> None:
    combat = carla_attacks_bruno()
    assert_refused(combat, Resolve(character="Carla", dice=dice(1, 2, 3)), match="Bruno")
    assert_refused(combat, ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(1, 2, 3))]), match="Bruno")


def test_o2_p4_a_mark_held_for_the_group_does_not_exclude_yet() -> None:
    """P4: a participant marked out while its group is acting still rolls."""
    dani = char("Dani", 12, 1, 13)
    combat = started(BRUNO, dani, ANA)
    declare(combat, "Ana", grab("Dani"))
    declare(combat, "Dani", grab("Ana"))
    declare(combat, "Bruno", act("shoots", target=15))
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Bruno", dice=dice(1, 2, 3)))
    combat.execute(SetMark(character="Dani", mark=Mark.OUT))  # held: Dani's group acts
    combat.execute(ResolveOpposed(character="Dani", rolls=[
        roll("Dani", dice(2, 3, 4)), roll("Ana", dice(9, 9, 8))]))
    assert opposed_event(combat).startswith("Dani wins")
    assert combat.state.is_out("Dani")


# --------------------------------------------------------------------------- O3, several
# Issue 10, item 7: one conditioning action against several conditioned characters, or
# several conditioning against one; each pair is compared as O3 and read (O4) apiece.


def stealth(against: list[str], role: Role, target: int = 15) -> Action:
    return act("sneaks / watches", target=target, opposition=Opposition(
        mode=OppositionMode.CONDITIONED, against=against, role=role,
        reading=Reading.STEALTH))


def test_o3_one_alarm_against_several_guards_compares_each_pair() -> None:
    combat = started(ANA, BRUNO, CARLA)
    declare(combat, "Ana", stealth(["Carla"], Role.CONDITIONED))
    declare(combat, "Bruno", stealth(["Carla"], Role.CONDITIONED, target=12))
    declare(combat, "Carla", stealth(["Ana", "Bruno"], Role.CONDITIONING))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    events = combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)),  # 9 <= 15: the guards get +1 GD
        roll("Ana", dice(1, 1, 2)),  # 4 + 5 = 9 <= 15 but éxito bajo: Carla by T5...
        roll("Bruno", dice(5, 5, 4)),  # 14 + 5 = 19 > 12: Carla wins
    ], winners=["Ana"]))  # ... the DJ gives Ana that pair (item 8)
    assert results(combat) == {"Carla": (0, 9, True), "Ana": (1, 9, True),
                               "Bruno": (1, 19, False)}
    opposed = [e for e in events if e.kind is EventKind.OPPOSED]
    assert [e.rule for e in opposed] == ["O4", "O4"]
    assert "(Carla vs Ana)" in opposed[0].text and opposed[0].text.startswith("Ana wins")
    assert "detects Carla" in opposed[0].text
    assert "(Carla vs Bruno)" in opposed[1].text and "Carla passes unseen" in opposed[1].text
    assert combat.state.pending_steps() == []


def test_o3_several_conditioning_against_one_use_the_same_dice_per_pair() -> None:
    # Ana and Bruno sneak past Carla, who acts first: her one perception TA is read
    # at +1 GD against the sneak who succeeded and -1 against the one who failed.
    combat = started(ANA, BRUNO, CARLA)
    declare(combat, "Ana", stealth(["Carla"], Role.CONDITIONING))
    declare(combat, "Bruno", stealth(["Carla"], Role.CONDITIONING))
    declare(combat, "Carla", stealth(["Ana", "Bruno"], Role.CONDITIONED, target=14))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    events = combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(3, 3, 4)),  # 10
        roll("Ana", dice(2, 3, 4)),  # 9 <= 15
        roll("Bruno", dice(9, 9, 8)),  # 26 > 15
    ]))
    carla = [e.ta for e in events if e.kind is EventKind.TA and e.actor == "Carla"]
    assert [(ta.gd, ta.total, ta.success) for ta in carla if ta is not None] == [
        (1, 15, False), (-1, 5, True)]
    opposed = [e.text for e in events if e.kind is EventKind.OPPOSED]
    assert opposed[0].startswith("Ana wins") and "(Ana vs Carla)" in opposed[0]
    assert opposed[1].startswith("Carla wins") and "Carla detects Bruno" in opposed[1]
    lines = [e.text for e in events if e.kind is EventKind.TA and e.actor == "Carla"]
    assert "Ana's TA succeeded" in lines[0] and "Bruno's TA failed" in lines[1]


def test_o3_a_guard_acting_first_brings_the_other_guards_of_the_alarm() -> None:
    """The alarm names both guards: when the first guard acts, the second rolls too."""
    combat = started(ANA, BRUNO, CARLA)
    declare(combat, "Ana", stealth(["Bruno", "Carla"], Role.CONDITIONING))
    declare(combat, "Bruno", stealth(["Ana"], Role.CONDITIONED))
    declare(combat, "Carla", stealth(["Ana"], Role.CONDITIONED))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    assert_refused(combat, ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Ana", dice(2, 3, 4))]), match="Bruno")
    events = combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Ana", dice(9, 9, 8)),
        roll("Bruno", dice(2, 3, 4))]))
    assert len([e for e in events if e.kind is EventKind.OPPOSED]) == 2
    assert combat.state.pending_steps() == []  # Bruno's and Ana's steps rolled too


def test_o3_p4_an_out_guard_drops_out_of_the_pairs() -> None:
    """O5: an out member of a several-character opposition drops out of its pairs."""
    combat = started(ANA, BRUNO, CARLA)
    declare(combat, "Ana", stealth(["Carla"], Role.CONDITIONED))
    declare(combat, "Bruno", stealth(["Carla"], Role.CONDITIONED))
    declare(combat, "Carla", stealth(["Ana", "Bruno"], Role.CONDITIONING))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(SetMark(character="Bruno", mark=Mark.OUT))
    events = combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Ana", dice(9, 9, 8))]))
    [opposed] = [e for e in events if e.kind is EventKind.OPPOSED]
    assert opposed.text.startswith("Carla wins") and "vs" not in opposed.text


def test_o5_a_member_left_with_no_able_partner_makes_its_own_ta_at_its_own_turn() -> None:
    """O5: Carla's alarm conditions both guards; with Carla out, Bruno's turn (12) is his
    own TA and does not take Ana's (8): she has no able partner either, so she makes her
    own TA at her own turn, later."""
    combat = started(ANA, BRUNO, CARLA)
    declare(combat, "Ana", stealth(["Carla"], Role.CONDITIONED, target=14))
    declare(combat, "Bruno", stealth(["Carla"], Role.CONDITIONED, target=12))
    declare(combat, "Carla", stealth(["Ana", "Bruno"], Role.CONDITIONING))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(SetMark(character="Carla", mark=Mark.OUT))
    assert_refused(combat, ResolveOpposed(character="Bruno", rolls=[
        roll("Bruno", dice(2, 3, 4)), roll("Ana", dice(2, 3, 4))]))
    combat.execute(Resolve(character="Bruno", dice=dice(2, 3, 4)))
    assert results(combat) == {"Bruno": (0, 9, True)}  # no conditioning grade
    [ana] = combat.state.pending_steps()
    assert ana.character == "Ana"  # her step was not taken by Bruno's roll
    combat.execute(Resolve(character="Ana", dice=dice(9, 9, 8)))
    assert results(combat) == {"Bruno": (0, 9, True), "Ana": (0, 26, False)}
    assert combat.state.pending_steps() == []


def test_o3_a_tie_in_one_pair_needs_the_dj() -> None:
    combat = started(ANA, BRUNO, CARLA)
    declare(combat, "Ana", stealth(["Carla"], Role.CONDITIONED))
    declare(combat, "Bruno", stealth(["Carla"], Role.CONDITIONED))
    declare(combat, "Carla", stealth(["Ana", "Bruno"], Role.CONDITIONING))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    rolls = [roll("Carla", dice(4, 5, 5)),  # 14 <= 15, éxito medio, margin 1
             roll("Ana", dice(2, 3, 4)),  # 9 + 5 = 14: éxito medio, margin 1: a tie
             roll("Bruno", dice(9, 9, 8))]
    assert_refused(combat, ResolveOpposed(character="Carla", rolls=rolls),
                   match="Tie between Carla, Ana")
    combat.execute(ResolveOpposed(character="Carla", rolls=rolls, tie_winner="Carla"))
    assert all(e.text.startswith("Carla wins") for e in events_of(combat, EventKind.OPPOSED))


# --------------------------------------------------------------------------- DJ decides
# Issue 10, item 8: the DJ overrides any opposed outcome, not only a tie (RULES.md: every
# automated decision can be overridden), logged as a DJ decision.


def test_o2_dj_overrides_a_clear_outcome_logged_as_a_dj_decision() -> None:
    combat = three_grab()
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(7, 4, 3)),  # Bruno by T5
        roll("Ana", dice(1, 1, 2))], winners=["Ana"]))
    [event] = events_of(combat, EventKind.OPPOSED)
    assert event.text.startswith("Ana wins") and event.override
    assert "DJ decision" in event.text and "Bruno would win" in event.text
    assert "[DJ]" in event.plain()


def test_o3_dj_overrides_the_outcome_and_the_reading_follows() -> None:
    combat = carla_attacks_bruno()
    combat.execute(ResolveOpposed(character="Carla", winners=["Bruno"], rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(3, 3, 4))]))  # Carla by T5
    text = opposed_event(combat)
    assert text.startswith("Bruno wins") and "avoids the attack" in text
    assert events_of(combat, EventKind.OPPOSED)[0].override


def test_e4_dj_decision_counts_for_the_chase() -> None:
    from tests.engine.test_rules_extended import chase, next_round, owner, to_extended_phase

    combat = chase(interval=1)
    assert to_extended_phase(combat) == ["Bruno", "Ana"]
    combat.execute(ResolveOpposed(character="Bruno", winners=["Bruno"], rolls=[
        roll("Bruno", dice(9, 9, 8)), roll("Ana", dice(1, 2, 3))]))
    assert (owner(combat, "Ana").successes, owner(combat, "Bruno").successes) == (0, 1)
    next_round(combat)


@pytest.mark.parametrize(("winners", "match"), [
    (["Dani"], "does not roll"), (["Carla", "Bruno"], "one")])
def test_o2_dj_decision_must_name_one_participant(winners: list[str], match: str) -> None:
    combat = three_grab()
    assert_refused(combat, ResolveOpposed(character="Carla", winners=winners, rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(7, 4, 3)),
        roll("Ana", dice(1, 1, 2))]), match=match)


def test_o3_dj_cannot_name_both_sides_of_a_pair() -> None:
    combat = carla_attacks_bruno()
    assert_refused(combat, ResolveOpposed(character="Carla", winners=["Bruno", "Carla"],
                                          rolls=[roll("Carla", dice(2, 3, 4)),
                                                 roll("Bruno", dice(3, 3, 4))]),
                   match="name one")


@pytest.mark.parametrize(("bruno_dice", "confirm"), [
    (dice(7, 7, 6), "Bruno"),  # 20 - 5 = 15 > 14 by 1: both fail, the sentinel wins
    (dice(2, 3, 4), None),  # 9 - 5 = 4 <= 14: he simply detects Carla
])
def test_o4_sentinel_winning_with_both_failing_is_named_for_a_new_ta(
        bruno_dice: Dice, confirm: str | None) -> None:
    combat = carla_attacks_bruno(Reading.STEALTH)
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(9, 6, 8)),  # 23 > 15, by 8
        roll("Bruno", bruno_dice)]))
    [event] = events_of(combat, EventKind.OPPOSED)
    assert event.text.startswith("Bruno wins")
    assert event.confirm_ta == confirm
    assert ("new TA" in event.text) is (confirm is not None)


def test_o2_o3_each_comparison_event_names_who_was_compared_and_who_won() -> None:
    """S2: the opposed event carries its comparison (actor and targets) and the winner."""
    combat = three_grab()
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(7, 4, 3)),
        roll("Ana", dice(1, 1, 2))]))
    [event] = events_of(combat, EventKind.OPPOSED)
    assert (event.actor, sorted(event.targets), event.winner) == (
        "Carla", ["Ana", "Bruno"], "Bruno")
    combat = started(ANA, BRUNO, CARLA)
    declare(combat, "Ana", stealth(["Bruno", "Carla"], Role.CONDITIONING))
    declare(combat, "Bruno", stealth(["Ana"], Role.CONDITIONED))
    declare(combat, "Carla", stealth(["Ana"], Role.CONDITIONED))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Ana", dice(9, 9, 8)),
        roll("Bruno", dice(9, 9, 9))]))
    pairs = [(e.actor, e.targets, e.winner) for e in events_of(combat, EventKind.OPPOSED)]
    assert pairs == [("Ana", ["Carla"], "Carla"), ("Ana", ["Bruno"], "Ana")]


# ------------------------------------------- O2/O3 with I4: declared by one side only


def dodge_then_plain_attack(*, aimed_at: str = "Bruno", **settings: Any) -> Combat:
    """Bruno (12) declares first and dodges Carla; Carla (15) then declares her attack
    plain, aimed at `aimed_at`. The opposition is Bruno's declaration, both sides' TAs."""
    combat = started(BRUNO, CARLA, ANA, **settings)
    declare(combat, "Ana")
    declare(combat, "Bruno", attack("Carla", Role.CONDITIONED, Reading.ATTACK, target=14))
    decline_if_prompted(combat)
    declare(combat, "Carla", act("fights", aimed_at, target=15))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    return combat


def test_o3_i4_a_dodge_declared_first_makes_the_plain_attack_its_conditioning_side() -> None:
    combat = dodge_then_plain_attack()
    # Carla acts first (I4): a single TA would leave Bruno's dodge to roll her TA again.
    assert_refused(combat, Resolve(character="Carla", dice=dice(2, 3, 4)), match="opposed")
    carla = combat.state.current_group()[0]
    plan = ask.opposition_plan(combat.state, carla)
    assert plan.rolling == ("Carla", "Bruno") and plan.pairs == (("Carla", "Bruno"),)
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(3, 3, 4))]))
    # Carla 9 <= 15 conditions; Bruno's dodge 10 + 5 (GD +1) = 15 > 14 fails: one roll each.
    assert results(combat) == {"Carla": (0, 9, True), "Bruno": (1, 15, False)}
    assert [e.actor for e in events_of(combat, EventKind.TA)] == ["Carla", "Bruno"]
    assert opposed_event(combat) == 'Carla wins the opposed action "fights". Carla hits Bruno.'
    assert all(step.status is StepStatus.DONE for step in combat.state.steps
               if step.character in ("Carla", "Bruno"))


def test_o2_i4_a_direct_opposition_declared_first_binds_the_other_sides_plain_action() -> None:
    combat = started(BRUNO, CARLA)
    declare(combat, "Bruno", grab("Carla"))
    decline_if_prompted(combat)
    declare(combat, "Carla", act("grabs the idol", "Bruno", target=15))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(7, 4, 3))]))
    # Both éxito medio; Bruno's 14 is the better result (T5), as in the three-way grab.
    assert results(combat) == {"Carla": (0, 9, True), "Bruno": (0, 14, True)}
    assert opposed_event(combat).startswith("Bruno wins")
    assert combat.state.pending_steps() == []


def test_o1_an_attack_aimed_at_someone_else_stays_its_own_ta() -> None:
    combat = dodge_then_plain_attack(aimed_at="Ana")
    carla = combat.state.current_group()[0]
    assert ask.opposition_of(combat.state, carla) is None
    combat.execute(Resolve(character="Carla", dice=dice(2, 3, 4)))
    assert results(combat) == {"Carla": (0, 9, True)}


def test_o3_a_conditioning_action_does_not_make_the_other_sides_action_a_reaction() -> None:
    # Bruno declared a plain attack on Carla; Carla's attack conditions him: he rolls
    # against her with a value the DJ gives, and his own attack keeps its turn.
    combat = started(BRUNO, CARLA)
    declare(combat, "Bruno", act("shoots Carla", "Carla", target=14))
    decline_if_prompted(combat)
    declare(combat, "Carla", attack("Bruno", Role.CONDITIONING))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    bruno = next(s for s in combat.state.steps if s.character == "Bruno")
    assert ask.opposition_of(combat.state, bruno) is None
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(1, 1, 2), target=14)]))
    assert [s.character for s in combat.state.pending_steps()] == ["Bruno"]


def test_o3_versions_before_3_keep_the_plain_attack_on_its_own() -> None:
    # storage._v2_to_v3: a history played so replays so; the DJ's settings never change it.
    combat = dodge_then_plain_attack(oppositions_v3=False)
    combat.execute(Resolve(character="Carla", dice=dice(2, 3, 4)))
    settings = combat.state.settings.model_copy(update={"points_per_gd": 4,
                                                        "oppositions_v3": True})
    combat.execute(ChangeSettings(settings=settings))
    assert not combat.state.settings.oppositions_v3
    assert combat.state.settings.points_per_gd == 4


def test_t5_a_tie_names_the_tied_in_the_language_in_force(spanish: str) -> None:
    combat = three_grab()
    tied = [roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(4, 3, 2)),
            roll("Ana", dice(10, 10, 9))]
    assert_refused(combat, ResolveOpposed(character="Carla", rolls=tied),
                   match="^Empate entre Carla, Bruno: el DJ elige al ganador.$")


@pytest.mark.parametrize("v3", [True, False])
def test_o4_h1_a_dodge_that_names_a_weapon_avoids_and_never_hits(v3: bool) -> None:
    """A dodge declared with the character's weapon (a form's prefill) and the attacker
    as target is still the conditioned side of an attack: winning, it avoids (O4); it
    proposes no hit on the attacker (H1). A history of format version 2 (v3 off) was
    played with that hit proposed, and replays so."""
    from sombra_tui.engine.wounds import Weapon

    pistol = Weapon(name="pistola", damage_type="II")
    dodge = attack("Carla", Role.CONDITIONED, Reading.ATTACK, target=14)
    dodge = dodge.model_copy(update={"weapon": pistol, "targets": ["Carla"]})
    shot = attack("Bruno", Role.CONDITIONING, Reading.ATTACK).model_copy(
        update={"weapon": pistol, "targets": ["Bruno"]})
    assert dodge.is_dodge and not shot.is_dodge
    combat = started(BRUNO, CARLA, oppositions_v3=v3)
    declare(combat, "Bruno", dodge)
    decline_if_prompted(combat)
    declare(combat, "Carla", shot)
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(9, 9, 8)), roll("Bruno", dice(1, 1, 2))]))
    assert opposed_event(combat).endswith("Bruno avoids the attack.")
    assert [(p.attacker, p.character) for p in combat.state.proposals] == (
        [] if v3 else [("Bruno", "Carla")])


def test_d1_o3_the_declaration_log_names_who_an_opposed_action_is_opposed_with() -> None:
    combat = dodge_then_plain_attack()
    declared = [e.text for e in events_of(combat, EventKind.DECLARE)]
    assert declared == ["Ana declares: inaction",
                        "Bruno declares: fights [asalto], opposed (conditioned) with Carla",
                        "Carla declares: fights [asalto] (affects Bruno)"]
    three = three_grab()
    first = events_of(three, EventKind.DECLARE)[0].text
    assert first == "Ana declares: grabs the idol [asalto], opposed (direct) with Bruno, Carla"
