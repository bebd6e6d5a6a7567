"""Issue 39 item 3, D1: one declaration for several characters of one side ("los 4
Matones disparan a Tomás"). The machine expands it into each member's own Declare, the
first at once and each other when its turn comes (after the prompts the one before it
opened, D4/D11), so D, P and H apply to each exactly as if declared one by one: a history
with the group and the same history declared one by one replay to the same state and log.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sombra_tui.engine import (
    AcceptHit,
    AddCondition,
    Advance,
    Combat,
    Command,
    Declare,
    DeclareGroup,
    Decline,
    DeclineProposal,
    Dice,
    Encounter,
    EventKind,
    Mark,
    Phase,
    ProposalKind,
    React,
    RemoveCharacter,
    Resolve,
    SetMark,
    Settings,
    Side,
    StartCombat,
    Weapon,
    ask,
    builtin,
)
from sombra_tui.engine.commands import COMMAND_LIST_ADAPTER
from sombra_tui.engine.describe import describe
from tests.engine.conftest import SUB, act, assert_refused, char, dice

PISTOLA = Weapon(name="pistola", damage_type="II")
MATONES = [f"Matón {number}" for number in range(1, 5)]
SHOOT = act("dispara a Tomás", "Tomás", target=11, weapon=PISTOLA)


def encounter(tomas_primaria: int, *extra: object) -> Encounter:
    """Tomás (a PC) and four Matón of one sheet (NPCs, primaria 6: they declare one
    after another in the DJ's order, I3); Tomás declares before them at primaria 4,
    after them at 12."""
    tomas = char("Tomás", tomas_primaria, 0, 14, side=Side.PC, resistencia=6)
    matones = [char(name, 6, 1, 9, resistencia=5) for name in MATONES]
    return Encounter(name="Callejón", characters=[tomas, *matones, *extra], seed=3,
                     settings=Settings())


def shoots(name: str) -> Declare:
    return Declare(character=name, actions=[SHOOT])


def grouped(history: list[Command], members: list[str]) -> list[Command]:
    """The same history with the members' Declare commands made once, as a group, where
    the first of them was: the DJ's other commands stay where they were."""
    out: list[Command] = []
    for command in history:
        if isinstance(command, Declare) and command.character in members:
            if command.character == members[0]:
                out.append(DeclareGroup(characters=members, actions=command.actions,
                                        affected=command.affected))
            continue
        out.append(command)
    return out


def play_round(combat: Combat, rolls: list[Dice]) -> None:
    """P1-P6 and H1 the same way for any combat: each next step resolved with the next
    dice, each hit accepted as read, each other proposal declined, up to the next round."""
    start = combat.state.round
    turn = 0
    while combat.state.round == start:
        state = combat.state
        if state.proposals:
            proposal = state.proposals[0]
            combat.execute(AcceptHit(proposal_id=proposal.id)
                           if proposal.kind is ProposalKind.HIT
                           else DeclineProposal(proposal_id=proposal.id))
        elif state.phase is not Phase.DECLARATION and state.pending_steps():
            step = state.current_group()[0]
            combat.execute(Resolve(character=step.character,
                                   dice=rolls[turn % len(rolls)]))
            turn += 1
        else:
            combat.execute(Advance())


ROLLS = [dice(2, 3, 1), dice(9, 8, 7), dice(5, 2, 2), dice(1, 4, 1), dice(7, 6, 3)]

#: Declaration histories declared one by one (after StartCombat), with Tomás's primaria.
CASES: dict[str, tuple[int, list[Command]]] = {
    # D1: the Matones first, Tomás knowing what they do; no prompts between them.
    "tomas_after": (12, [*map(shoots, MATONES),
                         Declare(character="Tomás", actions=[
                             act("dispara a Matón 1", "Matón 1", target=13,
                                 weapon=PISTOLA)]),
                         Decline(character="Matón 1")]),
    # D4/D11: Tomás declared first and is prompted after each Matón's declaration.
    "tomas_before": (4, [Declare(character="Tomás", actions=[
        act("dispara a Matón 1", "Matón 1", target=13, weapon=PISTOLA)]),
        *(command for name in MATONES
          for command in (shoots(name), Decline(character="Tomás")))]),
    # D8/D9: Tomás substitutes after Matón 2's declaration, Matón 2 declines to counter;
    # Matón 3 and 4 declare after the chain, each prompting Tomás again (D6's count).
    "tomas_reacts": (4, [
        Declare(character="Tomás", actions=[act("dispara a Matón 1", "Matón 1",
                                                target=13, weapon=PISTOLA)]),
        shoots("Matón 1"), Decline(character="Tomás"),
        shoots("Matón 2"),
        React(character="Tomás", mode=SUB, actions=[act("se tira al suelo", target=14)],
              dice=dice(1, 1, 2)),
        Decline(character="Matón 2"),
        shoots("Matón 3"), Decline(character="Tomás"),
        shoots("Matón 4"), Decline(character="Tomás")]),
    # C4: Matón 3 is aturdido before its turn: the tracker declares inaction for it, and
    # the group's part for it is dropped; Matón 4 still declares its own.
    "member_stunned": (4, [
        Declare(character="Tomás", actions=[act("dispara a Matón 1", "Matón 1",
                                                target=13, weapon=PISTOLA)]),
        shoots("Matón 1"),
        AddCondition(character="Matón 3", condition=builtin("aturdido", began=1,
                                                            duration=1)),
        Decline(character="Tomás"),
        shoots("Matón 2"), Decline(character="Tomás"),
        shoots("Matón 4"), Decline(character="Tomás")]),
}


def replayed(tomas: int, history: list[Command], rolls: list[Dice]) -> Combat:
    combat = Combat(encounter(tomas), [StartCombat(), *history])
    play_round(combat, rolls)
    return combat


def assert_same_play(case: str, rolls: list[Dice]) -> None:
    tomas, one_by_one = CASES[case]
    together = grouped(one_by_one, MATONES)
    assert sum(isinstance(command, DeclareGroup) for command in together) == 1
    single = replayed(tomas, one_by_one, rolls)
    group = replayed(tomas, together, rolls)
    assert group.state == single.state
    assert list(group.log) == list(single.log)


def test_d1_a_group_declaration_replays_as_the_members_declared_one_by_one() -> None:
    """D1, D4, D8, D9, D11, C4, P3, H1: in each built case (Tomás after them; before them,
    prompted after each; reacting in the middle; a member aturdido before its turn), the
    history with the group and the one declared one by one give the same state and log,
    through the round's resolution and hits."""
    for case in CASES:
        assert_same_play(case, ROLLS)


@settings(max_examples=12, deadline=None)
@given(case=st.sampled_from(sorted(CASES)),
       rolls=st.lists(st.builds(Dice.of, *(st.integers(1, 10),) * 3), min_size=1,
                      max_size=6))
def test_d1_group_and_one_by_one_agree_whatever_the_dice(case: str,
                                                         rolls: list[Dice]) -> None:
    """D1, P3, H1: the same, whatever the dice of the round's TAs."""
    assert_same_play(case, rolls)


def test_d1_a_group_waits_for_each_prompt_and_declares_the_next_member_after_it() -> None:
    """D1, D4, D11: after Matón 1 declares, Tomás's prompt comes before Matón 2 declares;
    declining it makes Matón 2 declare its part of the group."""
    combat = Combat(encounter(4), [StartCombat(), *CASES["tomas_before"][1][:1]])
    combat.execute(DeclareGroup(characters=list(reversed(MATONES)), actions=[SHOOT]))
    state = combat.state
    assert list(state.current) == ["Tomás", "Matón 1"]
    assert state.top_prompt is not None and state.top_prompt.reactor == "Tomás"
    assert sorted(state.planned) == MATONES[1:]
    combat.execute(Decline(character="Tomás"))
    assert list(combat.state.current) == ["Tomás", "Matón 1", "Matón 2"]


def test_d1_one_undo_takes_back_the_whole_group_and_redo_makes_it_again() -> None:
    """D1, S1: with no prompt between them, the group is one command: one undo leaves
    nobody declared, redo declares the four again."""
    combat = Combat(encounter(12), [StartCombat()])
    before = combat.state.model_copy(deep=True)
    combat.execute(DeclareGroup(characters=MATONES, actions=[SHOOT]))
    after = combat.state.model_copy(deep=True)
    assert [combat.state.declaration_of(name) is not None for name in MATONES] == [True] * 4
    assert combat.state.current_declarer == "Tomás"
    combat.undo()
    assert combat.state == before
    combat.redo()
    assert combat.state == after


def test_d1_a_saved_group_loads_and_replays_to_the_same_state() -> None:
    """S1: the history keeps the group command; written and read back, it replays the
    same."""
    history: list[Command] = [StartCombat(), DeclareGroup(
        characters=MATONES, actions=[SHOOT], affected=["Tomás", "Matón 2"])]
    combat = Combat(encounter(12), history)
    loaded = COMMAND_LIST_ADAPTER.validate_json(COMMAND_LIST_ADAPTER.dump_json(history))
    assert loaded == history
    assert Combat(encounter(12), loaded).state == combat.state
    # D2: the affected list given is each member's, without the member itself.
    state = combat.state
    assert state.declaration_of("Matón 2").affected == ["Tomás"]
    assert state.declaration_of("Matón 1").affected == ["Tomás", "Matón 2"]


def test_d1_a_group_of_two_sides_is_refused_naming_who() -> None:
    """Issue 39 item 3: one side only; the refusal names the one of the other side."""
    combat = Combat(encounter(4), [StartCombat()])
    error = assert_refused(combat, DeclareGroup(characters=["Tomás", "Matón 1"],
                                                actions=[act("corre")]))
    assert error.code == "declare_group.sides"
    assert error.params == {"other": "Matón 1", "first": "Tomás"}


def test_d1_c4_a_member_who_cannot_declare_now_is_named_with_why() -> None:
    """C4/D1, P4, D1: the group is refused whole, naming the member and why: aturdido
    (inaction only), out, already declared, or not next in declaration order."""
    combat = Combat(encounter(12), [StartCombat(), AddCondition(
        character="Matón 3", condition=builtin("aturdido", began=1, duration=1))])
    error = assert_refused(combat, DeclareGroup(characters=MATONES, actions=[SHOOT]))
    assert (error.code, error.params["character"]) == ("declare.cannot_act", "Matón 3")
    assert "Matón 3" in str(error) and "aturdido" in str(error)

    combat = Combat(encounter(12), [StartCombat(),
                                    SetMark(character="Matón 2", mark=Mark.OUT)])
    error = assert_refused(combat, DeclareGroup(characters=MATONES, actions=[SHOOT]))
    assert (error.code, error.params) == ("declare.out", {"character": "Matón 2"})

    combat = Combat(encounter(12), [StartCombat(), shoots("Matón 1")])
    error = assert_refused(combat, DeclareGroup(characters=MATONES, actions=[SHOOT]))
    assert (error.code, error.params) == ("declare.already", {"character": "Matón 1"})

    # Bruno (an NPC too) declares between Matón 2 and Matón 3: not one after another.
    bruno = char("Bruno", 6, 1, 9)
    combat = Combat(Encounter(name="x", characters=[
        char("Tomás", 12, side=Side.PC), *(char(n, 6, 1) for n in MATONES[:2]), bruno,
        *(char(n, 6, 1) for n in MATONES[2:])], settings=Settings()), [StartCombat()])
    error = assert_refused(combat, DeclareGroup(characters=MATONES, actions=[SHOOT]))
    assert (error.code, error.params) == ("declare_group.apart", {
        "other": "Bruno", "before": "Matón 2", "after": "Matón 3"})
    # ... and a group that does not start with the declarer whose turn it is.
    error = assert_refused(combat, DeclareGroup(characters=MATONES[2:], actions=[SHOOT]))
    assert (error.code, error.params) == ("declare.not_turn", {
        "declarer": "Matón 1", "character": "Matón 3"})


def test_d1_the_form_reads_a_group_back_before_it_is_sent() -> None:
    """Issue 35 D2 / 39 item 3: the summary line names every member and the action."""
    words = describe(None, DeclareGroup(characters=MATONES, actions=[SHOOT])).english()
    assert words.startswith("Matón 1, Matón 2, Matón 3, Matón 4 declare, each in turn")
    assert "dispara a Tomás" in words


def test_d1_who_may_declare_together_with_the_declarer() -> None:
    """D1 (issue 39 item 3's form): the declarer's side's characters who declare right
    after it, one after another; nobody for another character than the declarer."""
    combat = Combat(encounter(12), [StartCombat()])
    assert ask.together_with(combat.state, "Matón 1") == MATONES[1:]
    assert ask.together_with(combat.state, "Matón 2") == []  # not its turn
    combat.execute(DeclareGroup(characters=MATONES[:2], actions=[SHOOT]))
    assert ask.together_with(combat.state, "Matón 3") == ["Matón 4"]
    combat.execute(DeclareGroup(characters=MATONES[2:], actions=[SHOOT]))
    assert ask.together_with(combat.state, "Tomás") == []  # the only PC


def test_p3_the_rolls_of_alike_steps_of_one_side_go_in_one_dialog() -> None:
    """P3, O2 (issue 39 item 3's dialog): the pending steps of the acting simultaneous
    group, of one side and the same action, from the asked one on; an action apart ends
    the run; a single step is its own dialog ([])."""
    combat = Combat(encounter(12), [
        StartCombat(), DeclareGroup(characters=MATONES[:3], actions=[SHOOT]),
        Declare(character="Matón 4", actions=[act("huye", target=9)]),
        Declare(character="Tomás", actions=[act("se cubre", target=14)]),
        Advance(), Advance()])
    state = combat.state
    assert state.phase is Phase.ROUND
    assert ask.roll_together(state, "Matón 1") == []  # Tomás acts first (I4)
    assert ask.roll_together(state, "Tomás") == []  # alone in his group
    combat.execute(Resolve(character="Tomás", dice=dice(2, 2, 2)))
    state = combat.state
    assert [step.character for step in ask.roll_together(state, "Matón 1")] == MATONES[:3]
    assert [step.character for step in ask.roll_together(state, "Matón 2")] == MATONES[1:3]
    assert ask.roll_together(state, "Matón 4") == []


def test_d1_a_members_part_refused_at_its_turn_is_dropped_and_said() -> None:
    """D1, D2: Bruno, in the group's affected list, is removed while Tomás's prompt is
    open: at Matón 2's turn its part no longer declares (nothing half done); the log
    says why and that the DJ declares for Matón 2, whose turn it is."""
    bruno = char("Bruno", 20, 0)
    combat = Combat(Encounter(name="x", characters=[*encounter(4).characters, bruno],
                              settings=Settings()),
                    [StartCombat(), CASES["tomas_before"][1][0]])
    combat.execute(DeclareGroup(characters=MATONES, actions=[SHOOT],
                                affected=["Tomás", "Bruno"]))
    combat.execute(RemoveCharacter(name="Bruno"))
    events = combat.execute(Decline(character="Tomás"))
    assert events[-1].kind is EventKind.SKIPPED
    assert events[-1].text == ("Matón 2 does not declare with the group: Bruno was "
                               "removed from the encounter. Declare for Matón 2.")
    state = combat.state
    assert (state.current_declarer, "Matón 2" in state.current) == ("Matón 2", False)
