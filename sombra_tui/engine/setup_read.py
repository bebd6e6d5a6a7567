"""What the set-up reads of an encounter (issue 39 item 1): the side a new character
takes, each character's short label, and the words the character form completes.

Nothing here changes a state; `ask` passes these on to the screens.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sombra_tui.engine.model import Side
from sombra_tui.engine.state import CombatState
from sombra_tui.engine.wounds import Location, Weapon

#: "Matón 3": a name and its number (as model.numbered_names makes them).
NUMBERED = re.compile(r"^(?P<base>.*\S)\s+(?P<number>\d+)$")
#: A name this long or shorter is its own short label.
SHORT_MAX = 8
#: A long name's first word keeps this many letters in its short label ("Guar.3").
SHORT_WORD = 4


def new_character_side(state: CombatState, cursor: str | None) -> Side:
    """The side a new character takes: the PC side while the encounter has no PCs (a
    new encounter starts with its party), else that of the row the cursor is on (NPC
    with no row under it)."""
    if not any(ch.side is Side.PC for ch in state.characters):
        return Side.PC
    character = state.character(cursor) if cursor else None
    return character.side if character is not None else Side.NPC


def _short(name: str) -> str:
    """`name` itself when short; else its first word cut to SHORT_WORD letters and a
    dot, then its number ("Guardia de seguridad 3" -> "Guar.3") or the initials of its
    other words ("Sargento Pérez" -> "Sarg.P")."""
    if len(name) <= SHORT_MAX:
        return name
    match = NUMBERED.match(name)
    base, tail = (match.group("base"), match.group("number")) if match else (name, "")
    first, *rest = base.split()
    if not tail:
        tail = "".join(word[0] for word in rest if word[0].isalnum())
    return f"{first[:SHORT_WORD]}.{tail}" if len(first) > SHORT_WORD or not tail \
        else f"{first} {tail}"


def short_labels(names: Iterable[str]) -> dict[str, str]:
    """Each name's short label: at most SHORT_MAX-odd letters, and distinct. Where two
    names would share a label (or a label is another's name), those names are shown
    whole: a label always tells one character from every other."""
    names = list(names)
    labels = {name: _short(name) for name in names}
    counts: dict[str, int] = {}
    for label in labels.values():
        counts[label.casefold()] = counts.get(label.casefold(), 0) + 1
    whole = {name.casefold() for name in names}
    return {name: label if label == name or (
        counts[label.casefold()] == 1 and label.casefold() not in whole) else name
            for name, label in labels.items()}


def known_skills(state: CombatState) -> list[str]:
    """The skills the form completes: every skill of the encounter's characters and of
    their weapons (H1), each once, in the order first met."""
    found: dict[str, str] = {}
    for character in state.characters:
        for skill in [*character.skills, *(w.skill for w in character.weapons if w.skill)]:
            found.setdefault(skill.casefold(), skill)
    return list(found.values())


def known_weapons(state: CombatState) -> list[Weapon]:
    """The weapons the form completes: every weapon of the encounter (H1), each name
    once, in the order first met."""
    found: dict[str, Weapon] = {}
    for character in state.characters:
        for weapon in character.weapons:
            found.setdefault(weapon.name.casefold(), weapon)
    return list(found.values())


def locations() -> list[Location]:
    """The locations protection is given for (H2, H5), head first."""
    return list(Location)
