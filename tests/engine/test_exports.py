"""The engine's package exports what a user of the engine needs, for every section
(sections H and C too): every command, and every model or enum a command can hold."""

from __future__ import annotations

import enum
import typing
from typing import Any

from pydantic import BaseModel

import sombra_tui.engine as engine
from sombra_tui.engine import commands


def command_classes() -> list[type[BaseModel]]:
    union = typing.get_args(commands.Command)[0]  # Annotated[union, discriminator]
    return list(typing.get_args(union))


def held_types(annotation: Any, seen: set[type]) -> set[type]:
    """The pydantic models and enums reachable from `annotation`, through fields."""
    for argument in typing.get_args(annotation):
        held_types(argument, seen)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel | enum.Enum) \
            and annotation not in seen:
        seen.add(annotation)
        if issubclass(annotation, BaseModel):
            for field in annotation.model_fields.values():
                held_types(field.annotation, seen)
    return seen


def test_every_command_is_exported() -> None:
    classes = command_classes()
    assert len(classes) >= 34
    missing = [cls.__name__ for cls in classes
               if getattr(engine, cls.__name__, None) is not cls
               or cls.__name__ not in engine.__all__]
    assert missing == []


def test_every_model_and_enum_a_command_holds_is_exported() -> None:
    """A weapon (H1), a location (H2), a wound (H12), a condition (C1), an action's scope
    (H10), the wound settings: a command is built from the package alone."""
    held = held_types(commands.Command, set())
    missing = sorted(cls.__name__ for cls in held
                     if getattr(engine, cls.__name__, None) is not cls
                     or cls.__name__ not in engine.__all__)
    assert missing == []


def test_sections_h_and_c_names_are_exported() -> None:
    """H1-H12, C1-C4: the hit, heal, wound and condition commands and their models, and
    what a UI reads from the state (proposals, bodies)."""
    for name in ("AcceptHit", "DeclineHit", "ConfirmProposal", "DeclineProposal",
                 "ManualHit", "Heal", "HealKind", "AttendWound", "EditWound", "RemoveWound",
                 "AddCondition", "EditCondition", "RemoveCondition", "SetCounters",
                 "Weapon", "Location", "WoundSettings", "DamageType", "Severity", "Wound",
                 "Condition", "ConditionEffects", "ActionScope", "builtin",
                 "Proposal", "ProposalKind", "Body"):
        assert name in engine.__all__, name


def test_all_names_exist_once() -> None:
    assert len(engine.__all__) == len(set(engine.__all__))
    assert [name for name in engine.__all__ if not hasattr(engine, name)] == []
