"""D1, D2, D11, C4, P4, H7: declaring, alone or together (DeclareGroup), word for word:
each refusal of a declaration out of turn, the group's own refusals, and how a group's parts
declare after the prompts, each with the group's affected list, and what is left once
a member was declared otherwise.

Written against the mutation lane's survivors in rules/declaration.py (README, "The
mutation lane").
"""

from __future__ import annotations

from sombra_tui.engine import (
    AddCharacter,
    AddCondition,
    Combat,
    Declare,
    DeclareGroup,
    Decline,
    Encounter,
    EventKind,
    Mark,
    RemoveCharacter,
    SetMark,
    Settings,
    Side,
    StartCombat,
    builtin,
)
from sombra_tui.engine.commands import ManualHit
from sombra_tui.engine.i18n import set_language
from sombra_tui.engine.wounds import Location
from tests.engine.conftest import assert_refused, char, started
from tests.engine.test_declare_group import CASES, MATONES, SHOOT, encounter, shoots

#: Tomás (primaria 4) declares first, aimed at Matón 1: each Matón's shot prompts him.
TOMAS_FIRST = CASES["tomas_before"][1][0]


def refusal(combat: Combat, command: object) -> tuple[str, dict[str, object], str]:
    error = assert_refused(combat, command)
    return error.code, error.params, str(error)


def test_d1_d11_a_declaration_out_of_turn_is_refused_saying_why() -> None:
    """D1, D11, P4: out of declaration order, with a prompt open, once declared, out,
    joined this round, or with everyone declared: each refusal in words."""
    combat = Combat(encounter(12), [StartCombat()])
    assert refusal(combat, Declare(character="Matón 2", actions=[SHOOT])) == (
        "declare.not_turn", {"declarer": "Matón 1", "character": "Matón 2"},
        "It is Matón 1's turn to declare, not Matón 2's (declaration order).")
    prompted = Combat(encounter(4), [StartCombat(), TOMAS_FIRST, shoots("Matón 1")])
    for command in (Declare(character="Matón 2", actions=[SHOOT]),
                    DeclareGroup(characters=MATONES[1:], actions=[SHOOT])):
        assert refusal(prompted, command) == (
            "declare.prompt_open", {"reactor": "Tomás"},
            "First settle Tomás's reacción prompt.")
    combat.execute(shoots("Matón 1"))
    assert refusal(combat, Declare(character="Matón 1", actions=[SHOOT])) == (
        "declare.already", {"character": "Matón 1"},
        "Matón 1 has already declared this round.")
    combat.execute(SetMark(character="Matón 3", mark=Mark.OUT))
    assert refusal(combat, Declare(character="Matón 3", actions=[SHOOT])) == (
        "declare.out", {"character": "Matón 3"}, "Matón 3 is out and cannot act.")
    combat.execute(AddCharacter(character=char("Zoe", 6)))
    assert refusal(combat, Declare(character="Zoe", actions=[SHOOT])) == (
        "declare.joined", {"character": "Zoe"},
        "Zoe joined during this round and declares from the next one.")
    for name in ("Matón 2", "Matón 4", "Tomás"):
        combat.execute(Declare(character=name, actions=[]))
    assert refusal(combat, Declare(character="Tomás", actions=[])) == (
        "declare.all_declared", {},
        "Everyone has declared this round; advance to the instant phase.")


def test_d1_a_declaration_together_is_refused_in_words() -> None:
    """D1: a group of one (a name twice), of two sides, or of characters who do not
    declare one after another is refused, naming who."""
    combat = Combat(encounter(12), [StartCombat()])
    assert refusal(combat, DeclareGroup(characters=["Matón 1", "Matón 1"],
                                        actions=[SHOOT])) == (
        "declare_group.one", {}, "A declaration together needs two characters or more.")
    assert refusal(combat, DeclareGroup(characters=["Matón 1", "Tomás"],
                                        actions=[SHOOT])) == (
        "declare_group.sides", {"other": "Tomás", "first": "Matón 1"},
        "Tomás is not on Matón 1's side: a declaration together is for characters of "
        "one side.")
    assert refusal(combat, DeclareGroup(characters=["Matón 1", "Matón 2", "Matón 4"],
                                        actions=[SHOOT])) == (
        "declare_group.apart", {"other": "Matón 3", "before": "Matón 2",
                                "after": "Matón 4"},
        "Matón 3 declares between Matón 2 and Matón 4 (declaration order): a declaration "
        "together is for characters who declare one after another.")


def test_d11_d2_a_groups_parts_wait_for_each_prompt_with_the_groups_affected_list() -> None:
    """D11, D2: Matón 1 declares; Tomás's prompt is open, so Matón 2 waits (nothing is
    said for it); once Tomás declines, Matón 2 declares its part, affecting the group's
    list (Tomás and Bruno, not only its target)."""
    bruno = char("Bruno", 20, 0)
    combat = Combat(Encounter(name="x", characters=[*encounter(4).characters, bruno],
                              settings=Settings()), [StartCombat(), TOMAS_FIRST])
    events = combat.execute(DeclareGroup(characters=MATONES, actions=[SHOOT],
                                         affected=["Tomás", "Bruno"]))
    assert [(e.kind, e.actor) for e in events] == [
        (EventKind.DECLARE, "Matón 1"), (EventKind.PROMPT, "Tomás")]
    assert list(combat.state.planned) == MATONES[1:]
    events = combat.execute(Decline(character="Tomás"))
    assert [(e.kind, e.actor) for e in events] == [
        (EventKind.DECLINE, "Tomás"), (EventKind.DECLARE, "Matón 2"),
        (EventKind.PROMPT, "Tomás")]
    declaration = combat.state.declaration_of("Matón 2")
    assert declaration is not None and declaration.affected == ["Tomás", "Bruno"]


def test_d1_c4_a_member_declared_otherwise_leaves_no_part_behind() -> None:
    """D1, C4: Matón 2 falls aturdido while Tomás's prompt is open: at its turn the
    tracker declares inaction for it, and its part of the group is gone; Matón 3's part
    is refused (Bruno left), said about Matón 3 under D1; only Matón 4's part is left."""
    bruno = char("Bruno", 20, 0)
    combat = Combat(Encounter(name="x", characters=[*encounter(4).characters, bruno],
                              settings=Settings()), [StartCombat(), TOMAS_FIRST])
    combat.execute(DeclareGroup(characters=MATONES, actions=[SHOOT],
                                affected=["Tomás", "Bruno"]))
    combat.execute(AddCondition(character="Matón 2",
                                condition=builtin("aturdido", began=1, duration=1)))
    combat.execute(RemoveCharacter(name="Bruno"))
    events = combat.execute(Decline(character="Tomás"))
    assert [(e.actor, e.rule, e.text) for e in events if e.kind is EventKind.SKIPPED] == [
        ("Matón 2", "C4", "Matón 2 is aturdido: declares inaction."),
        ("Matón 3", "D1", "Matón 3 does not declare with the group: Bruno was removed from "
                          "the encounter. Declare for Matón 3.")]
    assert list(combat.state.planned) == ["Matón 4"]


def test_d1_c4_a_group_whose_last_part_was_declared_otherwise_leaves_nothing() -> None:
    """D1, C4: the group is Matón 1 to 3; Matón 3 falls aturdido while Tomás's prompt
    after Matón 2 is open: the tracker declares inaction for it and no part is left
    (Matón 4, next, declares on its own)."""
    combat = Combat(encounter(4), [StartCombat(), TOMAS_FIRST])
    combat.execute(DeclareGroup(characters=MATONES[:3], actions=[SHOOT]))
    combat.execute(Decline(character="Tomás"))
    combat.execute(AddCondition(character="Matón 3",
                                condition=builtin("aturdido", began=1, duration=1)))
    combat.execute(Decline(character="Tomás"))
    assert "Matón 3" in combat.state.current
    assert combat.state.current_declarer == "Matón 4"
    assert dict(combat.state.planned) == {}


def test_c4_d1_a_member_who_can_only_declare_inaction_is_named_agreeing(
        spanish: str) -> None:
    """C4/D1: Eva, aturdida, can only declare inaction: a group with her declaring an
    action is refused in words (in Spanish agreeing with her)."""
    combat = started(char("Ana", 6, gender="femenino"), char("Eva", 6, gender="femenino"),
                     char("Tomás", 12, side=Side.PC))
    combat.execute(AddCondition(character="Eva", condition=builtin("aturdido", began=1)))
    error = assert_refused(combat, DeclareGroup(characters=["Ana", "Eva"], actions=[SHOOT]))
    assert (error.code, error.params, str(error)) == (
        "declare.cannot_act", {"character": "Eva", "conditions": "aturdido"},
        "Eva está aturdida y solo puede declarar inacción.")
    set_language("en")
    assert str(error) == "Eva is aturdido and can only declare inaction."


def test_d1_h7_a_groups_part_waits_for_an_open_proposal_too() -> None:
    """D1, H7: Matón 2's turn comes (Tomás, the reactor, leaves) while the DJ's hit on
    Matón 2 asks "muerto?": its part waits for the answer, nothing is dropped."""
    combat = Combat(encounter(4), [StartCombat(), TOMAS_FIRST])
    combat.execute(DeclareGroup(characters=MATONES, actions=[SHOOT]))
    combat.execute(ManualHit(character="Matón 2", location=Location.PECHO, damage=60))
    events = combat.execute(RemoveCharacter(name="Tomás"))
    assert [e.kind for e in events] == [EventKind.ENCOUNTER]
    assert (combat.state.prompts, list(combat.state.planned)) == ([], MATONES[1:])


def test_d1_a_group_declares_in_declaration_order_whatever_its_names() -> None:
    """D1: Zed and Abe share an initiative; the DJ's order puts Zed first, so Zed
    declares first (not Abe, first by name)."""
    combat = started(char("Zed", 6), char("Abe", 6), char("Tomás", 12, side=Side.PC))
    assert combat.state.declaration_order[:2] == ["Zed", "Abe"]
    events = combat.execute(DeclareGroup(characters=["Abe", "Zed"], actions=[SHOOT]))
    assert [(e.kind, e.actor) for e in events] == [
        (EventKind.DECLARE, "Zed"), (EventKind.DECLARE, "Abe")]


def test_d11_a_prompt_that_can_no_longer_be_answered_is_skipped_saying_why() -> None:
    """D11, P4, C4: Tomás's prompt after Matón 1's declaration is skipped once he is out,
    or aturdido (he cannot react), logged with the reason about him."""
    lines = []
    for command in (SetMark(character="Tomás", mark=Mark.OUT),
                    AddCondition(character="Tomás", condition=builtin("aturdido", began=1))):
        combat = Combat(encounter(4), [StartCombat(), TOMAS_FIRST, shoots("Matón 1")])
        events = combat.execute(command)
        lines += [(e.actor, e.rule, e.text) for e in events if e.kind is EventKind.SKIPPED]
        assert combat.state.prompts == []
    assert lines == [("Tomás", "D11", "Tomás's prompt skipped: out."),
                     ("Tomás", "D11", "Tomás's prompt skipped: aturdido.")]
