"""Shared builders for the engine tests: small, generic and free of rule logic.

Import them in a test module with `from tests.engine.conftest import ...`.
Expected numbers are always worked out in the tests themselves, from RULES.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from sombra_tui.engine import (
    Action,
    ActionKind,
    Advance,
    Character,
    Combat,
    CombatState,
    Declare,
    Decline,
    Dice,
    Encounter,
    EventKind,
    LogEvent,
    Phase,
    React,
    ReactionMode,
    Settings,
    SombraError,
    StartCombat,
)

SUB = ReactionMode.SUBSTITUTE
COMB = ReactionMode.COMBINE


def char(name: str, primaria: int, secundaria: int = 0, alerta: int = 10,
         **fields: Any) -> Character:
    """A character; alerta defaults to 10, skills etc. through keyword fields."""
    return Character(name=name, primaria=primaria, secundaria=secundaria, alerta=alerta,
                     **fields)


#: The three characters of RULES.md's worked example (primaria/secundaria, Alerta),
#: shared by the rule tests.
ANA = char("Ana", 8, 3, 14)
BRUNO = char("Bruno", 12, 5, 12)
CARLA = char("Carla", 15, 2, 13)


def act(description: str, *targets: str, kind: ActionKind = ActionKind.ROUND,
        **fields: Any) -> Action:
    """An action aimed at `targets` (they pre-fill the affected list, D2)."""
    return Action(kind=kind, description=description, targets=list(targets), **fields)


def dice(ds: int, a: int, b: int) -> Dice:
    return Dice.of(ds, a, b)


def make_combat(*characters: Character, seed: int = 0, start: bool = False,
                initiative_rolls: dict[str, int] | None = None,
                **settings: Any) -> Combat:
    """A Combat over `characters` (in this DJ order) with the given settings.

    With start=True the combat is started (round 1, declaration phase).
    """
    encounter = Encounter(name="Test", characters=list(characters), seed=seed,
                          settings=Settings(**settings))
    combat = Combat(encounter)
    if start:
        combat.execute(StartCombat(initiative_rolls=initiative_rolls or {}))
    return combat


def started(*characters: Character, **settings: Any) -> Combat:
    """make_combat(..., start=True)."""
    return make_combat(*characters, start=True, **settings)


def declare(combat: Combat, name: str, *actions: Action,
            affected: list[str] | None = None) -> list[LogEvent]:
    return combat.execute(Declare(character=name, actions=list(actions), affected=affected))


def react(combat: Combat, name: str, mode: ReactionMode, *actions: Action,
          roll: Dice | None = None, **fields: Any) -> list[LogEvent]:
    return combat.execute(React(character=name, mode=mode, actions=list(actions), dice=roll,
                                **fields))


def decline(combat: Combat, name: str) -> list[LogEvent]:
    return combat.execute(Decline(character=name))


def advance_to(combat: Combat, phase: Phase) -> None:
    """Advance until the combat reaches `phase` (at most one round ahead)."""
    for _ in range(6):
        if combat.state.phase is phase:
            return
        combat.execute(Advance())
    raise AssertionError(f"never reached {phase}")


def declare_all_inaction(combat: Combat) -> None:
    """Everyone left to declare declares nothing (settling no prompts)."""
    while combat.state.current_declarer is not None:
        declare(combat, combat.state.current_declarer)


def reactors(state: CombatState) -> list[str]:
    """Open prompts as the DJ meets them: top of the stack first."""
    return [prompt.reactor for prompt in reversed(state.prompts)]


def top_reactor(state: CombatState) -> str | None:
    top = state.top_prompt
    return None if top is None else top.reactor


def events_of(combat: Combat | list[LogEvent], kind: EventKind | None = None,
              rule: str | None = None) -> list[LogEvent]:
    source = combat.log if isinstance(combat, Combat) else combat
    return [e for e in source
            if (kind is None or e.kind is kind) and (rule is None or e.rule == rule)]


def assert_refused(combat: Combat, command: Any, match: str | None = None) -> SombraError:
    """The command raises SombraError and leaves state, history and log exactly as before."""
    state_before = combat.state.model_copy(deep=True)
    commands_before = list(combat.commands)
    log_before = list(combat.log)
    with pytest.raises(SombraError, match=match) as info:
        combat.execute(command)
    assert combat.state == state_before
    assert combat.commands == commands_before
    assert combat.log == log_before
    assert str(info.value).strip(), "the refusal must carry a readable message"
    return info.value
