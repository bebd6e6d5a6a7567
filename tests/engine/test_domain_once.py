"""Domain knowledge in one place: the skill lookup (T2), a step's GD (E3/E4), the
name-clash rule, and the sentences for pydantic's and the system's errors."""

from __future__ import annotations

import errno

import pytest
from pydantic import ValidationError

from sombra_tui.engine import (
    ActionKind,
    AdjustExtended,
    Character,
    Encounter,
    ExtendedMode,
    ExtendedSpec,
    Phase,
    Resolve,
)
from sombra_tui.engine.errors import describe_validation, os_reason, validation_problems
from sombra_tui.engine.model import name_clashes
from tests.engine.conftest import act, advance_to, char, declare, dice, started


def test_skill_value_ignores_case_and_misses_are_none() -> None:
    """T2: the value to roll under may come from the character's skill, named in any case."""
    ana = char("Ana", 8, 3, 14, skills={"Pelea": 14, "Sigilo": 11})
    assert ana.skill_value("pelea") == 14
    assert ana.skill_value("SIGILO") == 11
    assert ana.skill_value("Disparo") is None
    assert Character(name="Nadie", primaria=1, secundaria=1, alerta=1).skill_value("x") is None


def test_resolve_rolls_under_the_skill_named_in_any_case() -> None:
    """T2 in the machine: an action without a target uses the skill, whatever its case."""
    combat = started(char("Ana", 8, 3, 14, skills={"Pelea": 14}))
    declare(combat, "Ana", act("punches", skill="PELEA"))
    advance_to(combat, Phase.ROUND)
    events = combat.execute(Resolve(character="Ana", dice=dice(1, 2, 3)))
    ta = next(event.ta for event in events if event.ta is not None)
    assert ta.target == 14


def test_step_gd_is_the_action_gd_or_the_extended_gd_the_dj_set() -> None:
    """E3: later TAs of an extended action roll at the GD the DJ set (AdjustExtended)."""
    combat = started(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12))
    declare(combat, "Ana", act("picks the lock", kind=ActionKind.EXTENDED, gd=1, target=12,
                               extended=ExtendedSpec(mode=ExtendedMode.COMPLEX, successes=3)))
    declare(combat, "Bruno", act("guards", gd=-2, target=10))
    advance_to(combat, Phase.ROUND)
    bruno = next(step for step in combat.state.steps if step.character == "Bruno")
    assert combat.state.step_gd(bruno) == -2
    progress = combat.state.extended[0]
    combat.execute(AdjustExtended(extended_id=progress.id, gd=3))
    combat.execute(Resolve(character="Bruno", dice=dice(1, 2, 3)))
    advance_to(combat, Phase.EXTENDED)
    step = combat.state.steps[0]
    assert step.extended_id == progress.id
    assert combat.state.step_gd(step) == 3
    events = combat.execute(Resolve(character="Ana", dice=dice(1, 2, 3)))
    assert next(event.ta for event in events if event.ta is not None).gd == 3


def test_name_clashes_ignore_case_and_count_repeats() -> None:
    assert name_clashes(["ana", "Carla"], ["Ana", "Bruno"]) == ["ana"]
    assert name_clashes(["Dani", "dani", "Eva"]) == ["dani"]
    assert name_clashes(["Dani"], []) == []
    with pytest.raises(ValidationError, match="two characters are called 'ANA'"):
        Encounter(characters=[char("Ana", 1), char("ANA", 2)])


def test_validation_problems_and_sentence() -> None:
    with pytest.raises(ValidationError) as info:
        Character.model_validate({"name": " ", "primaria": -1, "secundaria": 1, "alerta": 1})
    problems = validation_problems(info.value)
    assert [problem.location for problem in problems] == [("name",), ("primaria",)]
    assert problems[0].message == "a character needs a name"  # no "Value error, "
    assert describe_validation(info.value) == "name: a character needs a name (and 1 more " \
        "problem)"


def test_os_reason_plain_words_only_when_asked() -> None:
    full = OSError(errno.ENOSPC, "No space left on device")
    denied = PermissionError(errno.EACCES, "Permission denied")
    assert os_reason(full) == "No space left on device"
    assert os_reason(full, plain=True) == "the disk is full"
    assert os_reason(denied, plain=True) == "permission denied"
    assert os_reason(OSError("odd")) == "odd"
