"""RULES.md's third pass (issue 19): a group's turn (P4), conditions inside a group (C4),
hand-made marks and conditions (C4), both H7 thresholds at once, H10 scopes in
oppositions (O3), and dice that never repeat (T6)."""

from __future__ import annotations

from sombra_tui.engine import (
    Action,
    Advance,
    Combat,
    Mark,
    Opposition,
    OppositionMode,
    Phase,
    Resolve,
    ResolveOpposed,
    Role,
    SetMark,
    StepStatus,
)
from sombra_tui.engine.commands import (
    AddCondition,
    ConfirmProposal,
    DeclineProposal,
    ManualHit,
    OpposedRoll,
    RemoveCondition,
)
from sombra_tui.engine.conditions import (
    ActionScope,
    BodySide,
    Condition,
    ConditionEffects,
    GdEffect,
    ScopeKind,
    builtin,
)
from sombra_tui.engine.state import ProposalKind
from sombra_tui.engine.wounds import Location
from tests.engine.conftest import (
    act,
    advance_to,
    char,
    declare,
    declare_all_inaction,
    dice,
    started,
)

A12 = char("A", 12, 1)
E10 = char("E", 10, 1)
B6 = char("B", 6, 2)
D6 = char("D", 6, 1)


def status(combat: Combat) -> dict[str, StepStatus]:
    return {step.character: step.status for step in combat.state.steps}


def idol_and_shot() -> Combat:
    """A (12) and B (6) grab the idol (O2): B rolls at A's turn. E (10) shoots D (6, B's
    group). Action order: A, E, {B, D}."""
    combat = started(A12, E10, B6, D6)
    grab = Opposition(mode=OppositionMode.DIRECT, against=["A"])
    declare(combat, "D", act("shoots A", target=15), affected=[])
    declare(combat, "B", Action(description="grabs the idol", target=15, opposition=grab),
            affected=[])
    declare(combat, "E", act("shoots D", target=15), affected=[])
    declare(combat, "A", Action(description="grabs the idol", target=15,
                                opposition=Opposition(mode=OppositionMode.DIRECT,
                                                      against=["B"])), affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(ResolveOpposed(character="A", rolls=[
        OpposedRoll(character="A", dice=dice(1, 2, 3)),
        OpposedRoll(character="B", dice=dice(4, 5, 6))]))
    assert status(combat)["B"] is StepStatus.DONE  # rolled early, at A's turn (O2)
    return combat


def test_p4_o2_an_early_opposition_roll_does_not_bring_the_groups_turn() -> None:
    """P4: a mark made before the group's turn takes effect at once, even if a member
    already rolled earlier in an opposition (O2)."""
    combat = idol_and_shot()
    combat.execute(Resolve(character="E", dice=dice(1, 1, 2)))  # E hits D
    combat.execute(SetMark(character="D", mark=Mark.PREVENTED))
    assert combat.state.pending_marks == []
    assert "D" in combat.state.prevented
    assert status(combat)["D"] is StepStatus.SKIPPED  # D does not shoot
    assert combat.state.pending_steps() == []


def test_p4_o2_back_before_the_groups_turn_gives_the_action_back() -> None:
    """P4: a character brought back before its group's turn gets its action back, even
    if a member of that group rolled earlier in an opposition."""
    combat = idol_and_shot()
    combat.execute(SetMark(character="D", mark=Mark.OUT))  # during E's turn
    combat.execute(Resolve(character="E", dice=dice(1, 1, 2)))
    assert status(combat)["D"] is StepStatus.SKIPPED
    combat.execute(SetMark(character="D", mark=Mark.BACK))  # before {B, D}'s turn
    assert status(combat)["D"] is StepStatus.PENDING
    combat.execute(Resolve(character="D", dice=dice(1, 2, 3)))
    assert status(combat)["D"] is StepStatus.DONE


def test_p4_the_groups_turn_comes_with_a_ta_at_its_place() -> None:
    """P4: once a member rolls at the group's place, later marks wait for the group."""
    combat = started(A12, B6, D6)
    for name in ("D", "B", "A"):
        declare(combat, name, act("shoots", target=15), affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="A", dice=dice(1, 2, 3)))
    combat.execute(Resolve(character="B", dice=dice(1, 2, 3)))
    combat.execute(SetMark(character="D", mark=Mark.PREVENTED))
    assert [p.character for p in combat.state.pending_marks] == ["D"]
    assert status(combat)["D"] is StepStatus.PENDING


# --------------------------------------------------------------------------- C4, hand marks

ANA = char("Ana", 8, 3, 14)
BRUNO = char("Bruno", 12, 5, 12)


def derribado() -> Condition:
    return Condition(name="derribado", duration=1,
                     effects=ConditionEffects(cannot_act=True, cannot_react=True))


def condition_id(combat: Combat, name: str, condition: str) -> int:
    return next(cond.id for cond in combat.state.body(name).conditions
                if cond.name == condition)


def test_c4_removing_a_condition_leaves_the_djs_out_mark() -> None:
    """C4: when a condition ends, its own effect ends with it: an out mark the DJ made
    by hand stays until the DJ lifts it."""
    combat = started(ANA, BRUNO)
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    combat.execute(AddCondition(character="Ana", condition=derribado()))
    combat.execute(RemoveCondition(character="Ana",
                                   condition_id=condition_id(combat, "Ana", "derribado")))
    assert combat.state.is_out("Ana")
    combat.execute(SetMark(character="Ana", mark=Mark.BACK))
    assert not combat.state.is_out("Ana")


def test_c4_c3_an_expiring_aturdido_leaves_the_djs_out_mark() -> None:
    """C3/C4: a 1-asalto aturdido ends at the end of its round; the hand mark stays."""
    combat = started(ANA, BRUNO)
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    combat.execute(AddCondition(character="Ana",
                                condition=builtin("aturdido", began=0, duration=1)))
    for _ in range(2):  # to the end of round 2, when the aturdido begun in 1 ends
        declare_all_inaction(combat)
        advance_to(combat, Phase.END_OF_ROUND)
        combat.execute(Advance())
    assert combat.state.round == 3
    assert combat.state.body("Ana").conditions == ()
    assert combat.state.is_out("Ana")


def test_c4_an_out_condition_ending_still_brings_back_who_it_put_out() -> None:
    """C4: out is P4's mark; made by a condition, it ends with the condition."""
    combat = started(ANA, BRUNO)
    combat.execute(AddCondition(character="Ana", condition=builtin("inconsciente", began=0)))
    assert combat.state.is_out("Ana")
    combat.execute(RemoveCondition(character="Ana",
                                   condition_id=condition_id(combat, "Ana", "inconsciente")))
    assert not combat.state.is_out("Ana")


A10 = char("A", 10, 2)
B10 = char("B", 10, 1)


def a_and_b_together() -> Combat:
    """A and B share primaria 10 (one simultaneous group, I4); A has rolled."""
    combat = started(A10, B10)
    declare(combat, "B", act("shoots", target=15), affected=[])
    declare(combat, "A", act("shoots", target=15), affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="A", dice=dice(1, 2, 3)))
    return combat


def test_c4_p4_a_condition_begun_inside_the_groups_turn_waits_for_the_group() -> None:
    """C4: a condition that begins inside a simultaneous group's turn affects the group's
    members only after the group: a member who has not yet rolled still makes its TA."""
    combat = a_and_b_together()
    events = combat.execute(AddCondition(character="B",
                                         condition=builtin("inconsciente", began=0)))
    assert any(e.rule == "C4" for e in events)
    assert status(combat)["B"] is StepStatus.PENDING
    assert not combat.state.is_out("B")
    combat.execute(Resolve(character="B", dice=dice(1, 2, 3)))
    assert status(combat)["B"] is StepStatus.DONE
    assert combat.state.is_out("B")  # after the group
    assert combat.state.held_conditions == []


def test_c4_h10_a_held_condition_adds_no_grade_to_the_members_ta() -> None:
    """C4/H10: a GD condition begun inside the group's turn does not weigh on the
    member's TA in that turn."""
    combat = a_and_b_together()
    combat.execute(AddCondition(character="B", condition=Condition(
        name="cegado", effects=ConditionEffects(gd=(GdEffect(scope=ScopeKind.ANY, gd=2),)))))
    combat.execute(Resolve(character="B", dice=dice(1, 2, 3)))
    result = combat.state.steps[1].result
    assert result is not None and result.gd == 0


def test_c4_h7_a_confirmed_inconsciente_inside_the_group_waits_for_the_group() -> None:
    """C4/H7: inconsciente confirmed inside the group's turn: B still rolls."""
    combat = a_and_b_together()
    pv = 3 * B10.resistencia
    combat.execute(ManualHit(character="B", location=Location.PECHO, damage=pv,
                             lethal=False))
    [proposal] = combat.state.proposals
    assert proposal.condition == "inconsciente"
    combat.execute(ConfirmProposal(proposal_id=proposal.id))
    assert status(combat)["B"] is StepStatus.PENDING
    assert combat.state.proposals == []  # no H11 prevent proposal for a held condition
    combat.execute(Resolve(character="B", dice=dice(1, 2, 3)))
    assert status(combat)["B"] is StepStatus.DONE
    assert combat.state.is_out("B")


def test_c4_p4_a_condition_ended_inside_the_groups_turn_leaves_no_out_mark() -> None:
    """C4: when a condition ends, its own effect ends with it, even if it began and ended
    inside the group's turn, while its out mark was still waiting for the group (P4).
    (Found by test_stateful_groups.)"""
    combat = a_and_b_together()
    combat.execute(AddCondition(character="B", condition=builtin("inconsciente", began=0)))
    assert [p.character for p in combat.state.pending_marks] == ["B"]
    combat.execute(RemoveCondition(character="B",
                                   condition_id=condition_id(combat, "B", "inconsciente")))
    assert combat.state.pending_marks == []
    combat.execute(Resolve(character="B", dice=dice(1, 2, 3)))
    assert not combat.state.is_out("B")


def test_c4_p4_a_hand_mark_waiting_for_the_group_outlives_a_condition() -> None:
    """C4: the DJ's out mark, waiting for the group (P4), stays when a condition ends."""
    combat = a_and_b_together()
    combat.execute(SetMark(character="B", mark=Mark.OUT))
    combat.execute(AddCondition(character="B", condition=builtin("inconsciente", began=0)))
    combat.execute(RemoveCondition(character="B",
                                   condition_id=condition_id(combat, "B", "inconsciente")))
    combat.execute(Resolve(character="B", dice=dice(1, 2, 3)))
    assert combat.state.is_out("B")


def test_c4_a_condition_on_a_later_group_applies_at_once() -> None:
    """C4: only the acting group's members wait; everyone else is affected at once."""
    combat = started(A10, B10, char("C", 5))
    for name in ("C", "B", "A"):
        declare(combat, name, act("shoots", target=15), affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="A", dice=dice(1, 2, 3)))
    combat.execute(AddCondition(character="C", condition=builtin("aturdido", began=0)))
    [proposal] = combat.state.proposals  # at once: H11 asks about C's pending action
    assert proposal.character == "C" and proposal.kind is ProposalKind.PREVENT
    combat.execute(ConfirmProposal(proposal_id=proposal.id))
    combat.execute(Resolve(character="B", dice=dice(1, 2, 3)))
    assert status(combat)["C"] is StepStatus.SKIPPED


# --------------------------------------------------------------------------- H7 both


def test_h7_one_change_to_both_thresholds_proposes_muerto_then_inconsciente() -> None:
    """H7: when one change brings both G and W to PV, muerto is proposed first and, if
    the DJ declines it, inconsciente next."""
    combat = started(ANA, BRUNO)
    pv = 3 * ANA.resistencia
    combat.execute(ManualHit(character="Ana", location=Location.PECHO, damage=pv,
                             lethal=True))
    [muerto] = combat.state.proposals
    assert muerto.condition == "muerto"
    combat.execute(DeclineProposal(proposal_id=muerto.id))
    [inconsciente] = combat.state.proposals
    assert inconsciente.condition == "inconsciente"
    combat.execute(ConfirmProposal(proposal_id=inconsciente.id))
    assert "inconsciente" in [cond.name for cond in combat.state.body("Ana").conditions]
    assert combat.state.is_out("Ana")


def test_h7_confirming_muerto_asks_nothing_more() -> None:
    """H7: muerto confirmed: inconsciente is not asked (the character is out)."""
    combat = started(ANA, BRUNO)
    combat.execute(ManualHit(character="Ana", location=Location.PECHO,
                             damage=3 * ANA.resistencia, lethal=True))
    [muerto] = combat.state.proposals
    combat.execute(ConfirmProposal(proposal_id=muerto.id))
    assert combat.state.proposals == []
    assert combat.state.is_out("Ana")


# --------------------------------------------------------------------------- H10 in O3

CARLA = char("Carla", 15, 2, 13)


def dodge_with_legs_against_carla() -> Combat:
    """Ana (main arm right) has a leve right-arm wound; she dodges with her legs only,
    conditioned by Carla's attack (O3)."""
    combat = started(ANA, CARLA)
    combat.execute(ManualHit(character="Ana", location=Location.BRAZO_DERECHO,
                             damage=ANA.resistencia, lethal=False))  # leve: +1 right arm
    legs = ActionScope(physical=True, legs=frozenset({BodySide.LEFT, BodySide.RIGHT}))
    declare(combat, "Ana", act("dodges", target=14, scope=legs, opposition=Opposition(
        mode=OppositionMode.CONDITIONED, against=["Carla"], role=Role.CONDITIONED)),
        affected=[])
    declare(combat, "Carla", act("stabs Ana", target=15, opposition=Opposition(
        mode=OppositionMode.CONDITIONED, against=["Ana"], role=Role.CONDITIONING)),
        affected=[])
    advance_to(combat, Phase.ROUND)
    return combat


def test_h10_o3_an_opponent_rolls_with_the_scope_it_declared() -> None:
    """H10/O3: the conditioned opponent's TA carries the grades of its own action's
    scope (legs only: no arm grade), plus O3's +1."""
    combat = dodge_with_legs_against_carla()
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        OpposedRoll(character="Carla", dice=dice(2, 3, 4)),
        OpposedRoll(character="Ana", dice=dice(1, 1, 2))]))
    ana = next(step.result for step in combat.state.steps if step.character == "Ana")
    assert ana is not None and ana.gd == 1  # O3's +1 only


def test_h10_o3_an_opponent_using_its_wounded_arm_carries_the_grade() -> None:
    """H10: the same dodge with the default scope (main arm) carries the arm's +1."""
    combat = started(ANA, CARLA)
    combat.execute(ManualHit(character="Ana", location=Location.BRAZO_DERECHO,
                             damage=ANA.resistencia, lethal=False))
    declare(combat, "Ana", act("parries", target=14, opposition=Opposition(
        mode=OppositionMode.CONDITIONED, against=["Carla"], role=Role.CONDITIONED)),
        affected=[])
    declare(combat, "Carla", act("stabs Ana", target=15, opposition=Opposition(
        mode=OppositionMode.CONDITIONED, against=["Ana"], role=Role.CONDITIONING)),
        affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        OpposedRoll(character="Carla", dice=dice(2, 3, 4)),
        OpposedRoll(character="Ana", dice=dice(1, 1, 2))]))
    ana = next(step.result for step in combat.state.steps if step.character == "Ana")
    assert ana is not None and ana.gd == 2  # O3's +1 and the arm's +1
