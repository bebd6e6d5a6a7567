"""S1: a file the DJ opens that is refused reads wholly in the DJ's language, naming
the place (the key path, the line) and the problem: pydantic's own problems are
translated by their error type with their context values (what a value may be joined
by the language's "or", an object or a list named as JSON names them, never by a
class of the code), the engine's own refusals go through the catalog, and a problem
of a type not listed reads as a general sentence beside its place. The same for a
journal's header and for the preferences file."""

from __future__ import annotations

import errno
import gettext
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sombra_tui import config
from sombra_tui.engine import Combat, StartCombat, i18n, storage
from sombra_tui.engine.errors import SombraError, json_reason, os_reason, problem_message
from sombra_tui.engine.journal import find_journals, recover
from sombra_tui.session import Session
from tests.builders import build_encounter, build_history
from tests.engine.test_journal import encounter, play
from tests.engine.test_storage_carried import party

#: Every ASCII letter of a translated string becomes an accented one (as the app's
#: pseudo-language test does, tests/app/test_pseudo_language.py): a word left in plain
#: letters never went through the catalog.
ACCENTED = str.maketrans("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                         "áƀçđéƒĝĥíĵķĺɱñóþʠŕśţúʋŵẋýźÁƁÇĐÉƑĜĤÍĴĶĹⱮÑÓÞɊŔŚŢÚƲŴẊÝŹ")
UNTOUCHED = re.compile(r"(\{[^{}]*\})")


class Pseudo(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return "".join(part if index % 2 else part.translate(ACCENTED)
                       for index, part in enumerate(UNTOUCHED.split(message)))

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.gettext(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)


SOURCE = "/tmp/partidas/la-partida.json"


def _files() -> list[dict[str, Any]]:
    played = build_encounter(3)
    return [json.loads(storage.dumps(Combat(played, build_history(played, 30)))),
            json.loads(storage.dumps(party(StartCombat())))]


FILES = _files()


def places(data: Any, at: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    """Every key path of `data` (the first two items of each list)."""
    if at:
        yield at
    if isinstance(data, dict):
        for key, value in data.items():
            yield from places(value, (*at, key))
    elif isinstance(data, list):
        for index, value in enumerate(data[:2]):
            yield from places(value, (*at, index))


PLACES = [(number, place) for number, data in enumerate(FILES) for place in places(data)
          if place[0] != "format"]
DELETE = object()
BAD_VALUES = [[1, 2], "zz", 10**30, -5, None, {"q": 1}, DELETE, 1.5, True, "",
              {"template": 5}, [{"template": "x"}]]


def changed(number: int, place: tuple[str | int, ...], value: Any) -> str:
    data = json.loads(json.dumps(FILES[number]))
    inside = data
    for part in place[:-1]:
        inside = inside[part]
    if value is DELETE:
        del inside[place[-1]]
    else:
        inside[place[-1]] = value
    return json.dumps(data)


class Refusal(NamedTuple):
    field: str | None
    message: str


def refusal(text: str, language: str) -> Refusal:
    """Why the file `text` is refused, as read in `language` (the message is rendered
    when read: it is read here, in that language)."""
    i18n.set_language(language, Pseudo() if language == "pseudo" else None)
    try:
        storage.loads(text, source=SOURCE)
    except SombraError as error:
        return Refusal(error.field, error.message)
    finally:
        i18n.set_language("en")
    raise AssertionError("the file loaded")


def file_words(text: str) -> set[str]:
    """The words of the file's own values (names, skills, the value put in), less the
    templates of its messages (English words kept as data)."""
    words: set[str] = set()

    def walk(value: Any, key: object = None) -> None:
        if isinstance(value, dict):
            for inner, each in value.items():
                walk(each, inner)
        elif isinstance(value, list):
            for each in value:
                walk(each, key)
        elif isinstance(value, str) and key not in ("template", "plural"):
            words.update(re.findall(r"[A-Za-z]+", value))
    walk(json.loads(text))
    return words


def plain_words(message: str, text: str, field: str | None) -> list[str]:
    """What of the pseudo-language `message` did not go through the catalog: its plain
    words, less the file's path, the place refused (`field`), what is quoted (the file's
    keys and values), key paths and code-like words (a_b, a.b), JSON's own words and
    the file's own values."""
    left = message.replace(SOURCE, "").replace(f" {place_of(field)}:", " ")
    left = re.sub(r"'[^']*'|\"[^\"]*\"|\{[^{}]*\}", " ", left)
    allowed = file_words(text) | {"null", "true", "false"}
    return [word for word in left.split()
            if re.search(r"[A-Za-z]{2}", word) and not re.search(r"[._\d]", word)
            and re.sub(r"\W", "", word) not in allowed
            and not all(piece in allowed for piece in re.findall(r"[A-Za-z]+", word))]


def place_of(field: str | None) -> str:
    """The place a refusal names, up to a key refused (marked in the DJ's language)."""
    return (field or "").split(".[key]")[0]


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PLACES), st.sampled_from(BAD_VALUES))
def test_s1_every_refusal_of_a_bad_file_reads_in_the_djs_language(
        where: tuple[int, tuple[str | int, ...]], value: Any) -> None:
    """S1: a file with a bad value at any place, or with a key missing there, is
    refused (or loads) with every word of the refusal through the catalog (the
    pseudo-language shows any that is not); in Spanish it reads other words than in
    English and names the same place."""
    number, place = where
    text = changed(number, place, value)
    try:
        english = refusal(text, "en")
    except AssertionError:
        return  # a value the file may hold there
    pseudo = refusal(text, "pseudo")
    assert not plain_words(pseudo.message, text, pseudo.field), pseudo.message
    spanish = refusal(text, "es")
    assert spanish.field == english.field
    if english.field:
        place = place_of(english.field)
        assert (place in spanish.message) == (place in english.message)
    assert spanish.message != english.message
    english_only = set(re.findall(r"[a-z]{4,}", english.message)) - set(
        re.findall(r"[a-z]{4,}", spanish.message)) - file_words(text)
    assert english_only, (english.message, spanish.message)


def with_text(number: int, place: tuple[str | int, ...], value: Any) -> str:
    return changed(number, place, value)


@pytest.mark.parametrize(("place", "value", "says"), [
    (("encounter", "characters", 0, "weapons"), 5, "encounter.characters.0.weapons: "
                                                   "Debe ser una lista"),
    (("encounter", "settings"), [1], "encounter.settings: Debe ser un objeto"),
    (("encounter", "characters", 0, "side"), "X",
     "encounter.characters.0.side: Debe ser 'PC' o 'NPC'"),
    (("encounter", "characters", 0, "protection", "nuca"), 2,
     "encounter.characters.0.protection.nuca.[clave]: Debe ser 'cabeza', 'pecho', "),
    (("commands", 0, "type"), None, "commands.0: La etiqueta null"),
    (("format_version",), None, "no tiene un format_version válido (se encontró null)"),
])
def test_s1_pydantic_problems_read_in_spanish_by_their_type(
        spanish: str, place: tuple[str | int, ...], value: Any, says: str) -> None:
    """S1: a list, an object, the values allowed, a key refused, a tag missing, the
    version: in Spanish, with the place, and no class name of the code."""
    error = refusal(changed(0, place, value), "es")
    assert says in error.message
    assert not re.search(r"\b(or|array|dictionary|instance|None|Encounter|Settings)\b",
                         error.message), error.message


def test_s1_a_stored_message_that_is_a_list_is_refused_in_the_djs_language() -> None:
    """S1: a waiting hit's words in the snapshot (a message, H11) that are a list: the
    refusal names the place in Spanish; it used to be English only ("expected a
    message")."""
    data = json.loads(json.dumps(FILES[1]))
    data["snapshot"]["deferred_hits"] = [{"proposal_id": 1, "target": "Ana", "group": 1,
                                          "assessments": [], "cause": "porra",
                                          "text": [{"template": "x"}]}]
    error = refusal(json.dumps(data), "es")
    assert error.field == "snapshot.deferred_hits.0.text"
    assert ("snapshot.deferred_hits.0.text: Debe ser un mensaje: un objeto con "
            '"template" y "params"') in error.message
    assert "expected" not in error.message


def test_s1_a_number_too_long_for_json_is_refused_in_spanish() -> None:
    error = refusal('{"format": "sombra-tui encounter", "x": ' + "1" * 5000 + "}", "es")
    assert error.message == (f"{SOURCE} no es un archivo JSON utilizable (un número tiene "
                             "demasiadas cifras).")


def test_s1_a_json_reason_not_listed_reads_as_a_general_one(spanish: str) -> None:
    assert json_reason("Expecting something new") == "algo ahí no se puede leer"


def test_s1_a_pydantic_problem_of_a_type_not_listed_names_no_english(spanish: str) -> None:
    """S1: a type with no sentence of its own reads the general sentence in Spanish, and
    pydantic's own words in English; an error of the engine's own keeps its words."""
    problem = {"type": "uuid_parsing", "msg": "Input should be a valid UUID", "loc": ("x",)}
    assert problem_message(problem) == "Este valor no es válido aquí"
    own = {"type": "formula.unknown_name", "msg": "Nombre desconocido", "loc": ("x",)}
    assert problem_message(own) == "Nombre desconocido"
    i18n.set_language("en")
    assert problem_message(problem) == "Input should be a valid UUID"


def test_s1_a_journal_header_with_a_bad_value_reads_in_spanish(tmp_path: Path,
                                                               spanish: str) -> None:
    """S1: the crash journal's first line with a list for its encounter: line 1, its
    place, in Spanish."""
    session = Session.new(encounter())
    session.start_journal(tmp_path)
    play(session)
    [journal] = find_journals(tmp_path)
    lines = journal.read_text(encoding="utf-8").split("\n")
    header = json.loads(lines[0])
    header["encounter"]["characters"] = {"Ana": 1}
    journal.write_text("\n".join([json.dumps(header), *lines[1:]]), encoding="utf-8")
    with pytest.raises(SombraError) as raised:
        recover(journal)
    assert "línea 1" in raised.value.message
    assert "encounter.characters: Debe ser una lista" in raised.value.message


def test_s1_preferences_that_are_not_utf8_are_named_in_spanish(tmp_path: Path,
                                                               spanish: str) -> None:
    path = tmp_path / "preferences.json"
    path.write_bytes(b'{"theme": "\xff"}')
    warning = config.load_preferences(path).warning
    assert warning == (f"No se pudo leer {path} (no es texto UTF-8, byte 11); se usan las "
                       "preferencias por omisión.")


def test_s1_a_journal_folder_that_cannot_be_made_is_named_in_spanish(
        tmp_path: Path, spanish: str) -> None:
    """S1: the system's reason (a part of the path is a file) in the DJ's words, not
    the system's English ("Not a directory")."""
    blocker = tmp_path / "archivo"
    blocker.write_text("x", encoding="utf-8")
    session = Session.new(encounter())
    session.start_journal(blocker / "diario")
    assert session.journal_problem is not None
    assert "una parte de la ruta no es una carpeta" in session.journal_problem
    assert "directory" not in session.journal_problem


@pytest.mark.parametrize(("number", "says"), [
    (errno.EACCES, "permiso denegado"), (errno.ENOSPC, "el disco está lleno"),
    (errno.EROFS, "el disco es de solo lectura"), (errno.ENOENT, "no existe"),
    (errno.EXDEV, f"el sistema lo ha rechazado (error {errno.EXDEV})"),
])
def test_s1_the_systems_reasons_read_in_spanish(spanish: str, number: int,
                                                says: str) -> None:
    """S1: why the system refused a file, in Spanish; in English its own words."""
    error = OSError(number, os.strerror(number))
    assert os_reason(error) == says
    i18n.set_language("en")
    assert os_reason(error) == os.strerror(number)



def test_s1_a_history_that_does_not_replay_names_the_command_in_the_djs_words() -> None:
    """S1: the command that does not replay is named as undo names it, in Spanish
    ("declarar (...)"), not by the file's code name ("declare")."""
    data = json.loads(json.dumps(FILES[0]))
    first = data["commands"].pop(0)
    assert first["type"] == "start_combat"
    declarer = data["commands"][0]["character"]
    spanish = refusal(json.dumps(data), "es").message
    assert f"La orden 1 del historial (declarar ({declarer})) no se puede reproducir: " \
        in spanish
    english = refusal(json.dumps(data), "en").message
    assert f"Command 1 of the history (declare ({declarer})) does not replay: " in english


def test_s1_a_bad_preference_names_its_problem_in_spanish(tmp_path: Path,
                                                          spanish: str) -> None:
    """S1: the preferences file's bad value is named with what is wrong with it, in the
    DJ's language (it named the key alone)."""
    path = tmp_path / "preferences.json"
    path.write_text(json.dumps({"theme": 7, "show_odds": "sí"}), encoding="utf-8")
    loaded = config.load_preferences(path)
    assert loaded.preferences.theme == config.Preferences().theme
    assert loaded.warning == (f"{path} tiene un valor erróneo en 'show_odds', 'theme' "
                              "(theme: Debe ser un texto); se usa el valor por omisión en "
                              "su lugar.")


@pytest.mark.parametrize(("place", "value", "english", "spanish"), [
    (("encounter", "name"), "", "String should have at least 1 character",
     "Debe tener al menos 1 carácter"),
    (("encounter", "characters", 0, "weapons"), [{"name": "x"}] * 21,
     "The list should have at most 20 items, not 21",
     "La lista debe tener como mucho 20 elementos, no 21"),
    (("encounter", "settings"), 5, "Input should be an object", "Debe ser un objeto"),
])
def test_s1_a_length_and_an_object_read_alike_in_both_languages(
        place: tuple[str | int, ...], value: Any, english: str, spanish: str) -> None:
    """S1: a text or a list of the wrong length counted in words that agree with the
    number ("1 character", not "1 characters"), in both languages; an object is called
    so in English too (never by a class of the code, such as Settings)."""
    text = changed(0, place, value)
    where = ".".join(map(str, place))
    assert f"{where}: {english}" in refusal(text, "en").message
    assert f"{where}: {spanish}" in refusal(text, "es").message


def test_s1_a_form_of_the_code_reads_no_class_name_in_english() -> None:
    """The same table for a form's data (pydantic's Python reading): no "instance of
    Character" in English either."""
    from pydantic import ValidationError

    from sombra_tui.engine.commands import AddCharacter
    from sombra_tui.engine.errors import validation_problems

    with pytest.raises(ValidationError) as caught:
        AddCharacter.model_validate({"character": 5})
    [problem] = validation_problems(caught.value)
    assert problem.message == "Input should be an object"
