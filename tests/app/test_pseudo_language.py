"""No string left behind (issue 12 item 4): every screen and dialog rendered in a
pseudo-language that accents every letter of each translated string; any visible
word in plain letters did not pass through the catalog.

What may show unmarked: the names and texts the DJ typed (characters, skills, the
encounter, descriptions), numbers and dice, the game's own abbreviations (TA, GD,
dS...), key names (they are keys, not words) and the drawing symbols.
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Markdown

from sombra_tui import config
from sombra_tui.app import SombraApp
from sombra_tui.engine import i18n
from sombra_tui.screens.dialogs import (
    CharacterEditor,
    ChoiceDialog,
    ConfirmDialog,
    FileDialog,
    FreeTADialog,
    HelpScreen,
    SettingsDialog,
)
from tests.app import drivers as shots
from tests.app.test_snapshots import STATES

#: Every ASCII letter of a translated string becomes a look-alike accented one; what
#: shows in plain ASCII letters never went through `_`. (Accents survive wrapping,
#: cropping and Markdown tables, where brackets round a string would not.)
ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçđéƒĝĥíĵķĺɱñóþʠŕśţúʋŵẋýźÁƁÇĐÉƑĜĤÍĴĶĹⱮÑÓÞɊŔŚŢÚƲŴẊÝŹ")
#: Placeholders ({name}, %(prog)s) and Rich markup ([b]) stay as they are.
UNTOUCHED = re.compile(r"(\{[^{}]*\}|%\([^)]*\)[a-z]|\[/?[a-z ]*\])")


def accent(message: str) -> str:
    parts = UNTOUCHED.split(message)
    return "".join(part if index % 2 else part.translate(ACCENTED)
                   for index, part in enumerate(parts))


class PseudoTranslations(gettext.NullTranslations):
    """The pseudo-language: every message accented (see ACCENTED)."""

    def gettext(self, message: str) -> str:
        return accent(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return accent(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return accent(message)


#: Words that are not the app's to translate: key names shown by the footer and the
#: buttons' key hints, the app's own name.
ALLOWED_WORDS = {
    "sombra", "tui", "space", "enter", "esc", "escape", "tab", "ctrl", "delete", "del",
    "shift",
    # The game's own terms and abbreviations, the same in both languages.
    "TA", "GD", "dS", "DJ", "Alerta",
    # Sections H and C: the game's terms (G and W of PV, tipos, severities, conditions).
    "PV", "tipo", "Resistencia", "leve", "grave", "sin", "importancia", "aturdido",
    "inconsciente", "dolor", "intenso", "desarmado", "sangrando", "muerto", "asalto",
    "asaltos", "II", "III", "IV", "VI", "VII", "VIII",  # the damage types' numerals (H3)
    # Each language is named in itself in the settings and the palette.
    "Español", "English",
}
#: A word (letters only; a translated word has no plain ASCII letters in it).
WORD = re.compile(r"[^\W\d_]+")
PLAIN = re.compile(r"[A-Za-z]{2}")


def screen_text(app: SombraApp) -> str:
    """The screen as plain text, as the SVG screenshots would draw it."""
    console = Console(width=app.size.width, height=app.size.height, file=io.StringIO(),
                      force_terminal=True, color_system="truecolor", record=True,
                      legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return console.export_text()


def typed_words(app: SombraApp) -> set[str]:
    """Everything the DJ typed: names, skills, notes, the encounter, the actions."""
    state = app.session.combat.state
    texts = [state.name]
    for character in state.characters:
        texts += [character.name, character.notes, *character.skills,
                  *(weapon.name for weapon in character.weapons)]  # the DJ's weapons (H1)
    for body in state.bodies.values():  # condition names: game terms or the DJ's own (C2)
        texts += [condition.name for condition in body.conditions]
        texts += [wound.cause for wound in body.wounds]
    for declaration in state.declarations.values():
        texts += [action.description for action in declaration.actions]
    texts += [event.params.get(key, "") for event in app.session.combat.log
              for key in ("description", "what") if isinstance(event.params.get(key), str)]
    texts += [str(config.data_dir()), str(config.config_dir())]
    texts += ["vigila la puerta del almacén", "golpea a Iker con una barra",
              "se tira tras las cajas y dispara a Bruno", "encuentro", "emboscada-en-el-muelle",
              "json", "tmp", "data", "config", "pytest", "root", "of"]
    return {word for text in texts for word in re.findall(r"\w+", text)}


def unmarked(app: SombraApp) -> list[str]:
    typed = typed_words(app)
    text = screen_text(app)
    return sorted({word for word in WORD.findall(text) if PLAIN.search(word)
                   and word not in ALLOWED_WORDS and word not in typed
                   # a typed word cut at a panel's edge (or by a dialog over it): any
                   # piece of 3 letters or more, or its first or last 2 letters
                   and not (len(word) >= 3 and any(word in each for each in typed))
                   and not (len(word) == 2 and any(each.startswith(word)
                                                   or each.endswith(word)
                                                   for each in typed))})


Driver = Callable[[Pilot[Any]], Awaitable[None]]


async def press_and_wait(pilot: Pilot[Any], key: str, kind: type) -> None:
    await pilot.press(key)
    await shots.wait_for_screen(pilot, kind, f"opening {kind.__name__}")
    await shots.settle(pilot)


def dialog(before: Driver, key: str, kind: type) -> Driver:
    async def drive(pilot: Pilot[Any]) -> None:
        await before(pilot)
        await press_and_wait(pilot, key, kind)
    return drive


async def after_a_change(pilot: Pilot[Any]) -> None:
    await shots.start(pilot)


async def edit_character(pilot: Pilot[Any]) -> None:
    await shots.settle(pilot)
    await press_and_wait(pilot, "e", CharacterEditor)


SCREENS: dict[str, Driver] = {
    **STATES,
    "declaration_editor": shots.declaration_editor,
    "round_two": shots.round_two,
    "settings": dialog(shots.settle, "g", SettingsDialog),
    "new_character": dialog(shots.settle, "a", CharacterEditor),
    "edit_character": edit_character,
    "save_as": dialog(shots.settle, "f2", FileDialog),
    "open": dialog(shots.settle, "ctrl+o", FileDialog),
    "remove": dialog(shots.settle, "delete", ConfirmDialog),
    "quit_unsaved": dialog(after_a_change, "q", ChoiceDialog),
    "new_unsaved": dialog(after_a_change, "ctrl+n", ChoiceDialog),
    "free_ta": dialog(shots.start, "f", FreeTADialog),
}


#: The pseudo-language back to plain letters: what a DJ would read, less the accents.
PLAIN_LETTERS = {accented: plain for plain, accented in ACCENTED.items()}
#: A rule citation: a section letter and the rule's number (RULES.md's ids).
CITATION = re.compile(r"\b[TIDPEOSHC][0-9]{1,2}\b")


@pytest.mark.parametrize("driver", SCREENS.values(), ids=SCREENS.keys())
async def test_every_visible_word_went_through_the_catalog(driver: Driver) -> None:
    """And no screen but the help cites a rule id (the project's standard), read
    with the accents taken off: every message the screen shows, whether or not it
    went through the catalog. (The Spanish translations are checked for citations in
    tests/app/test_no_rule_ids.py; text that skips the catalog reads the same in
    every language.)"""
    size = shots.SIZE
    app = shots.make_app(size=size, resume=driver)
    i18n.set_language("pseudo", PseudoTranslations())
    async with app.run_test(size=size) as pilot:
        await driver(pilot)
        await shots.settle(pilot)
        left = unmarked(app)
        text = screen_text(app)
        assert not left, f"not through the catalog: {left}\n{text}"
        read = text.translate(PLAIN_LETTERS)
        if isinstance(app.screen, HelpScreen):
            # The check itself: the help's rules summary (below its key tables) cites.
            source = app.screen.query_one(Markdown).source.translate(PLAIN_LETTERS)
            assert CITATION.search(source), source
        else:
            assert not CITATION.findall(read), read


async def test_the_pseudo_language_marks_what_it_translates() -> None:
    """The check itself: English shown as it is would be caught."""
    app = shots.make_app()
    async with app.run_test(size=shots.SIZE) as pilot:
        await shots.settle(pilot)
        assert "Initiative" in unmarked(app)
