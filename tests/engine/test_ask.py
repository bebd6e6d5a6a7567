"""engine/ask.py, the read side: one answer to "what does the next key do now?" (issue 20),
one test per kind, and the helpers that delegate to the rules."""

from __future__ import annotations

import pytest

from sombra_tui.engine import ask
from sombra_tui.engine.allowed import allowed
from sombra_tui.engine.ask import NextKind, next_step
from sombra_tui.engine.commands import (
    AddCharacters,
    AddCondition,
    Advance,
    Declare,
    DeclareGroup,
    Decline,
    ManualHit,
    MoveCharacter,
    OpposedRoll,
    React,
    RenameEncounter,
    Resolve,
    ResolveOpposed,
    StartCombat,
)
from sombra_tui.engine.conditions import builtin
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.history import Combat
from sombra_tui.engine.model import ActionKind, Opposition, OppositionMode
from sombra_tui.engine.state import Phase, ProposalKind
from sombra_tui.engine.wounds import Location, Weapon
from tests.engine.conftest import (
    ANA,
    BRUNO,
    CARLA,
    SUB,
    act,
    advance_to,
    char,
    declare,
    declare_all_inaction,
    dice,
    make_combat,
    started,
)

PISTOL = Weapon(name="pistol", damage_type="II")


def trio() -> Combat:
    return started(ANA, BRUNO, CARLA)


def shooters() -> Combat:
    """Carla shoots Bruno and Ana has a round action too: Carla (15) acts first."""
    combat = started(char("Ana", 8, 3, 14, skills={"Armas": 30}),
                     char("Bruno", 12, 5, 12, resistencia=7),
                     char("Carla", 15, 2, 13, skills={"Armas": 30}))
    declare(combat, "Ana", act("aims", target=30))
    declare(combat, "Bruno")
    declare(combat, "Carla", act("shoots Bruno", "Bruno", skill="Armas", weapon=PISTOL),
            affected=[])
    advance_to(combat, Phase.ROUND)
    return combat


def open_threshold(combat: Combat, name: str = "Bruno") -> None:
    """H7 in any phase: a hit by hand past PV proposes muerto."""
    combat.execute(ManualHit(character=name, location=Location.PECHO, damage=60))


# ---- next_step: one test per kind ------------------------------------------------------


def test_add_character_when_set_up_is_empty() -> None:
    step = next_step(make_combat().state)
    assert (step.kind, step.who) == (NextKind.ADD_CHARACTER, ())


def test_start_in_set_up() -> None:
    step = next_step(make_combat(ANA).state)
    assert (step.kind, step.who, step.round) == (NextKind.START, (), 1)


def test_declare_names_the_current_declarer() -> None:
    combat = trio()
    step = next_step(combat.state)
    assert (step.kind, step.who) == (NextKind.DECLARE, (combat.state.current_declarer,))


def test_react_names_the_reactor_and_the_author() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    step = next_step(combat.state)
    assert (step.kind, step.who, step.author, step.counter) == (
        NextKind.REACT, ("Ana",), "Bruno", False)
    assert step.prompt is combat.state.top_prompt


def test_react_says_when_the_prompt_is_a_contrarreaccion() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    combat.execute(React(character="Ana", mode=SUB, actions=[act("shoots Bruno", "Bruno")],
                         dice=dice(1, 1, 1)))
    top = combat.state.top_prompt
    assert top is not None
    step = next_step(combat.state)
    assert (step.kind, step.who, step.counter) == (NextKind.REACT, (top.reactor,), True)


def test_to_instant_once_everyone_has_declared() -> None:
    combat = trio()
    declare_all_inaction(combat)
    step = next_step(combat.state)
    assert (step.kind, step.who) == (NextKind.TO_INSTANT, ())


def test_resolve_names_the_acting_group_once_each_in_order() -> None:
    combat = shooters()
    step = next_step(combat.state)
    group = combat.state.current_group()
    assert step.kind is NextKind.RESOLVE
    assert step.group == tuple(group) and step.who == ("Carla",)


def test_next_phase_when_nothing_is_left_to_resolve() -> None:
    combat = trio()
    declare_all_inaction(combat)
    combat.execute(Advance())
    assert combat.state.phase is Phase.INSTANT and not combat.state.current_group()
    step = next_step(combat.state)
    assert (step.kind, step.who, step.phase) == (NextKind.NEXT_PHASE, (), Phase.INSTANT)


def test_next_round_at_the_end_of_the_asalto() -> None:
    combat = trio()
    declare_all_inaction(combat)
    advance_to(combat, Phase.END_OF_ROUND)
    step = next_step(combat.state)
    assert (step.kind, step.who, step.round) == (NextKind.NEXT_ROUND, (), 2)


def test_a_hit_open_while_another_step_is_pending_is_settled_first() -> None:
    """The drift of issue 20: the hint and the marker named Ana, space opened the hit."""
    combat = shooters()
    combat.execute(Resolve(character="Carla", dice=dice(5, 4, 3)))
    state = combat.state
    assert state.phase is Phase.ROUND
    assert [step.character for step in state.current_group()] == ["Ana"]
    [proposal] = state.proposals
    step = next_step(state)
    assert (step.kind, step.who) == (NextKind.SETTLE_HIT, ("Bruno",))
    assert step.proposal is proposal and proposal.attacker == "Carla"


def test_a_threshold_proposal_is_settled_first_in_any_phase() -> None:
    combat = trio()
    open_threshold(combat)
    step = next_step(combat.state)
    assert combat.state.phase is Phase.DECLARATION
    assert (step.kind, step.who) == (NextKind.SETTLE_THRESHOLD, ("Bruno",))
    assert step.proposal is not None and step.proposal.kind is ProposalKind.THRESHOLD


def test_a_prevent_proposal_names_its_character() -> None:
    combat = shooters()
    combat.execute(AddCondition(character="Ana", condition=builtin("desarmado", began=0)))
    step = next_step(combat.state)
    assert (step.kind, step.who) == (NextKind.SETTLE_PREVENT, ("Ana",))


# ---- offered: what the keys offer while a proposal is open -------------------------------


def test_an_open_proposal_holds_back_what_the_machine_refuses() -> None:
    combat = shooters()
    assert Resolve in ask.offered(combat.state)
    combat.execute(Resolve(character="Carla", dice=dice(5, 4, 3)))
    offered = ask.offered(combat.state)
    assert Resolve not in offered and Advance not in offered
    assert offered == allowed(combat.state) - ask.SETTLES_FIRST


def _refusal(combat: Combat, command: object) -> str:
    with pytest.raises(SombraError) as info:
        combat.execute(command)  # type: ignore[arg-type]
    return info.value.code


def test_settles_first_is_what_the_machine_refuses_with_a_proposal_open() -> None:
    """Each command held back is refused by the machine with "proposal.open", where its
    phase fits (so the footer hides exactly what would be refused)."""
    setup = make_combat(ANA, BRUNO)
    open_threshold(setup)
    declaring = trio()
    declare(declaring, "Ana")
    declare(declaring, "Bruno", act("shoots Ana", "Ana"))
    open_threshold(declaring, "Carla")
    resolving = started(ANA, BRUNO, CARLA)
    declare(resolving, "Ana", act("dodges", target=10, opposition=Opposition(
        mode=OppositionMode.DIRECT, against=["Bruno"])))
    declare(resolving, "Bruno", act("aims", target=10))
    declare(resolving, "Carla", act("waits", kind=ActionKind.AUTOMATIC))
    advance_to(resolving, Phase.ROUND)
    open_threshold(resolving, "Carla")
    samples = {
        StartCombat: (setup, StartCombat()),
        Declare: (declaring, Declare(character="Carla")),
        DeclareGroup: (declaring, DeclareGroup(characters=["Carla", "Ana"])),
        React: (declaring, React(character="Ana", mode=SUB, actions=[act("ducks")],
                                 dice=dice(1, 1, 1))),
        Advance: (declaring, Advance()),
        Resolve: (resolving, Resolve(character="Bruno", dice=dice(1, 1, 1))),
        ResolveOpposed: (resolving, ResolveOpposed(character="Ana", rolls=[
            OpposedRoll(character="Ana", dice=dice(1, 1, 1)),
            OpposedRoll(character="Bruno", dice=dice(2, 2, 2))])),
    }
    assert set(samples) == ask.SETTLES_FIRST
    for kind, (combat, command) in samples.items():
        assert _refusal(combat, command) == "proposal.open", kind.__name__
    # A command not held back is not refused for the proposal.
    declaring.execute(Decline(character="Ana"))


# ---- helpers that delegate ------------------------------------------------------------


def test_bounds_and_max_length_read_the_models_validation() -> None:
    assert ask.bounds(AddCharacters, "count")[0] == 1
    assert ask.max_length(RenameEncounter, "name") == 80
    with pytest.raises(KeyError):
        ask.bounds(RenameEncounter, "name")


def test_table_order_is_the_djs_in_set_up_and_declaration_order_later() -> None:
    assert ask.table_order(make_combat(ANA, BRUNO, CARLA).state) == ["Ana", "Bruno", "Carla"]
    combat = shooters()
    assert ask.table_order(combat.state)[0] == "Carla"  # action order (I4)


def test_i3_roster_order_is_the_djs_order_for_every_declarer_not_the_initiative() -> None:
    """Issue 39 item 2: the forms' lists of characters follow the roster (the DJ's order,
    as MoveCharacter leaves it), whoever declares and whatever the initiative."""
    combat = shooters()
    roster = [ch.name for ch in combat.state.characters]
    assert ask.table_order(combat.state) != roster  # the initiative reads otherwise
    assert ask.roster_order(combat.state) == roster
    for name in roster:
        assert ask.roster_order(combat.state, but=name) == [n for n in roster if n != name]
    combat.execute(MoveCharacter(name=roster[-1], position=0))
    assert ask.roster_order(combat.state) == [roster[-1], *roster[:-1]]


def test_is_opposed_and_pv() -> None:
    combat = started(ANA, BRUNO)
    declare(combat, "Ana", act("pushes", target=10, opposition=Opposition(
        mode=OppositionMode.DIRECT, against=["Bruno"])))
    declare(combat, "Bruno")
    advance_to(combat, Phase.ROUND)
    [step] = combat.state.current_group()
    assert ask.is_opposed(combat.state, step)
    assert ask.pv(combat.state, "Ana") > 0
