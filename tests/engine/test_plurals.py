"""Counts in the engine's own log lines take the catalog's plural forms (issue 22):
"1 asalto", never "1 asaltos", in English and in Spanish, and a counted message keeps
its plural through a save (text_data) so it still agrees once read back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir

from sombra_tui.engine import i18n
from sombra_tui.engine.commands import AddCondition, ImportCharacters
from sombra_tui.engine.conditions import Condition
from sombra_tui.engine.history import Combat
from sombra_tui.engine.i18n import lazy, text_data, text_from_data
from sombra_tui.engine.model import Character, Encounter

ENGINE = Path(i18n.__file__).resolve().parent


def combat() -> Combat:
    started = Combat(Encounter(name="Prueba", seed=3, characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14),
        Character(name="Bruno", primaria=12, secundaria=5, alerta=12)]))
    started.execute(started.start_command())
    return started


def last_line(fight: Combat) -> str:
    return fight.log[-1].text


@pytest.mark.parametrize("language, one, two", [
    ("en", "(1 asalto: round 2)", "(2 asaltos: rounds 2-3)"),
    ("es", "(1 asalto: asalto 2)", "(2 asaltos: asaltos 2-3)"),
])
def test_a_condition_line_counts_its_asaltos(language: str, one: str, two: str) -> None:
    """C3: a condition added in round 1 covers the next round(s): 1 asalto, 2 asaltos."""
    i18n.set_language(language)
    fight = combat()
    fight.execute(AddCondition(character="Ana", condition=Condition(name="aturdido",
                                                                    duration=1)))
    assert one in last_line(fight)
    fight.execute(AddCondition(character="Bruno", condition=Condition(name="aturdido",
                                                                      duration=2)))
    assert two in last_line(fight)


@pytest.mark.parametrize("language, one, two", [
    ("en", "Imported 1 character.", "Imported 2 characters."),
    ("es", "Importado 1 personaje.", "Importados 2 personajes."),
])
def test_an_import_counts_its_characters(language: str, one: str, two: str) -> None:
    i18n.set_language(language)
    fight = Combat(Encounter(name="Prueba", seed=3))
    fight.execute(ImportCharacters(characters=[Character(name="Ana", primaria=8,
                                                         secundaria=3, alerta=14)]))
    assert last_line(fight) == one
    fight.execute(ImportCharacters(characters=[
        Character(name="Bruno", primaria=12, secundaria=5, alerta=12),
        Character(name="Carla", primaria=15, secundaria=2, alerta=13)]))
    assert last_line(fight) == two


@pytest.mark.parametrize("rate, english, spanish", [
    (1, "bleeds 1 point every 1 asalto until attended",
     "sangra 1 punto cada 1 asalto hasta que se atienda"),
    (5, "bleeds 1 point every 5 asaltos until attended",
     "sangra 1 punto cada 5 asaltos hasta que se atienda"),
])
def test_a_counted_message_agrees_in_both_languages_and_after_a_save(
        rate: int, english: str, spanish: str) -> None:
    message = lazy.ngettext("bleeds 1 point every {rate} asalto until attended",
                            "bleeds 1 point every {rate} asaltos until attended",
                            "rate", rate=rate)
    reread = text_from_data(text_data(message))
    assert reread == message
    assert message.english() == english
    assert str(reread) == english
    i18n.set_language("es")
    assert str(message) == str(reread) == spanish
    assert message.english() == english


def test_a_counted_message_names_a_param_it_has() -> None:
    with pytest.raises(KeyError):
        lazy.ngettext("{count} asalto", "{count} asaltos", "rate", count=1)


def test_no_engine_message_counts_without_a_plural_form() -> None:
    """A msgid of the engine that puts a number before a counted word ("{rate} asaltos")
    is a plural entry (lazy.ngettext or ngettext), never a plain one. Limits ("at most
    {max} characters") and fractions ("{counted}/{duration} asaltos", counted by the
    denominator's plural entry) are not counts of their own."""
    counted = re.compile(r"(?<![/\w])\{\w+\}( \{\w+\})? (asaltos|rounds|characters|points|"
                         r"steps|successes|wounds|reacciones|dice|hours)\b")
    limit = re.compile(r"(at most|at least|longer than|too long \(|has no) \{\w+\}")
    plain = []
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(ENGINE), [("**.py", "python")], keywords={**DEFAULT_KEYWORDS, "N_": None}):
        if isinstance(message, str) and counted.search(message) and not limit.search(message):
            plain.append(message)
    assert plain == []
