"""RULES.md's fourth pass (issue 35), marks and conditions in time: a mark on someone
outside the group in progress takes effect at once (P4), a step of a character who
cannot act is skipped whatever the DJ answered about another condition (C4, H11), H11's
question in every phase an attack resolves in (instant, round) and a member of a group
in progress rolls without the grades of a wound or condition begun inside the group's
turn (C4, H10). Older files (Settings.rules_v4 off) replay as they were played."""

from __future__ import annotations

import pytest

from sombra_tui.engine import (
    Action,
    ActionKind,
    Combat,
    EventKind,
    Mark,
    Opposition,
    OppositionMode,
    Phase,
    Resolve,
    Role,
    SetMark,
    Settings,
    StepStatus,
    Weapon,
    plan_opposition,
)
from sombra_tui.engine.commands import (
    AcceptHit,
    AddCondition,
    ConfirmProposal,
    DeclineProposal,
    FreeTA,
    ManualHit,
)
from sombra_tui.engine.conditions import Condition, ConditionEffects, builtin
from sombra_tui.engine.state import ProposalKind
from sombra_tui.engine.wounds import Location
from tests.engine.conftest import (
    act,
    advance_to,
    char,
    declare,
    dice,
    events_of,
    started,
)

PISTOL = Weapon(name="pistol", damage_type="II")


def status(combat: Combat) -> dict[str, StepStatus]:
    return {step.character: step.status for step in combat.state.steps}


def prevent_proposals(combat: Combat, name: str) -> list[int]:
    return [p.id for p in combat.state.proposals
            if p.kind is ProposalKind.PREVENT and p.character == name]


def declare_in_order(combat: Combat, **actions: Action) -> None:
    """Everyone declares in declaration order (I3): its action in `actions`, or nothing."""
    while (name := combat.state.current_declarer) is not None:
        declare(combat, name, *([actions[name]] if name in actions else []), affected=[])


def acted(combat: Combat, name: str) -> bool:
    return any(e.actor == name for e in events_of(combat, EventKind.TA))


# ------------------------------------------------------------------ item 10: P4, W5


def w5(rules_v4: bool = True) -> Combat:
    """A and B share primaria 10, C has 5; all declare; in the round phase A resolves:
    the group {A, B}'s turn has begun (P4)."""
    combat = started(char("A", 10, 1), char("B", 10, 2), char("C", 5, 1),
                     rules_v4=rules_v4)
    declare_in_order(combat, **{name: act("shoots", target=15) for name in "ABC"})
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="A", dice=dice(1, 2, 3)))
    return combat


def test_p4_w5_a_mark_on_a_non_member_takes_effect_at_once() -> None:
    """P4: a mark made inside a group's turn on anyone outside the group takes effect at
    once; only a member's waits for the group's last TA."""
    combat = w5()
    events = combat.execute(SetMark(character="C", mark=Mark.OUT))
    assert "C" in combat.state.out
    assert combat.state.pending_marks == []
    assert not any("once the simultaneous group" in e.text for e in events)
    combat.execute(SetMark(character="B", mark=Mark.PREVENTED))  # a member: it waits
    assert [p.character for p in combat.state.pending_marks] == ["B"]
    assert status(combat)["B"] is StepStatus.PENDING
    combat.execute(Resolve(character="B", dice=dice(1, 2, 3)))
    assert "B" in combat.state.prevented
    assert status(combat)["C"] is StepStatus.SKIPPED and not acted(combat, "C")


def test_p4_w5_an_inconsciente_on_a_non_member_takes_effect_at_once() -> None:
    """P4/C4: an out condition on someone outside the group in progress puts it out at
    once, and H11 asks no "prevented?" (it is out)."""
    combat = w5()
    combat.execute(AddCondition(character="C", condition=builtin("inconsciente", began=0)))
    assert "C" in combat.state.out
    assert combat.state.pending_marks == [] and combat.state.held_conditions == []
    assert combat.state.proposals == []
    combat.execute(Resolve(character="B", dice=dice(1, 2, 3)))
    assert status(combat)["C"] is StepStatus.SKIPPED


def test_p4_w5_older_files_hold_every_mark_for_the_group() -> None:
    """P4 as version 3 read it (rules_v4 off): any mark inside a group's turn waits."""
    combat = w5(rules_v4=False)
    combat.execute(SetMark(character="C", mark=Mark.OUT))
    assert "C" not in combat.state.out
    assert [p.character for p in combat.state.pending_marks] == ["C"]


# ------------------------------------------------------------- item 11: C4/H11, W6


def w6(rules_v4: bool = True) -> Combat:
    """Bruno (12) declares a shot and is made aturdido during the declaration phase;
    Carla and Dario (15) act first: Carla's hit on Bruno's right arm, grave (desarmado),
    takes effect after their group (H11)."""
    combat = started(char("Ana", 8, 3), char("Bruno", 12, 5, resistencia=7,
                                             skills={"Armas": 30}),
                     char("Carla", 15, 2, skills={"Armas": 30}), char("Dario", 15, 1),
                     rules_v4=rules_v4)
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Carla", "Carla", skill="Armas", weapon=PISTOL),
            affected=[])
    combat.execute(AddCondition(character="Bruno",
                                condition=builtin("aturdido", began=0, duration=1)))
    declare_in_order(combat, Carla=act("shoots Bruno", "Bruno", skill="Armas",
                                       weapon=PISTOL), Dario=act("runs", target=15))
    advance_to(combat, Phase.ROUND)
    first = combat.state.current_group()[0].character
    combat.execute(Resolve(character=first, dice=dice(5, 9, 9)))
    if combat.state.proposals:  # Carla's hit: right arm (dS 5), 18 -> grave
        combat.execute(AcceptHit(proposal_id=combat.state.proposals[0].id))
    other = "Dario" if first == "Carla" else "Carla"
    combat.execute(Resolve(character=other, dice=dice(5, 9, 9)))
    if combat.state.proposals and combat.state.proposals[0].kind is ProposalKind.HIT:
        combat.execute(AcceptHit(proposal_id=combat.state.proposals[0].id))
    assert "desarmado" in [cond.name for cond in combat.state.body("Bruno").conditions]
    return combat


def test_c4_h11_w6_declining_prevented_for_desarmado_does_not_lift_aturdido() -> None:
    """C4/H11: Bruno, aturdido since the declaration phase, is left desarmado; whatever
    the DJ answers about desarmado (declined here), Bruno cannot act: his shot is
    skipped (C4), logged."""
    combat = w6()
    for proposal_id in prevent_proposals(combat, "Bruno"):
        combat.execute(DeclineProposal(proposal_id=proposal_id))
    assert status(combat)["Bruno"] is StepStatus.SKIPPED
    assert not acted(combat, "Bruno")
    assert any(e.rule == "C4" and e.actor == "Bruno" and "aturdido" in e.text
               for e in events_of(combat, EventKind.SKIPPED))


def test_c4_h11_no_question_for_a_character_who_cannot_act_anyway() -> None:
    """H11: the question is about a pending round action; a character who cannot act
    by another condition (C4) has its step skipped, so nothing is asked."""
    combat = w6()
    assert prevent_proposals(combat, "Bruno") == []


def test_h11_w6_older_files_let_a_declined_question_stand_for_any_condition() -> None:
    """H11 as version 3 read it (rules_v4 off): declined, the action stands this round
    phase against every condition begun this round."""
    combat = w6(rules_v4=False)
    [proposal_id] = prevent_proposals(combat, "Bruno")
    combat.execute(DeclineProposal(proposal_id=proposal_id))
    assert status(combat)["Bruno"] is StepStatus.PENDING


@pytest.mark.parametrize("confirm", [True, False])
def test_h11_c4_a_decline_keeps_the_action_only_against_its_own_condition(
        confirm: bool) -> None:
    """H11/D12: the DJ declines "prevented?" for an aturdido begun in the round phase:
    the action stands against it; a second condition that stops the action (derribado)
    asks again, and its own answer decides."""
    combat = started(char("Bruno", 12, 5), char("Carla", 15, 2), char("Dario", 15, 1))
    declare_in_order(combat, Bruno=act("shoots Carla", "Carla", target=30),
                     Carla=act("runs", target=30), Dario=act("runs", target=30))
    advance_to(combat, Phase.ROUND)
    combat.execute(AddCondition(character="Bruno", condition=builtin("aturdido", began=0)))
    [first] = prevent_proposals(combat, "Bruno")
    combat.execute(DeclineProposal(proposal_id=first))
    combat.execute(Resolve(character="Carla", dice=dice(1, 2, 3)))
    assert status(combat)["Bruno"] is StepStatus.PENDING  # the aturdido is answered
    combat.execute(AddCondition(character="Bruno", condition=Condition(
        name="derribado", effects=ConditionEffects(cannot_act=True))))
    [second] = prevent_proposals(combat, "Bruno")
    combat.execute((ConfirmProposal if confirm else DeclineProposal)(proposal_id=second))
    combat.execute(Resolve(character="Dario", dice=dice(1, 2, 3)))
    assert (status(combat)["Bruno"] is StepStatus.SKIPPED) == confirm
    if not confirm:
        combat.execute(Resolve(character="Bruno", dice=dice(1, 2, 3)))
        assert acted(combat, "Bruno")


# ------------------------------------------------------------------- item 12: H11, W7


def w7(rules_v4: bool = True) -> Combat:
    """Carla's (15) instant attack hits Bruno (12) while his round action is pending:
    right arm, 18, grave: desarmado (H9)."""
    combat = started(char("Bruno", 12, 5, resistencia=7, skills={"Armas": 30}),
                     char("Carla", 15, 2, skills={"Armas": 30}), rules_v4=rules_v4)
    declare(combat, "Bruno", act("shoots Carla", "Carla", skill="Armas", weapon=PISTOL),
            affected=[])
    declare(combat, "Carla", act("snap shot at Bruno", "Bruno", kind=ActionKind.INSTANT,
                                 skill="Armas", weapon=PISTOL), affected=[])
    advance_to(combat, Phase.INSTANT)
    combat.execute(Resolve(character="Carla", dice=dice(5, 9, 9)))
    [hit] = combat.state.proposals
    combat.execute(AcceptHit(proposal_id=hit.id))
    return combat


@pytest.mark.parametrize("confirm", [True, False])
def test_h11_w7_an_instant_attack_that_disarms_proposes_prevented(confirm: bool) -> None:
    """H11 applies whenever the attack resolves, in any phase: an instant attack leaves
    Bruno desarmado with his round action pending: prevented? Confirmed, the round
    action is cancelled (P4); declined, he shoots."""
    combat = w7()
    [proposal_id] = prevent_proposals(combat, "Bruno")
    if confirm:
        combat.execute(ConfirmProposal(proposal_id=proposal_id))
        assert "Bruno" in combat.state.prevented
        advance_to(combat, Phase.ROUND)
        assert status(combat)["Bruno"] is StepStatus.SKIPPED
    else:
        combat.execute(DeclineProposal(proposal_id=proposal_id))
        advance_to(combat, Phase.ROUND)
        combat.execute(Resolve(character="Bruno", dice=dice(1, 2, 3)))
        assert acted(combat, "Bruno")


def test_h11_w7_a_declined_aturdido_from_an_instant_hit_stands_in_the_round_phase() -> None:
    """H11/D12: the DJ's answer to an instant hit's aturdido holds for the round action,
    in the round phase: declined, Bruno acts despite it."""
    combat = started(char("Bruno", 12, 5, resistencia=7), char("Carla", 15, 2))
    declare(combat, "Bruno", act("shoots Carla", "Carla", target=30), affected=[])
    declare(combat, "Carla", act("jab", kind=ActionKind.INSTANT, target=30), affected=[])
    advance_to(combat, Phase.INSTANT)
    combat.execute(Resolve(character="Carla", dice=dice(1, 2, 3)))
    combat.execute(ManualHit(character="Bruno", location=Location.CABEZA, damage=8,
                             lethal=False))  # leve head: aturdido (H9), from the sheet
    [proposal_id] = prevent_proposals(combat, "Bruno")
    combat.execute(DeclineProposal(proposal_id=proposal_id))
    advance_to(combat, Phase.ROUND)
    assert status(combat)["Bruno"] is StepStatus.PENDING
    combat.execute(Resolve(character="Bruno", dice=dice(1, 2, 3)))
    assert acted(combat, "Bruno")


def test_h11_w7_older_files_ask_nothing_in_the_instant_phase() -> None:
    """H11 as version 3 read it (rules_v4 off): only in the round phase."""
    combat = w7(rules_v4=False)
    assert prevent_proposals(combat, "Bruno") == []


# --------------------------------------------------------------- item 15: C4, H10, C1


def together(rules_v4: bool = True, **settings: object) -> Combat:
    """A and B (10) act as a simultaneous group; A has rolled: the group's turn."""
    combat = started(char("A", 10, 1), char("B", 10, 2, resistencia=5), char("C", 5, 1),
                     rules_v4=rules_v4, **settings)
    declare_in_order(combat, **{name: act("shoots", target=15) for name in "ABC"})
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="A", dice=dice(1, 2, 3)))
    return combat


def b_ta_gd(combat: Combat) -> int:
    combat.execute(Resolve(character="B", dice=dice(1, 2, 3)))
    [ta] = [e for e in events_of(combat, EventKind.TA) if e.actor == "B"]
    assert ta.ta is not None
    return ta.ta.gd


def free_gd(combat: Combat, name: str) -> int:
    [ta] = events_of(combat.execute(FreeTA(character=name, target=15, dice=dice(1, 2, 3))),
                     EventKind.TA)
    assert ta.ta is not None
    return ta.ta.gd


def test_c4_h10_a_wound_begun_inside_the_groups_turn_adds_no_grade_to_a_member() -> None:
    """C4/H10/H11: a wound entered on B inside B's group's turn (leve, chest: +1 GD to
    physical actions) weighs on B's TAs only after the group: B's TA in the group rolls
    without it; after the group it counts."""
    combat = together()
    combat.execute(ManualHit(character="B", location=Location.PECHO, damage=5))
    assert b_ta_gd(combat) == 0
    assert free_gd(combat, "B") == 1


def test_c4_c1_a_wounds_condition_grades_wait_for_the_group_too() -> None:
    """C4/C1: a grave arm wound on B inside the group's turn: neither the wound's grade
    nor its dolor intenso's (set to +1 GD) weighs on B's TA in the group."""
    wounds = Settings().wounds.model_copy(update={"dolor_intenso_gd": 1})
    combat = together(wounds=wounds)
    combat.execute(ManualHit(character="B", location=Location.BRAZO_DERECHO, damage=12))
    assert b_ta_gd(combat) == 0
    assert free_gd(combat, "B") == 2


def test_c4_a_wound_on_a_non_member_weighs_at_once() -> None:
    """C4: only the group's members wait: C's wound counts in C's TA at once."""
    combat = together()
    combat.execute(ManualHit(character="C", location=Location.PECHO, damage=5))
    assert free_gd(combat, "C") == 1


def test_c4_older_files_let_a_wound_weigh_inside_the_group() -> None:
    """H10 as version 3 read it (rules_v4 off): the wound counts at once."""
    combat = together(rules_v4=False)
    combat.execute(ManualHit(character="B", location=Location.PECHO, damage=5))
    assert b_ta_gd(combat) == 1


def test_h11_c4_a_condition_held_for_an_instant_group_asks_after_the_group() -> None:
    """H11/C4: Bruno and Carla (15) make instant actions together; a hit by hand leaves
    Bruno desarmado inside their turn: held for the group (no question, no grade), and
    once the group has acted, his round action still to come: prevented?"""
    combat = started(char("Bruno", 15, 2, resistencia=5), char("Carla", 15, 1))
    while (name := combat.state.current_declarer) is not None:
        actions = ([act("draws", kind=ActionKind.INSTANT, target=30),
                    act("shoots Carla", "Carla", target=30)] if name == "Bruno"
                   else [act("jab", kind=ActionKind.INSTANT, target=30)])
        declare(combat, name, *actions, affected=[])
    advance_to(combat, Phase.INSTANT)
    combat.execute(Resolve(character="Carla", dice=dice(1, 2, 3)))  # the group's turn
    events = combat.execute(ManualHit(character="Bruno", location=Location.BRAZO_DERECHO,
                                      damage=12))  # grave: desarmado, +1 GD right arm
    assert any(e.code == "wound.held" for e in events)
    assert prevent_proposals(combat, "Bruno") == []  # held: nothing asked yet
    assert b_gd(combat, "Bruno") == 0  # his instant TA rolls without the wound
    [proposal_id] = prevent_proposals(combat, "Bruno")  # after the group (H11)
    combat.execute(ConfirmProposal(proposal_id=proposal_id))
    advance_to(combat, Phase.ROUND)
    assert "Bruno" in combat.state.prevented
    assert all(s.status is StepStatus.SKIPPED for s in combat.state.steps
               if s.character == "Bruno")


def b_gd(combat: Combat, name: str) -> int:
    [ta] = events_of(combat.execute(Resolve(character=name, dice=dice(1, 2, 3))),
                     EventKind.TA)
    assert ta.ta is not None
    return ta.ta.gd


# --------------------------------------------------- O2 (found by test_stateful_groups)


def test_o2_a_plain_action_bound_by_two_direct_oppositions_rolls_once() -> None:
    """O2: Dario and Elena each declared a direct opposition naming Bruno, who declared a
    plain action; a direct opposition has no sides (the role the DJ left on it means
    nothing): when Dario acts Bruno rolls for his own step, and does not roll again."""
    combat = started(char("Ana", 4, 0), char("Bruno", 12, 2), char("Dario", 12, 3),
                     char("Elena", 12, 4))
    declare_in_order(
        combat, Bruno=act("runs", target=8),
        Dario=Action(description="grabs", target=8, opposition=Opposition(
            mode=OppositionMode.DIRECT, against=["Bruno"], role=Role.CONDITIONING)),
        Elena=Action(description="grabs too", target=8, opposition=Opposition(
            mode=OppositionMode.DIRECT, against=["Ana", "Bruno"], role=Role.CONDITIONED)))
    advance_to(combat, Phase.ROUND)
    dario = next(s for s in combat.state.steps if s.character == "Dario")
    plan = plan_opposition(combat.state, dario)
    bruno = next(s for s in combat.state.steps if s.character == "Bruno")
    assert plan.steps.get("Bruno") == bruno.id
