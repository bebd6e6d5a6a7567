"""P1-P6: the resolution phases of a round."""

from __future__ import annotations

import pytest

from sombra_tui.engine import (
    Action,
    ActionKind,
    Advance,
    Character,
    Combat,
    Declare,
    EventKind,
    FreeTA,
    Mark,
    Phase,
    RemoveCharacter,
    Resolve,
    SetMark,
    StepStatus,
)
from tests.engine.conftest import (
    ANA,
    BRUNO,
    CARLA,
    SUB,
    act,
    advance_to,
    assert_refused,
    char,
    declare,
    declare_all_inaction,
    decline,
    dice,
    events_of,
    make_combat,
    react,
    started,
)

DANI = char("Dani", 12, 1, 13)  # acts together with Bruno (I4)


def status(combat: Combat) -> dict[str, StepStatus]:
    return {step.character: step.status for step in combat.state.steps}


def everyone_shoots(*characters: Character) -> Combat:
    combat = started(*characters)
    for name in list(combat.state.declaration_order):
        declare(combat, name, act("shoots", target=15))  # aimed at nobody: no prompts
    advance_to(combat, Phase.ROUND)
    return combat


# --------------------------------------------------------------------------- P1


def test_p1_instant_round_extended_always_in_this_order() -> None:
    combat = started(ANA)
    assert_refused(make_combat(ANA), Advance(), match="Start")
    declare(combat, "Ana")
    phases = [combat.state.phase]
    for _ in range(5):
        combat.execute(Advance())
        phases.append(combat.state.phase)
    assert phases == [Phase.DECLARATION, Phase.INSTANT, Phase.ROUND, Phase.EXTENDED,
                      Phase.END_OF_ROUND, Phase.DECLARATION]
    assert [e.phase for e in events_of(combat, EventKind.PHASE, rule="P1")] == [
        Phase.INSTANT, Phase.ROUND, Phase.EXTENDED, Phase.END_OF_ROUND]


def test_p1_a_phase_ends_only_when_its_steps_are_resolved() -> None:
    combat = started(ANA)
    declare(combat, "Ana", act("recalls", kind=ActionKind.INSTANT, target=15))
    phases = []
    combat.execute(Advance())
    phases.append(combat.state.phase)
    assert_refused(combat, Advance(), match="Ana")
    combat.execute(Resolve(character="Ana", dice=dice(1, 2, 3)))
    combat.execute(Advance())
    phases.append(combat.state.phase)
    assert phases == [Phase.INSTANT, Phase.ROUND]


# --------------------------------------------------------------------------- P2


def test_p2_instant_actions_first_in_action_order() -> None:
    combat = started(ANA, BRUNO, CARLA)
    for name in ("Ana", "Bruno", "Carla"):
        declare(combat, name, act("knows it", kind=ActionKind.INSTANT, target=15),
                act("shoots", target=15))
    combat.execute(Advance())
    state = combat.state
    assert state.phase is Phase.INSTANT
    assert [(s.character, s.action_index) for s in state.steps] == [
        ("Carla", 0), ("Bruno", 0), ("Ana", 0)]
    assert_refused(combat, Resolve(character="Ana", dice=dice(1, 2, 3)), match="turn")
    for name in ("Carla", "Bruno", "Ana"):
        combat.execute(Resolve(character=name, dice=dice(1, 2, 3)))
    events = events_of(combat, EventKind.TA, rule="P2")
    assert [e.actor for e in events] == ["Carla", "Bruno", "Ana"]
    assert all(e.phase is Phase.INSTANT for e in events)
    combat.execute(Advance())
    assert [(s.character, s.action_index) for s in combat.state.steps] == [
        ("Carla", 1), ("Bruno", 1), ("Ana", 1)]


# --------------------------------------------------------------------------- P3


def test_p3_round_actions_in_action_order() -> None:
    combat = everyone_shoots(ANA, BRUNO, CARLA)
    assert [s.character for s in combat.state.steps] == ["Carla", "Bruno", "Ana"]
    for name in ("Carla", "Bruno", "Ana"):
        assert_refused(combat, Advance())
        combat.execute(Resolve(character=name, dice=dice(1, 2, 3)))
    assert [e.actor for e in events_of(combat, EventKind.TA, rule="P3")] == [
        "Carla", "Bruno", "Ana"]


def test_p3_p4_mark_inside_a_simultaneous_group_applies_after_the_group() -> None:
    """P4: a member's mark inside the group's turn applies after the group; a mark on
    anyone else (Ana, a later group) at once."""
    combat = everyone_shoots(ANA, BRUNO, DANI)  # Bruno and Dani act together
    combat.execute(Resolve(character="Bruno", dice=dice(1, 2, 3)))  # he hits Dani
    combat.execute(SetMark(character="Dani", mark=Mark.PREVENTED))
    assert "Dani" not in combat.state.prevented  # not yet: the group is still acting
    assert [p.character for p in combat.state.pending_marks] == ["Dani"]
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    assert "Ana" in combat.state.out  # not a member: at once
    assert [p.character for p in combat.state.pending_marks] == ["Dani"]
    # Dani still makes her TA: her mark applies after the group.
    combat.execute(Resolve(character="Dani", dice=dice(1, 2, 3)))
    assert status(combat)["Dani"] is StepStatus.DONE
    assert combat.state.steps[1].result is not None
    assert "Dani" in combat.state.prevented
    assert "Ana" in combat.state.out
    assert combat.state.pending_marks == []
    assert status(combat)["Ana"] is StepStatus.SKIPPED  # the later group feels it


def test_p3_p4_out_mark_inside_the_group_does_not_stop_the_groups_tas() -> None:
    combat = everyone_shoots(BRUNO, DANI)
    combat.execute(Resolve(character="Dani", dice=dice(1, 2, 3)))
    combat.execute(SetMark(character="Bruno", mark=Mark.OUT))
    assert not combat.state.is_out("Bruno")
    combat.execute(Resolve(character="Bruno", dice=dice(1, 2, 3)))
    assert status(combat) == {"Bruno": StepStatus.DONE, "Dani": StepStatus.DONE}
    assert combat.state.is_out("Bruno")
    deferred = events_of(combat, EventKind.MARK, rule="P4")
    assert [e.actor for e in deferred] == ["Bruno", "Bruno"]  # announced, then applied


# --------------------------------------------------------------------------- P4


def test_p4_faster_shooter_prevents_the_slower_one() -> None:
    # Seed 001: Carla (15) and Bruno (12) shoot each other; Carla hits first.
    combat = started(BRUNO, CARLA)
    declare(combat, "Bruno", act("shoots Carla", "Carla", target=15))
    declare(combat, "Carla", act("shoots Bruno", "Bruno", target=15))
    decline(combat, "Bruno")
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Carla", dice=dice(1, 2, 3)))
    combat.execute(SetMark(character="Bruno", mark=Mark.PREVENTED))  # immediate
    assert "Bruno" in combat.state.prevented
    assert status(combat)["Bruno"] is StepStatus.SKIPPED
    assert [e.actor for e in events_of(combat, EventKind.SKIPPED, rule="P4")] == ["Bruno"]
    combat.execute(Advance())  # nothing left in the round phase


def test_p4_prevented_lasts_this_round_only_and_cancels_only_round_actions() -> None:
    combat = started(BRUNO, CARLA)
    declare(combat, "Bruno", act("recalls", kind=ActionKind.INSTANT, target=15),
            act("shoots", target=15))
    declare(combat, "Carla")
    combat.execute(Advance())
    combat.execute(SetMark(character="Bruno", mark=Mark.PREVENTED))
    assert status(combat)["Bruno"] is StepStatus.PENDING  # the instant is not cancelled
    combat.execute(Resolve(character="Bruno", dice=dice(1, 2, 3)))
    combat.execute(Advance())
    assert status(combat)["Bruno"] is StepStatus.SKIPPED  # the round action is
    advance_to(combat, Phase.DECLARATION)
    assert combat.state.prevented == []


def test_p4_out_cannot_act_or_react_until_brought_back() -> None:
    combat = started(ANA, BRUNO)
    declare(combat, "Ana", act("shoots", target=15))
    declare(combat, "Bruno", act("shoots", target=15))
    advance_to(combat, Phase.ROUND)
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    combat.execute(Resolve(character="Bruno", dice=dice(1, 2, 3)))
    assert status(combat)["Ana"] is StepStatus.SKIPPED
    advance_to(combat, Phase.DECLARATION)
    assert combat.state.round == 2 and combat.state.is_out("Ana")
    assert combat.state.current_declarer == "Bruno"  # Ana is skipped
    assert_refused(combat, Declare(character="Ana"), match="turn|out")
    combat.execute(SetMark(character="Ana", mark=Mark.BACK))
    assert combat.state.current_declarer == "Ana"
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    assert [p.reactor for p in combat.state.prompts] == ["Ana"]


def test_p4_out_character_is_not_prompted_and_marks_are_not_repeated() -> None:
    combat = started(ANA, BRUNO)
    declare(combat, "Ana")
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    assert_refused(combat, SetMark(character="Ana", mark=Mark.OUT), match="already out")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    assert combat.state.prompts == []


def test_p4_mark_before_a_group_acts_applies_at_once() -> None:
    combat = everyone_shoots(ANA, BRUNO, DANI)
    combat.execute(SetMark(character="Dani", mark=Mark.PREVENTED))
    assert "Dani" in combat.state.prevented
    assert status(combat)["Dani"] is StepStatus.SKIPPED


def test_p4_nothing_to_prevent_after_the_round_actions() -> None:
    combat = started(ANA)
    declare(combat, "Ana")
    advance_to(combat, Phase.EXTENDED)
    assert_refused(combat, SetMark(character="Ana", mark=Mark.PREVENTED))


# --------------------------------------------------------------------------- P5


def _extended(description: str = "picks the lock") -> Action:
    return act(description, kind=ActionKind.EXTENDED, target=15)


def test_p5_extended_actions_roll_at_the_end_in_action_order() -> None:
    combat = started(ANA, CARLA)
    declare(combat, "Ana", _extended())
    declare(combat, "Carla", _extended())
    advance_to(combat, Phase.ROUND)
    assert combat.state.steps == []
    combat.execute(Advance())
    assert combat.state.phase is Phase.EXTENDED
    assert [s.character for s in combat.state.steps] == ["Carla", "Ana"]
    assert_refused(combat, Resolve(character="Ana", dice=dice(1, 2, 3)), match="turn")
    combat.execute(Resolve(character="Carla", dice=dice(1, 2, 3)))
    combat.execute(Resolve(character="Ana", dice=dice(1, 2, 3)))
    assert [e.actor for e in events_of(combat, EventKind.TA, rule="P5")] == ["Carla", "Ana"]


def test_p5_out_character_skips_its_extended_roll_logged() -> None:
    combat = started(ANA, CARLA)
    declare(combat, "Ana", _extended())
    declare(combat, "Carla")
    advance_to(combat, Phase.ROUND)
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    combat.execute(Advance())
    assert combat.state.phase is Phase.EXTENDED
    assert combat.state.pending_steps() == []  # her turn came at once: skipped
    [event] = events_of(combat, EventKind.SKIPPED, rule="P5")
    assert event.actor == "Ana"
    assert combat.state.extended[0].attempts == 0
    assert combat.state.extended[0].rounds_counted == 0  # the round does not count


def test_p5_marked_out_during_the_extended_phase_skips_the_roll() -> None:
    combat = started(ANA, CARLA)
    declare(combat, "Ana", _extended())
    declare(combat, "Carla", _extended())
    advance_to(combat, Phase.EXTENDED)
    combat.execute(Resolve(character="Carla", dice=dice(1, 2, 3)))
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    assert status(combat)["Ana"] is StepStatus.SKIPPED
    assert [e.actor for e in events_of(combat, EventKind.SKIPPED, rule="P5")] == ["Ana"]
    assert combat.state.extended[0].attempts == 0


# --------------------------------------------------------------------------- P6


def test_p6_round_ends_after_extended_and_next_round_declares() -> None:
    combat = started(ANA, BRUNO)
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    react(combat, "Ana", SUB, act("dives"), roll=dice(10, 10, 10))  # locked this round
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Bruno", dice=dice(1, 2, 3), target=12))
    advance_to(combat, Phase.END_OF_ROUND)
    assert [e.round for e in events_of(combat, EventKind.ROUND, rule="P6")] == [1]
    combat.execute(Advance())
    state = combat.state
    assert (state.round, state.phase) == (2, Phase.DECLARATION)
    assert state.current == {} and state.prompts == [] and state.locked == []
    assert state.current_declarer == "Ana"
    declare_all_inaction(combat)
    assert {e.round for e in combat.log[-2:]} == {2}
    advance_to(combat, Phase.END_OF_ROUND)
    combat.execute(Advance())
    assert combat.state.round == 3


def test_p6_every_event_carries_the_round_number() -> None:
    combat = started(ANA)
    for _ in range(2):
        declare_all_inaction(combat)
        advance_to(combat, Phase.END_OF_ROUND)
        combat.execute(Advance())
    rounds = [e.round for e in combat.log]
    assert rounds == sorted(rounds)
    assert set(rounds) == {1, 2, 3}
    assert combat.state.round == 3


# --------------------------------------------------------------------------- P4 in groups
# Issue 10, item 1: "a mark made inside a simultaneous group takes effect after the
# group" only once some member of the group has made its TA; before that a mark takes
# effect at once for every member, in whatever order the DJ marks them.

C12, A8, B8 = char("C", 12), char("A", 8), char("B", 8)  # A and B act together (I4)


def c_then_a_and_b() -> Combat:
    combat = everyone_shoots(A8, B8, C12)
    assert [s.character for s in combat.state.steps] == ["C", "A", "B"]
    combat.execute(Resolve(character="C", dice=dice(1, 2, 3)))
    return combat


@pytest.mark.parametrize("mark", [Mark.PREVENTED, Mark.OUT])
@pytest.mark.parametrize("first", ["A", "B"])
def test_p4_marks_before_anyone_of_the_group_rolls_apply_at_once_to_all(
        mark: Mark, first: str) -> None:
    combat = c_then_a_and_b()
    second = "B" if first == "A" else "A"
    combat.execute(SetMark(character=first, mark=mark))
    combat.execute(SetMark(character=second, mark=mark))
    assert combat.state.pending_marks == []
    assert status(combat) == {"C": StepStatus.DONE, "A": StepStatus.SKIPPED,
                              "B": StepStatus.SKIPPED}
    assert combat.state.pending_steps() == []
    assert_refused(combat, Resolve(character=second, dice=dice(1, 2, 3)))
    combat.execute(Advance())  # neither A nor B acts


def test_p4_a_mark_after_a_member_rolled_still_waits_for_the_group() -> None:
    combat = c_then_a_and_b()
    combat.execute(Resolve(character="A", dice=dice(1, 2, 3)))
    combat.execute(SetMark(character="B", mark=Mark.PREVENTED))
    assert [p.character for p in combat.state.pending_marks] == ["B"]
    assert status(combat)["B"] is StepStatus.PENDING


@pytest.mark.parametrize(("mark", "lift"), [(Mark.OUT, Mark.BACK),
                                            (Mark.PREVENTED, Mark.UNPREVENT)])
def test_p4_mark_lifted_before_the_group_acts_gives_the_action_back(
        mark: Mark, lift: Mark) -> None:
    combat = c_then_a_and_b()
    combat.execute(SetMark(character="A", mark=mark))
    assert status(combat)["A"] is StepStatus.SKIPPED
    events = combat.execute(SetMark(character="A", mark=lift))
    assert status(combat)["A"] is StepStatus.PENDING
    assert any(e.rule == "P4" and "back" in e.text for e in events)
    combat.execute(Resolve(character="A", dice=dice(1, 2, 3)))
    combat.execute(Resolve(character="B", dice=dice(1, 2, 3)))
    assert status(combat) == dict.fromkeys("CAB", StepStatus.DONE)


def test_p4_back_after_the_group_has_acted_does_not_give_the_action_back() -> None:
    combat = c_then_a_and_b()
    combat.execute(SetMark(character="A", mark=Mark.OUT))
    combat.execute(Resolve(character="B", dice=dice(1, 2, 3)))  # the group has acted
    combat.execute(SetMark(character="A", mark=Mark.BACK))
    assert status(combat)["A"] is StepStatus.SKIPPED
    assert combat.state.pending_steps() == []


def test_p4_given_back_action_survives_undo_and_replay() -> None:
    """S1: the step given back is a new record; undoing the mark restores the skip."""
    combat = c_then_a_and_b()
    combat.execute(SetMark(character="A", mark=Mark.OUT))
    skipped = combat.state.model_copy(deep=True)
    combat.execute(SetMark(character="A", mark=Mark.BACK))
    combat.undo()
    assert combat.state == skipped
    combat.redo()
    replayed = Combat(combat.encounter, combat.commands)
    assert replayed.state == combat.state
    assert status(replayed)["A"] is StepStatus.PENDING


# --------------------------------------------------------------------------- P5 at the turn
# Issue 10, item 3: out in the extended phase is judged when the character's turn comes.


def extended_phase_with(*names_and_chars: Character, out: str | None = None) -> Combat:
    combat = started(*names_and_chars)
    for name in list(combat.state.declaration_order):
        declare(combat, name, _extended(f"{name} works"))
    advance_to(combat, Phase.ROUND)
    if out is not None:
        combat.execute(SetMark(character=out, mark=Mark.OUT))
    combat.execute(Advance())
    assert combat.state.phase is Phase.EXTENDED
    return combat


def test_p5_out_when_the_phase_starts_but_back_before_the_turn_rolls() -> None:
    combat = extended_phase_with(ANA, CARLA, out="Ana")  # Carla (15) rolls first
    assert [s.character for s in combat.state.pending_steps()] == ["Carla", "Ana"]
    combat.execute(SetMark(character="Ana", mark=Mark.BACK))
    combat.execute(Resolve(character="Carla", dice=dice(1, 2, 3)))
    combat.execute(Resolve(character="Ana", dice=dice(1, 2, 3)))
    assert [p.attempts for p in combat.state.extended] == [1, 1]
    assert events_of(combat, EventKind.SKIPPED, rule="P5") == []


def test_p5_marked_out_before_the_turn_skips_the_later_roll() -> None:
    combat = extended_phase_with(ANA, CARLA)
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))  # while Carla is to roll
    assert status(combat)["Ana"] is StepStatus.PENDING  # not her turn yet
    combat.execute(Resolve(character="Carla", dice=dice(1, 2, 3)))
    assert status(combat)["Ana"] is StepStatus.SKIPPED
    [event] = events_of(combat, EventKind.SKIPPED, rule="P5")
    assert event.actor == "Ana"
    ana = next(p for p in combat.state.extended if p.owner == "Ana")
    assert (ana.attempts, ana.rounds_counted) == (0, 0)


def test_p5_out_at_the_turn_then_back_before_anyone_rolled_rolls() -> None:
    combat = extended_phase_with(ANA, out="Ana")
    assert status(combat)["Ana"] is StepStatus.SKIPPED
    combat.execute(SetMark(character="Ana", mark=Mark.BACK))
    combat.execute(Resolve(character="Ana", dice=dice(1, 2, 3)))
    assert combat.state.extended[0].attempts == 1


def test_p5_p4_mark_held_for_a_simultaneous_group_in_the_extended_phase() -> None:
    """P4/P5: in the extended phase too, a member's mark waits for its group; anyone
    else's takes effect at once."""
    combat = extended_phase_with(ANA, BRUNO, DANI)  # Bruno and Dani together, then Ana
    combat.execute(Resolve(character="Bruno", dice=dice(1, 2, 3)))
    combat.execute(SetMark(character="Dani", mark=Mark.OUT))
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    assert [p.character for p in combat.state.pending_marks] == ["Dani"]
    assert combat.state.is_out("Ana") and not combat.state.is_out("Dani")
    combat.execute(Resolve(character="Dani", dice=dice(1, 2, 3)))  # still rolls
    assert combat.state.is_out("Dani") and combat.state.is_out("Ana")
    assert status(combat) == {"Bruno": StepStatus.DONE, "Dani": StepStatus.DONE,
                              "Ana": StepStatus.SKIPPED}


# --------------------------------------------------------------------------- free TA
# Issue 10, item 6: the DJ asks any character for a TA outside the steps (T8; T2, T6;
# O4's sentinel confirming TA, a perception roll, first aid), logged with every number.


def test_t8_free_ta_is_logged_with_every_number_and_changes_no_step() -> None:
    """T8: a free TA with its own target and GD (T2's numbers), logged; no step changes."""
    combat = everyone_shoots(ANA, BRUNO)
    steps_before = [s.model_copy() for s in combat.state.steps]
    events = combat.execute(FreeTA(character="Ana", target=14, gd=1, modifier=-2,
                                   dice=dice(3, 4, 2), skill="Percepción",
                                   label="confirms the suspicion (O4)"))
    [event] = events
    assert event.kind is EventKind.TA and event.rule == "T8" and event.actor == "Ana"
    assert event.ta is not None
    # T2: 3 + 4 + 2 + 5 x 1 - 2 = 12 <= 14, margin 2.
    assert (event.ta.total, event.ta.target, event.ta.margin, event.ta.success) == (
        12, 14, 2, True)
    assert event.ta.gd == 1 and event.ta.modifier == -2
    assert "Percepción" in event.text and "confirms the suspicion" in event.text
    plain = event.plain()
    for number in ("dS 3", "GD +1", "mod -2", "= 12 vs 14", "margin +2"):
        assert number in plain
    assert combat.state.steps == steps_before  # Bruno and Ana still to resolve


def test_t8_free_ta_takes_the_target_from_the_skill_and_is_undoable() -> None:
    """T8 (first aid), S1: the target from the sheet; undo and redo like any command."""
    nurse = char("Eva", 5, 1, 10, skills={"Primeros auxilios": 13})
    combat = started(ANA, nurse)
    before = combat.state.model_copy(deep=True)
    log_before = list(combat.log)
    [event] = combat.execute(FreeTA(character="Eva", skill="primeros auxilios",
                                    dice=dice(9, 9, 8)))
    assert event.ta is not None and event.ta.target == 13 and not event.ta.success
    combat.undo()
    assert combat.state == before and combat.log == log_before
    combat.redo()
    assert Combat(combat.encounter, combat.commands).log == combat.log


@pytest.mark.parametrize(("command", "match"), [
    (FreeTA(character="Eva", dice=dice(1, 2, 3)), "value"),
    (FreeTA(character="Ana", skill="Nadar", dice=dice(1, 2, 3)), "no skill 'Nadar'"),
    (FreeTA(character="Nadie", target=10, dice=dice(1, 2, 3)), "no character"),
])
def test_t8_free_ta_without_a_value_to_roll_under_is_refused(command: FreeTA,
                                                             match: str) -> None:
    combat = started(ANA, char("Eva", 5, 1, 10))
    assert_refused(combat, command, match=match)


def test_t8_free_ta_works_in_any_phase_even_for_someone_out() -> None:
    """T8: at any moment, outside the steps: in the declaration phase, for someone out."""
    combat = started(ANA)
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    [event] = combat.execute(FreeTA(character="Ana", target=10, dice=dice(1, 2, 3)))
    assert "while out" in event.text and event.phase is Phase.DECLARATION


def test_p4_removing_the_last_member_to_act_releases_the_held_marks() -> None:
    """P4: the group is over once its last pending member leaves; the held mark applies
    then, not after the next group (found by the stateful invariant's review)."""
    combat = everyone_shoots(ANA, BRUNO, DANI)
    combat.execute(Resolve(character="Bruno", dice=dice(1, 2, 3)))
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))  # held for the group
    combat.execute(RemoveCharacter(name="Dani"))
    assert combat.state.pending_marks == [] and combat.state.is_out("Ana")
    assert status(combat)["Ana"] is StepStatus.SKIPPED
