"""E1-E4: extended actions across rounds."""

from __future__ import annotations

from sombra_tui.engine import (
    AbandonExtended,
    Action,
    ActionKind,
    AdjustExtended,
    Advance,
    Combat,
    EventKind,
    ExtendedMode,
    ExtendedProgress,
    ExtendedSpec,
    ExtendedStatus,
    Mark,
    OpposedRoll,
    Opposition,
    OppositionMode,
    Phase,
    Resolve,
    ResolveOpposed,
    SetMark,
)
from tests.engine.conftest import (
    ANA,
    BRUNO,
    act,
    advance_to,
    assert_refused,
    declare,
    declare_all_inaction,
    dice,
    events_of,
    started,
)

PASS = dice(1, 2, 3)  # 6 <= 15
FAIL = dice(10, 9, 8)  # 27 > 15


def extended(mode: ExtendedMode = ExtendedMode.SIMPLE, *, duration: int = 1,
             successes: int = 1, interval: int = 1, gd: int = 0,
             opposition: Opposition | None = None) -> Action:
    return Action(kind=ActionKind.EXTENDED, description="cracks the safe", target=15, gd=gd,
                  extended=ExtendedSpec(mode=mode, duration=duration, successes=successes,
                                        interval=interval), opposition=opposition)


def to_extended_phase(combat: Combat) -> list[str]:
    """Everyone else declares nothing; returns who rolls in this extended phase."""
    declare_all_inaction(combat)
    advance_to(combat, Phase.EXTENDED)
    return [step.character for step in combat.state.pending_steps()]


def next_round(combat: Combat) -> None:
    advance_to(combat, Phase.END_OF_ROUND)
    combat.execute(Advance())


def progress(combat: Combat, index: int = 0) -> ExtendedProgress:
    return combat.state.extended[index]


# --------------------------------------------------------------------------- E1


def test_e1_lasts_across_rounds_without_being_redeclared() -> None:
    combat = started(ANA)
    declare(combat, "Ana", extended(duration=3))
    assert to_extended_phase(combat) == []
    next_round(combat)
    declare(combat, "Ana", act("keeps watch", kind=ActionKind.AUTOMATIC))
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Ana"))
    assert to_extended_phase(combat) == []
    next_round(combat)
    assert to_extended_phase(combat) == ["Ana"]  # round 3: its 3rd round
    assert len(combat.state.extended) == 1
    assert progress(combat).started_round == 1


def test_e1_abandoned_by_the_dj_stops_and_is_logged() -> None:
    combat = started(ANA)
    declare(combat, "Ana", extended(duration=2))
    to_extended_phase(combat)
    next_round(combat)
    assert to_extended_phase(combat) == ["Ana"]
    combat.execute(AbandonExtended(extended_id=progress(combat).id))
    assert progress(combat).status is ExtendedStatus.ABANDONED
    assert combat.state.pending_steps() == []
    [event] = events_of(combat, EventKind.EXTENDED, rule="E1")[-1:]
    assert event.override
    next_round(combat)
    assert to_extended_phase(combat) == []
    assert_refused(combat, AbandonExtended(extended_id=progress(combat).id),
                   match="abandoned")


# --------------------------------------------------------------------------- E2


def test_e2_simple_rolls_in_its_nth_round_and_completes_on_success() -> None:
    combat = started(ANA)
    declare(combat, "Ana", extended(duration=2))
    assert to_extended_phase(combat) == []
    next_round(combat)
    assert to_extended_phase(combat) == ["Ana"]
    combat.execute(Resolve(character="Ana", dice=PASS))
    assert progress(combat).status is ExtendedStatus.DONE
    next_round(combat)
    assert to_extended_phase(combat) == []


def test_e2_failure_restarts_from_the_beginning() -> None:
    combat = started(ANA)
    declare(combat, "Ana", extended(duration=2))
    to_extended_phase(combat)
    next_round(combat)
    assert to_extended_phase(combat) == ["Ana"]  # round 2
    combat.execute(Resolve(character="Ana", dice=FAIL))
    assert progress(combat).status is ExtendedStatus.ACTIVE
    next_round(combat)
    assert to_extended_phase(combat) == []  # round 3: first round of the retry
    next_round(combat)
    assert to_extended_phase(combat) == ["Ana"]  # round 4
    combat.execute(Resolve(character="Ana", dice=PASS))
    assert progress(combat).status is ExtendedStatus.DONE
    assert progress(combat).attempts == 2


def test_e2_dj_may_shorten_the_retry() -> None:
    combat = started(ANA)
    declare(combat, "Ana", extended(duration=3))
    for _ in range(2):
        to_extended_phase(combat)
        next_round(combat)
    assert to_extended_phase(combat) == ["Ana"]  # round 3
    combat.execute(Resolve(character="Ana", dice=FAIL))
    combat.execute(AdjustExtended(extended_id=progress(combat).id, duration=1))
    assert events_of(combat, EventKind.EXTENDED, rule="E2")[-1].override
    next_round(combat)
    assert to_extended_phase(combat) == ["Ana"]  # round 4, not round 6
    assert_refused(combat, AdjustExtended(extended_id=progress(combat).id, successes=2),
                   match="Only a complex extended action counts successes")


# --------------------------------------------------------------------------- E3


def test_e3_complex_counts_successes_every_k_rounds() -> None:
    combat = started(ANA)
    declare(combat, "Ana", extended(ExtendedMode.COMPLEX, successes=2, interval=2))
    rolled: dict[int, list[str]] = {}
    outcomes = {2: PASS, 4: FAIL, 6: PASS}
    for round_number in range(1, 7):
        assert combat.state.round == round_number
        rolled[round_number] = to_extended_phase(combat)
        if round_number in outcomes:
            combat.execute(Resolve(character="Ana", dice=outcomes[round_number]))
        if round_number == 2:
            assert progress(combat).successes == 1
        if round_number == 4:
            assert progress(combat).successes == 1  # a failure is not counted
            assert progress(combat).status is ExtendedStatus.ACTIVE
        next_round(combat)
    assert {r: names for r, names in rolled.items() if names} == {
        2: ["Ana"], 4: ["Ana"], 6: ["Ana"]}
    assert progress(combat).successes == 2
    assert progress(combat).status is ExtendedStatus.DONE
    assert progress(combat).attempts == 3


def test_e3_dj_changes_the_gd_of_later_tas() -> None:
    combat = started(ANA)
    declare(combat, "Ana", extended(ExtendedMode.COMPLEX, successes=3, gd=1))
    assert to_extended_phase(combat) == ["Ana"]
    combat.execute(Resolve(character="Ana", dice=dice(1, 1, 2)))
    assert combat.state.steps[0].result is not None
    assert combat.state.steps[0].result.total == 4 + 5 * 1
    combat.execute(AdjustExtended(extended_id=progress(combat).id, gd=-2))
    next_round(combat)
    assert to_extended_phase(combat) == ["Ana"]
    combat.execute(Resolve(character="Ana", dice=dice(1, 1, 2)))
    result = combat.state.steps[0].result
    assert result is not None and result.gd == -2 and result.total == 4 - 10


def test_e3_dj_changes_the_successes_required() -> None:
    combat = started(ANA)
    declare(combat, "Ana", extended(ExtendedMode.COMPLEX, successes=3))
    to_extended_phase(combat)
    combat.execute(Resolve(character="Ana", dice=PASS))
    next_round(combat)
    to_extended_phase(combat)
    combat.execute(Resolve(character="Ana", dice=PASS))
    assert (progress(combat).successes, progress(combat).status) == (2, ExtendedStatus.ACTIVE)
    combat.execute(AdjustExtended(extended_id=progress(combat).id, successes=2))
    assert progress(combat).status is ExtendedStatus.DONE
    assert events_of(combat, EventKind.EXTENDED, rule="E3")[-2].override


def test_e3_dj_raises_the_successes_required() -> None:
    combat = started(ANA)
    declare(combat, "Ana", extended(ExtendedMode.COMPLEX, successes=1))
    to_extended_phase(combat)
    combat.execute(AdjustExtended(extended_id=progress(combat).id, successes=2))
    combat.execute(Resolve(character="Ana", dice=PASS))
    assert (progress(combat).successes, progress(combat).status) == (1, ExtendedStatus.ACTIVE)
    assert_refused(combat, AdjustExtended(extended_id=progress(combat).id, duration=2),
                   match="Only a simple extended action has a duration")


# --------------------------------------------------------------------------- E4


def chase(mode: ExtendedMode = ExtendedMode.COMPLEX, interval: int = 2) -> Combat:
    """Ana chases Bruno: both declare an opposed extended action against the other."""
    combat = started(ANA, BRUNO)
    for name, other in (("Ana", "Bruno"), ("Bruno", "Ana")):
        declare(combat, name, extended(
            mode, successes=2, interval=interval, duration=interval,
            opposition=Opposition(mode=OppositionMode.DIRECT, against=[other])))
    return combat


def owner(combat: Combat, name: str) -> ExtendedProgress:
    [found] = [p for p in combat.state.extended if p.owner == name]
    return found


def test_e4_both_sides_roll_at_the_interval_and_compare() -> None:
    combat = chase()
    assert to_extended_phase(combat) == []
    next_round(combat)
    assert to_extended_phase(combat) == ["Bruno", "Ana"]
    # Bruno acts first (I4): both TAs are made now (O2).
    assert_refused(combat, Resolve(character="Bruno", dice=PASS), match="opposed")
    combat.execute(ResolveOpposed(character="Bruno", rolls=[
        OpposedRoll(character="Bruno", dice=dice(2, 3, 4)),  # 9 <= 15, margin 6
        OpposedRoll(character="Ana", dice=dice(2, 6, 5)),  # 13 <= 15, margin 2: closer
    ]))
    assert combat.state.pending_steps() == []
    assert (owner(combat, "Ana").successes, owner(combat, "Bruno").successes) == (1, 0)
    [event] = events_of(combat, EventKind.OPPOSED)
    assert event.text.startswith("Ana wins")
    # Both sides counted the interval: neither rolls in round 3, both in round 4.
    next_round(combat)
    assert to_extended_phase(combat) == []
    next_round(combat)
    assert to_extended_phase(combat) == ["Bruno", "Ana"]
    combat.execute(ResolveOpposed(character="Bruno", rolls=[
        OpposedRoll(character="Bruno", dice=dice(2, 3, 4)),
        OpposedRoll(character="Ana", dice=dice(9, 9, 9)),  # fracaso alto
    ]))
    assert (owner(combat, "Ana").successes, owner(combat, "Bruno").successes) == (1, 1)


def test_e4_the_opponents_extended_action_completes_too() -> None:
    combat = chase(ExtendedMode.SIMPLE, interval=1)
    assert to_extended_phase(combat) == ["Bruno", "Ana"]
    combat.execute(ResolveOpposed(character="Bruno", rolls=[
        OpposedRoll(character="Bruno", dice=dice(10, 10, 1)),  # fails
        OpposedRoll(character="Ana", dice=dice(1, 2, 3)),  # succeeds: Ana catches him
    ]))
    assert owner(combat, "Ana").status is ExtendedStatus.DONE
    assert owner(combat, "Bruno").status is ExtendedStatus.ACTIVE


def test_e4_opponent_extended_gd_set_by_the_dj_is_used() -> None:
    combat = chase(interval=1)
    declare_all_inaction(combat)
    combat.execute(Advance())  # the extended actions start when declarations are final
    combat.execute(AdjustExtended(extended_id=owner(combat, "Ana").id, gd=1))
    assert to_extended_phase(combat) == ["Bruno", "Ana"]
    combat.execute(ResolveOpposed(character="Bruno", rolls=[
        OpposedRoll(character="Bruno", dice=dice(2, 3, 4)),
        OpposedRoll(character="Ana", dice=dice(2, 3, 4)),
    ]))
    ana_ta = combat.state.steps[1].result
    assert ana_ta is not None and ana_ta.gd == 1 and ana_ta.total == 9 + 5
    # Ana: 9 + 5 = 14, margin 1, closer than Bruno's 9 (margin 6): she wins (T5).
    assert (owner(combat, "Ana").successes, owner(combat, "Bruno").successes) == (1, 0)


def test_e4_chase_against_someone_without_an_extended_action() -> None:
    combat = started(ANA, BRUNO)
    declare(combat, "Ana", extended(
        ExtendedMode.COMPLEX, successes=2,
        opposition=Opposition(mode=OppositionMode.DIRECT, against=["Bruno"])))
    assert to_extended_phase(combat) == ["Ana"]
    assert_refused(combat, ResolveOpposed(character="Ana", rolls=[
        OpposedRoll(character="Ana", dice=PASS),
        OpposedRoll(character="Bruno", dice=PASS)]), match="Bruno")
    combat.execute(ResolveOpposed(character="Ana", rolls=[
        OpposedRoll(character="Ana", dice=dice(4, 4, 4)),  # 12 <= 15, margin 3
        OpposedRoll(character="Bruno", dice=dice(4, 4, 5), target=12),  # 13 > 12
    ]))
    assert owner(combat, "Ana").successes == 1


def test_e3_lowering_the_successes_to_those_counted_withdraws_the_due_ta() -> None:
    """Issue 10, item 4: done at once; its pending TA of this phase is withdrawn and
    logged, and the round can advance without rolling it."""
    combat = started(ANA)
    declare(combat, "Ana", extended(ExtendedMode.COMPLEX, successes=3))
    to_extended_phase(combat)
    combat.execute(Resolve(character="Ana", dice=PASS))
    next_round(combat)
    assert to_extended_phase(combat) == ["Ana"]  # the second TA is due
    events = combat.execute(AdjustExtended(extended_id=progress(combat).id, successes=1))
    assert progress(combat).status is ExtendedStatus.DONE
    assert combat.state.pending_steps() == []
    [withdrawn] = [e for e in events if e.kind is EventKind.WITHDRAWN]
    assert withdrawn.rule == "E3" and withdrawn.actor == "Ana"
    assert_refused(combat, Resolve(character="Ana", dice=PASS))
    combat.execute(Advance())
    assert combat.state.phase is Phase.END_OF_ROUND
    completions = [e for e in combat.log if "completes" in e.text]
    assert len(completions) == 1


def test_e4_p4_with_the_other_side_out_the_chase_is_the_own_ta() -> None:
    """Issue 10, item 2: an out participant does not roll; the one left rolls alone and
    its own TA counts for its extended action (E4 compares as O2, P4, P5)."""
    combat = chase(interval=1)
    declare_all_inaction(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(SetMark(character="Bruno", mark=Mark.OUT))
    combat.execute(Advance())
    assert [s.character for s in combat.state.pending_steps()] == ["Ana"]
    events = combat.execute(ResolveOpposed(character="Ana", rolls=[
        OpposedRoll(character="Ana", dice=PASS)]))
    assert owner(combat, "Ana").successes == 1
    assert owner(combat, "Bruno").attempts == 0
    assert any(e.kind is EventKind.SKIPPED and e.actor == "Bruno" for e in events)
