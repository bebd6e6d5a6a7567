"""Characters, settings, actions and the encounter as it is set up (I1-I4, D1, E1-E4)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum
from typing import Annotated, Any, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from sombra_tui.engine.conditions import ActionScope, BodySide, Condition
from sombra_tui.engine.dice import DEFAULT_POINTS_PER_GD
from sombra_tui.engine.errors import invalid
from sombra_tui.engine.frozen import Frozen, defaults
from sombra_tui.engine.i18n import N_, MessageDataError, Msg, _, text_from_data
from sombra_tui.engine.wounds import (
    MAX_POINTS,
    MAX_PROTECTION,
    MAX_RESISTENCIA,
    Counters,
    Location,
    Weapon,
    Wound,
    WoundSettings,
)

# Every list and dict below validates with fail_fast: a file holding a million wrong
# entries is refused at the first, not after a million error reports (issue 9).

MAX_STAT = 999
MAX_GD = 20
NAME_MAX = 40
#: H6: Resistencia of a character that has none (every character of a version-1 file).
DEFAULT_RESISTENCIA = 5
#: At most this many characters from one sheet at once ("12 Matón").
MAX_COPIES = 50


def name_clashes(names: Iterable[str], taken: Iterable[str] = ()) -> list[str]:
    """The `names`, in order, that are already `taken` or repeat an earlier one.

    Names are unique in an encounter whatever their case ("Ana" and "ana" clash).
    """
    seen = {name.casefold() for name in taken}
    clashes: list[str] = []
    for name in names:
        key = name.casefold()
        if key in seen:
            clashes.append(name)
        seen.add(key)
    return clashes


_NUMBERED = re.compile(r"^(?P<base>.*\S)\s+(?P<number>\d+)$")


def name_base(name: str) -> str:
    """"Matón 3" -> "Matón"; a name without a trailing number is its own base."""
    match = _NUMBERED.match(name.strip())
    return match.group("base") if match else name.strip()


def numbered_names(base: str, count: int, taken: Iterable[str]) -> list[str]:
    """`count` names "base N" numbered after the highest one already `taken`.

    "Matón" with nobody called so gives Matón 1 ... Matón count; with Matón 1-4 in
    the encounter, Matón 5 on; a plain "Ana" counts as number 1, so her copy is "Ana 2".
    """
    base = name_base(base)
    key = base.casefold()
    highest = 0
    for name in taken:
        if name.strip().casefold() == key:
            highest = max(highest, 1)
            continue
        match = _NUMBERED.match(name.strip())
        if match and match.group("base").casefold() == key:
            highest = max(highest, int(match.group("number")))
    return [f"{base} {highest + i}" for i in range(1, count + 1)]


class Side(StrEnum):
    PC = "PC"
    NPC = "NPC"


class Gender(StrEnum):
    """A character's grammatical gender: Spanish makes the words about them agree
    ("Ana queda impedida", "Bruno está aturdido"). English says the same for both."""

    FEMENINO = "femenino"
    MASCULINO = "masculino"

    @property
    def label(self) -> str:
        return {Gender.FEMENINO: N_("feminine"), Gender.MASCULINO: N_("masculine")}[self]


#: Names ending in -a that are masculine (the guess's exceptions), casefolded.
MASCULINE_IN_A = frozenset({"luca", "nikola", "andrea", "joshua", "borja", "garcía", "ezra",
                            "elia", "bautista", "sasha", "misha", "kosta", "jonah", "noa",
                            "pirata",
                            "gorila"})
#: Names that do not end in -a and are feminine, casefolded.
FEMININE_NOT_IN_A = frozenset({"carmen", "isabel", "raquel", "pilar", "mercedes", "dolores",
                               "rocío", "beatriz", "inés", "luz", "sol", "consuelo", "ruth",
                               "esther", "nieves", "abigail", "ingrid", "miriam", "belén",
                               "maribel", "rosario", "montserrat", "leonor", "noemí",
                               "guardiana", "bruja", "reina", "sacerdotisa", "matrona"})


def guess_gender(name: str) -> Gender:
    """The gender a new character gets from `name` until the DJ says otherwise: the first
    word decides ("Ana 2" and "Marta la Roja" by "Ana" and "Marta"); it is feminine when
    it ends in -a, unless it is in MASCULINE_IN_A ("Luca", "Borja"), or when it is in
    FEMININE_NOT_IN_A ("Carmen", "Isabel"); everything else is masculine."""
    words = name_base(name).split()
    first = words[0].casefold() if words else ""
    if first in FEMININE_NOT_IN_A:
        return Gender.FEMENINO
    if first.endswith(("a", "á")) and first not in MASCULINE_IN_A:
        return Gender.FEMENINO
    return Gender.MASCULINO


class Character(Frozen):
    """A combatant. Names are unique in the encounter and identify it everywhere."""

    name: str = Field(min_length=1, max_length=NAME_MAX)
    side: Side = Side.NPC
    primaria: int = Field(ge=0, le=MAX_STAT, description="iniciativa primaria (I1)")
    secundaria: int = Field(ge=0, le=MAX_STAT, description="iniciativa secundaria (I1)")
    alerta: int = Field(ge=0, le=MAX_STAT, description="target of reaction TAs (D6)")
    skills: dict[str, int] = Field(default_factory=dict, fail_fast=True)
    notes: str = ""
    #: H6/H8: Resistencia (5 for characters of version-1 files).
    resistencia: int = Field(DEFAULT_RESISTENCIA, ge=1, le=MAX_RESISTENCIA,
                             description="Resistencia (H6, H8)")
    #: H6: the character's own PV; None: multiplier x Resistencia.
    pv: int | None = Field(None, ge=1, le=MAX_POINTS, description="own PV (H6)")
    #: H10: the arm an action uses unless the DJ says otherwise.
    main_arm: BodySide = BodySide.RIGHT
    #: H5: protection per location (absent: 0).
    protection: dict[Location, int] = Field(default_factory=dict)
    #: H1: the character's weapons; `default_weapon` indexes the one attacks use first.
    weapons: list[Weapon] = Field(default_factory=list, max_length=20)
    default_weapon: int = Field(0, ge=0)
    #: Spanish agreement ("queda impedida"); absent (older files, a new sheet): guessed
    #: from the name (guess_gender), the DJ may change it on the sheet.
    gender: Gender = Field(Gender.MASCULINO, description="grammatical gender; absent: "
                           "guessed from the name")

    @model_validator(mode="before")
    @classmethod
    def _gender_from_name(cls, data: object) -> object:
        if isinstance(data, dict) and data.get("gender") is None and \
                isinstance(data.get("name"), str):
            return {**data, "gender": guess_gender(data["name"])}
        return data

    @field_validator("name")
    @classmethod
    def _clean_name(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise invalid("model.character_needs_name", N_("a character needs a name"))
        return value

    @field_validator("skills")
    @classmethod
    def _check_skills(cls, value: dict[str, int]) -> dict[str, int]:
        for skill, score in value.items():
            if not skill.strip():
                raise invalid("model.skill_needs_name", N_("a skill needs a name"))
            if not 0 <= score <= MAX_STAT:
                raise invalid("model.skill_must_be_from", N_("skill {skill} must be from 0 "
                                                             "to {max}, not {score}"),
                              skill=repr(skill), max=MAX_STAT, score=score)
        return value

    def skill_value(self, skill: str) -> int | None:
        """The value of the skill called `skill`, whatever its case (T2), or None."""
        wanted = skill.casefold()
        for name, value in self.skills.items():
            if name.casefold() == wanted:
                return value
        return None

    @field_validator("protection")
    @classmethod
    def _check_protection(cls, value: dict[Location, int]) -> dict[Location, int]:
        for location, points in value.items():
            if not 0 <= points <= MAX_PROTECTION:
                raise invalid("model.protection_range", N_("protection of the {location} must "
                                                           "be from 0 to {max}, not {points}"),
                              location=_(location.label), max=MAX_PROTECTION, points=points)
        return value

    @model_validator(mode="after")
    def _default_weapon_exists(self) -> Self:
        if self.default_weapon and self.default_weapon >= len(self.weapons):
            raise invalid("model.default_weapon_missing", N_("the default weapon is number "
                                                             "{number}, but {name} has {count} "
                                                             "weapons"),
                          number=self.default_weapon + 1, name=self.name,
                          count=len(self.weapons))
        return self

    @property
    def weapon(self) -> Weapon | None:
        """H1: the default weapon, None without weapons."""
        return self.weapons[self.default_weapon] if self.weapons else None

    def weapon_index(self, skill: str = "", last: Weapon | None = None) -> int | None:
        """H1: the weapon an action starts with. With a skill: the weapon used with it
        (`last`, the weapon last declared, if it is one of those), and none when no
        weapon names that skill (running is no shot). Without a skill: `last` (the same,
        else one of its name), else the default. None without weapons."""
        if not self.weapons:
            return None
        if skill.strip():
            named = [index for index, weapon in enumerate(self.weapons)
                     if weapon.used_with(skill)]
            if last is not None and (index := self._index_of(last, named)) is not None:
                return index
            return named[0] if named else None
        if last is not None and (index := self._index_of(last)) is not None:
            return index
        return self.default_weapon

    def _index_of(self, weapon: Weapon, among: list[int] | None = None) -> int | None:
        """The index of `weapon` among `among` (all by default): the same weapon, else
        one of its name (the sheet changed since it was declared)."""
        indices = range(len(self.weapons)) if among is None else among
        for index in indices:
            if self.weapons[index] == weapon:
                return index
        for index in indices:
            if self.weapons[index].name.casefold() == weapon.name.casefold():
                return index
        return None


class DiceSource(StrEnum):
    """Who rolls a side's TAs: the table (players type the dice they rolled) or the
    tracker (seeded rolls, T6). Typed dice are always accepted either way."""

    TABLE = "table"
    TRACKER = "tracker"


class WoundView(StrEnum):
    """How the players' view shows a side's wounds (issue 23)."""

    NUMBERS = "numbers"  # G, W and PV
    WORDS = "words"  # ileso, herido, grave, fuera de combate
    HIDDEN = "hidden"  # not at all


class DeclarationView(StrEnum):
    """When the players' view shows a side's declarations (issue 23)."""

    AS_MADE = "as_made"
    AFTER_PHASE = "after_phase"  # once the declaration phase ends


class SideView(Frozen):
    """What the players see of one side's characters (issue 23)."""

    wounds: WoundView = WoundView.NUMBERS
    declarations: DeclarationView = DeclarationView.AS_MADE
    #: Characters of this side added from now on stay out of the players' view until
    #: they first act (their first TA); the DJ reveals or hides anyone at any time.
    hidden_until_acts: bool = False


class PlayerViewSettings(Frozen):
    """The DJ's choices for the players' view, per side (issue 23). The defaults show
    PCs' wounds as numbers and NPCs' as words, every declaration as it is made, and
    nobody hidden."""

    pc: SideView = Field(default_factory=defaults(SideView))
    npc: SideView = Field(default_factory=defaults(SideView, wounds=WoundView.WORDS))
    #: Issue 37 item 3: a PC prompted to react sees its own chances, combining and
    #: substituting (never an NPC's: they would tell its Alerta).
    reaction_odds: bool = False

    def side(self, side: Side) -> SideView:
        return self.pc if side is Side.PC else self.npc


class Settings(Frozen):
    """Encounter settings (D3, T3, T4, I2) and who rolls each side's dice (T6)."""

    reaccion: bool = Field(True, description="reaction prompts on (D3)")
    niveles_de_calidad: bool = Field(True, description="quality levels on (T4)")
    iniciativa_variable: bool = Field(False, description="1d10 on primaria, first round (I2)")
    points_per_gd: int = Field(DEFAULT_POINTS_PER_GD, ge=1, le=20,
                               description="points per difficulty grade (T3)")
    #: Section H's settings (H2, H3, H6, H8, H9), one nested model.
    wounds: WoundSettings = Field(default_factory=defaults(WoundSettings))
    pc_dice: DiceSource = Field(DiceSource.TABLE, description="who rolls the PCs' TAs")
    npc_dice: DiceSource = Field(DiceSource.TRACKER, description="who rolls the NPCs' TAs")
    #: What the players' view shows (issue 23); absent in older files: the defaults.
    players: PlayerViewSettings = Field(default_factory=defaults(PlayerViewSettings))
    #: Oppositions as format version 3 reads them: an opposed action declared against a
    #: character makes that character's own plain action (aimed at the declarer, or at
    #: nobody) its other side, rolled when the first of them acts (O2/O3 with I4); a
    #: dodge that names a weapon proposes no hit (O4, H1). Off only for histories of
    #: format version 2 and journals of version 1, played the earlier way and replayed
    #: so (storage._v2_to_v3); not a setting the DJ changes.
    oppositions_v3: bool = True
    #: RULES.md's fourth pass, as format version 4 reads it: P4's marks during a
    #: simultaneous group's turn (only members' wait), C4's and H11's timing (a condition
    #: that stops an action acts whatever the DJ answered about another; H11 in every
    #: phase), O3's conditioned action whose partner aims at others (its own TA) and O5's
    #: unable opponents. Off only for histories of format version 3 or earlier (and
    #: journals of version 2 or earlier), played the earlier way and replayed so
    #: (storage._v3_to_v4); not a setting the DJ changes.
    rules_v4: bool = True
    #: Issue 38: how long an asalto lasts, in seconds, to count the time between scenes
    #: in minutes (the rules give none: the DJ fills it in); None: not said.
    asalto_seconds: int | None = Field(None, ge=1, le=3600,
                                       description="length of an asalto in seconds")

    def dice_source(self, side: Side) -> DiceSource:
        return self.pc_dice if side is Side.PC else self.npc_dice

    def table_rolls(self, side: Side) -> bool:
        """True when the players type this side's dice: Enter then asks for them."""
        return self.dice_source(side) is DiceSource.TABLE


class ActionKind(StrEnum):
    AUTOMATIC = "automatic"
    INSTANT = "instant"
    ROUND = "round"
    EXTENDED = "extended"


class ExtendedMode(StrEnum):
    SIMPLE = "simple"
    COMPLEX = "complex"


class ExtendedSpec(Frozen):
    """Parameters of an extended action (E2 simple: duration; E3 complex: S every K)."""

    mode: ExtendedMode = ExtendedMode.SIMPLE
    duration: int = Field(1, ge=1, le=999, description="E2: rounds until the TA")
    successes: int = Field(1, ge=1, le=999, description="E3: successes required")
    interval: int = Field(1, ge=1, le=999, description="E3: rounds between TAs")


class OppositionMode(StrEnum):
    DIRECT = "direct"  # O2
    CONDITIONED = "conditioned"  # O3


class Role(StrEnum):
    CONDITIONING = "conditioning"
    CONDITIONED = "conditioned"


class Reading(StrEnum):
    """How the DJ reads a conditioned outcome (O4)."""

    GENERIC = "generic"
    ATTACK = "attack"  # attack (conditioning) vs dodge (conditioned)
    STEALTH = "stealth"  # stealth (conditioning) vs perception (conditioned)


class Opposition(Frozen):
    mode: OppositionMode
    against: list[str] = Field(min_length=1, fail_fast=True)
    role: Role = Role.CONDITIONING
    reading: Reading = Reading.GENERIC


#: H1: how the log and the panel name the weapon of an attack (the players' view leaves
#: it out: a sheet's weapon is the DJ's).
ATTACK_WITH = N_("with {weapon}")

_KIND_TAGS = {ActionKind.AUTOMATIC: N_("auto"), ActionKind.INSTANT: N_("inst"),
              ActionKind.ROUND: N_("asalto"), ActionKind.EXTENDED: N_("ext")}


class Action(Frozen):
    """One action inside a declaration (D1)."""

    kind: ActionKind = ActionKind.ROUND
    description: str = Field(min_length=1, max_length=200)
    skill: str = ""
    #: Value to roll under (T2); None: taken from the character's skill at resolution.
    target: int | None = Field(None, ge=0, le=MAX_STAT)
    gd: int = Field(0, ge=-MAX_GD, le=MAX_GD)
    #: Characters the action is aimed at; they pre-fill the affected list (D2).
    targets: list[str] = Field(default_factory=list, fail_fast=True)
    extended: ExtendedSpec | None = None
    #: O2/O3; None (the default) is O1: independent, resolved on its own.
    opposition: Opposition | None = None
    #: H1: an attack names a weapon (a copy, so the declaration keeps its meaning if the
    #: sheet changes) and targets.
    weapon: Weapon | None = None
    #: H10: what the action uses; None: physical with the main arm.
    scope: ActionScope | None = None

    @field_validator("description")
    @classmethod
    def _clean_description(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise invalid("model.action_needs_description", N_("an action needs a description"))
        return value

    @model_validator(mode="after")
    def _kind_fits(self) -> Self:
        if self.kind is ActionKind.EXTENDED and self.extended is None:
            object.__setattr__(self, "extended", ExtendedSpec())
        if self.kind is not ActionKind.EXTENDED and self.extended is not None:
            raise invalid("model.only_extended_action_has", N_("only an extended action has "
                                                               "extended parameters"))
        if self.kind is ActionKind.AUTOMATIC and self.opposition is not None:
            raise invalid("model.automatic_action_cannot_be", N_("an automatic action cannot be "
                                                                 "opposed (it never rolls)"))
        if self.kind is ActionKind.INSTANT and self.opposition is not None:
            raise invalid("model.opposed_actions_are_round", N_("opposed actions are round or "
                                                                "extended actions"))
        return self

    def summary_msg(self) -> Msg:
        """The action in a line, its kind's tag rendered when shown."""
        return Msg("{description} [{tag}]", description=self.description,
                   tag=Msg(_KIND_TAGS[self.kind]))

    def attack_msg(self) -> Msg | None:
        """H1: "with pistola" for an attack (a weapon and targets; a dodge is none), so
        the DJ reads in the log and the panel which actions will propose a hit."""
        if self.weapon is None or not self.is_attack or self.is_dodge:
            return None
        return Msg(ATTACK_WITH, weapon=self.weapon.name)

    @property
    def is_attack(self) -> bool:
        """H1: an action is an attack when it names a weapon and targets."""
        return self.weapon is not None and bool(self.targets)

    @property
    def is_dodge(self) -> bool:
        """O3/O4: the conditioned side of an attack, which avoids it, never hits."""
        opposition = self.opposition
        return (opposition is not None and opposition.mode is OppositionMode.CONDITIONED
                and opposition.role is Role.CONDITIONED
                and opposition.reading is Reading.ATTACK)

    def summary(self) -> str:
        return self.summary_msg().render()


#: Issue 38: at most this many asaltos between two scenes (a day at 1 s an asalto).
MAX_ASALTOS_BETWEEN = 86_400


class CarriedBody(Frozen):
    """A character's G / W, wounds and conditions brought from an earlier encounter
    (issue 38): rounds counted from this encounter's (0: before its round 1)."""

    counters: Counters = Field(default_factory=defaults(Counters))
    wounds: tuple[Wound, ...] = ()
    conditions: tuple[Condition, ...] = ()


def message_of_data(data: Any) -> Any:
    """`data` read back as i18n.text_from_data reads it (a Msg, a Join, or a value),
    for a model: what in it no message is refused (in a file: the lines carried on for
    the log, a pending hit's words), naming where in it and what is wrong, instead of
    failing when it is shown (S1)."""
    try:
        return text_from_data(data)
    except MessageDataError as error:
        at = ".".join(str(part) for part in error.at)
        if error.problem == "list":
            raise invalid("model.message_list", N_("{at} should be a list of messages"),
                          at=at) from None
        if error.problem == "field":
            raise invalid("model.message_field", N_(
                "{at} holds {field}: a field of a message is a name alone, with no '.', "
                "'[' or width"), at=at, field=error.field) from None
        if at:
            raise invalid("model.message_part", N_(
                '{at} should be a message: an object with "template" and "params", or '
                'with "separator" and "items" for a list of messages'), at=at) from None
        raise invalid("model.message", N_(
            'Input should be a message: an object with "template" and "params", or with '
            '"separator" and "items" for a list of messages')) from None


def _said_line(line: dict[str, Any]) -> dict[str, Any]:
    message_of_data(line)
    return line


class Carried(Frozen):
    """Issue 38: where the characters come from and what they bring (engine/carry.py)."""

    #: The earlier encounter's name, and the asaltos played there.
    source: str = Field(max_length=200)
    asaltos: int = Field(0, ge=0)
    #: Asaltos passed between the two scenes (H9 and C3 ran over them).
    passed: int = Field(0, ge=0, le=MAX_ASALTOS_BETWEEN)
    bodies: dict[str, CarriedBody] = Field(default_factory=dict, fail_fast=True)
    #: What the time between did, as messages kept as data (i18n.text_data), logged
    #: when the combat starts: a line that is no message is refused (S1).
    said: tuple[Annotated[dict[str, Any], AfterValidator(_said_line)], ...] = ()


class Encounter(BaseModel):
    """An encounter as the DJ sets it up, before any command (S1)."""

    model_config = ConfigDict(defer_build=True)

    name: str = Field("Encuentro", min_length=1, max_length=80)
    settings: Settings = Field(default_factory=defaults(Settings))
    characters: list[Character] = Field(default_factory=list, fail_fast=True)
    seed: int = Field(0, ge=0)
    #: Issue 38: the state some characters bring from an earlier encounter (the party
    #: carried on); None: everyone starts unhurt. Absent in older files.
    carried: Carried | None = None

    @model_validator(mode="after")
    def _unique_names(self) -> Self:
        clashes = name_clashes(character.name for character in self.characters)
        if clashes:
            raise invalid("model.names_not_unique", N_("two characters are called {name}; "
                                                       "names must be unique"),
                          name=repr(clashes[0]))
        return self
