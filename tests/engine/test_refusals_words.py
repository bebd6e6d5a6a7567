"""S1, P4, C4, H1, H7, H11: the refusals every command shares (an unknown or removed character,
a proposal to settle first), word for word, by code and parameters.

Written against the mutation lane's survivors (README, "Mutation testing").
"""

from __future__ import annotations

from sombra_tui.engine import Advance, Declare, EventKind, Mark, Phase, Resolve, SetMark
from sombra_tui.engine.commands import AddCondition, ManualHit, RemoveCharacter
from sombra_tui.engine.conditions import builtin
from sombra_tui.engine.i18n import set_language
from sombra_tui.engine.rules.marks import unable_reason
from sombra_tui.engine.wounds import Location, WoundSettings
from tests.engine.conftest import (
    act,
    advance_to,
    assert_refused,
    char,
    declare,
    dice,
    make_combat,
    started,
)
from tests.engine.test_ask_hits import shooters


def test_s1_a_command_for_someone_unknown_names_who_is_there() -> None:
    """S1: a command naming nobody in the encounter is refused, saying who is."""
    empty = assert_refused(make_combat(), SetMark(character="Zoe", mark=Mark.OUT))
    assert (empty.code, empty.params, str(empty)) == (
        "character.unknown", {"name": "Zoe", "known": "nobody yet"},
        "There is no character called 'Zoe' (the encounter has: nobody yet).")
    combat = started(char("Ana", 8), char("Bruno", 12))
    two = assert_refused(combat, SetMark(character="Zoe", mark=Mark.OUT))
    assert two.params == {"name": "Zoe", "known": "Ana, Bruno"}
    combat.execute(RemoveCharacter(name="Bruno"))
    gone = assert_refused(combat, SetMark(character="Bruno", mark=Mark.OUT))
    assert (gone.code, gone.params, str(gone)) == (
        "character.removed", {"name": "Bruno"}, "Bruno was removed from the encounter.")


def test_h7_an_open_proposal_is_settled_before_the_next_step() -> None:
    """H7 (H1, H11 alike): with a proposal open, the next step is refused, naming the
    proposal and what was asked."""
    combat = started(char("Ana", 8, resistencia=5, gender="femenino"), char("Bruno", 12))
    combat.execute(ManualHit(character="Ana", location=Location.PECHO, damage=60))
    during = assert_refused(combat, Declare(character="Ana", actions=[]))
    assert (during.code, during.params, str(during)) == ("proposal.open", {
        "kind": "threshold", "character": "Ana", "condition": "muerto", "doing": "declare"},
        "First settle muerto for Ana: accept or decline it, then declare.")


def test_h1_h11_a_hit_or_prevented_to_settle_is_named() -> None:
    """H1: the hit proposed is settled first; H11: so is prevented (in Spanish agreeing
    with the character)."""
    combat = shooters()
    combat.execute(Resolve(character="Carla", dice=dice(5, 4, 3)))
    resolving = assert_refused(combat, Resolve(character="Bruno", dice=dice(5, 4, 3)))
    assert str(resolving).endswith("then resolve an action.")
    hit = assert_refused(combat, Advance())
    assert (hit.params, str(hit)) == (
        {"kind": "hit", "character": "Bruno", "condition": "", "doing": "go on"},
        "First settle the hit on Bruno: accept or decline it, then go on.")
    combat = shooters()
    combat.execute(AddCondition(character="Ana", condition=builtin("desarmado", began=0)))
    prevent = assert_refused(combat, Advance())
    assert (prevent.params, str(prevent)) == (
        {"kind": "prevent", "character": "Ana", "condition": "desarmado", "doing": "go on"},
        "First settle prevented for Ana: accept or decline it, then go on.")


def test_h11_h7_in_spanish_prevented_agrees_and_the_condition_keeps_its_name(
        spanish: str) -> None:
    """H11: "impedida" agrees with Ana; H7: the condition proposed is named as it is
    (muerto), not agreed."""
    combat = shooters()
    combat.execute(AddCondition(character="Ana", condition=builtin("desarmado", began=0)))
    assert str(assert_refused(combat, Advance())) == (
        "Primero resuelve si Ana queda impedida: acéptalo o recházalo, y luego seguir.")
    combat = started(char("Ana", 8, resistencia=5, gender="femenino"), char("Bruno", 12))
    combat.execute(ManualHit(character="Ana", location=Location.PECHO, damage=60))
    assert str(assert_refused(combat, Advance())) == (
        "Primero resuelve muerto para Ana: acéptalo o recházalo, y luego seguir.")


def test_p4_why_a_character_cannot_act_is_said_in_words() -> None:
    """P4: the reason a character cannot act now (the DJ's table shows it): none while
    able, "out" once marked out."""
    combat = started(char("Ana", 8), char("Bruno", 12))
    assert unable_reason(combat.state, "Ana") is None
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    assert unable_reason(combat.state, "Ana") == "out"


def test_c4_a_step_skipped_for_a_condition_names_it_and_agrees(spanish: str) -> None:
    """C4: a character who cannot act when its step comes has it skipped, logged with
    the condition (in Spanish agreeing with her: aturdida)."""
    combat = started(char("Ana", 8, gender="femenino"), char("Bruno", 12),
                     wounds=WoundSettings(unable_asks_prevented=False))
    declare(combat, "Ana", act("waits", target=10))
    declare(combat, "Bruno", act("waits", target=10))
    advance_to(combat, Phase.ROUND)
    combat.execute(AddCondition(character="Ana", condition=builtin("aturdido", began=1)))
    combat.execute(Resolve(character="Bruno", dice=dice(1, 1, 2)))
    [skipped] = [e for e in combat.log if e.kind is EventKind.SKIPPED]
    assert (skipped.actor, skipped.rule, skipped.text) == (
        "Ana", "C4", "Se salta a Ana «waits»: aturdida.")
    set_language("en")
    assert skipped.text == 'Ana "waits" skipped: aturdido.'


def test_p4_a_mark_inside_a_simultaneous_group_waits_and_says_so() -> None:
    """P4: once the group's turn has come, a mark on a member waits for the group; each
    member's mark is kept (one per character and mark) and logged about that member."""
    combat = started(char("Ana", 8), char("Bruno", 12), char("Carla", 12, gender="femenino"))
    for name in ("Ana", "Bruno", "Carla"):
        declare(combat, name, act("waits", target=10), affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Bruno", dice=dice(1, 1, 2)))
    [carla] = combat.execute(SetMark(character="Carla", mark=Mark.PREVENTED))
    [bruno] = combat.execute(SetMark(character="Bruno", mark=Mark.PREVENTED))
    assert [(p.character, p.mark) for p in combat.state.pending_marks] == [
        ("Carla", "prevented"), ("Bruno", "prevented")]
    assert [(e.kind, e.actor, e.rule, e.text) for e in (carla, bruno)] == [
        (EventKind.MARK, "Carla", "P4",
         "Carla will be prevented once the simultaneous group has acted."),
        (EventKind.MARK, "Bruno", "P4",
         "Bruno will be prevented once the simultaneous group has acted.")]
    set_language("es")
    assert "impedida" in carla.text and "impedido" in bruno.text


def test_c4_p4_an_out_condition_inside_a_group_marks_each_member_after_it() -> None:
    """C4, P4 (format 3 reading): inconsciente begun inside a simultaneous group's turn
    marks the member out after the group, one pending mark per member, logged about
    that member under P4."""
    combat = started(char("Ana", 8), char("Bruno", 12), char("Carla", 12), rules_v4=False)
    for name in ("Ana", "Bruno", "Carla"):
        declare(combat, name, act("waits", target=10), affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Bruno", dice=dice(1, 1, 2)))
    lines = []
    for name in ("Carla", "Bruno"):
        events = combat.execute(AddCondition(character=name,
                                             condition=builtin("inconsciente", began=1)))
        lines += [(e.actor, e.rule, e.text) for e in events if e.kind is EventKind.MARK]
    assert [(p.character, p.mark) for p in combat.state.pending_marks] == [
        ("Carla", "out"), ("Bruno", "out")]
    assert lines == [
        ("Carla", "P4", "Carla will be out once the simultaneous group has acted."),
        ("Bruno", "P4", "Bruno will be out once the simultaneous group has acted.")]


def test_p4_a_prevented_mark_agrees_with_the_character(spanish: str) -> None:
    """P4, in Spanish: "Ana queda impedida" (the words agree with her)."""
    combat = started(char("Ana", 8, gender="femenino"), char("Bruno", 12))
    [marked] = combat.execute(SetMark(character="Ana", mark=Mark.PREVENTED))
    assert (marked.actor, marked.rule, marked.text) == (
        "Ana", "P4", "Ana queda impedida: se anula su acción de asalto.")
