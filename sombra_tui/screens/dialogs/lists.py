"""The character form's lists (issue 39 item 1): the skills, weapons and protection
are typed as entries, a comma between them ("Pelea 14, Sigilo 11"). While an entry's
name is typed, the field shows greyed the known name it begins (a skill or weapon of
the encounter, a location of H2, from the engine), and right (at the end of the field)
takes it; an entry already in the field is not offered again. A wrong entry is named
by its number and its text, with what is wrong with it (H1, H5).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from textual.suggester import Suggester

from sombra_tui.engine import MAX_PROTECTION, MAX_STAT, Location, Weapon
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.fields import TextInput
from sombra_tui.screens.dialogs.parsing import (
    FormError,
    format_weapons,
    location_names,
    parse_int,
    parse_weapons,
)

#: What a field completes: its value -> the value completed, or None.
Complete = Callable[[str], str | None]


def entries(text: str) -> list[tuple[int, str]]:
    """The entries typed in a list field, each with its number (from 1), empty ones
    left out: what a message about one of them names."""
    return [(number, chunk.strip()) for number, chunk in enumerate(text.split(","), 1)
            if chunk.strip()]


def completer(words: Sequence[str], after: str = "") -> Complete:
    """Completes the entry being typed (after the last comma) with the first of `words`
    it begins, whatever its case, followed by `after`; right after a comma, with the
    first of `words` not listed yet (an empty field offers nothing: it would read as a
    value). Nothing once the entry has a digit in it (its value is being typed)."""
    def complete(value: str) -> str | None:
        head, comma, typed = value.rpartition(",")
        typed = typed.lstrip()
        if (not typed and not comma) or any(char.isdigit() for char in typed):
            return None
        listed = [chunk.strip().casefold() for chunk in head.split(",")] if comma else []
        for word in words:
            folded = word.casefold()
            if folded.startswith(typed.casefold()) and len(word) > len(typed) \
                    and not any(chunk.startswith(folded) for chunk in listed):
                if typed:
                    return value[:len(value) - len(typed)] + word + after
                return value + ("" if value.endswith(" ") else " ") + word + after
        return None
    return complete


class _Suggests(Suggester):
    """The greyed rest of the completion (Textual's suggester, our own rule)."""

    def __init__(self, complete: Complete) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.complete = complete

    async def get_suggestion(self, value: str) -> str | None:
        return self.complete(value)


class CompletingInput(TextInput):
    """A text field that completes its entries: right at its end takes the completion,
    worked out as the key is read (not only the greyed one already shown: a quick
    right after a letter takes it too)."""

    def __init__(self, value: str = "", *, complete: Complete, **kwargs: Any) -> None:
        super().__init__(value, suggester=_Suggests(complete), **kwargs)
        self.complete = complete

    def action_cursor_right(self, select: bool = False) -> None:
        if not select and self.cursor_at_end and self.selection.is_empty:
            completed = self.complete(self.value)
            if completed is not None:
                self.value = completed
                self.cursor_position = len(completed)
                return
        super().action_cursor_right(select)


def parse_skills(text: str) -> dict[str, int]:
    """'Pelea 14, Sigilo 11' -> {'Pelea': 14, 'Sigilo': 11}."""
    skills: dict[str, int] = {}
    for number, chunk in entries(text):
        name, _space, value = chunk.rpartition(" ")
        name = name.strip().rstrip(":=").strip()
        if not name:
            raise FormError("skills", _("Skill {number}, {chunk!r}: write a name and its "
                                        "value, e.g. 'Pelea 14'.").format(number=number,
                                                                          chunk=chunk))
        if any(known.casefold() == name.casefold() for known in skills):
            raise FormError("skills", _("Skill {number}, {chunk!r}: {name} is listed "
                                        "already.").format(number=number, chunk=chunk,
                                                           name=name))
        skills[name] = parse_int(value, "skills", _("Skill {number} ({name})").format(
            number=number, name=name), 0, MAX_STAT)
    return skills


def parse_weapon_list(text: str) -> list[Weapon]:
    """The weapons typed (parsing.parse_weapons), a wrong one named by its number."""
    weapons: list[Weapon] = []
    for number, chunk in entries(text):
        try:
            weapons.extend(parse_weapons(chunk))
        except FormError as error:
            raise FormError("weapons", _("Weapon {number}: {problem}").format(
                number=number, problem=error.message)) from error
    return weapons


def parse_protection(text: str) -> dict[Location, int]:
    """'pecho 2, cabeza 1' -> protection per location (H5)."""
    names = location_names()
    protection: dict[Location, int] = {}
    for number, chunk in entries(text):
        where, _space, value = chunk.rpartition(" ")
        location = names.get(where.strip().casefold())
        if location is None:
            raise FormError("protection", _("Protection {number}, {chunk!r}: write a "
                                            "location and a value, e.g. 'chest 2' "
                                            "({known}).").format(
                number=number, chunk=chunk, known=", ".join(_(loc.label) for loc in Location)))
        if location in protection:
            raise FormError("protection", _("Protection {number}, {chunk!r}: {where} is "
                                            "listed already.").format(
                number=number, chunk=chunk, where=_(location.label)))
        protection[location] = parse_int(value, "protection", _(
            "Protection {number} ({where})").format(number=number, where=where.strip()),
            0, MAX_PROTECTION)
    return protection


def format_skills(skills: dict[str, int]) -> str:
    return ", ".join(f"{name} {value}" for name, value in skills.items())


def format_protection(protection: dict[Location, int]) -> str:
    return ", ".join(f"{_(location.label)} {value}" for location, value in protection.items())


def weapon_words(weapons: Sequence[Weapon]) -> list[str]:
    """The known weapons as the field shows them ("pistola II (Armas cortas)")."""
    return [format_weapons([weapon]) for weapon in weapons]


def location_words() -> list[str]:
    """The locations as the DJ names them, in the language in force (H2)."""
    return [_(location.label) for location in Location]
