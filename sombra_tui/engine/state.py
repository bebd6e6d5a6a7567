"""The runtime state of a combat: what replaying the commands produces (S1).

Plain pydantic data, no behaviour beyond read-only queries; the machine
(`machine.py`) is the only code that changes it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from sombra_tui.engine.dice import TAResult
from sombra_tui.engine.model import Action, Character, ExtendedMode, Settings


class Phase(StrEnum):
    """The explicit phases of P1/P6, in order."""

    SETUP = "setup"
    DECLARATION = "declaration"
    INSTANT = "instant"
    ROUND = "round"
    EXTENDED = "extended"
    END_OF_ROUND = "end_of_round"


PHASE_LABELS: dict[Phase, str] = {
    Phase.SETUP: "Preparación",
    Phase.DECLARATION: "Declaración",
    Phase.INSTANT: "Acciones instantáneas",
    Phase.ROUND: "Acciones de asalto",
    Phase.EXTENDED: "Acciones extendidas",
    Phase.END_OF_ROUND: "Fin del asalto",
}


class ReactionMode(StrEnum):
    COMBINE = "combine"
    SUBSTITUTE = "substitute"


class PromptKind(StrEnum):
    REACTION = "reaction"  # D4/D6 (and the renewed reaction of D10)
    COUNTER = "counter"  # D9 contrarreacción


class Declaration(BaseModel):
    """A character's declaration for this round; reactions create new versions (D8)."""

    model_config = ConfigDict(frozen=True)

    id: int
    author: str
    actions: list[Action] = Field(default_factory=list)
    affected: list[str] = Field(default_factory=list)
    #: The declaration this one answers (a reaction or counter-reaction), if any.
    answers: int | None = None
    #: The author's previous declaration that this one combines or substitutes.
    replaces: int | None = None
    mode: ReactionMode | None = None
    #: Only the actions added by this declaration (the new part of a combination).
    new_actions: list[Action] = Field(default_factory=list)

    @property
    def is_inaction(self) -> bool:
        return not self.actions

    def summary(self) -> str:
        if not self.actions:
            return "inacción"
        return "; ".join(action.summary() for action in self.actions)


class Prompt(BaseModel):
    """A pending question: may `reactor` react to declaration `declaration_id`? (D4, D9)."""

    model_config = ConfigDict(frozen=True)

    id: int
    reactor: str
    declaration_id: int
    kind: PromptKind = PromptKind.REACTION
    #: True when the DJ opened it by override (D12).
    forced: bool = False


class GdBreakdown(BaseModel):
    """The GD of an Alerta TA, kept as data so the DJ sees why (D6, D9, D12)."""

    base: int = 0
    substitution: int = 0
    earlier_reactions: int = 0
    override: int = 0

    @property
    def total(self) -> int:
        return self.base + self.substitution + self.earlier_reactions + self.override

    def describe(self) -> str:
        parts: list[str] = []
        if self.base:
            parts.append(f"base {self.base:+d}")
        if self.substitution:
            parts.append(f"substitute {self.substitution}")
        if self.earlier_reactions:
            plural = "s" if self.earlier_reactions != 1 else ""
            parts.append(f"{self.earlier_reactions} earlier reaction{plural}")
        if self.override:
            parts.append(f"DJ {self.override:+d}")
        total = f"GD {self.total:+d}" if self.total else "GD 0"
        return f"{total} = {' + '.join(parts)}" if parts else total


class StepStatus(StrEnum):
    PENDING = "pending"
    DONE = "done"
    SKIPPED = "skipped"


class Step(BaseModel):
    """One thing to resolve in the current resolution phase (P2, P3, P5)."""

    id: int
    character: str
    #: Index of the action in the character's declaration (instant/round phases).
    action_index: int | None = None
    #: The extended action this step rolls for (extended phase).
    extended_id: int | None = None
    #: Action-order position: steps sharing it form a simultaneous group (I4, P3).
    group: int
    status: StepStatus = StepStatus.PENDING
    result: TAResult | None = None


class ExtendedStatus(StrEnum):
    ACTIVE = "active"
    DONE = "done"
    ABANDONED = "abandoned"


class ExtendedProgress(BaseModel):
    """An extended action running across rounds (E1-E4)."""

    id: int
    owner: str
    action: Action
    mode: ExtendedMode
    duration: int = 1
    successes_needed: int = 1
    interval: int = 1
    gd: int = 0
    started_round: int
    #: Rounds counted since the start or the last restart (E2) or the last TA (E3).
    rounds_counted: int = 0
    successes: int = 0
    attempts: int = 0
    status: ExtendedStatus = ExtendedStatus.ACTIVE

    def progress_text(self) -> str:
        if self.status is not ExtendedStatus.ACTIVE:
            return self.status.value
        if self.mode is ExtendedMode.SIMPLE:
            return f"{self.rounds_counted}/{self.duration} asaltos"
        return (f"{self.successes}/{self.successes_needed} éxitos, "
                f"{self.rounds_counted}/{self.interval} asaltos")


class PendingMark(BaseModel):
    model_config = ConfigDict(frozen=True)

    character: str
    mark: str


class CombatState(BaseModel):
    """Everything the replay of the command history produces, except the log."""

    name: str
    settings: Settings
    #: Active characters in the DJ's order (the stable tie-break of I3).
    characters: list[Character] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    round: int = 0
    phase: Phase = Phase.SETUP

    #: Characters taking part in this round with their primaria/secundaria for
    #: the round (I2 adds the variable roll in round 1); added later join next round.
    round_initiative: dict[str, tuple[int, int]] = Field(default_factory=dict)
    declaration_order: list[str] = Field(default_factory=list)

    declarations: dict[int, Declaration] = Field(default_factory=dict)
    current: dict[str, int] = Field(default_factory=dict)
    prompts: list[Prompt] = Field(default_factory=list)  # a stack: last is on top (D11)
    reactions_made: dict[str, int] = Field(default_factory=dict)
    locked: list[str] = Field(default_factory=list)  # failed an Alerta TA (D7)

    prevented: list[str] = Field(default_factory=list)  # P4, this round
    out: list[str] = Field(default_factory=list)  # P4, until brought back
    pending_marks: list[PendingMark] = Field(default_factory=list)  # P4 inside a group

    steps: list[Step] = Field(default_factory=list)
    extended: list[ExtendedProgress] = Field(default_factory=list)
    next_id: int = 1

    #: name -> position in `characters`; rebuilt whenever it is found stale.
    _index: dict[str, int] = PrivateAttr(default_factory=dict)

    def clone(self) -> CombatState:
        """A copy that shares the immutable parts (characters, declarations, prompts,
        results) and copies every container and mutable record: much cheaper than a
        deep copy, and just as independent, since the machine only mutates containers,
        steps and extended progress."""
        data = {name: _copy_value(getattr(self, name)) for name in type(self).model_fields}
        copy = type(self).model_construct(_fields_set=self.model_fields_set, **data)
        copy._index = dict(self._index)
        return copy

    def __eq__(self, other: object) -> bool:
        """Equal when every field is equal; the private lookup cache does not count."""
        if not isinstance(other, CombatState):
            return NotImplemented
        return self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]

    # ---- read-only queries -------------------------------------------------

    def character(self, name: str) -> Character | None:
        characters = self.characters
        position = self._index.get(name)
        if position is not None and position < len(characters) and \
                characters[position].name == name:
            return characters[position]
        self._index = {character.name: i for i, character in enumerate(characters)}
        position = self._index.get(name)
        return None if position is None else characters[position]

    def declaration_of(self, name: str) -> Declaration | None:
        declaration_id = self.current.get(name)
        return None if declaration_id is None else self.declarations[declaration_id]

    def has_declared(self, name: str) -> bool:
        return name in self.current

    def is_out(self, name: str) -> bool:
        return name in self.out

    def is_locked(self, name: str) -> bool:
        return name in self.locked

    @property
    def top_prompt(self) -> Prompt | None:
        return self.prompts[-1] if self.prompts else None

    @property
    def current_declarer(self) -> str | None:
        """Who declares now (D1, D11): the next in order, once no prompt is open."""
        if self.phase is not Phase.DECLARATION or self.prompts:
            return None
        return self.next_declarer

    @property
    def next_declarer(self) -> str | None:
        for name in self.declaration_order:
            if name in self.current or name in self.out or self.character(name) is None:
                continue
            return name
        return None

    def declarers_after(self, name: str | None) -> list[str]:
        """Characters still to declare after `name`, in declaration order."""
        waiting = [n for n in self.declaration_order
                   if n not in self.current and n not in self.out
                   and self.character(n) is not None]
        if name in waiting:
            return waiting[waiting.index(name) + 1:]
        return waiting

    def pending_steps(self) -> list[Step]:
        return [step for step in self.steps if step.status is StepStatus.PENDING]

    def current_group(self) -> list[Step]:
        """Pending steps of the simultaneous group that acts now (P3)."""
        pending = self.pending_steps()
        if not pending:
            return []
        group = pending[0].group
        return [step for step in pending if step.group == group]

    def group_in_progress(self) -> bool:
        """True while some of the acting group have rolled and some have not (P4)."""
        pending = self.current_group()
        if not pending:
            return False
        group = pending[0].group
        return any(step.group == group and step.status is not StepStatus.PENDING
                   for step in self.steps)

    def extended_by_id(self, extended_id: int) -> ExtendedProgress | None:
        for progress in self.extended:
            if progress.id == extended_id:
                return progress
        return None

    def step_action(self, step: Step) -> Action:
        if step.extended_id is not None:
            progress = self.extended_by_id(step.extended_id)
            assert progress is not None
            return progress.action
        declaration = self.declaration_of(step.character)
        assert declaration is not None and step.action_index is not None
        return declaration.actions[step.action_index]


def _copy_item(value: Any) -> Any:
    if isinstance(value, BaseModel) and not value.model_config.get("frozen", False):
        return value.model_copy()
    return value


def _copy_value(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy_item(item) for item in value]
    if isinstance(value, dict):
        return {key: _copy_item(item) for key, item in value.items()}
    return _copy_item(value)
