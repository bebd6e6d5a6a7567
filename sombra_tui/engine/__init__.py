"""The Sombra rules engine: pure Python + pydantic, no UI (never imports textual/rich).

A UI builds `Combat` from an `Encounter`, sends it commands and renders
`combat.state` and `combat.log`.

This package is the engine's front door: screens and widgets (and the players' view,
the app, its session, preferences and themes: issue 36) import from it, from
`engine.ask` (the questions they ask of a state) and from `engine.i18n`, and from no other
engine module (issue 20). So it exports every command, model and enum a UI builds or
reads, and the vocabulary it formats (dice, GD, phases, events).

Issue 24 item 5 (cold start): the names are resolved on first use (PEP 562: the
module's `__getattr__`), so importing the package, or one name from it, loads only the
engine modules that name needs: the first screen does not load the file format, the
crash journal or the players' view, which the app loads once the screen is drawn.
`from sombra_tui.engine import X` works as before.

Issue 36 item 4: the door is written once, as the imports under TYPE_CHECKING below:
type checkers read them, and the package reads them from its own text on first use
(`_WHERE`, each name and its module, and `__all__`). A name goes on the door when a
screen, the app or a test uses it (tests/test_architecture.py lists the unused ones).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sombra_tui.engine.carry import CarryPlan, carry_on, party
    from sombra_tui.engine.commands import (
        AbandonExtended,
        AcceptHit,
        AddCharacter,
        AddCharacters,
        AddCondition,
        AddNote,
        AdjustExtended,
        Advance,
        AllowPrompt,
        AttendWound,
        ChangeSettings,
        Command,
        ConfirmProposal,
        Declare,
        DeclareGroup,
        Decline,
        DeclineHit,
        DeclineProposal,
        DenyPrompt,
        EditCharacter,
        EditCondition,
        EditNote,
        EditWound,
        FreeTA,
        Heal,
        HealKind,
        HideCharacter,
        ImportCharacters,
        ManualHit,
        Mark,
        MoveCharacter,
        OpposedRoll,
        React,
        RemoveCharacter,
        RemoveCondition,
        RemoveNote,
        RemoveWound,
        RenameEncounter,
        Resolve,
        ResolveOpposed,
        RevealCharacter,
        SetCounters,
        SetMark,
        StartCombat,
    )
    from sombra_tui.engine.conditions import (
        BUILTIN_NAMES,
        ActionScope,
        BodySide,
        Condition,
        ConditionEffects,
        ConditionSource,
        ConditionSpec,
        GdEffect,
        ScopeKind,
        SourceKind,
        builtin,
    )
    from sombra_tui.engine.describe import TO_ROLL
    from sombra_tui.engine.dice import (
        Dice,
        DiceRoller,
        Quality,
        Rank,
        TAResult,
        best_of,
        compare_ta,
        format_gd,
        gd_name,
        parse_dice,
        quality_of,
        resolve_ta,
        zero_read_as_ten,
    )
    from sombra_tui.engine.errors import (
        SombraError,
        invalid,
        json_reason,
        os_reason,
        validation_problems,
    )
    from sombra_tui.engine.events import EventKind, LogEvent
    from sombra_tui.engine.files import (
        DuplicateKeyError,
        MissingFileError,
        loads_json,
        read_regular_file,
    )
    from sombra_tui.engine.formula import FormulaError, parse_formula
    from sombra_tui.engine.frozen import trusted
    from sombra_tui.engine.history import Combat, LogView
    from sombra_tui.engine.initiative import action_groups, action_order, declaration_order
    from sombra_tui.engine.journal import Journal, Recovered, find_journals, recover, summarize
    from sombra_tui.engine.model import (
        DEFAULT_RESISTENCIA,
        MAX_GD,
        MAX_STAT,
        Action,
        ActionKind,
        CarriedBody,
        Character,
        DeclarationView,
        DiceSource,
        Encounter,
        ExtendedMode,
        ExtendedSpec,
        Gender,
        Opposition,
        OppositionMode,
        PlayerViewSettings,
        Reading,
        Role,
        Settings,
        Side,
        SideView,
        WoundView,
    )
    from sombra_tui.engine.players_view import PlayersSnapshot
    from sombra_tui.engine.rules.declaration import alerta_gd, may_react
    from sombra_tui.engine.rules.opposition import plan_opposition, read_outcome
    from sombra_tui.engine.state import (
        PHASE_LABELS,
        Body,
        CombatState,
        Concealment,
        ExtendedProgress,
        ExtendedStatus,
        GdBreakdown,
        Note,
        Phase,
        Prompt,
        PromptKind,
        Proposal,
        ProposalKind,
        ReactionMode,
        Step,
        StepStatus,
    )
    from sombra_tui.engine.storage import Roster, load, read_roster, roster_clashes, save
    from sombra_tui.engine.wounds import (
        MAX_PROTECTION,
        TIPO_IV,
        TIPOS,
        Consequences,
        Counters,
        DamageType,
        HitReading,
        LocatedDamage,
        Location,
        Reminder,
        Severity,
        SeverityReading,
        SideMapping,
        Weapon,
        Wound,
        WoundSettings,
    )



def _names() -> dict[str, str]:
    """Each name the imports above give, and the engine module it comes from: read from
    this file's own text, so that each name is written once (issue 36). Read as words,
    line by line (no `ast`: its thousands of objects brought a full collection of the
    garbage collector into the start; tests/test_lean_start.py checks both readings
    agree)."""
    where: dict[str, str] = {}
    module = ""
    lines = Path(__file__).read_text(encoding="utf-8").splitlines()
    for line in lines[lines.index("if TYPE_CHECKING:") + 1:]:
        if line and not line.startswith(" "):
            break
        words = line.partition("#")[0].replace("(", " ").replace(")", " ").replace(
            ",", " ").split()
        if words[:1] == ["from"]:
            module, words = words[1].removeprefix(f"{__name__}."), words[3:]
        where.update(dict.fromkeys(words, module))
    return where


def _where() -> dict[str, str]:
    """`_WHERE`: each name of the door and its module, read once."""
    where: dict[str, str] | None = globals().get("_WHERE")
    if where is None:
        where = globals()["_WHERE"] = _names()
    return where


def __getattr__(name: str) -> Any:
    """A name of the door, loaded from its module on first use and kept here; `_WHERE`
    (each name and its module) and `__all__` are read from the imports on first use."""
    if name == "_WHERE":
        return _where()
    if name == "__all__":
        names = globals()["__all__"] = sorted(_where())
        return names
    module = _where().get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_where()})
