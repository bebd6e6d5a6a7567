"""The Spanish catalog (issue 12 item 1): the shipped .mo is compiled from the .po,
every marked string has a Spanish translation, placeholders agree."""

from __future__ import annotations

import gettext
import io
import re
import string
from pathlib import Path

import pytest
from babel.messages import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

import sombra_tui
from sombra_tui.engine import i18n

PACKAGE = Path(sombra_tui.__file__).resolve().parent
ROOT = PACKAGE.parent
PO = PACKAGE / "locale" / "es" / "LC_MESSAGES" / "sombra_tui.po"
MO = PO.with_suffix(".mo")
#: The keywords babel.cfg's extraction uses (pybabel's defaults include _, N_, ngettext).
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


def read_catalog() -> Catalog:
    with PO.open("rb") as handle:
        return read_po(handle, locale="es")


def marked_messages() -> set[tuple[str, str | None]]:
    """Every string marked in sombra_tui with its context (pgettext), extracted in memory
    as pybabel would."""
    found: set[tuple[str, str | None]] = set()
    method_map = [("**.py", "python")]
    for _filename, _lineno, message, _comments, context in extract_from_dir(
            str(PACKAGE), method_map=method_map, keywords=KEYWORDS):
        # A plural (ngettext) is found by its singular, the catalog's key.
        first = message[0] if isinstance(message, tuple) else message
        if first:
            found.add((first, context or None))
    return found


def marked_strings() -> set[str]:
    """Every string marked in sombra_tui, extracted in memory as pybabel would."""
    return {text for text, _context in marked_messages()}


def placeholders(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text)
            if name is not None}


def messages(catalog: Catalog) -> dict[object, object]:
    def key(value: object) -> object:
        return tuple(value) if isinstance(value, list | tuple) else value
    return {key(message.id): key(message.string) for message in catalog if message.id}


def test_mo_is_compiled_from_the_po() -> None:
    """The committed .mo holds exactly what compiling the committed .po gives."""
    compiled = io.BytesIO()
    write_mo(compiled, read_catalog())
    compiled.seek(0)
    with MO.open("rb") as handle:
        shipped = read_mo(handle)
    assert messages(shipped) == messages(read_mo(compiled)), (
        "sombra_tui.mo is out of date: run pybabel compile (README, Translations)")


def test_every_marked_string_has_a_spanish_translation() -> None:
    catalog = read_catalog()
    missing = []
    for text, context in sorted(marked_messages(), key=lambda found: (found[0],
                                                                       found[1] or "")):
        message = catalog.get(text, context=context)
        if message is None or not message.string or message.fuzzy or (
                isinstance(message.string, tuple) and not all(message.string)):
            missing.append(text)
    assert not missing, f"{len(missing)} marked strings lack Spanish: {missing[:20]}"


def test_placeholders_agree_between_english_and_spanish() -> None:
    wrong = []
    for message in read_catalog():
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        expected = set().union(*(placeholders(each) for each in ids))
        for each in strings:
            if each and placeholders(each) != expected and not (
                    len(ids) > 1 and placeholders(each) <= expected):
                wrong.append((message.id, each))
    assert not wrong, wrong[:10]


def test_the_catalog_ships_inside_the_package() -> None:
    """The .mo is under sombra_tui/ (the wheel packages sombra_tui) and not git-ignored."""
    assert MO.is_file()
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8")
    assert not re.search(r"^\*?\.?mo$|\*\.mo", ignored, re.M)
    assert isinstance(gettext.translation(i18n.DOMAIN, i18n.LOCALE_DIR, languages=["es"]),
                      gettext.GNUTranslations)


@pytest.mark.parametrize(("environ", "expected"), [
    ({}, "es"),
    ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANG": "es_ES.UTF-8"}, "es"),
    ({"LANG": "C.UTF-8"}, "es"),
    ({"LANG": "fr_FR.UTF-8"}, "es"),
    ({"LC_MESSAGES": "en_US.UTF-8", "LANG": "es_ES.UTF-8"}, "en"),
    ({"LC_ALL": "es_MX.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, "es"),
    ({"LANGUAGE": "fr:en", "LC_ALL": "es_ES.UTF-8"}, "en"),
])
def test_the_locale_decides_when_nothing_else_does(environ: dict[str, str],
                                                   expected: str) -> None:
    assert i18n.choose_language(None, None, environ) == expected


def test_lang_beats_the_preference_which_beats_the_locale() -> None:
    environ = {"LANG": "en_US.UTF-8"}
    assert i18n.choose_language("es", "en", environ) == "es"
    assert i18n.choose_language(None, "es", environ) == "es"
    assert i18n.choose_language(None, None, environ) == "en"


def test_spanish_speaks_spanish_and_english_the_source(spanish: str) -> None:
    assert i18n._("Save") == "Guardar"
    i18n.set_language("en")
    assert i18n._("Save") == "Save"
