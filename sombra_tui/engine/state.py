"""The runtime state of a combat: what replaying the commands produces (S1).

Plain pydantic data, no behaviour beyond read-only queries; the machine
(`machine.py`) is the only code that changes it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    PrivateAttr,
    WithJsonSchema,
)

from sombra_tui.engine.conditions import Condition, GradeEntry, total_gd
from sombra_tui.engine.dice import Dice, TAResult
from sombra_tui.engine.errors import invalid
from sombra_tui.engine.frozen import Frozen, defaults, trusted
from sombra_tui.engine.i18n import N_, Join, Msg, _, lazy, ngettext, text_data
from sombra_tui.engine.model import (
    Action,
    Carried,
    Character,
    ExtendedMode,
    Settings,
    message_of_data,
)
from sombra_tui.engine.wounds import (
    Counters,
    HitReading,
    TipoId,
    Weapon,
    Wound,
    WoundAssessment,
)


class Phase(StrEnum):
    """The explicit phases of P1/P6, in order."""

    SETUP = "setup"
    DECLARATION = "declaration"
    INSTANT = "instant"
    ROUND = "round"
    EXTENDED = "extended"
    END_OF_ROUND = "end_of_round"


#: The phases' names (English msgids; i18n renders them in the DJ's language).
PHASE_LABELS: dict[Phase, str] = {
    Phase.SETUP: N_("Set-up"),
    Phase.DECLARATION: N_("Declaration"),
    Phase.INSTANT: N_("Instant actions"),
    Phase.ROUND: N_("Round actions"),
    Phase.EXTENDED: N_("Extended actions"),
    Phase.END_OF_ROUND: N_("End of the asalto"),
}


class ReactionMode(StrEnum):
    COMBINE = "combine"
    SUBSTITUTE = "substitute"


class Concealment(StrEnum):
    """Why a character is out of the players' view (issue 23)."""

    UNTIL_REVEALED = "until_revealed"  # the DJ hid it (an ambush): until the DJ reveals it
    UNTIL_ACTS = "until_acts"  # until its first TA (or the DJ reveals it)


class PromptKind(StrEnum):
    REACTION = "reaction"  # D4/D6 (and the renewed reaction of D10)
    COUNTER = "counter"  # D9 contrarreacción


class Declaration(Frozen):
    """A character's declaration for this round; reactions create new versions (D8)."""

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

    def summary_msg(self) -> Msg | Join:
        """The declaration in a line, rendered when shown (the log keeps this)."""
        if not self.actions:
            return Msg(N_("inaction"))
        return Join("; ", [action.summary_msg() for action in self.actions])

    def summary(self) -> str:
        return self.summary_msg().render()


class Planned(Frozen):
    """Issue 39 item 3 (D1): a member's part of a declaration the DJ made for several
    characters of one side at once: when the member's turn to declare comes (no prompt
    open), it declares these actions as its own Declare would."""

    actions: list[Action] = Field(default_factory=list)
    #: The affected list the DJ gave (the member left out), or None: pre-filled (D2).
    affected: list[str] | None = None


class Prompt(Frozen):
    """A pending question: may `reactor` react to declaration `declaration_id`? (D4, D9)."""

    id: int
    reactor: str
    declaration_id: int
    kind: PromptKind = PromptKind.REACTION
    #: True when the DJ opened it by override (D12).
    forced: bool = False


class GdBreakdown(Frozen):
    """The GD of a TA, kept as data so the DJ sees why (D6, D9, D12), with one entry per
    wound or condition grade (H10, C1)."""

    model_config = ConfigDict(defer_build=True)

    base: int = 0
    substitution: int = 0
    earlier_reactions: int = 0
    override: int = 0
    grades: list[GradeEntry] = Field(default_factory=list)

    @property
    def total(self) -> int:
        return (self.base + self.substitution + self.earlier_reactions + self.override
                + total_gd(self.grades))

    def describe(self) -> str:
        parts: list[str] = []
        if self.base:
            parts.append(_("base {gd:+d}").format(gd=self.base))
        if self.substitution:
            parts.append(_("substitute {gd}").format(gd=self.substitution))
        if self.earlier_reactions:
            parts.append(ngettext("{count} earlier reacción", "{count} earlier reacciones",
                                  self.earlier_reactions).format(count=self.earlier_reactions))
        if self.override:
            parts.append(f"DJ {self.override:+d}")
        parts.extend(entry.describe() for entry in self.grades)  # H10: names each wound
        total = f"GD {self.total:+d}" if self.total else "GD 0"
        return f"{total} = {' + '.join(parts)}" if parts else total


class StepStatus(StrEnum):
    PENDING = "pending"
    DONE = "done"
    SKIPPED = "skipped"


class Step(BaseModel):
    """One thing to resolve in the current resolution phase (P2, P3, P5)."""

    model_config = ConfigDict(defer_build=True)

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
    #: Why a skipped step was skipped ("out", "prevented", "gone", "done", "abandoned"):
    #: an out or prevented mark lifted before the step's group has acted gives the
    #: action back (P4, P5).
    skipped_for: str | None = None
    #: O2/P4: done at an earlier group's turn, as an opponent in an opposition rolled when
    #: its first member acted. Such a TA does not bring its own group's turn: that comes
    #: with the first TA made at the group's place in action order.
    early: bool = False


class ExtendedStatus(StrEnum):
    ACTIVE = "active"
    DONE = "done"
    ABANDONED = "abandoned"


class ExtendedProgress(BaseModel):
    """An extended action running across rounds (E1-E4)."""

    model_config = ConfigDict(defer_build=True)

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

    def progress_msg(self) -> Msg:
        """How far the action has got, rendered when shown."""
        if self.status is ExtendedStatus.DONE:
            return Msg(N_("done"))
        if self.status is ExtendedStatus.ABANDONED:
            return Msg(N_("abandoned"))
        if self.mode is ExtendedMode.SIMPLE:
            return lazy.ngettext("{counted}/{duration} asalto", "{counted}/{duration} asaltos",
                                 "duration", counted=self.rounds_counted,
                                 duration=self.duration)
        return lazy.ngettext("{successes}/{needed} successes, {counted}/{interval} asalto",
                             "{successes}/{needed} successes, {counted}/{interval} asaltos",
                             "interval", successes=self.successes,
                             needed=self.successes_needed, counted=self.rounds_counted,
                             interval=self.interval)

    def progress_text(self) -> str:
        return self.progress_msg().render()


class Body(Frozen):
    """A character's combat state of section H and C: G / W (H6), wounds (H8, H9) and
    conditions (C1). Frozen: the machine replaces it on every change (clones share it)."""

    counters: Counters = Field(default_factory=defaults(Counters))
    wounds: tuple[Wound, ...] = ()
    conditions: tuple[Condition, ...] = ()

    def wound(self, wound_id: int) -> Wound | None:
        return next((w for w in self.wounds if w.id == wound_id), None)

    def condition(self, condition_id: int) -> Condition | None:
        return next((c for c in self.conditions if c.id == condition_id), None)


EMPTY_BODY = trusted(Body)


class ProposalKind(StrEnum):
    HIT = "hit"  # H1: a hit read from an attack TA's dice
    THRESHOLD = "threshold"  # H7: inconsciente / muerto
    PREVENT = "prevent"  # H11: mark prevented (P4)


class Proposal(Frozen):
    """Something the tracker proposes and the DJ settles before the next step (H1, H7,
    H11), like a reaction prompt: accept (edited or not) or decline."""

    id: int
    kind: ProposalKind
    #: Who it is about: the target of a hit, the character of H7 / H11.
    character: str
    #: H1: the attacker, its action and weapon, and the TA's dice (None: the DJ decided
    #: the TA without a roll, so location and damage must be given).
    attacker: str | None = None
    action: str = ""
    weapon: Weapon | None = None
    dice: Dice | None = None
    damage_type: TipoId | None = None
    #: H1-H9 as read when the proposal was made (None without dice).
    reading: HitReading | None = None
    #: H11: the simultaneous group whose effects wait (None: outside a group).
    group: int | None = None
    #: H7: the condition proposed (inconsciente, muerto); H11: the condition that
    #: prevents (aturdido, inconsciente, muerto, desarmado).
    condition: str | None = None
    #: H11 (rules_v4): the id of the condition that prevents: the DJ's answer is about
    #: that condition only (C4: another that stops the action still does).
    condition_id: int | None = None
    #: Why (the H11 condition that prevents), for the log.
    reason: str = ""
    round: int = 0
    #: H7: the conditions proposed next if the DJ declines this one (one change that
    #: brings G and W to PV proposes muerto, then inconsciente).
    then: tuple[str, ...] = ()


def _message(value: Any) -> Msg:
    message = value if isinstance(value, Msg) else message_of_data(value)
    if not isinstance(message, Msg):
        raise invalid("state.message_expected", N_(
            'Input should be a message: an object with "template" and "params"'))
    return message


#: A message kept in the state (an i18n.Msg, rendered when shown): as JSON it is its
#: template and params, so the state dumps, and reads back, as data.
StoredMsg = Annotated[
    Msg,
    PlainValidator(_message),
    PlainSerializer(text_data, return_type=dict[str, Any]),
    WithJsonSchema({"type": "object", "properties": {"template": {"type": "string"},
                                                     "params": {"type": "object"}},
                    "required": ["template"]}),
]


class DeferredHit(Frozen):
    """H11: an accepted hit inside a simultaneous group, applied after the group (P3)."""

    proposal_id: int
    target: str
    group: int
    #: The wounds to apply, assessed (one per location).
    assessments: tuple[WoundAssessment, ...]
    cause: str
    #: The hit's words for the log (an i18n.Msg, rendered when shown; template and
    #: params in JSON, so a state with a waiting hit dumps, H11).
    text: StoredMsg


class PendingMark(Frozen):
    character: str
    mark: str


class Note(Frozen):
    """A note the DJ pinned to an asalto (issue 37): shown when its asalto begins and in
    the forecast before; a public one reaches the players' view then."""

    id: int
    round: int
    text: str
    character: str | None = None
    public: bool = False


class CombatState(BaseModel):
    """Everything the replay of the command history produces, except the log."""

    model_config = ConfigDict(defer_build=True)

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
    #: H1: the weapon each character last declared an action with, up to the end of
    #: the previous asalto (ask.weapon_for reads this asalto's declarations over it).
    last_weapons: dict[str, Weapon] = Field(default_factory=dict)
    #: Issue 39 item 2: each character's last own declaration with actions (D1, not a
    #: reacción), up to the end of the previous asalto: the declaration form repeats it.
    last_declared: dict[str, Declaration] = Field(default_factory=dict)
    current: dict[str, int] = Field(default_factory=dict)
    #: Issue 39 item 3: the members of a group declaration still to declare this round,
    #: each when its turn comes (D1; emptied when the round's declarations begin).
    planned: dict[str, Planned] = Field(default_factory=dict)
    prompts: list[Prompt] = Field(default_factory=list)  # a stack: last is on top (D11)
    reactions_made: dict[str, int] = Field(default_factory=dict)
    locked: list[str] = Field(default_factory=list)  # failed an Alerta TA (D7)

    prevented: list[str] = Field(default_factory=list)  # P4, this round
    out: list[str] = Field(default_factory=list)  # P4, until brought back
    pending_marks: list[PendingMark] = Field(default_factory=list)  # P4 inside a group
    #: C4/P4: characters the DJ marked out by hand. A condition's end lifts only its own
    #: effect: this mark stays until the DJ brings the character back.
    hand_out: list[str] = Field(default_factory=list)
    #: C4: conditions (ids) begun inside a simultaneous group's turn on a member of that
    #: group: they affect the group's members only after the group (P3, P4, H11).
    held_conditions: list[int] = Field(default_factory=list)
    #: H11: characters whose pending round action the DJ let stand (declined prevented)
    #: in this round phase: a condition begun this round does not skip it (C4).
    acts_despite: list[str] = Field(default_factory=list)
    #: H11 (rules_v4): conditions (ids) whose "prevented?" the DJ declined this round:
    #: the round action stands against each of them, and only them (C4).
    excused: list[int] = Field(default_factory=list)
    #: C4/H10 (rules_v4): wounds (ids) begun inside a simultaneous group's turn on a
    #: member of that group: their grades weigh on the members only after the group.
    held_wounds: list[int] = Field(default_factory=list)

    steps: list[Step] = Field(default_factory=list)
    extended: list[ExtendedProgress] = Field(default_factory=list)
    next_id: int = 1

    #: H6-H9, C1: each character's counters, wounds and conditions (absent: untouched).
    bodies: dict[str, Body] = Field(default_factory=dict)
    #: H1, H7, H11: open proposals, settled before the next step (oldest first).
    proposals: list[Proposal] = Field(default_factory=list)
    #: H11: hits accepted inside a simultaneous group, applied once it has acted.
    deferred_hits: list[DeferredHit] = Field(default_factory=list)

    #: Issue 23: characters out of the players' view, and until when (absent: shown).
    concealed: dict[str, Concealment] = Field(default_factory=dict)
    #: Issue 37: the DJ's notes pinned to asaltos, in the order added.
    notes: list[Note] = Field(default_factory=list)
    #: Issue 38: what the encounter's characters brought from an earlier one (said in
    #: the log when the combat starts); None: nothing.
    carried: Carried | None = None

    #: name -> position in `characters`; rebuilt whenever it is found stale.
    _index: dict[str, int] = PrivateAttr(default_factory=dict)
    #: (the steps list, n): every step of that list before position n is done or
    #: skipped. Steps only ever leave the pending status, and each phase builds a new
    #: list, so the scan for the first pending step resumes there (see _first_pending).
    _pending_from: tuple[list[Step], int] | None = PrivateAttr(default=None)
    #: (declaration_order, current, its length, n): the first n names of that order have
    #: declared. Within a round declarations only accumulate (each round makes a new
    #: order and a new `current`; the one removal from `current` also shortens the
    #: order), so the search for the next declarer resumes there (see next_declarer).
    _declared_prefix: tuple[list[str], dict[str, int], int, int] | None = PrivateAttr(
        default=None)
    #: (declaration_order, its length, name -> position), rebuilt when the order is
    #: replaced (each round) or shortened (the only change made to it in place).
    _order_positions: tuple[list[str], int, dict[str, int]] | None = PrivateAttr(
        default=None)

    def _private(self) -> dict[str, Any]:
        # Read the private attributes' dict directly: going through pydantic's
        # __getattr__ costs microseconds, and the machine looks characters up constantly.
        private = self.__pydantic_private__
        assert private is not None
        return private

    def clone(self) -> CombatState:
        """A copy that shares the immutable parts (characters, declarations, prompts,
        results) and copies every container and mutable record: much cheaper than a
        deep copy, and just as independent, since the machine only mutates containers,
        pending steps and active extended progress (a finished step or extended action
        is never changed again, so it is shared too)."""
        cls = type(self)
        data = {name: _copy_value(value) for name, value in self.__dict__.items()}
        copy = cls.__new__(cls)
        # What model_construct does, without its per-call overhead (checkpoints, undo).
        object.__setattr__(copy, "__dict__", data)
        object.__setattr__(copy, "__pydantic_fields_set__", set(self.__pydantic_fields_set__))
        object.__setattr__(copy, "__pydantic_extra__", None)
        object.__setattr__(copy, "__pydantic_private__",
                           {"_index": dict(self._private()["_index"]), "_pending_from": None,
                            "_declared_prefix": None, "_order_positions": None})
        return copy

    def checkpoint(self, previous: CombatState | None) -> CombatState:
        """A copy to keep and never change (the history's checkpoints, issue 24): a
        clone in which every container and record equal to `previous`'s (an earlier
        checkpoint, never changed either) is `previous`'s own, so checkpoints share
        what did not change between them. Used only through clone(), which copies
        whatever the machine may change, so the sharing is never seen."""
        copy = self.clone()
        if previous is not None:
            data = copy.__dict__
            old = previous.__dict__
            for name, value in data.items():
                data[name] = _shared(value, old.get(name))
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
        private = self._private()
        index: dict[str, int] = private["_index"]
        position = index.get(name)
        if position is not None and position < len(characters) and \
                characters[position].name == name:
            return characters[position]
        index = {character.name: i for i, character in enumerate(characters)}
        private["_index"] = index
        position = index.get(name)
        return None if position is None else characters[position]

    def body(self, name: str) -> Body:
        """H6, C1: the character's counters, wounds and conditions."""
        return self.bodies.get(name, EMPTY_BODY)

    def active_conditions(self, name: str) -> list[Condition]:
        """C4: the conditions in effect on `name` in the current round."""
        return [c for c in self.body(name).conditions if c.active_in(self.round)]

    def proposal(self, proposal_id: int) -> Proposal | None:
        return next((p for p in self.proposals if p.id == proposal_id), None)

    def declaration_of(self, name: str) -> Declaration | None:
        declaration_id = self.current.get(name)
        return None if declaration_id is None else self.declarations[declaration_id]

    def table_rolls(self, name: str) -> bool:
        """True when the table rolls `name`'s TAs (their side's setting): the dialogs
        then ask for the typed dice instead of rolling on Enter."""
        character = self.character(name)
        return character is not None and self.settings.table_rolls(character.side)

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
        order, current = self.declaration_order, self.current
        size = len(order)
        private = self._private()
        known: tuple[list[str], dict[str, int], int, int] | None = private["_declared_prefix"]
        start = (known[3] if known is not None and known[0] is order and known[1] is current
                 and known[2] == size else 0)
        while start < size and order[start] in current:
            start += 1
        private["_declared_prefix"] = (order, current, size, start)
        for position in range(start, size):
            name = order[position]
            if name in current or name in self.out or self.character(name) is None:
                continue
            return name
        return None

    def declaration_position(self, name: str) -> int | None:
        """`name`'s position in the declaration order (I3), None if not in it."""
        order = self.declaration_order
        private = self._private()
        known: tuple[list[str], int, dict[str, int]] | None = private["_order_positions"]
        if known is None or known[0] is not order or known[1] != len(order):
            positions: dict[str, int] = {}
            for position, each in enumerate(order):
                positions.setdefault(each, position)  # the first, as list.index
            known = (order, len(order), positions)
            private["_order_positions"] = known
        return known[2].get(name)

    def declarers_after(self, name: str | None) -> list[str]:
        """Characters still to declare after `name`, in declaration order."""
        waiting = [n for n in self.declaration_order
                   if n not in self.current and n not in self.out
                   and self.character(n) is not None]
        if name in waiting:
            return waiting[waiting.index(name) + 1:]
        return waiting

    # Steps are built in action order (I4), so the steps of a simultaneous group are
    # contiguous and groups ascend; the queries below rely on that to stop early.

    def _first_pending(self) -> int:
        """Position of the first pending step (len(steps) when none is pending)."""
        steps = self.steps
        private = self._private()
        known: tuple[list[Step], int] | None = private["_pending_from"]
        position = known[1] if known is not None and known[0] is steps else 0
        size = len(steps)
        while position < size and steps[position].status is not StepStatus.PENDING:
            position += 1
        private["_pending_from"] = (steps, position)
        return position

    def pending_steps(self) -> list[Step]:
        steps = self.steps
        return [steps[i] for i in range(self._first_pending(), len(steps))
                if steps[i].status is StepStatus.PENDING]

    def current_group(self) -> list[Step]:
        """Pending steps of the simultaneous group that acts now (P3)."""
        steps = self.steps
        size = len(steps)
        position = self._first_pending()
        if position == size:
            return []
        group = steps[position].group
        found: list[Step] = []
        while position < size:
            step = steps[position]
            if step.group != group:
                break
            if step.status is StepStatus.PENDING:
                found.append(step)
            position += 1
        return found

    def group_pending(self, group: int) -> bool:
        """True while some step of simultaneous group `group` is still pending."""
        steps = self.steps
        for position in range(self._first_pending(), len(steps)):
            step = steps[position]
            if step.group > group:
                break
            if step.group == group and step.status is StepStatus.PENDING:
                return True
        return False

    def group_in_progress(self) -> bool:
        """True once the acting group's turn has come (P4): a member has made its TA (or
        automatic action) at the group's place in action order. Skipped steps do not
        count, nor a TA a member made earlier as an opponent in an opposition (O2, `early`):
        marks made before the group's turn apply at once to all."""
        steps = self.steps
        first = self._first_pending()
        if first == len(steps):
            return False
        group = steps[first].group
        done = StepStatus.DONE
        position = first - 1
        while position >= 0 and steps[position].group == group:
            if steps[position].status is done and not steps[position].early:
                return True
            position -= 1
        for position in range(first + 1, len(steps)):
            step = steps[position]
            if step.group != group:
                break
            if step.status is done and not step.early:
                return True
        return False

    def acting_group_members(self) -> list[str]:
        """Everyone with a step in the simultaneous group that acts now (P3), whether
        still pending or not; empty when no step is pending."""
        steps = self.steps
        first = self._first_pending()
        if first == len(steps):
            return []
        group = steps[first].group
        return list(dict.fromkeys(step.character for step in steps if step.group == group))

    def effective_conditions(self, name: str) -> tuple[Condition, ...]:
        """C4: `name`'s conditions less those held for its simultaneous group's turn."""
        conditions = self.body(name).conditions
        held = self.held_conditions
        if not held or not conditions:
            return conditions
        return tuple(cond for cond in conditions if cond.id not in held)

    def effective_wounds(self, name: str) -> tuple[Wound, ...]:
        """C4/H10: `name`'s wounds less those held for its simultaneous group's turn."""
        wounds = self.body(name).wounds
        held = self.held_wounds
        if not held or not wounds:
            return wounds
        return tuple(wound for wound in wounds if wound.id not in held)

    def group_started(self, group: int) -> bool:
        """True when the turn of group `group` or of a later group has come (P4): some
        step there is done at its own place (not `early`, in an earlier opposition)."""
        return any(step.group >= group and step.status is StepStatus.DONE and not step.early
                   for step in self.steps)

    def extended_by_id(self, extended_id: int) -> ExtendedProgress | None:
        for progress in self.extended:
            if progress.id == extended_id:
                return progress
        return None

    def step_gd(self, step: Step) -> int:
        """The GD a step rolls at before any extra: its action's, or for an extended
        action the GD the DJ set for its later TAs (E3, E4)."""
        if step.extended_id is not None:
            progress = self.extended_by_id(step.extended_id)
            if progress is not None:
                return progress.gd
        return self.step_action(step).gd

    def step_action(self, step: Step) -> Action:
        if step.extended_id is not None:
            progress = self.extended_by_id(step.extended_id)
            assert progress is not None
            return progress.action
        declaration = self.declaration_of(step.character)
        assert declaration is not None and step.action_index is not None
        return declaration.actions[step.action_index]


_Model = TypeVar("_Model", bound=BaseModel)
_set = object.__setattr__


def _copy_record(value: _Model) -> _Model:
    """`value.model_copy()` for a plain record (no private attributes, no extras),
    without the generic machinery: checkpoints copy thousands of these."""
    copy = object.__new__(type(value))
    _set(copy, "__dict__", value.__dict__.copy())
    _set(copy, "__pydantic_fields_set__", set(value.__pydantic_fields_set__))
    _set(copy, "__pydantic_extra__", None)
    _set(copy, "__pydantic_private__", None)
    return copy


def _copy_value(value: Any) -> Any:
    """A field's value for a clone. Fields hold homogeneous containers, so the first
    item says what the rest are: finished steps and extended actions are never changed
    again and are shared, pending and active ones are copied; frozen records, names and
    numbers are shared; other mutable records are copied."""
    if isinstance(value, list):
        if not value:
            return []
        first = value[0]
        if isinstance(first, Step):
            pending = StepStatus.PENDING
            return [_copy_record(step) if step.status is pending else step for step in value]
        if isinstance(first, ExtendedProgress):
            active = ExtendedStatus.ACTIVE
            return [_copy_record(progress) if progress.status is active else progress
                    for progress in value]
        if _mutable(first):
            return [_copy_record(item) for item in value]
        return list(value)
    if isinstance(value, dict):
        if value and _mutable(next(iter(value.values()))):
            return {key: _copy_record(item) for key, item in value.items()}
        return dict(value)
    return _copy_record(value) if _mutable(value) else value


def _shared(value: Any, old: Any) -> Any:
    """`value`, or `old` (its counterpart in an earlier checkpoint) where they are equal:
    a container whose items are all old's is old itself; a record equal to old's is
    old's (records in checkpoints are never changed)."""
    if value is old:
        return old
    if isinstance(value, list) and isinstance(old, list):
        items = [_shared_item(new, previous) for new, previous in zip(value, old, strict=False)]
        if len(value) == len(old) and all(a is b for a, b in zip(items, old, strict=True)):
            return old
        return items + value[len(old):]
    if isinstance(value, dict) and isinstance(old, dict):
        shared = {key: _shared_item(item, old.get(key)) for key, item in value.items()}
        if len(shared) == len(old) and all(item is old.get(key)
                                            for key, item in shared.items()):
            return old
        return shared
    return _shared_item(value, old)


def _shared_item(value: Any, old: Any) -> Any:
    # What clone() shares is shared by both checkpoints already (the same object);
    # only the records it copies (mutable ones) are worth comparing.
    if value is old or type(value) is not type(old) or not _mutable(value):
        return value
    return old if value == old else value


def _mutable(value: Any) -> bool:
    return isinstance(value, BaseModel) and not value.model_config.get("frozen", False)
