"""P4, P5: marks word for word: a step given back only once nothing else stops its
character, the round an extended action counts again, a mark held for a simultaneous
group applied after it, and why a character cannot act.

Written against the mutation lane's survivors in rules/marks.py (README, "The mutation
lane"): no test read these lines, their actor and rule, or the guards of the give-back.
"""

from __future__ import annotations

from sombra_tui.engine import (
    Advance,
    Combat,
    EventKind,
    ExtendedMode,
    LogEvent,
    Mark,
    Phase,
    Resolve,
    SetMark,
    StepStatus,
)
from sombra_tui.engine.commands import AddCondition, ConfirmProposal, RemoveCharacter
from sombra_tui.engine.conditions import builtin
from sombra_tui.engine.i18n import set_language
from sombra_tui.engine.rules.marks import unable_reason
from tests.engine.conftest import (
    ANA,
    act,
    advance_to,
    char,
    declare,
    declare_all_inaction,
    dice,
    started,
)
from tests.engine.test_rules_extended import extended, next_round, progress, to_extended_phase


def shooters(*characters_: tuple[str, int, str]) -> Combat:
    """Everyone (name, primaria, gender) declares a shot at nobody; the round phase."""
    combat = started(*(char(name, primaria, gender=gender)
                       for name, primaria, gender in characters_))
    for name in list(combat.state.declaration_order):
        declare(combat, name, act("shoots", target=15))
    advance_to(combat, Phase.ROUND)
    return combat


def c_then_a_and_b() -> Combat:
    """C acts alone, then A and B together (I4); C has acted: {A, B}'s turn is next."""
    combat = shooters(("C", 12, "masculino"), ("A", 8, "masculino"), ("B", 8, "masculino"))
    combat.execute(Resolve(character="C", dice=dice(1, 2, 3)))
    return combat


def lines(events: list[LogEvent]) -> list[tuple[str | None, str | None, str]]:
    return [(e.actor, e.rule, e.text) for e in events if e.kind is EventKind.MARK]


def steps(combat: Combat) -> list[tuple[str, StepStatus, str | None]]:
    return [(s.character, s.status, s.skipped_for) for s in combat.state.steps]


def test_p4_back_while_still_prevented_gives_nothing_back_until_unprevented() -> None:
    """P4: A out and prevented; brought back he is still prevented, so his step stays
    skipped; no longer prevented, he gets it back (his own step only, not B's), said
    word for word about him under P4."""
    combat = c_then_a_and_b()
    combat.execute(SetMark(character="A", mark=Mark.OUT))
    combat.execute(SetMark(character="A", mark=Mark.PREVENTED))
    combat.execute(SetMark(character="B", mark=Mark.OUT))
    back = combat.execute(SetMark(character="A", mark=Mark.BACK))
    assert lines(back) == [("A", "P4", "A is back in the combat.")]
    assert steps(combat)[1:] == [("A", StepStatus.SKIPPED, "out"),
                                 ("B", StepStatus.SKIPPED, "out")]
    lifted = combat.execute(SetMark(character="A", mark=Mark.UNPREVENT))
    assert lines(lifted) == [
        ("A", "P4", "A is no longer prevented."),
        ("A", "P4", 'A gets "shoots" back: the group has not acted yet.')]
    assert steps(combat)[1:] == [("A", StepStatus.PENDING, None),
                                 ("B", StepStatus.SKIPPED, "out")]


def test_p4_unprevented_while_still_out_gives_nothing_back_until_back() -> None:
    """P4: the other way round: no longer prevented but still out, A's step stays
    skipped (and he stays out); back in the combat, he gets it back."""
    combat = c_then_a_and_b()
    combat.execute(SetMark(character="A", mark=Mark.PREVENTED))
    combat.execute(SetMark(character="A", mark=Mark.OUT))
    lifted = combat.execute(SetMark(character="A", mark=Mark.UNPREVENT))
    assert lines(lifted) == [("A", "P4", "A is no longer prevented.")]
    assert (combat.state.out, combat.state.prevented) == (["A"], [])
    assert steps(combat)[1] == ("A", StepStatus.SKIPPED, "prevented")
    back = combat.execute(SetMark(character="A", mark=Mark.BACK))
    assert lines(back) == [
        ("A", "P4", "A is back in the combat."),
        ("A", "P4", 'A gets "shoots" back: the group has not acted yet.')]
    assert steps(combat)[1] == ("A", StepStatus.PENDING, None)


def test_p4_c4_a_step_skipped_for_a_condition_is_not_given_back() -> None:
    """P4, C4: A's step was skipped because aturdido stops him; marked out and brought
    back, the step stays skipped: only a skip for out or prevented is given back."""
    combat = started(char("C", 12), char("A", 8), char("B", 8))
    for name in list(combat.state.declaration_order):
        declare(combat, name, act("shoots", target=15))
    combat.execute(AddCondition(character="A", condition=builtin("aturdido", began=0)))
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="C", dice=dice(1, 2, 3)))
    assert steps(combat)[1] == ("A", StepStatus.SKIPPED, "cannot act")
    combat.execute(SetMark(character="A", mark=Mark.OUT))
    back = combat.execute(SetMark(character="A", mark=Mark.BACK))
    assert lines(back) == [("A", "P4", "A is back in the combat.")]
    assert steps(combat)[1] == ("A", StepStatus.SKIPPED, "cannot act")


def test_p5_an_extended_roll_given_back_counts_its_round_again() -> None:
    """P5: Ana's complex action rolls every 2nd round; out in round 2 her turn is
    skipped and the round does not count (1 of 2); back before anyone rolled, she gets
    the roll back, logged under P5, and the round counts again (2 of 2)."""
    combat = started(ANA)
    declare(combat, "Ana", extended(ExtendedMode.COMPLEX, successes=3, interval=2))
    assert to_extended_phase(combat) == []
    assert progress(combat).rounds_counted == 1
    next_round(combat)
    declare_all_inaction(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    combat.execute(Advance())
    assert steps(combat) == [("Ana", StepStatus.SKIPPED, "out")]
    assert progress(combat).rounds_counted == 1
    back = combat.execute(SetMark(character="Ana", mark=Mark.BACK))
    assert lines(back) == [
        ("Ana", "P4", "Ana is back in the combat."),
        ("Ana", "P5", 'Ana gets "cracks the safe" back: the group has not acted yet.')]
    assert progress(combat).rounds_counted == 2
    assert steps(combat) == [("Ana", StepStatus.PENDING, None)]


def test_p4_marks_held_for_the_group_are_applied_after_it_word_for_word(
        spanish: str) -> None:
    """P4: C acts, then A, B, D and E together. A out and B prevented before the group's
    turn; D rolls (the turn has come); then A back, B no longer prevented, E out and D
    prevented all wait; E's roll ends the group and each applies, said "after the
    simultaneous group", about its character, under P4 (in Spanish agreeing with B, D)."""
    combat = shooters(("C", 12, "masculino"), ("A", 8, "masculino"), ("B", 8, "femenino"),
                      ("D", 8, "femenino"), ("E", 8, "masculino"))
    combat.execute(Resolve(character="C", dice=dice(1, 2, 3)))
    combat.execute(SetMark(character="A", mark=Mark.OUT))
    combat.execute(SetMark(character="B", mark=Mark.PREVENTED))
    combat.execute(Resolve(character="D", dice=dice(1, 2, 3)))
    for name, mark in (("A", Mark.BACK), ("B", Mark.UNPREVENT), ("E", Mark.OUT),
                       ("D", Mark.PREVENTED)):
        combat.execute(SetMark(character=name, mark=mark))
    assert len(combat.state.pending_marks) == 4
    applied = combat.execute(Resolve(character="E", dice=dice(1, 2, 3)))
    assert lines(applied) == [
        ("A", "P4", "A vuelve al combate tras el grupo simultáneo."),
        ("B", "P4", "B ya no está impedida tras el grupo simultáneo."),
        ("E", "P4", "E queda fuera de combate tras el grupo simultáneo: no puede actuar "
                    "ni reaccionar."),
        ("D", "P4", "D queda impedida tras el grupo simultáneo: se anula su acción de "
                    "asalto.")]
    set_language("en")
    assert [text for _, _, text in lines(applied)] == [
        "A is back in the combat after the simultaneous group.",
        "B is no longer prevented after the simultaneous group.",
        "E is out after the simultaneous group: cannot act or react.",
        "D is prevented after the simultaneous group: the round action is cancelled."]
    assert (combat.state.out, combat.state.prevented, combat.state.pending_marks) == (
        ["E"], ["D"], [])


def test_p4_h11_a_second_prevented_for_a_waiting_member_is_not_repeated(
        spanish: str) -> None:
    """P4, H11 (format 3 reading, where every mark waits for the group in progress): D
    (after the group) accepted as prevented waits, said agreeing with her; accepted
    again for a second condition, the mark is not held or said twice."""
    combat = started(char("C", 12), char("A", 8), char("B", 8),
                     char("D", 5, gender="femenino"), rules_v4=False)
    for name in list(combat.state.declaration_order):
        declare(combat, name, act("shoots", target=15))
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="C", dice=dice(1, 2, 3)))
    combat.execute(Resolve(character="A", dice=dice(1, 2, 3)))
    said = []
    for condition in ("aturdido", "desarmado"):
        combat.execute(AddCondition(character="D", condition=builtin(condition, began=1)))
        [proposal] = combat.state.proposals
        said.append(lines(combat.execute(ConfirmProposal(proposal_id=proposal.id))))
    assert said == [
        [("D", "P4", "D quedará impedida cuando haya actuado el grupo simultáneo.")], []]
    assert [(p.character, p.mark) for p in combat.state.pending_marks] == [
        ("D", "prevented")]


def test_p4_why_a_character_cannot_act_gone_or_prevented(spanish: str) -> None:
    """P4: prevented in the round phase (in Spanish agreeing with her: impedida), and
    removed from the encounter, each said in words."""
    combat = shooters(("Ana", 8, "femenino"), ("Bruno", 12, "masculino"))
    combat.execute(SetMark(character="Ana", mark=Mark.PREVENTED))
    assert unable_reason(combat.state, "Ana") == "impedida"
    set_language("en")
    assert unable_reason(combat.state, "Ana") == "prevented"
    combat.execute(RemoveCharacter(name="Ana"))
    assert unable_reason(combat.state, "Ana") == "left the encounter"
