"""The engine says what is allowed: one table of which command fits which phase (P1),
which the machine checks and the UI asks."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from sombra_tui.engine import (
    Advance,
    AllowPrompt,
    Combat,
    Declare,
    DeclareGroup,
    Decline,
    DenyPrompt,
    Phase,
    React,
    ReactionMode,
    Resolve,
    ResolveOpposed,
    SombraError,
    StartCombat,
)
from sombra_tui.engine.allowed import (
    COMMAND_TYPES,
    PHASES,
    allowed,
    check_fits,
    fits,
    mark_allowed,
)
from sombra_tui.engine.commands import Command, Mark, OpposedRoll, SetMark
from tests.engine.conftest import (
    act,
    advance_to,
    char,
    declare,
    declare_all_inaction,
    dice,
    make_combat,
)

#: One command of each phase-bound type, for a combat of Ana and Bruno.
SAMPLES: dict[type[BaseModel], BaseModel] = {
    StartCombat: StartCombat(),
    Declare: Declare(character="Ana", actions=[]),
    DeclareGroup: DeclareGroup(characters=["Ana", "Bruno"], actions=[]),
    React: React(character="Ana", mode=ReactionMode.SUBSTITUTE, actions=[act("ducks")],
                 dice=dice(1, 2, 3)),
    Decline: Decline(character="Ana"),
    DenyPrompt: DenyPrompt(character="Ana"),
    AllowPrompt: AllowPrompt(character="Ana", against="Bruno"),
    Resolve: Resolve(character="Ana", dice=dice(1, 2, 3)),
    ResolveOpposed: ResolveOpposed(character="Ana", rolls=[
        OpposedRoll(character="Ana", dice=dice(1, 2, 3)),
        OpposedRoll(character="Bruno", dice=dice(1, 2, 3))]),
    Advance: Advance(),
}


def combat_in(phase: Phase) -> Combat:
    """Ana and Bruno in `phase` of round 1 (both declared nothing, nothing to resolve)."""
    combat = make_combat(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12))
    if phase is not Phase.SETUP:
        combat.execute(StartCombat())
    if phase not in (Phase.SETUP, Phase.DECLARATION):
        declare_all_inaction(combat)
        advance_to(combat, phase)
    return combat


def test_every_command_type_is_known_to_the_table() -> None:
    union = {member for member in Command.__origin__.__args__}  # type: ignore[attr-defined]
    assert set(COMMAND_TYPES) == union
    assert set(PHASES) <= union and set(SAMPLES) == set(PHASES)


def test_the_phases_of_the_rules() -> None:
    """P1: declarations and reactions in the declaration phase (D1-D12); TAs in the
    instant, round and extended phases (P2, P3, P5); start only in set-up."""
    assert {kind for kind in COMMAND_TYPES if fits(Phase.SETUP, kind)} >= {
        StartCombat, SetMark} and not fits(Phase.SETUP, Advance)
    for kind in (Declare, React, Decline, DenyPrompt, AllowPrompt):
        assert [phase for phase in Phase if fits(phase, kind)] == [Phase.DECLARATION]
    for kind in (Resolve, ResolveOpposed):
        assert [phase for phase in Phase if fits(phase, kind)] == [
            Phase.INSTANT, Phase.ROUND, Phase.EXTENDED]


@pytest.mark.parametrize("phase", list(Phase))
def test_the_machine_refuses_exactly_what_the_table_refuses(phase: Phase) -> None:
    """What allowed(state) leaves out, the machine refuses for the phase (before any
    other check); what it lets in is never refused for the phase."""
    combat = combat_in(phase)
    assert combat.state.phase is phase
    permitted = allowed(combat.state)
    for kind, command in SAMPLES.items():
        try:
            combat.preview(command)
        except SombraError as error:
            refused_for_phase = error.code in ("phase.wrong", "advance.not_started")
        else:
            refused_for_phase = False
        assert refused_for_phase == (kind not in permitted), (phase, kind)


def test_the_phase_refusal_names_what_was_tried_and_the_phases() -> None:
    combat = combat_in(Phase.SETUP)
    with pytest.raises(SombraError) as info:
        check_fits(combat.state, SAMPLES[Resolve])
    assert str(info.value) == ("Cannot resolve an action now: the combat is in the setup "
                               "phase; that needs the instant or round or extended phase.")
    assert info.value.code == "phase.wrong"
    assert info.value.params == {"doing": "resolve an action", "phase": "setup",
                                 "allowed": "instant or round or extended"}


def test_prevented_fits_only_while_round_actions_are_to_come() -> None:
    """P4: a round action can be cancelled until the round phase is over."""
    expected = {Phase.DECLARATION, Phase.INSTANT, Phase.ROUND}
    for phase in Phase:
        combat = combat_in(phase)
        assert mark_allowed(combat.state, Mark.PREVENTED) == (phase in expected)
        assert mark_allowed(combat.state, Mark.OUT)
        if phase not in expected:
            with pytest.raises(SombraError):
                combat.preview(SetMark(character="Ana", mark=Mark.PREVENTED))
        else:
            combat.preview(SetMark(character="Ana", mark=Mark.PREVENTED))


def test_a_declaration_in_its_phase_is_let_through_to_the_rules() -> None:
    combat = combat_in(Phase.DECLARATION)
    declare(combat, "Ana")
    assert combat.state.current_declarer == "Bruno"
