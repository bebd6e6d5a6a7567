"""C2, C4, H7, H11, P2/P3, P4: conditions and steps with a second character in play: one
character's question, condition or waiting mark never stands for another's; a
permanent condition's line; a member who declared nothing keeps no one's step away.

Written against the mutation lane's survivors in rules/conditions.py and
rules/resolution.py (README, "The mutation lane").
"""

from __future__ import annotations

from sombra_tui.engine import (
    ActionKind,
    Combat,
    EventKind,
    Mark,
    Phase,
    Resolve,
    SetMark,
    StepStatus,
)
from sombra_tui.engine.commands import AddCondition, DeclineProposal
from sombra_tui.engine.conditions import Condition, builtin
from sombra_tui.engine.wounds import Counters, WoundSettings, thresholds
from tests.engine.conftest import act, advance_to, char, declare, dice, started


def shooting(*names_and_primaria: tuple[str, int], phase: Phase = Phase.ROUND,
             **settings: object) -> Combat:
    """Everyone declares a shot at nobody (and, for the instant phase, a draw first);
    the combat is brought to `phase`."""
    combat = started(*(char(name, primaria) for name, primaria in names_and_primaria),
                     **settings)
    for name in list(combat.state.declaration_order):
        actions = [act("shoots", target=15)]
        if phase is Phase.INSTANT:
            actions.insert(0, act("draws", kind=ActionKind.INSTANT, target=15))
        declare(combat, name, *actions)
    advance_to(combat, phase)
    return combat


def status(combat: Combat) -> dict[str, tuple[StepStatus, str | None]]:
    return {s.character: (s.status, s.skipped_for) for s in combat.state.steps}


def test_h11_c4_another_characters_open_question_leaves_no_one_elses_action() -> None:
    """H11 (format 3 reading, unable_asks_prevented off): A's "prevented?" is open; B
    aturdido this round is not asked (C4 at once) and his step is skipped at once: A's
    question does not leave B's action to the DJ."""
    combat = shooting(("C", 12), ("A", 8), ("B", 8), rules_v4=False,
                      wounds=WoundSettings(unable_asks_prevented=False))
    combat.execute(Resolve(character="C", dice=dice(1, 2, 3)))
    combat.execute(AddCondition(character="A", condition=builtin("desarmado", began=1)))
    assert [p.character for p in combat.state.proposals] == ["A"]
    events = combat.execute(AddCondition(character="B",
                                         condition=builtin("aturdido", began=1)))
    assert [(e.actor, e.rule, e.text) for e in events if e.kind is EventKind.SKIPPED] == [
        ("B", "C4", 'B "shoots" skipped: aturdido.')]
    assert status(combat)["B"] == (StepStatus.SKIPPED, "cannot act")
    assert status(combat)["A"] == (StepStatus.PENDING, None)


def test_c4_h11_only_the_conditions_held_for_the_group_ask_when_it_has_acted() -> None:
    """C4, H11 (instant phase): X's aturdido was asked about and declined before the
    group {A, B} acted; B's desarmado, begun inside the group's turn, waits for it and
    asks then: X's is not asked again."""
    combat = shooting(("C", 12), ("A", 8), ("B", 8), ("X", 5), phase=Phase.INSTANT)
    combat.execute(Resolve(character="C", dice=dice(1, 2, 3)))
    combat.execute(AddCondition(character="X", condition=builtin("aturdido", began=1)))
    [asked] = combat.state.proposals
    combat.execute(DeclineProposal(proposal_id=asked.id))
    combat.execute(Resolve(character="A", dice=dice(1, 2, 3)))
    combat.execute(AddCondition(character="B", condition=builtin("desarmado", began=1)))
    events = combat.execute(Resolve(character="B", dice=dice(1, 2, 3)))
    assert [(e.actor, e.text) for e in events if e.kind is EventKind.PROPOSAL] == [
        ("B", "B is desarmado with a round action pending: mark prevented?")]
    assert [(p.character, p.condition) for p in combat.state.proposals] == [
        ("B", "desarmado")]


def test_c4_p4_another_members_waiting_mark_does_not_hold_an_out_condition() -> None:
    """C4, P4: B's out mark waits for the group {A, B}; X (not a member) falls
    inconsciente: X is out at once, B's waiting mark does not hold X's."""
    combat = shooting(("C", 12), ("A", 8), ("B", 8), ("X", 5))
    combat.execute(Resolve(character="C", dice=dice(1, 2, 3)))
    combat.execute(Resolve(character="A", dice=dice(1, 2, 3)))
    combat.execute(SetMark(character="B", mark=Mark.OUT))
    events = combat.execute(AddCondition(character="X",
                                         condition=builtin("inconsciente", began=1)))
    assert [(e.actor, e.rule, e.text) for e in events if e.kind is EventKind.MARK] == [
        ("X", "P4", "X is out: cannot act or react.")]
    assert combat.state.out == ["X"]
    assert [(p.character, p.mark) for p in combat.state.pending_marks] == [("B", "out")]


def test_c2_a_permanent_condition_is_said_to_never_expire() -> None:
    """C2: a condition of the DJ's that never expires is logged so, with its name."""
    combat = started(char("Ana", 8))
    [added] = combat.execute(AddCondition(character="Ana", condition=Condition(
        name="marcado", permanent=True, began=0)))
    assert (added.actor, added.rule, added.text) == (
        "Ana", "C2", "DJ: new condition for Ana: marcado (never expires).")


def test_p2_p3_a_member_who_declared_nothing_keeps_no_one_elses_step_away() -> None:
    """P2/P3: A and B share an initiative (one group, A first); A, out, declared
    nothing; B's shot is still a step of the group."""
    combat = started(char("A", 8), char("B", 8), char("C", 12))
    combat.execute(SetMark(character="A", mark=Mark.OUT))
    while (name := combat.state.current_declarer) is not None:
        declare(combat, name, act("shoots", target=15))
    advance_to(combat, Phase.ROUND)
    assert [(s.character, s.group) for s in combat.state.steps] == [("C", 0), ("B", 1)]


def test_h11_each_character_is_asked_once_whoever_else_is_asked() -> None:
    """H11 (format 3 reading: one question per character): A's "prevented?" being open
    does not keep B from being asked; B, asked already, is not asked again for a second
    condition."""
    combat = shooting(("C", 12), ("A", 8), ("B", 8), rules_v4=False)
    combat.execute(Resolve(character="C", dice=dice(1, 2, 3)))
    combat.execute(AddCondition(character="A", condition=builtin("desarmado", began=1)))
    combat.execute(AddCondition(character="B", condition=builtin("desarmado", began=1)))
    combat.execute(AddCondition(character="B", condition=builtin("aturdido", began=1)))
    assert [(p.character, p.condition) for p in combat.state.proposals] == [
        ("A", "desarmado"), ("B", "desarmado")]


def test_h7_a_counter_reaching_pv_proposes_once_and_is_at_pv_from_pv_on() -> None:
    """H7: G and W already at PV 15 going further propose nothing more; G and W exactly at
    PV are at PV."""
    beyond = thresholds(Counters(g=15, w=15), Counters(g=20, w=20), 15)
    assert (beyond.propose_muerto, beyond.herida_at_pv, beyond.herida_over) == (
        False, True, 5)
    exactly = thresholds(Counters(g=14, w=14), Counters(g=15, w=15), 15)
    assert (exactly.propose_inconsciente, exactly.propose_muerto, exactly.golpe_at_pv,
            exactly.herida_at_pv) == (True, True, True, True)
