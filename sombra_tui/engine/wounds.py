"""Hits and wounds (heridas): rules H1-H10, pure functions over pydantic models.

A hit is read from the attack TA's own dice (H1): the dS gives the location (H2), d+ and
d- the damage through the damage type's formula (H3, H4). Protection comes off (H5); the
points go to the golpe / herida counters (H6) and may reach the thresholds (H7); the
wound's severity (H8) gives its consequences (H9), and its grades join every later TA of
the matching scope (H10). Every Interpretation of section H is a field of `WoundSettings`,
with RULES.md's default. Nothing here changes state: engine/rules/hits.py applies the
results, and every value computed here is a proposal the DJ may override (H12).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Literal, Self

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from sombra_tui.engine.coded import CodedError
from sombra_tui.engine.conditions import (
    ATURDIDO,
    DESARMADO,
    DOLOR_INTENSO,
    INCONSCIENTE,
    MUERTO,
    SANGRANDO,
    SEVERITY_NAMES,
    ActionScope,
    BodySide,
    Condition,
    ConditionSpec,
    GdEffect,
    GradeEntry,
    GradeSourceKind,
    ScopeKind,
    condition_grades,
)
from sombra_tui.engine.dice import Dice
from sombra_tui.engine.errors import invalid
from sombra_tui.engine.formula import Formula, FormulaError, parse_formula
from sombra_tui.engine.frozen import Frozen, trusted
from sombra_tui.engine.i18n import N_, Msg

MAX_DAMAGE = 999
MAX_POINTS = 9999
MAX_RESISTENCIA = 99
MAX_PROTECTION = 99
#: H9 (published): a leve head wound stuns for 2 asaltos.
ATURDIDO_ASALTOS = 2
#: H9 (published): a leve / grave wound adds +1 GD in its scope.
WOUND_GD = 1


class WoundError(CodedError):
    """A hit or wound value the rules refuse (code "wounds.*")."""


# ---------------------------------------------------------------------- H2 location
class Location(StrEnum):
    """H2: the body locations (ids kept in Spanish, as in RULES.md)."""

    CABEZA = "cabeza"
    PECHO = "pecho"
    BRAZO_IZQUIERDO = "brazo izquierdo"
    BRAZO_DERECHO = "brazo derecho"
    ABDOMEN = "abdomen"
    PIERNA_IZQUIERDA = "pierna izquierda"
    PIERNA_DERECHA = "pierna derecha"

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def limb(self) -> tuple[ScopeKind, BodySide] | None:
        """The arm or leg this location is, with its side; None for head, chest, abdomen."""
        return _LIMBS.get(self)


_LABELS = {
    Location.CABEZA: N_("head"),
    Location.PECHO: N_("chest"),
    Location.BRAZO_IZQUIERDO: N_("left arm"),
    Location.BRAZO_DERECHO: N_("right arm"),
    Location.ABDOMEN: N_("abdomen"),
    Location.PIERNA_IZQUIERDA: N_("left leg"),
    Location.PIERNA_DERECHA: N_("right leg"),
}

_LIMBS = {
    Location.BRAZO_IZQUIERDO: (ScopeKind.ARM, BodySide.LEFT),
    Location.BRAZO_DERECHO: (ScopeKind.ARM, BodySide.RIGHT),
    Location.PIERNA_IZQUIERDA: (ScopeKind.LEG, BodySide.LEFT),
    Location.PIERNA_DERECHA: (ScopeKind.LEG, BodySide.RIGHT),
}


class SideMapping(StrEnum):
    """H2 Interpretation: which of 4/5 (and 8/9) is the left limb."""

    #: RULES.md's default: 4 left arm, 5 right arm, 8 left leg, 9 right leg.
    EVEN_LEFT = "4-left"
    #: The alternative: 4 right arm, 5 left arm, 8 right leg, 9 left leg.
    EVEN_RIGHT = "4-right"


def location_value(ds: int) -> int:
    """H2: value = dS, a 10 read as 0."""
    if isinstance(ds, bool) or not isinstance(ds, int) or not 0 <= ds <= 10:
        raise WoundError("wounds.location_value",
                         N_("A location value is a dS from 1 to 10 (or 0), not {value}."),
                         params={"value": repr(ds)})
    return 0 if ds == 10 else ds


def location_of_value(value: int, mapping: SideMapping = SideMapping.EVEN_LEFT) -> Location:
    """H2: 0 cabeza; 1-3 pecho; 4, 5 brazos; 6, 7 abdomen; 8, 9 piernas (sides: setting)."""
    value = location_value(value)
    if value == 0:
        return Location.CABEZA
    if value <= 3:
        return Location.PECHO
    if value in (6, 7):
        return Location.ABDOMEN
    left_first = mapping is SideMapping.EVEN_LEFT
    if value in (4, 5):
        left = (value == 4) == left_first
        return Location.BRAZO_IZQUIERDO if left else Location.BRAZO_DERECHO
    left = (value == 8) == left_first
    return Location.PIERNA_IZQUIERDA if left else Location.PIERNA_DERECHA


def values_of(location: Location, mapping: SideMapping = SideMapping.EVEN_LEFT) -> tuple[int, ...]:
    """H2: the location values (0-9) that are this one location."""
    return tuple(v for v in range(10) if location_of_value(v, mapping) is location)


# --------------------------------------------------------------- H3 damage types

TipoId = Literal["0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII"]
TIPOS: tuple[TipoId, ...] = ("0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII")
TIPO_IV: TipoId = "IV"


class DamageType(Frozen):
    """H3: one entry of the damage-type table: its formula (None: the DJ types the damage)
    and whether it is lethal (heridas) or not (golpes)."""

    id: TipoId
    #: Canonical formula text (see formula.py); None until the DJ writes one.
    formula: str | None = None
    lethal: bool = True

    @field_validator("formula")
    @classmethod
    def _parse(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        try:
            return parse_formula(value).canonical
        except FormulaError as error:
            context = {"problem": str(error), "position": error.position}
            raise PydanticCustomError(error.code, "{problem}", context) from error

    def parsed(self) -> Formula | None:
        return None if self.formula is None else parse_formula(self.formula)


def default_damage_types() -> tuple[DamageType, ...]:
    """H3: tipo 0 = d- non-lethal, I = d+ lethal, II = d+ + d- lethal; III-VIII empty."""
    filled = {"0": ("d-", False), "I": ("d+", True), "II": ("d+ + d-", True)}
    # Built without validation (they are the canonical formulas; a test validates them).
    return tuple(trusted(DamageType, id=tipo, formula=filled[tipo][0], lethal=filled[tipo][1])
                 if tipo in filled else trusted(DamageType, id=tipo) for tipo in TIPOS)


class SeverityReading(StrEnum):
    """H8: floor(D / R) (default) or the strict D > R, D > 2R."""

    FLOOR = "floor"
    STRICT = "strict"


class WoundSettings(Frozen):
    """Encounter settings for section H: every Interpretation with RULES.md's default."""

    #: H6: PV = multiplier x Resistencia (published alternatives 1, 2, 5, 6).
    pv_multiplier: int = Field(3, ge=1, le=20)
    #: H3: the damage-type table, one entry per tipo 0..VIII in order.
    damage_types: tuple[DamageType, ...] = Field(default_factory=default_damage_types)
    #: H2: which of 4/5 and 8/9 is left.
    side_mapping: SideMapping = SideMapping.EVEN_LEFT
    #: H8: the severity cut-offs.
    severity_reading: SeverityReading = SeverityReading.FLOOR
    #: H9: wounds bleed at all.
    bleeding: bool = True
    #: H9: asaltos per point lost, leve and grave.
    bleed_rate_leve: int = Field(16, ge=1, le=999)
    bleed_rate_grave: int = Field(5, ge=1, le=999)
    #: H9: only lethal wounds bleed.
    only_lethal_bleeds: bool = True
    #: H9: the grade dolor intenso adds to physical actions.
    dolor_intenso_gd: int = Field(0, ge=-20, le=20)
    #: H9: a grave wound keeps the +1 GD of a leve one in its location.
    grave_keeps_leve_gd: bool = True
    #: H9: abdomen wounds have the consequences of chest wounds.
    abdomen_as_pecho: bool = True
    #: H9: a leg wound has an arm's consequences, for actions that use the leg.
    leg_as_arm: bool = True
    #: H9: a bled point is a herida point (W and G); off: a golpe point (G only).
    bled_point_is_herida: bool = True
    #: H11: a new condition that leaves a character unable to act (aturdido) with its
    #: round action pending proposes prevented, and the DJ's answer decides; off, the
    #: action is cancelled at once (C4), as files before format version 3 played.
    unable_asks_prevented: bool = True

    @field_validator("damage_types")
    @classmethod
    def _one_entry_per_tipo(cls, value: tuple[DamageType, ...]) -> tuple[DamageType, ...]:
        ids = [entry.id for entry in value]
        if sorted(ids, key=TIPOS.index) != list(TIPOS):
            raise invalid("wounds.damage_type_table_needs", N_("the damage-type table needs "
                                                               "exactly one entry for each "
                                                               "tipo 0, I, II, III, IV, V, VI,"
                                                               " VII, VIII"))
        return tuple(sorted(value, key=lambda entry: TIPOS.index(entry.id)))

    def damage_type(self, tipo: str) -> DamageType:
        for entry in self.damage_types:
            if entry.id == tipo:
                return entry
        raise WoundError("wounds.unknown_type",
                         N_("There is no damage type {type!r}: the types are {names}."),
                         params={"type": tipo, "names": ", ".join(TIPOS)})

    def with_damage_type(self, entry: DamageType) -> Self:
        """The same settings with one table entry replaced."""
        table = tuple(entry if old.id == entry.id else old for old in self.damage_types)
        return self.model_copy(update={"damage_types": table})


class Weapon(Frozen):
    """H1: a weapon names a damage type and may override its lethality (H3)."""

    name: str = Field(min_length=1, max_length=40)
    damage_type: TipoId = "I"
    #: None: the damage type's lethality.
    lethal: bool | None = None
    #: The skill it is used with ("Armas cortas"): a declaration with that skill picks
    #: this weapon. None: no skill of its own (files before it read as None).
    skill: str | None = Field(None, max_length=40)

    @field_validator("skill")
    @classmethod
    def _clean_skill(cls, value: str | None) -> str | None:
        return None if value is None else value.strip() or None

    def used_with(self, skill: str) -> bool:
        """Whether this is the weapon of `skill` (whatever its case, as T2 reads skills)."""
        return self.skill is not None and self.skill.casefold() == skill.strip().casefold()


class DamageSource(StrEnum):
    TYPED = "typed"  # the DJ typed it (H1: always wins)
    FORMULA = "formula"  # read from the dice (H3)
    ASK = "ask"  # the type has no formula: the DJ must type it (H3)


class DamageReading(Frozen):
    """H1/H3: the damage of a hit and where it came from, for the proposal and the log."""

    #: None when the DJ must type it.
    value: int | None
    source: DamageSource
    tipo: TipoId
    formula: str | None = None
    #: The formula with the dice values ("8 + 3").
    substituted: str | None = None
    #: The formula's own result before it was brought into 0..MAX_DAMAGE.
    raw: int | None = None

    @property
    def clamped(self) -> bool:
        return self.raw is not None and self.raw != self.value

    def working(self, result: int | None = None) -> str:
        """H3: the formula, its dice and its `result` (the raw one by default), each step
        once: "d+ = 4", not "d+ = 4 = 4" (the log line and the hit proposal)."""
        value = self.raw if result is None else result
        steps = (self.formula, self.substituted, None if value is None else str(value))
        return " = ".join(dict.fromkeys(step for step in steps if step))


def damage_for(damage_type: DamageType, dice: Dice, typed: int | None = None) -> DamageReading:
    """H1/H3: a typed value always wins; else the formula over the attack's dice
    (a result below 0 reads as 0, above MAX_DAMAGE as MAX_DAMAGE); no formula: ask."""
    formula = damage_type.parsed()
    text = formula.canonical if formula else None
    shown = formula.substituted(dice) if formula else None
    if typed is not None:
        return DamageReading(value=check_points(typed, "damage"), source=DamageSource.TYPED,
                             tipo=damage_type.id, formula=text, substituted=shown)
    if formula is None:
        return DamageReading(value=None, source=DamageSource.ASK, tipo=damage_type.id)
    raw = formula.evaluate(dice)
    return DamageReading(value=min(max(raw, 0), MAX_DAMAGE), source=DamageSource.FORMULA,
                         tipo=damage_type.id, formula=text, substituted=shown, raw=raw)


def lethal_for(damage_type: DamageType, weapon: Weapon | None = None,
               override: bool | None = None) -> bool:
    """H3: the type's lethality; a weapon may override it; the DJ's override wins (H12)."""
    if override is not None:
        return override
    if weapon is not None and weapon.lethal is not None:
        return weapon.lethal
    return damage_type.lethal


def check_points(value: int, what: str, *, limit: int = MAX_DAMAGE) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
        raise WoundError("wounds.bad_points",
                         N_("The {what} must be a whole number from 0 to {max}, not {value}."),
                         params={"what": what, "value": repr(value), "max": limit})
    return value


# ----------------------------------------------------------------------- H4 tipo IV
class LocatedDamage(Frozen):
    """H4: one (location, damage) entry of a tipo IV hit."""

    location: Location
    damage: int = Field(ge=0, le=MAX_DAMAGE)


def tipo_iv_count(dice: Dice) -> int:
    """H4: the number of location values a tipo IV hit reaches is d-."""
    return dice.d_minus


def tipo_iv_prefill(dice: Dice, settings: WoundSettings, damage: int = 0) -> list[LocatedDamage]:
    """H4: the list the DJ completes, pre-filled with the dS location."""
    location = location_of_value(location_value(dice.ds), settings.side_mapping)
    return [LocatedDamage(location=location, damage=damage)]


def merge_by_location(entries: Iterable[LocatedDamage]) -> list[LocatedDamage]:
    """H2/H4: values of one location add up into one wound (first-seen order kept)."""
    totals: dict[Location, int] = {}
    for entry in entries:
        totals[entry.location] = min(totals.get(entry.location, 0) + entry.damage, MAX_DAMAGE)
    return [LocatedDamage(location=loc, damage=dmg) for loc, dmg in totals.items()]


# ------------------------------------------------------------------- H5 protection
def protected_damage(damage: int, protection: int) -> int:
    """H5: protection is subtracted from the damage, never below 0."""
    check_points(damage, "damage")
    check_points(protection, "protection", limit=MAX_PROTECTION)
    return max(0, damage - protection)


# ----------------------------------------------------------------- H6 points, H7
def pv_for(resistencia: int, settings: WoundSettings, own_pv: int | None = None) -> int:
    """H6: PV = multiplier x Resistencia; a character's own PV wins."""
    if own_pv is not None:
        return check_points(own_pv, "PV", limit=MAX_POINTS)
    return settings.pv_multiplier * check_resistencia(resistencia)


def check_resistencia(resistencia: int) -> int:
    if isinstance(resistencia, bool) or not isinstance(resistencia, int) \
            or not 1 <= resistencia <= MAX_RESISTENCIA:
        raise WoundError("wounds.bad_resistencia",
                         N_("Resistencia must be a whole number from 1 to {max}, not {value}."),
                         params={"value": repr(resistencia), "max": MAX_RESISTENCIA})
    return resistencia


class Counters(Frozen):
    """H6: puntos de golpe G and de herida W, both from 0; W <= G always."""

    g: int = Field(0, ge=0, le=MAX_POINTS)
    w: int = Field(0, ge=0, le=MAX_POINTS)

    @model_validator(mode="after")
    def _w_within_g(self) -> Self:
        if self.w > self.g:
            raise invalid("wounds.herida_points_w_cannot", N_("herida points W ({w}) cannot "
                                                              "exceed golpe points G ({g}): "
                                                              "each herida point carries a "
                                                              "golpe point"), w=self.w, g=self.g)
        return self

    def __str__(self) -> str:
        return f"G {self.g} / W {self.w}"


def apply_damage(counters: Counters, points: int, lethal: bool) -> Counters:
    """H6: non-lethal N adds N to G; lethal N adds N to W and N to G."""
    check_points(points, "damage")
    g = min(counters.g + points, MAX_POINTS)
    w = min(counters.w + points, g) if lethal else counters.w
    return Counters(g=g, w=w)


def heal_herida(counters: Counters, points: int) -> Counters:
    """H6/H12: healing a herida point also heals its golpe point."""
    check_points(points, "healing", limit=MAX_POINTS)
    healed = min(points, counters.w)
    return Counters(g=counters.g - healed, w=counters.w - healed)


def heal_golpe(counters: Counters, points: int) -> Counters:
    """H6/H12: heal golpe points; those carried by herida points stay (G never below W).

    **Interpretation**: a golpe point that belongs to a herida point heals with it
    (heal_herida), not alone.
    """
    check_points(points, "healing", limit=MAX_POINTS)
    return Counters(g=max(counters.w, counters.g - points), w=counters.w)


class Thresholds(Frozen):
    """H7: what reaching PV proposes and the points beyond PV (logged)."""

    pv: int
    propose_inconsciente: bool
    propose_muerto: bool
    #: G >= PV / W >= PV after the change, proposed or not (a DJ who declined stays asked).
    golpe_at_pv: bool
    herida_at_pv: bool
    golpe_over: int
    herida_over: int


def thresholds(before: Counters, after: Counters, pv: int) -> Thresholds:
    """H7: G reaching PV proposes inconsciente, W reaching PV proposes muerto (the DJ
    confirms). A proposal is made when the counter reaches PV, not again above it."""
    return Thresholds(
        pv=pv,
        propose_inconsciente=before.g < pv <= after.g,
        propose_muerto=before.w < pv <= after.w,
        golpe_at_pv=after.g >= pv,
        herida_at_pv=after.w >= pv,
        golpe_over=max(0, after.g - pv),
        herida_over=max(0, after.w - pv),
    )


def threshold_conditions(report: Thresholds) -> list[ConditionSpec]:
    """H7: the conditions the DJ is asked to confirm, in order (either one makes the
    character out). When one change brings both counters to PV, muerto comes first and
    inconsciente is asked next only if the DJ declines muerto."""
    specs: list[ConditionSpec] = []
    if report.propose_muerto:
        specs.append(ConditionSpec(name=MUERTO))
    if report.propose_inconsciente:
        specs.append(ConditionSpec(name=INCONSCIENTE))
    return specs


# --------------------------------------------------------------------- H8 severity


class Severity(StrEnum):
    SIN_IMPORTANCIA = "sin importancia"
    LEVE = "leve"
    GRAVE = "grave"

    @property
    def label(self) -> str:
        """The severity's name (a msgid), translated like the quality levels."""
        return SEVERITY_NAMES[self.value]


def severity_of(damage: int, resistencia: int,
                reading: SeverityReading = SeverityReading.FLOOR) -> Severity:
    """H8: n = floor(D / R): 0 sin importancia, 1 leve, >= 2 grave; strict: D > R, D > 2R."""
    check_points(damage, "damage")
    r = check_resistencia(resistencia)
    if reading is SeverityReading.STRICT:
        if damage > 2 * r:
            return Severity.GRAVE
        return Severity.LEVE if damage > r else Severity.SIN_IMPORTANCIA
    n = damage // r
    if n >= 2:
        return Severity.GRAVE
    return Severity.LEVE if n == 1 else Severity.SIN_IMPORTANCIA


# ----------------------------------------------------------------- H9 consequences


class Reminder(Frozen):
    """Something the tracker reminds the DJ of (H9: a grave arm wound drops what it holds)."""

    code: str
    params: dict[str, str] = Field(default_factory=dict)
    text: str

    @property
    def words(self) -> Msg | str:
        """The reminder as a phrase of a wound's consequences, from its code and params,
        rendered in the language shown (its English text for an unknown code)."""
        template = REMINDER_MESSAGES.get(self.code)
        if template is None:
            return self.text
        return Msg(template, {key: Msg(SIDE_WORDS.get(value, value)) if key == "side"
                              else value for key, value in self.params.items()})


#: The reminders' words by code (English msgids).
#: Each is a phrase of a wound's list of consequences ("...; drops what the right arm
#: holds"), not a sentence of its own.
REMINDER_MESSAGES = {"wounds.drops_held": N_("drops what the {side} arm holds")}
#: The body's sides as a reminder names them.
SIDE_WORDS = {"left": N_("left"), "right": N_("right")}


class Consequences(Frozen):
    """H9: what a wound does, as data: grades by scope, conditions, reminders, bleeding."""

    gd: tuple[GdEffect, ...] = ()
    conditions: tuple[ConditionSpec, ...] = ()
    reminders: tuple[Reminder, ...] = ()
    #: Asaltos per point lost (H9); None: it does not bleed.
    bleed_rate: int | None = None

    @property
    def none(self) -> bool:
        return not (self.gd or self.conditions or self.reminders or self.bleed_rate)


def _reading_as(location: Location, settings: WoundSettings) -> Location | None:
    """The published location whose consequences apply (abdomen as pecho, leg as arm)."""
    if location is Location.ABDOMEN:
        return Location.PECHO if settings.abdomen_as_pecho else None
    limb = location.limb
    if limb is not None and limb[0] is ScopeKind.LEG and not settings.leg_as_arm:
        return None
    return location


def consequences_of(location: Location, severity: Severity, damage: int, lethal: bool,
                    settings: WoundSettings) -> Consequences:
    """H9 with its settings: sin importancia has none.

    cabeza: leve aturdido 2 asaltos; grave inconsciente for damage hours (out).
    pecho (abdomen): leve +1 GD physical; grave dolor intenso (keeps the leve GD).
    brazo (pierna): leve +1 GD that limb; grave dolor intenso (keeps the GD) and,
    for an arm, drops what it holds (desarmado, reminded).
    Every leve / grave wound bleeds 1 point every 16 / 5 asaltos (lethal ones only).
    """
    if severity is Severity.SIN_IMPORTANCIA:
        return Consequences()
    grave = severity is Severity.GRAVE
    gd: list[GdEffect] = []
    conditions: list[ConditionSpec] = []
    reminders: list[Reminder] = []
    keeps_gd = not grave or settings.grave_keeps_leve_gd
    reading = _reading_as(location, settings)
    if reading is Location.CABEZA:
        conditions.append(ConditionSpec(name=INCONSCIENTE, hours=damage) if grave
                          else ConditionSpec(name=ATURDIDO, duration=ATURDIDO_ASALTOS))
    elif reading is Location.PECHO:
        if keeps_gd:
            gd.append(GdEffect(scope=ScopeKind.PHYSICAL, gd=WOUND_GD))
        if grave:
            conditions.append(ConditionSpec(name=DOLOR_INTENSO))
    elif reading is not None and reading.limb is not None:
        scope, side = reading.limb
        if keeps_gd:
            gd.append(GdEffect(scope=scope, side=side, gd=WOUND_GD))
        if grave:
            conditions.append(ConditionSpec(name=DOLOR_INTENSO))
            if scope is ScopeKind.ARM:
                conditions.append(ConditionSpec(name=DESARMADO))
                reminders.append(Reminder(code="wounds.drops_held",
                                          params={"side": side.value},
                                          text=f"drops what the {side.value} arm holds"))
    bleed_rate: int | None = None
    if settings.bleeding and (lethal or not settings.only_lethal_bleeds):
        bleed_rate = settings.bleed_rate_grave if grave else settings.bleed_rate_leve
        conditions.append(ConditionSpec(name=SANGRANDO))
    return Consequences(gd=tuple(gd), conditions=tuple(conditions), reminders=tuple(reminders),
                        bleed_rate=bleed_rate)


# ------------------------------------------------------------- the hit, assessed


class WoundAssessment(Frozen):
    """H5-H9 for one hit on one location: every number of the proposal, with its source."""

    location: Location
    #: Damage before protection.
    damage_in: int
    protection: int
    #: Damage after protection (H5): what counts for H6-H8.
    damage: int
    lethal: bool
    resistencia: int
    severity: Severity
    #: True when the DJ set the severity instead of H8.
    severity_overridden: bool = False
    consequences: Consequences


def assess(location: Location, damage_in: int, *, lethal: bool, resistencia: int,
           settings: WoundSettings, protection: int = 0,
           severity: Severity | None = None,
           consequences: Consequences | None = None) -> WoundAssessment:
    """H5 then H8 then H9; the DJ's severity or consequences, when given, win (H12)."""
    damage = protected_damage(damage_in, protection)
    found = severity_of(damage, resistencia, settings.severity_reading)
    chosen = severity or found
    return WoundAssessment(
        location=location, damage_in=damage_in, protection=protection, damage=damage,
        lethal=lethal, resistencia=resistencia, severity=chosen,
        severity_overridden=severity is not None and severity is not found,
        consequences=consequences if consequences is not None
        else consequences_of(location, chosen, damage, lethal, settings),
    )


class HitReading(Frozen):
    """H1-H4 read from an attack TA's dice: the proposal before the DJ settles it."""

    dice: Dice
    #: H2: the location value (dS, 10 read as 0) and its location (or the DJ's).
    location_value: int
    location: Location
    location_overridden: bool = False
    damage: DamageReading
    lethal: bool
    #: H4: for tipo IV, how many location values the hit reaches (d-).
    tipo_iv_count: int | None = None
    #: None until the damage is known (a type without a formula: the DJ types it).
    assessment: WoundAssessment | None = None

    @property
    def needs_damage(self) -> bool:
        return self.damage.value is None


def read_hit(dice: Dice, damage_type: DamageType, settings: WoundSettings, *,
             resistencia: int, protection: Mapping[Location, int] | None = None,
             weapon: Weapon | None = None, location: Location | None = None,
             damage: int | None = None, lethal: bool | None = None,
             severity: Severity | None = None) -> HitReading:
    """H1: everything a hit proposes, from the attack's own dice; each keyword the DJ
    sets (location, damage, lethal, severity) wins over what the dice say."""
    value = location_value(dice.ds)
    read_location = location_of_value(value, settings.side_mapping)
    chosen = location or read_location
    reading = damage_for(damage_type, dice, damage)
    is_lethal = lethal_for(damage_type, weapon, lethal)
    assessment = None
    if reading.value is not None:
        assessment = assess(chosen, reading.value, lethal=is_lethal, resistencia=resistencia,
                            settings=settings, protection=(protection or {}).get(chosen, 0),
                            severity=severity)
    return HitReading(
        dice=dice, location_value=value, location=chosen,
        location_overridden=location is not None and location is not read_location,
        damage=reading, lethal=is_lethal,
        tipo_iv_count=tipo_iv_count(dice) if damage_type.id == TIPO_IV else None,
        assessment=assessment,
    )


# ------------------------------------------------------------------- wounds, H9 bleeding


class Wound(Frozen):
    """One wound on a character (one hit, one location): combat state, changed by commands."""

    id: int = Field(ge=0)
    location: Location
    damage: int = Field(ge=0, le=MAX_DAMAGE)
    lethal: bool
    severity: Severity
    #: The round the wound was taken in (0: before round 1).
    round: int = Field(ge=0)
    #: H9/H10: the grades it adds (editable by the DJ).
    gd: tuple[GdEffect, ...] = ()
    #: H9: asaltos per point lost; None: it does not bleed.
    bleed_rate: int | None = Field(None, ge=1, le=999)
    #: H9: asaltos counted since the wound (or since its last lost point).
    bleed_counted: int = Field(0, ge=0)
    #: Points lost to bleeding so far.
    bled: int = Field(0, ge=0)
    #: H12: attended wounds stop bleeding.
    attended: bool = False
    #: What caused it (weapon name, "fall"), for the sheet.
    cause: str = ""

    @property
    def bleeding(self) -> bool:
        return self.bleed_rate is not None and not self.attended


def new_wound(wound_id: int, assessment: WoundAssessment, round_: int,
              cause: str = "") -> Wound:
    """The wound an accepted hit leaves (H6-H9)."""
    return Wound(id=wound_id, location=assessment.location, damage=assessment.damage,
                 lethal=assessment.lethal, severity=assessment.severity, round=round_,
                 gd=assessment.consequences.gd, bleed_rate=assessment.consequences.bleed_rate,
                 cause=cause)


def with_bleed_rate(wound: Wound, rate: int | None) -> Wound:
    """H9: `wound` bleeding one point every `rate` asaltos (None: it stops bleeding).
    The asaltos already counted stay, but never reach the new rate (at most rate - 1:
    a point is lost when the count reaches it, at the end of a round); with no rate
    there is nothing to count. Checked as a Wound (the rate's limits)."""
    counted = min(wound.bleed_counted, rate - 1) if rate is not None else 0
    return Wound.model_validate({**dict(wound), "bleed_rate": rate, "bleed_counted": counted})


def attend(wound: Wound) -> Wound:
    """H12: the DJ marks the wound attended; its bleeding stops."""
    return wound.model_copy(update={"attended": True})


class BleedTick(Frozen):
    wound: Wound
    point_lost: bool


def bleeds_at_end_of(wound: Wound, round_: int) -> bool:
    """H9: whether `wound`, as it stands, loses a point at the end of `round_` (the next
    round to end): the count starts the round after the wound, and the point is lost at
    the end of the rate-th counted round."""
    return (wound.bleeding and round_ > wound.round and wound.bleed_rate is not None
            and wound.bleed_counted + 1 >= wound.bleed_rate)


def bleed_at_end_of_round(wound: Wound, round_: int) -> BleedTick:
    """H9: the count starts the round after the wound; at the end of the rate-th counted
    round (after the extended phase, P6) one point is lost and the count restarts.
    (Made of a checked wound without validating again: the first screen of a file asks
    the forecast, which asks this, and building BleedTick's validator cost 1-2 ms.)"""
    if not wound.bleeding or round_ <= wound.round:
        return trusted(BleedTick, wound=wound, point_lost=False)
    assert wound.bleed_rate is not None
    counted = wound.bleed_counted + 1
    if bleeds_at_end_of(wound, round_):
        return trusted(BleedTick, wound=wound.model_copy(update={"bleed_counted": 0,
                                                                 "bled": wound.bled + 1}),
                       point_lost=True)
    return trusted(BleedTick, wound=wound.model_copy(update={"bleed_counted": counted}),
                   point_lost=False)


def bleed_rounds(wound_round: int, rate: int, last_round: int) -> list[int]:
    """H9: the rounds at whose end an unattended wound taken in `wound_round` loses a point."""
    return list(range(wound_round + rate, last_round + 1, rate))


def bleed_point(counters: Counters, settings: WoundSettings) -> Counters:
    """H9: a bled point is a herida point (setting; off: a golpe point)."""
    return apply_damage(counters, 1, lethal=settings.bled_point_is_herida)


# ----------------------------------------------------------------------- H10 grades


def wound_grades(wounds: Iterable[Wound], action: ActionScope) -> list[GradeEntry]:
    """H10: the grades a character's wounds add to a TA of this scope, one entry per
    wound and effect (zero ones left out); they add up with each other and with T3's."""
    entries: list[GradeEntry] = []
    for wound in wounds:
        for effect in wound.gd:
            if effect.gd and effect.matches(action):
                entries.append(GradeEntry(gd=effect.gd, kind=GradeSourceKind.WOUND,
                                          scope=effect.scope, side=effect.side,
                                          source_id=wound.id, name=wound.location.label,
                                          severity=wound.severity.value))
    return entries


def ta_grades(wounds: Iterable[Wound], conditions: Iterable[Condition], round_: int,
              action: ActionScope) -> list[GradeEntry]:
    """H10 and C1: every wound and condition grade of a TA in `round_`, wounds first;
    they add to the TA's other grades (T3) and each names its source in the breakdown."""
    return [*wound_grades(wounds, action), *condition_grades(conditions, round_, action)]


def next_wound_id(wounds: Sequence[Wound]) -> int:
    return max((w.id for w in wounds), default=0) + 1
