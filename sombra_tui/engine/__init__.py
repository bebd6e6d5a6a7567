"""The Sombra rules engine: pure Python + pydantic, no UI (never imports textual/rich).

A UI builds `Combat` from an `Encounter`, sends it commands and renders
`combat.state` and `combat.log`.
"""

from sombra_tui.engine.commands import (
    AbandonExtended,
    AddCharacter,
    AdjustExtended,
    Advance,
    AllowPrompt,
    ChangeSettings,
    Command,
    Declare,
    Decline,
    DenyPrompt,
    EditCharacter,
    Mark,
    MoveCharacter,
    OpposedRoll,
    React,
    RemoveCharacter,
    RenameEncounter,
    Resolve,
    ResolveOpposed,
    SetMark,
    StartCombat,
)
from sombra_tui.engine.dice import (
    Dice,
    DiceRoller,
    Quality,
    Rank,
    TAResult,
    best_of,
    compare_ta,
    parse_dice,
    quality_of,
    resolve_ta,
)
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import EventKind, LogEvent
from sombra_tui.engine.history import Combat
from sombra_tui.engine.initiative import action_groups, action_order, declaration_order
from sombra_tui.engine.machine import alerta_gd, may_react, read_outcome
from sombra_tui.engine.model import (
    Action,
    ActionKind,
    Character,
    Encounter,
    ExtendedMode,
    ExtendedSpec,
    Opposition,
    OppositionMode,
    Reading,
    Role,
    Settings,
    Side,
)
from sombra_tui.engine.state import (
    CombatState,
    Declaration,
    ExtendedProgress,
    ExtendedStatus,
    GdBreakdown,
    Phase,
    Prompt,
    PromptKind,
    ReactionMode,
    Step,
    StepStatus,
)

__all__ = [
    "AbandonExtended", "Action", "ActionKind", "AddCharacter", "AdjustExtended", "Advance",
    "AllowPrompt", "ChangeSettings", "Character", "Combat", "CombatState", "Command",
    "Declaration", "Declare", "Decline", "DenyPrompt", "Dice", "DiceRoller", "EditCharacter",
    "Encounter", "EventKind", "ExtendedMode", "ExtendedProgress", "ExtendedSpec",
    "ExtendedStatus", "GdBreakdown", "LogEvent", "Mark", "MoveCharacter", "OpposedRoll",
    "Opposition", "OppositionMode", "Phase", "Prompt", "PromptKind", "Quality", "Rank",
    "React", "ReactionMode", "Reading", "RemoveCharacter", "RenameEncounter", "Resolve",
    "ResolveOpposed", "Role", "SetMark", "Settings", "Side", "SombraError", "StartCombat",
    "Step", "StepStatus", "TAResult", "action_groups", "action_order", "alerta_gd",
    "best_of", "compare_ta", "declaration_order", "may_react", "parse_dice", "quality_of",
    "read_outcome", "resolve_ta",
]
