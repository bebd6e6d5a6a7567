"""The table's quick line (issue 39 item 4), read into the sheet's own commands:
"-7 pecho" is a hit by hand (ManualHit) of 7 on the chest, "+3" heals 3 points (Heal).

Read word by word, never evaluated. A hit needs a location (RULES.md H2: a wound is on
one location; its severity and consequences are read there, H8, H9), named in Spanish
or English, in full or by the start of each word ("pe", "brazo izq", "l arm") or a
short form ("bi", "pd", "la", "rl"). "nl" / "no letal" / "non-lethal" after it makes the
hit non-lethal (H3); "golpe" / "herida" after a healing picks the points healed (H6).
"""

from __future__ import annotations

import re
import unicodedata

from sombra_tui import engine as c
from sombra_tui.engine import Location, ask
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.parsing import FormError, parse_int

#: The field the quick line's problems are shown at.
FIELD = "quick"

#: Each location's names in full, Spanish (its id) and English (its label's msgid).
FULL_NAMES = {location: (location.value, location.label) for location in Location}
#: Short forms, both languages (cabeza/head, pecho/chest... brazo izquierdo = bi, la).
SHORT = {"bi": Location.BRAZO_IZQUIERDO, "bd": Location.BRAZO_DERECHO,
         "pi": Location.PIERNA_IZQUIERDA, "pd": Location.PIERNA_DERECHA,
         "la": Location.BRAZO_IZQUIERDO, "ra": Location.BRAZO_DERECHO,
         "ll": Location.PIERNA_IZQUIERDA, "rl": Location.PIERNA_DERECHA}
#: Words after a hit's location: its lethality (H3; the form's checkbox).
NON_LETHAL = ("nl", "no letal", "noletal", "non lethal", "nonlethal", "non-lethal",
              "golpe", "golpes")
LETHAL = ("letal", "lethal")
#: Words after a healing: which points (H6; the heal form's kind).
HEAL_KINDS = {"golpe": c.HealKind.GOLPE, "golpes": c.HealKind.GOLPE, "g": c.HealKind.GOLPE,
              "herida": c.HealKind.HERIDA, "heridas": c.HealKind.HERIDA,
              "w": c.HealKind.HERIDA}


def plain(text: str) -> str:
    """Lower case, no accents, dots as spaces, one space between words."""
    text = unicodedata.normalize("NFKD", text.casefold().replace(".", " "))
    return " ".join("".join(ch for ch in text if not unicodedata.combining(ch)).split())


def known_locations() -> str:
    return ", ".join(_(location.label) for location in Location)


def read_location(words: str) -> Location:
    """A location by its names (see the module), or FormError naming the problem."""
    typed = plain(words)
    if typed in SHORT:
        return SHORT[typed]
    parts = typed.split()
    found: list[Location] = []
    for location, names in FULL_NAMES.items():
        for name in {*names, _(location.label)}:
            words_of = plain(name).split()
            if len(parts) <= len(words_of) and all(
                    word.startswith(part) for part, word in zip(parts, words_of, strict=False)):
                found.append(location)
                break
    if len(found) == 1:
        return found[0]
    if found:
        labels = [_(loc.label) for loc in found]
        return _raise(_("{typed!r} could be {some} or {last}: write more of it.").format(
            typed=words, some=", ".join(labels[:-1]), last=labels[-1]))
    return _raise(_("Unknown location {typed!r}: use {known}.").format(
        typed=words, known=known_locations()))


def _raise(message: str) -> Location:
    raise FormError(FIELD, message)


#: A sign, a number, the rest: "-7 pecho", "- 7 pecho", "-7pecho", "+3".
AMOUNT = re.compile(r"\s*([+-]?)\s*(\d*)\s*(.*)", re.S)


def split_amount(text: str) -> tuple[str, str, str]:
    """(sign, number, rest) of the quick line."""
    match = AMOUNT.fullmatch(text)
    assert match is not None  # every text matches
    sign, number, rest = match.groups()
    return sign, number, rest.strip()


def read_quick(text: str, state: c.CombatState, name: str) -> c.ManualHit | c.Heal:
    """The command the quick line says for `name` (see the module), or FormError."""
    sign, number, rest = split_amount(text)
    chest = _(Location.PECHO.label)
    example = _("type -7 {chest} for a hit by hand, +3 to heal").format(chest=chest)
    if not sign:
        raise FormError(FIELD, _("Start with - for a hit or + to heal: {example}.").format(
            example=example))
    if not number:
        raise FormError(FIELD, _("A number is missing after {sign}: {example}.").format(
            sign=sign, example=example))
    if sign == "+":
        return read_heal(number, rest, state, name)
    damage = parse_int(number, FIELD, _("Damage"), *ask.bounds(c.ManualHit, "damage"))
    where, lethal = plain(rest), True
    for words, value in ((NON_LETHAL, False), (LETHAL, True)):
        for word in words:
            if where == word or where.endswith(" " + word):
                where, lethal = where[:len(where) - len(word)].strip(), value
                break
    if not where:
        raise FormError(FIELD, _("A hit by hand needs a location: -{damage} {chest} "
                                 "({known}).").format(damage=damage, chest=chest,
                                                      known=known_locations()))
    return c.ManualHit(character=name, location=read_location(where), damage=damage,
                       lethal=lethal)


def read_heal(number: str, rest: str, state: c.CombatState, name: str) -> c.Heal:
    """"+3 [golpe|herida]": herida points (and their golpe points) as the heal form,
    golpe points when told, or when the character has golpe points and no herida."""
    points = parse_int(number, FIELD, _("Points"), *ask.bounds(c.Heal, "points"))
    kind = HEAL_KINDS.get(plain(rest))
    if rest and kind is None:
        raise FormError(FIELD, _("After +{points}, write golpe or herida, not {rest!r}."
                                 ).format(points=points, rest=rest))
    if kind is None:
        counters = state.body(name).counters
        kind = c.HealKind.GOLPE if counters.w == 0 and counters.g > 0 else c.HealKind.HERIDA
    return c.Heal(character=name, points=points, kind=kind)
