"""O2, O3, O5, S2: the log lines of an opposition's TAs, word for word, with the TA,
the rule and the character each belongs to.

Written against the mutation lane's survivors (README, "Mutation testing").
"""

from __future__ import annotations

from sombra_tui.engine import (
    Combat,
    EventKind,
    ExtendedMode,
    ExtendedStatus,
    LogEvent,
    Mark,
    Phase,
    ResolveOpposed,
    Role,
    SetMark,
)
from tests.engine.conftest import (
    ANA,
    BRUNO,
    CARLA,
    advance_to,
    assert_refused,
    declare,
    dice,
    started,
)
from tests.engine.test_rules_extended import chase, owner, to_extended_phase
from tests.engine.test_rules_opposed import (
    attack,
    carla_attacks_bruno,
    decline_if_prompted,
    roll,
    stealth,
    three_grab,
)


def tas(events: list[LogEvent]) -> list[tuple[str | None, str | None, int | None, str]]:
    """Each TA line: (actor, rule, the TA's total, text)."""
    return [(e.actor, e.rule, e.ta.total if e.ta else None, e.text) for e in events
            if e.kind is EventKind.TA]


def test_o3_s2_the_conditioning_and_conditioned_tas_are_logged_with_the_grade() -> None:
    """O3: the conditioning TA first, then the conditioned one at +1 GD (succeeded) or
    at the DJ's size the other way (failed); each line names who and why (S2)."""
    combat = carla_attacks_bruno()
    events = combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(3, 3, 4))]))
    assert tas(events) == [
        ("Carla", "O3", 9, "Carla (conditioning)"),
        ("Bruno", "O3", 15, "Bruno (conditioned, GD +1 because the conditioning TA "
                            "succeeded)")]
    combat = carla_attacks_bruno()
    events = combat.execute(ResolveOpposed(character="Carla", condition_size=2, rolls=[
        roll("Carla", dice(9, 9, 8)), roll("Bruno", dice(1, 1, 2))]))
    assert tas(events) == [
        ("Carla", "O3", 26, "Carla (conditioning)"),
        ("Bruno", "O3", -6, "Bruno (conditioned, GD -2 because the conditioning TA "
                            "failed)")]


def test_o3_s2_one_conditioned_by_several_names_each_partner() -> None:
    """O3: several conditioning one: the conditioned TA is read at each partner's
    grade, and each line names that partner and how its TA went."""
    combat = started(ANA, BRUNO, CARLA)
    declare(combat, "Ana", stealth(["Carla"], Role.CONDITIONING))
    declare(combat, "Bruno", stealth(["Carla"], Role.CONDITIONING))
    declare(combat, "Carla", stealth(["Ana", "Bruno"], Role.CONDITIONED, target=14))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    events = combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(3, 3, 4)), roll("Ana", dice(2, 3, 4)),
        roll("Bruno", dice(9, 9, 8))]))
    assert tas(events) == [
        ("Ana", "O3", 9, "Ana (conditioning)"),
        ("Bruno", "O3", 26, "Bruno (conditioning)"),
        ("Carla", "O3", 15, "Carla (conditioned by Ana, GD +1 because Ana's TA succeeded)"),
        ("Carla", "O3", 5, "Carla (conditioned by Bruno, GD -1 because Bruno's TA failed)"),
    ]


def _bruno_left_alone() -> Combat:
    combat = started(ANA, BRUNO)
    declare(combat, "Ana", attack("Bruno", Role.CONDITIONING))
    declare(combat, "Bruno", attack("Ana", Role.CONDITIONED, target=14))
    advance_to(combat, Phase.ROUND)
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    return combat


def test_o5_the_one_left_makes_its_own_ta_logged_as_such() -> None:
    """O5: with one able character left the action is its own TA, logged under the
    opposition's rule with its TA; no winner can be chosen."""
    combat = _bruno_left_alone()
    refused = assert_refused(combat, ResolveOpposed(
        character="Bruno", rolls=[roll("Bruno", dice(3, 3, 4))], winners=["Bruno"]))
    assert (refused.code, refused.params, str(refused)) == (
        "opposed.nobody_left", {"character": "Bruno"},
        "Nobody is left to oppose Bruno: there is no winner to choose.")
    events = combat.execute(ResolveOpposed(character="Bruno",
                                           rolls=[roll("Bruno", dice(3, 3, 4))]))
    assert tas(events) == [("Bruno", "O3", 10, 'Bruno: "fights"')]
    [own] = [e for e in events if e.kind is EventKind.TA]
    [step] = [s for s in combat.state.steps if s.character == "Bruno"]
    assert own.ta == step.result
    combat = three_grab()
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    combat.execute(SetMark(character="Bruno", mark=Mark.OUT))
    events = combat.execute(ResolveOpposed(character="Carla",
                                           rolls=[roll("Carla", dice(3, 3, 4))]))
    assert tas(events) == [("Carla", "O2", 10, 'Carla: "grabs the idol"')]


def test_o5_a_lone_attack_still_names_its_target() -> None:
    """O5, H1: the lone TA keeps the action's targets (the hit it may propose)."""
    combat = started(BRUNO, CARLA)
    declare(combat, "Bruno", attack("Carla", Role.CONDITIONED, target=14))
    shot = attack("Bruno", Role.CONDITIONING)
    declare(combat, "Carla", shot.model_copy(update={"targets": ["Bruno"]}))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(SetMark(character="Bruno", mark=Mark.OUT))
    events = combat.execute(ResolveOpposed(character="Carla",
                                           rolls=[roll("Carla", dice(2, 3, 4))]))
    [own] = [e for e in events if e.kind is EventKind.TA]
    assert (own.actor, own.rule, own.targets, own.ta is not None) == (
        "Carla", "O3", ["Bruno"], True)


def test_e4_o5_a_chase_left_to_one_side_is_its_extended_ta() -> None:
    """E4, O5, P5: a chase whose other side is out is the one side's extended TA,
    logged under P5 (the extended phase), and it completes the action (E2)."""
    combat = chase(ExtendedMode.SIMPLE, interval=1)
    assert to_extended_phase(combat) == ["Bruno", "Ana"]
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    events = combat.execute(ResolveOpposed(character="Bruno",
                                           rolls=[roll("Bruno", dice(1, 2, 3))]))
    assert tas(events) == [("Bruno", "P5", 6, 'Bruno: "cracks the safe"')]
    assert owner(combat, "Bruno").status is ExtendedStatus.DONE
