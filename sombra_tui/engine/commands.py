"""DJ commands: every action of the DJ is one of these, carrying its dice (S1).

Commands are plain data. The machine validates and applies them; the history
stores them, so undo, redo, save, load and replay all come from this list.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, TypeAdapter

from sombra_tui.engine.conditions import ActionScope, Condition
from sombra_tui.engine.dice import Dice
from sombra_tui.engine.frozen import Frozen
from sombra_tui.engine.model import (
    MAX_COPIES,
    MAX_GD,
    MAX_STAT,
    Action,
    CarriedBody,
    Character,
    Settings,
)
from sombra_tui.engine.state import ReactionMode
from sombra_tui.engine.wounds import (
    MAX_DAMAGE,
    MAX_POINTS,
    Consequences,
    LocatedDamage,
    Location,
    Severity,
    Wound,
)

#: Each model's validator is built on its first use, not at import (issue 24 item 5: the
#: first screen needs few of these; the commands are Frozen, which says so too).
_LAZY = ConfigDict(defer_build=True)
# Lists and dicts validate with fail_fast (see model.py): a bad file stops at its first
# wrong entry.


class AddCharacter(Frozen):
    """Add a character; one added mid-round joins the orders next round (I1-I4)."""

    type: Literal["add_character"] = "add_character"
    character: Character


class AddCharacters(Frozen):
    """Several characters with one sheet, as one step: "4 Matón" adds Matón 1 ... Matón 4
    (numbered after any Matón already there); a duplicated row is a count of 1.

    The names come from the state when applied (`model.numbered_names`), so a replay
    gives the same names."""

    type: Literal["add_characters"] = "add_characters"
    #: The sheet; its name (a trailing number dropped) is the base of the new names.
    character: Character
    count: int = Field(ge=1, le=MAX_COPIES)


class ImportCharacters(Frozen):
    """Add several characters from another encounter file (a party reused), as one step."""

    type: Literal["import_characters"] = "import_characters"
    characters: list[Character] = Field(min_length=1, fail_fast=True)
    source: str = ""
    #: Issue 38: what some of them bring from that encounter (G, W, wounds, conditions;
    #: rounds counted from this encounter's first asalto to come); absent: nothing.
    carried: dict[str, CarriedBody] = Field(default_factory=dict, fail_fast=True)


class EditCharacter(Frozen):
    """Replace a character's sheet; renaming only before the combat starts."""

    type: Literal["edit_character"] = "edit_character"
    name: str
    character: Character


class RemoveCharacter(Frozen):
    type: Literal["remove_character"] = "remove_character"
    name: str


class MoveCharacter(Frozen):
    """Change the DJ's order, which breaks full initiative ties (I3)."""

    type: Literal["move_character"] = "move_character"
    name: str
    position: int = Field(ge=0)


class ChangeSettings(Frozen):
    type: Literal["change_settings"] = "change_settings"
    settings: Settings


class RenameEncounter(Frozen):
    type: Literal["rename_encounter"] = "rename_encounter"
    name: str = Field(min_length=1, max_length=80)


class StartCombat(Frozen):
    """Open round 1. With iniciativa variable, the 1d10 of each character (I2)."""

    type: Literal["start_combat"] = "start_combat"
    initiative_rolls: dict[str, int] = Field(default_factory=dict, fail_fast=True)


class Declare(Frozen):
    """The current declarer's declaration (D1, D2); no actions is inaction."""

    type: Literal["declare"] = "declare"
    character: str
    actions: list[Action] = Field(default_factory=list, fail_fast=True)
    #: Directly affected characters (D2); None pre-fills them from the actions' targets.
    affected: list[str] | None = Field(None, fail_fast=True)


class DeclareGroup(Frozen):
    """Issue 39 item 3 (D1): one declaration for several characters of one side ("los 4
    Matones disparan a Tomás"), who declare one after another in declaration order.

    The machine expands it into each member's own Declare (`expanded`), made when that
    member's turn comes, after the prompts the one before it opened (D11): D, P and H
    apply to each exactly as if declared one by one. The history keeps this command,
    not the expansion: it is what the DJ did (one undo takes it back), and a replay
    expands it again the same way."""

    type: Literal["declare_group"] = "declare_group"
    characters: list[str] = Field(min_length=2, max_length=MAX_COPIES, fail_fast=True)
    actions: list[Action] = Field(default_factory=list, fail_fast=True)
    #: Directly affected (D2) for every member (each leaves itself out); None pre-fills
    #: each member's list from the actions' targets.
    affected: list[str] | None = Field(None, fail_fast=True)

    def expanded(self) -> list[Declare]:
        """The members' Declare commands, in the order given (each named once)."""
        return [Declare(character=name, actions=self.actions,
                        affected=None if self.affected is None
                        else [other for other in self.affected if other != name])
                for name in dict.fromkeys(self.characters)]


class React(Frozen):
    """Answer the open prompt with a reaction or counter-reaction (D5-D10)."""

    type: Literal["react"] = "react"
    character: str
    mode: ReactionMode
    actions: list[Action] = Field(min_length=1, fail_fast=True)
    affected: list[str] | None = Field(None, fail_fast=True)
    #: The Alerta TA's dice; None only with accept_without_roll (D12).
    dice: Dice | None = None
    base_gd: int = Field(0, ge=-MAX_GD, le=MAX_GD, description="D6 base, DJ's call")
    extra_gd: int = Field(0, ge=-MAX_GD, le=MAX_GD, description="D12 DJ grades")
    accept_without_roll: bool = False


class Decline(Frozen):
    """The prompted character does not react: no roll, no count, no lock (D4)."""

    type: Literal["decline"] = "decline"
    character: str


class DenyPrompt(Frozen):
    """DJ override: withdraw the open prompt (D12)."""

    type: Literal["deny_prompt"] = "deny_prompt"
    character: str


class AllowPrompt(Frozen):
    """DJ override: prompt `character` to react to `against`'s current declaration (D12)."""

    type: Literal["allow_prompt"] = "allow_prompt"
    character: str
    against: str


class Resolve(Frozen):
    """Resolve the character's next step in the current phase (P2, P3, P5, T7)."""

    type: Literal["resolve"] = "resolve"
    character: str
    dice: Dice | None = None
    target: int | None = Field(None, ge=0, le=MAX_STAT)
    extra_gd: int = Field(0, ge=-MAX_GD, le=MAX_GD)
    modifier: int = Field(0, ge=-MAX_STAT, le=MAX_STAT)
    #: D12: the DJ decides the outcome without a roll (True success, False failure).
    accept: bool | None = None


class OpposedRoll(Frozen):
    character: str
    dice: Dice
    #: Value to roll under and GD; None takes them from the character's opposing action.
    target: int | None = Field(None, ge=0, le=MAX_STAT)
    gd: int | None = Field(None, ge=-MAX_GD, le=MAX_GD)
    modifier: int = Field(0, ge=-MAX_STAT, le=MAX_STAT)


class ResolveOpposed(Frozen):
    """Resolve an opposed action when the first participant acts (O2, O3, E4)."""

    type: Literal["resolve_opposed"] = "resolve_opposed"
    character: str
    #: One TA per participant that can act (O2, P4); an out or prevented one rolls none.
    rolls: list[OpposedRoll] = Field(min_length=1, fail_fast=True)
    #: O3: grades given to the conditioned TA, + on a conditioning success, - on failure.
    condition_size: int = Field(1, ge=0, le=MAX_GD)
    #: T5: who wins an exact tie (the DJ breaks it).
    tie_winner: str | None = None
    #: The DJ's decision on any outcome, tie or not: each name wins every comparison it
    #: takes part in (O2 has one; O3 with several characters, one per pair at most).
    winners: list[str] = Field(default_factory=list, fail_fast=True)


class FreeTA(Frozen):
    """A TA the DJ asks of any character outside the steps: the sentinel's confirming TA
    of O4, a perception roll, first aid (T2). It changes no step; it is only logged."""

    type: Literal["free_ta"] = "free_ta"
    character: str
    #: What is rolled (a skill, capacity or attribute); names the target when none given.
    skill: str = Field("", max_length=80)
    #: Value to roll under (T2); None takes the character's value of `skill`.
    target: int | None = Field(None, ge=0, le=MAX_STAT)
    gd: int = Field(0, ge=-MAX_GD, le=MAX_GD)
    modifier: int = Field(0, ge=-MAX_STAT, le=MAX_STAT)
    #: Rolled by the tracker or typed by the DJ (T6).
    dice: Dice
    #: Why the DJ asks for it, for the log (e.g. "confirms the suspicion (O4)").
    label: str = Field("", max_length=120)
    #: H10: what the TA uses (None: physical, with the main arm); its wound and condition
    #: grades are added by the machine, as for any TA.
    scope: ActionScope | None = None


class Mark(StrEnum):
    PREVENTED = "prevented"
    OUT = "out"
    BACK = "back"  # brings an out character back
    UNPREVENT = "unprevent"


class SetMark(Frozen):
    """Mark a character prevented or out, or undo such a mark (P4)."""

    type: Literal["set_mark"] = "set_mark"
    character: str
    mark: Mark


class AdjustExtended(Frozen):
    """DJ adjustments of an extended action (E2 shorter retry, E3 S and GD)."""

    type: Literal["adjust_extended"] = "adjust_extended"
    extended_id: int
    duration: int | None = Field(None, ge=1, le=999)
    successes: int | None = Field(None, ge=1, le=999)
    interval: int | None = Field(None, ge=1, le=999)
    gd: int | None = Field(None, ge=-MAX_GD, le=MAX_GD)


class AbandonExtended(Frozen):
    type: Literal["abandon_extended"] = "abandon_extended"
    extended_id: int


class Advance(Frozen):
    """Go to the next phase, or the next round after the end of the round (P1, P6)."""

    type: Literal["advance"] = "advance"


# ------------------------------------------------------------- hits, wounds (H), conditions (C)


class AcceptHit(Frozen):
    """Settle an open hit proposal (H1): as read, or with any value the DJ changed
    first (H12); each given value wins over the dice and is logged as an override."""

    type: Literal["accept_hit"] = "accept_hit"
    proposal_id: int
    #: H2: an aimed attack's location.
    location: Location | None = None
    #: H1: a typed damage always wins over the formula (before protection, H5).
    damage: int | None = Field(None, ge=0, le=MAX_DAMAGE)
    lethal: bool | None = None
    #: H8: the DJ's severity.
    severity: Severity | None = None
    #: H9: the DJ's consequences.
    consequences: Consequences | None = None
    #: H4: tipo IV's (location, damage) list; values of one location add up.
    entries: list[LocatedDamage] | None = Field(None, min_length=1, max_length=10)


class DeclineHit(Frozen):
    """Decline an open hit proposal (cover, a narrative miss), logged (H1, H12)."""

    type: Literal["decline_hit"] = "decline_hit"
    proposal_id: int
    reason: str = Field("", max_length=120)


class ConfirmProposal(Frozen):
    """Confirm an H7 (inconsciente / muerto) or H11 (prevented) proposal."""

    type: Literal["confirm_proposal"] = "confirm_proposal"
    proposal_id: int


class DeclineProposal(Frozen):
    """Decline an H7 or H11 proposal: nothing changes, logged."""

    type: Literal["decline_proposal"] = "decline_proposal"
    proposal_id: int


class ManualHit(Frozen):
    """A hit the tracker did not roll (a fall, fire): assessed like a rolled one (H5-H9)
    and applied at once, in any phase; each given value wins (H12)."""

    type: Literal["manual_hit"] = "manual_hit"
    character: str
    location: Location
    damage: int = Field(ge=0, le=MAX_DAMAGE)
    lethal: bool = True
    severity: Severity | None = None
    consequences: Consequences | None = None
    #: H5: None applies the character's protection on that location.
    protection: int | None = Field(None, ge=0, le=99)
    cause: str = Field("", max_length=80)


class HealKind(StrEnum):
    GOLPE = "golpe"
    HERIDA = "herida"


class Heal(Frozen):
    """H12: the DJ heals N golpe or herida points (a herida point heals its golpe, H6)."""

    type: Literal["heal"] = "heal"
    character: str
    points: int = Field(ge=1, le=MAX_POINTS)
    kind: HealKind = HealKind.HERIDA


class AttendWound(Frozen):
    """H12: the wound is attended; its bleeding stops (and its sangrando goes)."""

    type: Literal["attend_wound"] = "attend_wound"
    character: str
    wound_id: int


class EditWound(Frozen):
    """H12: replace a wound (same id); the counters stay (SetCounters changes them)."""

    type: Literal["edit_wound"] = "edit_wound"
    character: str
    wound: Wound


class RemoveWound(Frozen):
    """H12: remove a wound (its conditions stay unless removed too); counters stay."""

    type: Literal["remove_wound"] = "remove_wound"
    character: str
    wound_id: int


class AddCondition(Frozen):
    """C2: add a built-in or the DJ's own condition; it begins in the current round (C3)
    and the machine gives it its id."""

    type: Literal["add_condition"] = "add_condition"
    character: str
    condition: Condition


class EditCondition(Frozen):
    """C2: replace a condition (same id)."""

    type: Literal["edit_condition"] = "edit_condition"
    character: str
    condition: Condition


class RemoveCondition(Frozen):
    type: Literal["remove_condition"] = "remove_condition"
    character: str
    condition_id: int


class SetCounters(Frozen):
    """H12: the DJ sets G and W directly (W <= G, H6)."""

    type: Literal["set_counters"] = "set_counters"
    character: str
    g: int = Field(ge=0, le=MAX_POINTS)
    w: int = Field(ge=0, le=MAX_POINTS)


# ------------------------------------------------------------- the players' view (issue 23)


class RevealCharacter(Frozen):
    """Show a hidden character in the players' view (an ambush sprung)."""

    type: Literal["reveal_character"] = "reveal_character"
    character: str


class HideCharacter(Frozen):
    """Take a character out of the players' view: until the DJ reveals it, or, with
    `until_acts`, until its first TA."""

    type: Literal["hide_character"] = "hide_character"
    character: str
    until_acts: bool = False


# ------------------------------------------------------- the DJ's notes (issue 37)

#: The longest note the DJ pins to an asalto.
NOTE_MAX = 200


class AddNote(Frozen):
    """Pin a note to an asalto ("the guards arrive"), about a character or none; a
    public note reaches the players' view when its asalto comes."""

    type: Literal["add_note"] = "add_note"
    round: int = Field(ge=1, le=9999)
    text: str = Field(min_length=1, max_length=NOTE_MAX)
    character: str | None = None
    public: bool = False


class EditNote(Frozen):
    """Change a note: every field as the DJ leaves it."""

    type: Literal["edit_note"] = "edit_note"
    note_id: int
    round: int = Field(ge=1, le=9999)
    text: str = Field(min_length=1, max_length=NOTE_MAX)
    character: str | None = None
    public: bool = False


class RemoveNote(Frozen):
    type: Literal["remove_note"] = "remove_note"
    note_id: int


Command = Annotated[
    AddCharacter
    | AddCharacters
    | ImportCharacters
    | EditCharacter
    | RemoveCharacter
    | MoveCharacter
    | ChangeSettings
    | RenameEncounter
    | StartCombat
    | Declare
    | DeclareGroup
    | React
    | Decline
    | DenyPrompt
    | AllowPrompt
    | Resolve
    | ResolveOpposed
    | FreeTA
    | SetMark
    | AdjustExtended
    | AbandonExtended
    | Advance
    | AcceptHit
    | DeclineHit
    | ConfirmProposal
    | DeclineProposal
    | ManualHit
    | Heal
    | AttendWound
    | EditWound
    | RemoveWound
    | AddCondition
    | EditCondition
    | RemoveCondition
    | SetCounters
    | RevealCharacter
    | HideCharacter
    | AddNote
    | EditNote
    | RemoveNote,
    Field(discriminator="type"),
]

# Validators are built on first use (defer_build, issue 24 item 5: a lean cold start).
COMMAND_ADAPTER: TypeAdapter[Command] = TypeAdapter(Command, config=_LAZY)
COMMAND_LIST_ADAPTER: TypeAdapter[list[Command]] = TypeAdapter(list[Command], config=_LAZY)
