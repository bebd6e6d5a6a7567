"""The 'Worked example (D4-D11)' of RULES.md, played exactly as written.

Every number is worked out here from the rules: T2 totals from the dice, D6/D9
grades, D7 lock, D11 prompts, and the I4 action order Carla, Bruno, Ana.
"""

from __future__ import annotations

from sombra_tui.engine import (
    Advance,
    Combat,
    Dice,
    EventKind,
    Phase,
    PromptKind,
    React,
    ReactionMode,
    action_order,
    alerta_gd,
)
from tests.engine.conftest import (
    COMB,
    SUB,
    act,
    char,
    declare,
    decline,
    dice,
    events_of,
    reactors,
    started,
)


def test_worked_example_d4_to_d11() -> None:
    play_worked_example_d4_to_d11()


def play_worked_example_d4_to_d11() -> Combat:
    """The example played, checked at every step, to the round phase (the combat
    report's tests read it: tests/engine/test_report.py)."""
    ana = char("Ana", 8, 3, 14)
    bruno = char("Bruno", 12, 5, 12)
    carla = char("Carla", 15, 2, 13)
    combat = started(carla, bruno, ana)  # the DJ's list order does not matter here
    state = combat.state
    assert state.declaration_order == ["Ana", "Bruno", "Carla"]

    # 1. Ana declares: aims at the door. Affects nobody.
    declare(combat, "Ana", act("aims at the door"))
    assert combat.state.declaration_of("Ana").affected == []  # type: ignore[union-attr]
    assert combat.state.prompts == []
    assert combat.state.current_declarer == "Bruno"

    # 2. Bruno declares: shoots Ana. Affects Ana, who declared before him: prompted.
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    assert combat.state.declaration_of("Bruno").affected == ["Ana"]  # type: ignore[union-attr]
    assert reactors(combat.state) == ["Ana"]
    prompt = combat.state.top_prompt
    assert prompt is not None and prompt.kind is PromptKind.REACTION
    gd = alerta_gd(combat.state, prompt, SUB)
    assert (gd.substitution, gd.earlier_reactions, gd.total) == (1, 0, 1)
    # Ana substitutes: Alerta TA at +1 GD, dice 3, 4, 2 -> 9 + 5 = 14 <= 14.
    events = combat.execute(_react("Ana", SUB, "dives behind the desk", dice(3, 4, 2)))
    [reaction] = [e for e in events if e.kind is EventKind.REACTION]
    assert reaction.ta is not None and reaction.gd is not None
    assert reaction.gd.total == 1
    assert reaction.ta.total == 3 + 4 + 2 + 5 * 1 == 14
    assert reaction.ta.target == 14
    assert reaction.ta.margin == 0
    assert reaction.ta.success
    assert _actions(combat, "Ana") == ["dives behind the desk"]

    # 3. Bruno may counter-react (D9). He substitutes at GD 0: 6, 6, 2 -> 14 > 12.
    prompt = combat.state.top_prompt
    assert prompt is not None and prompt.reactor == "Bruno"
    assert prompt.kind is PromptKind.COUNTER
    gd = alerta_gd(combat.state, prompt, SUB)
    assert (gd.substitution, gd.earlier_reactions, gd.total) == (0, 0, 0)
    events = combat.execute(_react("Bruno", SUB, "runs to flank her", dice(6, 6, 2)))
    [counter] = [e for e in events if e.kind is EventKind.REACTION]
    assert counter.ta is not None and counter.gd is not None
    assert counter.gd.total == 0
    assert counter.ta.total == 6 + 6 + 2 == 14
    assert counter.ta.target == 12
    assert counter.ta.margin == -2
    assert not counter.ta.success
    assert counter.rule == "D7"
    # Bruno keeps "shoots Ana" and is locked (D7).
    assert _actions(combat, "Bruno") == ["shoots Ana"]
    assert combat.state.is_locked("Bruno")
    assert combat.state.prompts == []
    assert combat.state.current_declarer == "Carla"

    # 4. Carla throws a grenade at Ana and Bruno: Ana is prompted, Bruno (locked) is not.
    declare(combat, "Carla", act("throws a grenade", "Ana", "Bruno"))
    assert combat.state.declaration_of("Carla").affected == ["Ana", "Bruno"]  # type: ignore[union-attr]
    assert reactors(combat.state) == ["Ana"]
    assert all(e.actor != "Bruno" for e in events_of(combat, EventKind.PROMPT)[2:])
    prompt = combat.state.top_prompt
    assert prompt is not None
    gd = alerta_gd(combat.state, prompt, COMB)
    # GD +1: one earlier reaction, no substitution grade.
    assert (gd.substitution, gd.earlier_reactions, gd.total) == (0, 1, 1)
    roll = dice(2, 3, 1)  # the example gives no dice here: 6 + 5 = 11 <= 14
    events = combat.execute(_react("Ana", COMB, "covers her head", roll))
    [combined] = [e for e in events if e.kind is EventKind.REACTION]
    assert combined.gd is not None and combined.gd.total == 1
    assert combined.ta is not None and combined.ta.total == 2 + 3 + 1 + 5 == 11
    assert combined.ta.success
    # D9 then lets Carla counter-react; the example goes on, so she declines.
    assert reactors(combat.state) == ["Carla"]
    decline(combat, "Carla")
    assert combat.state.prompts == []
    assert combat.state.current_declarer is None

    # The final declarations.
    assert _actions(combat, "Ana") == ["dives behind the desk", "covers her head"]
    assert _actions(combat, "Bruno") == ["shoots Ana"]
    assert _actions(combat, "Carla") == ["throws a grenade"]
    assert combat.state.reactions_made == {"Ana": 2}
    assert combat.state.locked == ["Bruno"]

    # 5. Action order: Carla (15), Bruno (12), Ana (8).
    assert action_order(combat.state.round_initiative, ["Ana", "Bruno", "Carla"]) == [
        "Carla", "Bruno", "Ana"]
    combat.execute(Advance())  # instant phase: nothing to resolve
    assert combat.state.steps == []
    combat.execute(Advance())
    assert combat.state.phase is Phase.ROUND
    order = [step.character for step in combat.state.steps]
    assert order == ["Carla", "Bruno", "Ana", "Ana"]  # Ana's two combined actions
    assert list(dict.fromkeys(order)) == ["Carla", "Bruno", "Ana"]
    return combat


def _react(name: str, mode: ReactionMode, description: str, roll: Dice) -> React:
    return React(character=name, mode=mode, actions=[act(description)], dice=roll)


def _actions(combat: Combat, name: str) -> list[str]:
    declaration = combat.state.declaration_of(name)
    assert declaration is not None
    return [action.description for action in declaration.actions]
