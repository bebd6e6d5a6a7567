"""Conditions (estados) on a character: rules C1-C4, pure.

A condition has a name, a duration in asaltos (or none: until removed), a
source and effects (C1). The built-in ones are made by `builtin` (C2); C3 is
`Condition.last_round` and `end_of_round`; the C4 queries (`can_act`,
`can_react`, `is_out`) and the grades a condition adds to a TA (H10 scopes,
`condition_grades`) are read from the conditions active in a round. Nothing
here changes state: the machine keeps the list and applies the results.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Self

from pydantic import Field, field_validator, model_validator

from sombra_tui.engine.coded import CodedError
from sombra_tui.engine.errors import invalid
from sombra_tui.engine.frozen import Frozen, defaults
from sombra_tui.engine.i18n import N_, _

#: Largest grade a single effect may add (T3 stacks grades without a limit; this keeps typos out).
MAX_EFFECT_GD = 20
MAX_DURATION = 999
CONDITION_NAME_MAX = 40


class ConditionError(CodedError):
    """A condition the rules refuse (code "condition.*")."""


class BodySide(StrEnum):
    LEFT = "left"
    RIGHT = "right"


class ScopeKind(StrEnum):
    """Which TAs a grade applies to (H10, C1)."""

    #: Every TA, Alerta TAs included (a DJ condition such as cegado).
    ANY = "any"
    #: Physical actions (H10: the default for an action; Alerta TAs are not physical).
    PHYSICAL = "physical"
    #: Actions that use the arm of `side`.
    ARM = "arm"
    #: Actions that use the leg of `side`.
    LEG = "leg"


class ActionScope(Frozen):
    """What a TA's action uses, as H10 reads it: physical or not, which arms, which legs."""

    physical: bool = True
    arms: frozenset[BodySide] = frozenset()
    legs: frozenset[BodySide] = frozenset()

    @classmethod
    def default(cls, main_arm: BodySide = BodySide.RIGHT) -> Self:
        """H10: an action is physical and uses the main arm unless the DJ says otherwise."""
        return cls(physical=True, arms=frozenset({main_arm}))

    @classmethod
    def alerta(cls) -> Self:
        """H10: an Alerta TA (D6) is not physical and uses no limb."""
        return cls(physical=False)


class GdEffect(Frozen):
    """A grade added to the TAs of one scope (C1, H9, H10)."""

    scope: ScopeKind
    side: BodySide | None = None
    gd: int = Field(ge=-MAX_EFFECT_GD, le=MAX_EFFECT_GD)

    @model_validator(mode="after")
    def _side_fits_scope(self) -> Self:
        limb = self.scope in (ScopeKind.ARM, ScopeKind.LEG)
        if limb and self.side is None:
            raise invalid("conditions.grade_actions_needs_side", N_("a grade on {scope} actions "
                                                                    "needs a side (left/right)"),
                scope=self.scope.value)
        if not limb and self.side is not None:
            raise invalid("conditions.grade_actions_has_no", N_("a grade on {scope} actions has"
                                                                " no side"), scope=self.scope.value)
        return self

    def matches(self, action: ActionScope) -> bool:
        """H10: does a TA with this action scope carry this grade?"""
        if self.scope is ScopeKind.ANY:
            return True
        if self.scope is ScopeKind.PHYSICAL:
            return action.physical
        assert self.side is not None
        limbs = action.arms if self.scope is ScopeKind.ARM else action.legs
        return self.side in limbs

    def scope_label(self) -> str:
        if self.scope is ScopeKind.ANY:
            return N_("every TA")
        if self.scope is ScopeKind.PHYSICAL:
            return N_("physical actions")
        assert self.side is not None
        return _LIMB_LABELS[(self.scope, self.side)]


#: The msgids of a limb's grade (one string each, so that every language can order them).
_LIMB_LABELS = {
    (ScopeKind.ARM, BodySide.LEFT): N_("left arm"),
    (ScopeKind.ARM, BodySide.RIGHT): N_("right arm"),
    (ScopeKind.LEG, BodySide.LEFT): N_("left leg"),
    (ScopeKind.LEG, BodySide.RIGHT): N_("right leg"),
}


class ConditionEffects(Frozen):
    """C1: cannot act (D1), cannot react (D4), out (P4), grades by scope (H10)."""

    cannot_act: bool = False
    cannot_react: bool = False
    out: bool = False
    gd: tuple[GdEffect, ...] = ()


class SourceKind(StrEnum):
    WOUND = "wound"  # a consequence of a wound (H9)
    RULE = "rule"  # proposed by a rule and confirmed by the DJ (H7)
    DJ = "dj"  # added by the DJ


class ConditionSource(Frozen):
    """C1: where a condition came from."""

    kind: SourceKind = SourceKind.DJ
    wound_id: int | None = Field(None, ge=0)
    #: The rule id behind it ("H7", "H9"), for the log.
    rule: str | None = None

    @model_validator(mode="after")
    def _wound_has_id(self) -> Self:
        if self.kind is SourceKind.WOUND and self.wound_id is None:
            raise invalid("conditions.wound_without_id",
                          N_("a condition from a wound names the wound"))
        return self

    @classmethod
    def of_wound(cls, wound_id: int) -> Self:
        return cls(kind=SourceKind.WOUND, wound_id=wound_id, rule="H9")

    @classmethod
    def of_rule(cls, rule: str) -> Self:
        return cls(kind=SourceKind.RULE, rule=rule)


class Condition(Frozen):
    """C1: a condition on a character, begun in round `began` (0: before round 1)."""

    #: Identifies the condition in the character's list (edit/remove); the machine assigns it.
    id: int = Field(0, ge=0)
    name: str = Field(min_length=1, max_length=CONDITION_NAME_MAX)
    #: Duration in asaltos (C3); None: until removed.
    duration: int | None = Field(None, ge=1, le=MAX_DURATION)
    began: int = Field(0, ge=0)
    source: ConditionSource = Field(default_factory=defaults(ConditionSource))
    effects: ConditionEffects = Field(default_factory=defaults(ConditionEffects))
    #: Never expires and takes no duration (C2: muerto).
    permanent: bool = False
    #: Hours beyond the combat (H9: a grave head wound's inconsciente lasts the damage in hours).
    hours: int | None = Field(None, ge=0)

    @field_validator("name")
    @classmethod
    def _clean_name(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise invalid("conditions.condition_needs_name", N_("a condition needs a name"))
        return value

    @model_validator(mode="after")
    def _permanent_has_no_duration(self) -> Self:
        if self.permanent and self.duration is not None:
            raise invalid("conditions.never_expires_so_it", N_("{name} never expires, so it "
                                                               "takes no duration"), name=self.name)
        return self

    @property
    def last_round(self) -> int | None:
        """C3: the last round covered; "n asaltos" begun in round r covers r+1..r+n.

        Begun before round 1 (round 0) it covers rounds 1..n: counting from round 1.
        """
        if self.duration is None:
            return None
        return self.began + self.duration

    def covered_rounds(self) -> range | None:
        """C3: the whole asaltos the duration counts (None: until removed)."""
        last = self.last_round
        return None if last is None else range(self.began + 1, last + 1)

    def active_in(self, round_: int) -> bool:
        """C4: in effect during `round_` (from the moment it began until it ends)."""
        last = self.last_round
        return self.began <= round_ and (last is None or round_ <= last)

    def ends_at_end_of(self, round_: int) -> bool:
        """C3: it ends at the end of its last round (after the extended phase, P6)."""
        return not self.permanent and self.last_round == round_

    def rounds_left(self, current: int) -> int | None:
        """Covered rounds still to play in `current` or later (None: until removed)."""
        last = self.last_round
        if last is None:
            return None
        return max(0, last - max(current, self.began + 1) + 1)

    def duration_for_left(self, current: int, left: int) -> int:
        """C3 backwards: the duration that leaves `left` covered rounds to play in
        `current` or later (the inverse of `rounds_left`; the DJ edits "asaltos left").

        The last round covered is began + duration, and the rounds left are those still
        covered from `current` on (from began + 1 if it has not begun), so this reverses
        it. Raises ConditionError("condition.too_short") when that is under 1 asalto.
        """
        last = max(current, self.began + 1) + left - 1
        duration = last - self.began
        if duration < 1:
            raise ConditionError("condition.too_short",
                                 N_("At least 1 asalto: remove the condition to end it now."),
                                 params={"name": self.name, "left": left}, field="left")
        return duration


# ------------------------------------------------------------------- C2 built-ins

ATURDIDO = "aturdido"
INCONSCIENTE = "inconsciente"
DOLOR_INTENSO = "dolor intenso"
DESARMADO = "desarmado"
SANGRANDO = "sangrando"
MUERTO = "muerto"

BUILTIN_NAMES = (ATURDIDO, INCONSCIENTE, DOLOR_INTENSO, DESARMADO, SANGRANDO, MUERTO)


def counted_from(round_: int, round_over: bool) -> int:
    """C3: the asalto from which a condition's asaltos left are counted: the one in
    play, or the next once its actions are over (the end of the round), so that the
    count the DJ reads then is what the coming asaltos hold."""
    return round_ + 1 if round_over else round_


def builtin_effects(name: str, *, dolor_intenso_gd: int = 0) -> ConditionEffects:
    """C2: the effects of a built-in condition; dolor intenso's grade is a setting (H9)."""
    key = name.strip().casefold()
    if key == ATURDIDO:
        return ConditionEffects(cannot_act=True, cannot_react=True)
    if key in (INCONSCIENTE, MUERTO):
        return ConditionEffects(out=True)
    if key == DOLOR_INTENSO:
        gd = (GdEffect(scope=ScopeKind.PHYSICAL, gd=dolor_intenso_gd),) if dolor_intenso_gd else ()
        return ConditionEffects(gd=gd)
    if key in (DESARMADO, SANGRANDO):
        return ConditionEffects()
    raise ConditionError("condition.unknown_builtin",
                         N_("{name!r} is not a built-in condition; built in are {names}."),
                         params={"name": name, "names": ", ".join(BUILTIN_NAMES)})


class ConditionSpec(Frozen):
    """A built-in condition a rule wants to add (H9), before it has a round and a source."""

    name: str
    duration: int | None = Field(None, ge=1, le=MAX_DURATION)
    hours: int | None = Field(None, ge=0)

    def start(self, *, began: int, source: ConditionSource,
              dolor_intenso_gd: int = 0) -> Condition:
        return builtin(self.name, began=began, duration=self.duration, source=source,
                       hours=self.hours, dolor_intenso_gd=dolor_intenso_gd)


def builtin(name: str, *, began: int, duration: int | None = None,
            source: ConditionSource | None = None, hours: int | None = None,
            dolor_intenso_gd: int = 0, condition_id: int = 0) -> Condition:
    """C2: a built-in condition begun in round `began`; muerto never expires."""
    key = name.strip().casefold()
    effects = builtin_effects(key, dolor_intenso_gd=dolor_intenso_gd)
    permanent = key == MUERTO
    if permanent and duration is not None:
        raise ConditionError("condition.permanent",
                             N_("muerto never expires, so it takes no duration."),
                             params={"name": key})
    return Condition(id=condition_id, name=key, duration=duration, began=began,
                     source=source or ConditionSource(), effects=effects,
                     permanent=permanent, hours=hours)


# ------------------------------------------------------------------- C3 and C4 queries


def active(conditions: Iterable[Condition], round_: int) -> list[Condition]:
    return [c for c in conditions if c.active_in(round_)]


class Expiry(Frozen):
    """C3: what the end of a round leaves and what it ends (each expiry is logged)."""

    kept: tuple[Condition, ...]
    expired: tuple[Condition, ...]


def end_of_round(conditions: Sequence[Condition], round_: int) -> Expiry:
    """C3: at the end of `round_` (after the extended phase) every condition whose last
    covered round it is ends; the others stay, in order."""
    kept = tuple(c for c in conditions if not c.ends_at_end_of(round_))
    expired = tuple(c for c in conditions if c.ends_at_end_of(round_))
    return Expiry(kept=kept, expired=expired)


def preventing_action(conditions: Iterable[Condition], round_: int) -> list[Condition]:
    """C4/D1: the active conditions that leave only inaction (cannot act, or out)."""
    return [c for c in active(conditions, round_) if c.effects.cannot_act or c.effects.out]


def preventing_reaction(conditions: Iterable[Condition], round_: int) -> list[Condition]:
    """C4/D4: the active conditions that make a character not able to react."""
    return [c for c in active(conditions, round_) if c.effects.cannot_react or c.effects.out]


def making_out(conditions: Iterable[Condition], round_: int) -> list[Condition]:
    """C4/P4: the active conditions that put a character out."""
    return [c for c in active(conditions, round_) if c.effects.out]


def can_act(conditions: Iterable[Condition], round_: int) -> bool:
    """C4: False if only inaction may be declared (D1)."""
    return not preventing_action(conditions, round_)


def can_react(conditions: Iterable[Condition], round_: int) -> bool:
    """C4: False if D4's "able to act" fails, so D11 skips its prompts."""
    return not preventing_reaction(conditions, round_)


def is_out(conditions: Iterable[Condition], round_: int) -> bool:
    """C4: out is P4's mark."""
    return bool(making_out(conditions, round_))


def prevents_pending_action(condition: Condition) -> bool:
    """H11: a new aturdido, inconsciente, muerto or desarmado proposes "prevented" (P4)."""
    effects = condition.effects
    return effects.cannot_act or effects.out or condition.name == DESARMADO


# ------------------------------------------------------------------ grades (H10, C1)


class GradeSourceKind(StrEnum):
    WOUND = "wound"
    CONDITION = "condition"


#: H8: the wound severities' names by their value (wounds.Severity), as the DJ reads them
#: (English msgids, translated when shown, as the quality levels are).
SEVERITY_NAMES = {"sin importancia": N_("minor"), "leve": N_("light"), "grave": N_("serious")}


def severity_label(value: str) -> str:
    """The translated name of a severity given by its value ("leve"); other text as is."""
    return _(SEVERITY_NAMES[value]) if value in SEVERITY_NAMES else value


class GradeEntry(Frozen):
    """One line of a TA's GD breakdown from a wound (H10) or a condition (C1)."""

    gd: int
    kind: GradeSourceKind
    scope: ScopeKind
    side: BodySide | None = None
    #: The wound's id (kind wound) or the condition's (kind condition).
    source_id: int
    #: Location label ("right arm") for a wound, the condition's name otherwise.
    name: str
    #: Wound severity ("leve", "grave"); None for a condition.
    severity: str | None = None

    def describe(self) -> str:
        """ "right arm, light wound +1" / "dolor intenso +1", in the DJ's language."""
        if self.severity:
            what = _("{location}, {severity} wound").format(
                location=_(self.name), severity=severity_label(self.severity))
        else:
            what = self.name
        return f"{what} {self.gd:+d}"


def condition_grades(conditions: Iterable[Condition], round_: int,
                     action: ActionScope) -> list[GradeEntry]:
    """C1/H10: the grades the active conditions add to a TA of this scope (zero ones left out)."""
    entries: list[GradeEntry] = []
    for condition in active(conditions, round_):
        for effect in condition.effects.gd:
            if effect.gd and effect.matches(action):
                entries.append(GradeEntry(gd=effect.gd, kind=GradeSourceKind.CONDITION,
                                          scope=effect.scope, side=effect.side,
                                          source_id=condition.id, name=condition.name))
    return entries


def total_gd(entries: Iterable[GradeEntry]) -> int:
    """T3/H10: grades from different sources add up."""
    return sum(entry.gd for entry in entries)
