"""No string left behind (issue 12 item 4): every screen and dialog rendered in a
pseudo-language that marks each translated string ⟦like this⟧; any visible word
outside the marks did not pass through the catalog.

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

from sombra_tui import screenshots as shots
from sombra_tui.app import SombraApp
from sombra_tui.engine import i18n
from sombra_tui.screens.dialogs import (
    CharacterEditor,
    ChoiceDialog,
    ConfirmDialog,
    FileDialog,
    FreeTADialog,
    SettingsDialog,
)
from tests.app.test_snapshots import STATES

OPEN, CLOSE = "⟦", "⟧"


class PseudoTranslations(gettext.NullTranslations):
    """Every message wrapped in ⟦ ⟧: what shows unwrapped never went through `_`."""

    def gettext(self, message: str) -> str:
        return f"{OPEN}{message}{CLOSE}"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"{OPEN}{msgid1 if n == 1 else msgid2}{CLOSE}"

    def pgettext(self, context: str, message: str) -> str:
        return f"{OPEN}{message}{CLOSE}"


#: Words that are not the app's to translate: key names shown by the footer and the
#: buttons' key hints, the game's abbreviations, the app's own name.
ALLOWED_WORDS = {
    "TA", "GD", "dS", "DJ", "sombra-tui", "sombra", "tui",
    "space", "enter", "esc", "escape", "tab", "ctrl", "delete", "del", "shift",
    "^p", "^s", "^q", "^o", "^z", "^y", "^n", "^r", "^t", "^b",
}
WORD = re.compile(r"[^\W\d_]{2,}")


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
        texts += [character.name, character.notes, *character.skills]
    for declaration in state.declarations.values():
        texts += [action.description for action in declaration.actions]
    texts += [event.params.get(key, "") for event in app.session.combat.log
              for key in ("description", "what") if isinstance(event.params.get(key), str)]
    texts += ["vigila la puerta del almacén", "golpea a Iker con una barra",
              "se tira tras las cajas y dispara a Bruno", "encuentro", "emboscada-en-el-muelle",
              "json", "tmp", "data", "config", "pytest", "root", "of"]
    return {word for text in texts for word in WORD.findall(text)}


def unmarked(app: SombraApp) -> list[str]:
    text = screen_text(app)
    # A marked string may wrap or be cut at a panel's edge: drop what lies between the
    # marks, and an opening mark's text up to the end of its line.
    text = re.sub(f"{OPEN}[^{CLOSE}]*{CLOSE}", " ", text, flags=re.S)
    text = re.sub(f"{OPEN}[^\n]*", " ", text)
    text = re.sub(f"^[^{OPEN}\n]*{CLOSE}", " ", text, flags=re.M)  # the tail of a wrap
    allowed = ALLOWED_WORDS | typed_words(app)
    return sorted({word for word in WORD.findall(text) if word not in allowed})


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
    "free_ta": dialog(shots.start, "f", FreeTADialog),
}


@pytest.mark.parametrize("size", [shots.SIZE, (80, 24)], ids=["120x40", "80x24"])
@pytest.mark.parametrize("driver", SCREENS.values(), ids=SCREENS.keys())
async def test_every_visible_word_went_through_the_catalog(driver: Driver,
                                                           size: tuple[int, int]) -> None:
    app = shots.make_app(size=size)
    i18n.set_language("pseudo", PseudoTranslations())
    async with app.run_test(size=size) as pilot:
        await driver(pilot)
        await shots.settle(pilot)
        left = unmarked(app)
        assert not left, f"not through the catalog: {left}\n{screen_text(app)}"


async def test_the_pseudo_language_marks_what_it_translates() -> None:
    """The check itself: English shown as it is would be caught."""
    app = shots.make_app()
    async with app.run_test(size=shots.SIZE) as pilot:
        await shots.settle(pilot)
        assert "Initiative" in unmarked(app)
