"""T2, E1, P5, C2, H12: refusals of commands naming a step, an extended action, a condition
or a wound that is not there: each with its code, parameters and words.

Written against the mutation lane's survivors (README, "Mutation testing").
"""

from __future__ import annotations

from sombra_tui.engine import Advance, EventKind, Mark, Phase, Resolve, SetMark
from sombra_tui.engine.commands import (
    AbandonExtended,
    AdjustExtended,
    AttendWound,
    RemoveCondition,
    RemoveWound,
)
from tests.engine.conftest import (
    act,
    advance_to,
    assert_refused,
    char,
    declare,
    declare_all_inaction,
    dice,
    started,
)
from tests.engine.test_rules_extended import extended, next_round, progress, to_extended_phase


def test_t2_a_ta_with_no_value_to_roll_under_is_refused_naming_the_action() -> None:
    """T2: success is total <= target: without a target there is nothing to roll."""
    combat = started(char("Ana", 8))
    declare(combat, "Ana", act("does something vague"))
    advance_to(combat, Phase.ROUND)
    error = assert_refused(combat, Resolve(character="Ana", dice=dice(1, 1, 1)))
    assert (error.code, error.params, str(error)) == (
        "resolve.no_target", {"name": "Ana", "description": "does something vague"},
        'Ana\'s action "does something vague" has no value to roll under: give a target.')


def test_e1_an_extended_action_not_there_or_over_is_refused() -> None:
    """E1: the DJ adjusts or abandons an extended action under way; one unknown or
    already abandoned is refused, naming it."""
    combat = started(char("Ana", 8))
    unknown = assert_refused(combat, AdjustExtended(extended_id=99, gd=1))
    assert (unknown.code, unknown.params, str(unknown)) == (
        "extended.unknown", {"extended_id": 99}, "There is no extended action #99.")
    declare(combat, "Ana", extended(duration=2))
    to_extended_phase(combat)
    next_round(combat)
    combat.execute(AbandonExtended(extended_id=progress(combat).id))
    over = assert_refused(combat, AbandonExtended(extended_id=progress(combat).id))
    assert (over.code, over.params, str(over)) == (
        "extended.finished", {"description": "cracks the safe", "status": "abandoned"},
        '"cracks the safe" is already abandoned.')


def test_c2_h12_a_condition_or_wound_not_there_is_refused_naming_it() -> None:
    """C2 (the DJ edits or removes any condition), H12 (any wound): one that the
    character does not have is refused with its id."""
    combat = started(char("Ana", 8))
    condition = assert_refused(combat, RemoveCondition(character="Ana", condition_id=7))
    assert (condition.code, condition.params, str(condition)) == (
        "condition.unknown", {"character": "Ana", "id": 7}, "Ana has no condition #7.")
    for command in (AttendWound(character="Ana", wound_id=7),
                    RemoveWound(character="Ana", wound_id=7)):
        wound = assert_refused(combat, command)
        assert (wound.code, wound.params, str(wound)) == (
            "wound.unknown", {"character": "Ana", "id": 7}, "Ana has no wound #7.")


def test_i4_p3_resolving_out_of_turn_names_who_acts_first() -> None:
    """I4, P3: the round's actions go in descending primaria; a simultaneous group acts
    together. Resolving a later character first is refused, naming the group that acts
    first once each; one with nothing to resolve is told so."""
    combat = started(char("Ana", 8), char("Bruno", 12), char("Carla", 12), char("Dora", 4))
    for name, targets in (("Dora", ()), ("Ana", ()), ("Bruno", ("Ana",)),
                          ("Carla", ("Ana",))):
        declare(combat, name, act("acts", *targets, target=10), affected=[])
    declare_all_inaction(combat)
    advance_to(combat, Phase.ROUND)
    early = assert_refused(combat, Resolve(character="Ana", dice=dice(1, 1, 2)))
    assert (early.code, early.params, str(early)) == (
        "resolve.not_turn", {"name": "Ana", "acting": "Bruno, Carla"},
        "It is not Ana's turn yet: Bruno, Carla acts first.")
    combat.execute(Resolve(character="Bruno", dice=dice(1, 1, 2)))
    combat.execute(Resolve(character="Carla", dice=dice(1, 1, 2)))
    combat.execute(Resolve(character="Ana", dice=dice(1, 1, 2)))
    done = assert_refused(combat, Resolve(character="Ana", dice=dice(1, 1, 2)))
    assert (done.code, done.params, str(done)) == (
        "resolve.nothing", {"name": "Ana"}, "Ana has nothing to resolve in this phase.")


def test_p5_an_out_owners_extended_action_does_not_progress_and_says_so() -> None:
    """P5: an out character's round does not count for its extended action; the log
    says so, about that character, under P5."""
    combat = started(char("Ana", 8))
    declare(combat, "Ana", extended(duration=3))
    combat.execute(Advance())
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    to_extended_phase(combat)
    [line] = [e for e in combat.log if e.kind is EventKind.SKIPPED]
    assert (line.actor, line.rule, line.text) == (
        "Ana", "P5", 'Ana is out: "cracks the safe" does not progress this round.')
    assert progress(combat).rounds_counted == 0
