"""What the DJ types in a form, read into values: every form parser, and the
text a parsed value is shown as in its field. A value that cannot be read raises
`FormError` naming its field, which the dialog shows next to that field.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from sombra_tui.engine import (
    TIPOS,
    TO_ROLL,
    BodySide,
    Dice,
    FormulaError,
    GdEffect,
    LocatedDamage,
    Location,
    ScopeKind,
    SombraError,
    Weapon,
    ask,
    parse_dice,
    parse_formula,
    validation_problems,
)
from sombra_tui.engine.i18n import _

#: True while a form's summary line builds its command (summary.py): dice the tracker
#: would roll are not rolled for it (TO_ROLL stands in for them).
DRY_RUN: ContextVar[bool] = ContextVar("DRY_RUN", default=False)


class FormError(Exception):
    """A field's value is wrong: `field` is the id of the widget to show it next to."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def parse_int(text: str, field: str, label: str, low: int, high: int,
              default: int | None = None) -> int:
    cleaned = text.strip().replace("+", "")
    if not cleaned:
        if default is not None:
            return default
        raise FormError(field, _("{label} is required: type a whole number.").format(
            label=label))
    try:
        value = int(cleaned)
    except ValueError:
        raise FormError(field, _("{label} must be a whole number, not {text!r}.").format(
            label=label, text=text.strip())) from None
    if not low <= value <= high:
        raise FormError(field, _("{label} must be from {low} to {high}, not {value}.").format(
            label=label, low=low, high=high, value=value))
    return value



def read_dice(text: str, field: str, roll: Callable[[], Dice], *, table: bool,
              roll_key: str, who: str = "") -> Dice:
    """The dice typed in a field; empty, the tracker rolls them, unless the table rolls
    this character's dice: then Enter asks for them instead of rolling (issue 13), naming
    `roll_key`, the key in force that rolls them."""
    text = text.strip()
    if text:
        try:
            return parse_dice(text)
        except SombraError as error:
            raise FormError(field, f"{who}: {error}" if who else str(error)) from error
    if table:
        message = (_("Type the dice {name}'s player rolled (dS first, e.g. 3 5 2); {roll} "
                     "rolls them instead.") if who else
                   _("Type the dice the player rolled (dS first, e.g. 3 5 2); {roll} rolls "
                     "them instead."))
        raise FormError(field, message.format(name=who, roll=roll_key))
    return TO_ROLL if DRY_RUN.get() else roll()


def validation_message(error: ValidationError) -> tuple[str, str]:
    """(field name, readable message) of the first problem pydantic found."""
    first = validation_problems(error)[0]
    return (str(first.location[0]) if first.location else ""), first.message



def lethality_words() -> dict[str, bool]:
    """The words that end a weapon (H1), in English and in the DJ's language."""
    words = {"lethal": True, "non-lethal": False, "letal": True, "no-letal": False}
    words[_("lethal").casefold().replace(" ", "-")] = True
    words[_("non-lethal").casefold().replace(" ", "-")] = False
    return words


#: "pistola II (Armas cortas)": the skill a weapon is used with, in brackets at its end.
WEAPON_SKILL = re.compile(r"^(?P<weapon>[^()]*?)\s*\((?P<skill>[^()]*)\)\s*$")


def parse_weapons(text: str) -> list[Weapon]:
    """'pistola II (Armas cortas), porra 0 lethal' -> weapons (H1): name, damage type,
    optional lethality, optional skill in brackets (the declaration picks the weapon of
    its skill); the first is the default."""
    weapons: list[Weapon] = []
    known = lethality_words()
    for chunk in (part.strip() for part in text.split(",")):
        if not chunk:
            continue
        skill = None
        if "(" in chunk or ")" in chunk:
            match = WEAPON_SKILL.match(chunk)
            if match is None or not match.group("skill").strip():
                raise FormError("weapons", _("{chunk!r}: write the skill a weapon is used "
                                             "with in brackets at its end, e.g. 'pistola II "
                                             "(Armas cortas)'.").format(chunk=chunk))
            chunk, skill = match.group("weapon"), match.group("skill").strip()
            skill = skill[:ask.max_length(Weapon, "skill")]
        words = chunk.split()
        lethal = None
        # "no letal" is two words: read the last two together first.
        for size in (2, 1):
            if len(words) > size + 1:
                lethal = known.get("-".join(words[-size:]).casefold())
                if lethal is not None:
                    words = words[:-size]
                    break
        if len(words) < 2 or words[-1].upper() not in TIPOS:
            raise FormError("weapons", _("{chunk!r}: write a weapon as its name and damage "
                                         "type ({types}), e.g. 'pistola II'.").format(
                chunk=chunk, types=", ".join(TIPOS)))
        name = " ".join(words[:-1])[:ask.max_length(Weapon, "name")]
        weapons.append(Weapon(name=name, damage_type=words[-1].upper(),
                              lethal=lethal, skill=skill))
    return weapons


def format_weapons(weapons: list[Weapon]) -> str:
    return ", ".join(f"{w.name} {w.damage_type}"
                     + ("" if w.lethal is None else " " + (_("lethal") if w.lethal
                                                            else _("non-lethal")))
                     + ("" if w.skill is None else f" ({w.skill})")
                     for w in weapons)


def location_names() -> dict[str, Location]:
    """A location by its id, its English label or its label in the DJ's language."""
    names = {location.value: location for location in Location}
    names |= {location.label.casefold(): location for location in Location}
    names |= {_(location.label).casefold(): location for location in Location}
    return names


def parse_entries(text: str) -> list[LocatedDamage]:
    """Tipo IV's list: "head 4, chest 2" (a location by its label or id, then damage)."""
    names = location_names()
    entries: list[LocatedDamage] = []
    for part in text.split(","):
        words = part.split()
        if not words:
            continue
        *where, amount = words
        location = names.get(" ".join(where).casefold())
        if location is None and " ".join(words).casefold() in names:  # no damage yet
            raise FormError("entries", _("Give the damage after {where}, e.g. "
                                         "'{where} 4'.").format(where=" ".join(words)))
        if location is None:
            raise FormError("entries", _("Unknown location {where!r}: use {known}.").format(
                where=" ".join(where), known=", ".join(_(loc.label) for loc in Location)))
        entries.append(LocatedDamage(location=location, damage=parse_int(
            amount, "entries", _("Damage"), *ask.bounds(LocatedDamage, "damage"))))
    return entries


M = TypeVar("M", bound=BaseModel)


def validated(model: type[M], old: M, changes: dict[str, Any]) -> M:
    """`old` with `changes`, checked as a new one (model_copy would not validate)."""
    try:
        return model.model_validate({**dict(old), **changes})
    except ValidationError as error:
        field, message = validation_message(error)
        raise FormError(field or "form", message) from error


def grades_text(grades: tuple[GdEffect, ...]) -> str:
    """A wound's grades as the DJ edits them: "+1 right arm, +1 physical actions"."""
    return ", ".join(f"{g.gd:+d} {_(g.scope_label())}" for g in grades)


def grade_scopes() -> dict[str, tuple[ScopeKind, BodySide | None]]:
    """Every grade scope by its label, in English and in the DJ's language (H10, C1)."""
    scopes: dict[str, tuple[ScopeKind, BodySide | None]] = {}
    for kind in ScopeKind:
        sides: tuple[BodySide | None, ...] = ((BodySide.LEFT, BodySide.RIGHT)
                                              if kind in (ScopeKind.ARM, ScopeKind.LEG)
                                              else (None,))
        for side in sides:
            label = GdEffect(scope=kind, side=side, gd=0).scope_label()
            scopes[label.casefold()] = scopes[_(label).casefold()] = (kind, side)
    scopes["physical"] = scopes[_("physical").casefold()] = (ScopeKind.PHYSICAL, None)
    scopes["any"] = (ScopeKind.ANY, None)
    return scopes


def parse_grades(text: str, field: str) -> tuple[GdEffect, ...]:
    """ "+1 right arm, +2 physical actions" -> the grades of a wound or condition."""
    scopes = grade_scopes()
    grades: list[GdEffect] = []
    for chunk in (part.strip() for part in text.split(",")):
        if not chunk:
            continue
        amount, _space, where = chunk.partition(" ")
        scope = scopes.get(where.strip().casefold())
        if scope is None:
            raise FormError(field, _("{chunk!r}: write a grade and what it applies to, e.g. "
                                     "'+1 right arm' ({known}).").format(
                chunk=chunk, known=", ".join(sorted({_(GdEffect(scope=k, side=s, gd=0)
                                                       .scope_label())
                                                     for k, s in scopes.values()}))))
        gd = parse_int(amount, field, _("GD"), *ask.bounds(GdEffect, "gd"))
        grades.append(GdEffect(scope=scope[0], side=scope[1], gd=gd))
    return tuple(grades)


def tipo_id(tipo: str) -> str:
    return f"tipo-{tipo}"


def parse_tipo(tipo: str, text: str) -> str | None:
    """A tipo's formula as the DJ wrote it: checked by the formula grammar, never run as
    code; empty: the DJ types the damage of each hit."""
    if not text.strip():
        return None
    try:
        return parse_formula(text).canonical
    except FormulaError as error:
        raise FormError(tipo_id(tipo), _("Tipo {tipo}: {problem}").format(
            tipo=tipo, problem=error)) from error
