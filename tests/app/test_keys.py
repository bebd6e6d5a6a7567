"""Keys declared once (sombra_tui/keys.py): the bindings, footer, help, palette and
README come from the one list; the DJ's keymap in the preferences rebinds keys, and a
bad rebinding warns at start-up and keeps the default (issue 12 item 5)."""

from __future__ import annotations

import importlib
import inspect
import io
import json
import pkgutil
import re
from pathlib import Path

import pytest
from rich.console import Console
from textual.binding import Binding
from textual.command import CommandPalette
from textual.dom import DOMNode
from textual.widgets import Button, Label, Markdown, Static

import sombra_tui
from sombra_tui import keys
from sombra_tui.app import SombraApp
from sombra_tui.engine import commands as c
from sombra_tui.engine import i18n
from sombra_tui.engine.model import Action, Character, Encounter, Settings, Side
from sombra_tui.engine.state import Phase
from sombra_tui.engine.wounds import Location
from sombra_tui.screens.dialogs import (
    CharacterEditor,
    ConfirmDialog,
    DeclarationEditor,
    HelpScreen,
    ReactionDialog,
)
from sombra_tui.screens.dialogs.help import help_text
from sombra_tui.widgets.declaration_queue import DeclarationQueue
from sombra_tui.widgets.footer import footer_keys
from tests.app.conftest import (
    SIZE,
    Dirs,
    field_error,
    focus,
    make_app,
    notifications,
    on_main_screen,
    session_after,
    type_text,
)

README = Path(__file__).resolve().parents[2] / "README.md"


def our_classes() -> list[type[DOMNode]]:
    """Every app, screen and widget class of sombra_tui."""
    found: dict[str, type[DOMNode]] = {}
    for module_info in pkgutil.walk_packages(sombra_tui.__path__, "sombra_tui."):
        if module_info.name.endswith("__main__"):
            continue
        module = importlib.import_module(module_info.name)
        for _name, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, DOMNode) and value.__module__.startswith("sombra_tui"):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return list(found.values())


def test_every_binding_of_the_app_comes_from_the_registry() -> None:
    """A binding written anywhere but keys.py (say a new key on main) fails here."""
    used: set[str] = set()
    for cls in our_classes():
        for binding in cls.__dict__.get("BINDINGS", []):
            assert isinstance(binding, Binding), f"{cls.__name__}: {binding!r}"
            assert binding.id in keys.BY_ID, \
                f"{cls.__name__} binds {binding.key!r} outside sombra_tui/keys.py"
            key = keys.BY_ID[binding.id]
            assert (binding.key, binding.action, binding.description) == (
                key.keys, key.action, key.description)
            used.add(binding.id)
    assert used == set(keys.BY_ID), "registry entries no class binds"


def test_the_registry_is_consistent() -> None:
    assert len(keys.BY_ID) == len(keys.KEYS)  # ids are unique
    assert keys.clashes({}) == []  # no two defaults share a key where both apply
    for key in keys.KEYS:
        assert keys.normalize_keys(key.keys) == key.keys, key.id  # Textual's names
        assert key.description and key.help


@pytest.mark.parametrize(("readme", "language"), [("README.md", "en"), ("README.es.md", "es")])
def test_readme_key_table_is_the_registry(readme: str, language: str) -> None:
    block = re.search(r"<!-- keys -->\n(.*?)\n<!-- /keys -->",
                      (README.parent / readme).read_text("utf-8"), re.S)
    assert block is not None, f"{readme} has no <!-- keys --> block"
    i18n.set_language(language)
    assert block.group(1) == keys.key_table(), \
        f"{readme}'s key table is out of date: paste `python -m sombra_tui.keys {language}`"


def test_help_lists_every_binding_with_its_description() -> None:
    text = help_text()
    for key in keys.KEYS:
        assert f"| {keys.keys_in_force(key.id, {})} | {key.help} |" in text
    assert "## Declarations and reacciones (D)" in text  # the rules summary follows


def test_palette_commands_are_the_registry_s() -> None:
    from sombra_tui.screens.main import MainScreen

    bound = {binding.action for binding in MainScreen.BINDINGS
             if isinstance(binding, Binding)}
    assert bound == {key.action for key in keys.palette_keys(keys.Scope.MAIN)}
    for key in keys.palette_keys(keys.Scope.APP):
        assert callable(getattr(SombraApp, f"action_{key.action}"))


@pytest.mark.parametrize(("typed", "name"), [
    ("?", "question_mark"), ("F2", "f2"), ("Ctrl+s", "ctrl+s"), ("ctrl+X", "ctrl+X"),
    ("d, ctrl+d", "d,ctrl+d"),
    ("A", "A"), ("shift+tab", "shift+tab"), ("ctrl+?", "ctrl+question_mark"),
    ("+", "plus"), ("plus", "plus")])
def test_keys_are_read_in_textual_names(typed: str, name: str) -> None:
    assert keys.normalize_keys(typed) == name


@pytest.mark.parametrize("typed", ["", "ctrl+", "ctrl+foo", "hyperspace", "ctrl+ctrl+a",
                                   "d,", " ", "alt+x+y"])
def test_malformed_keys_are_refused(typed: str) -> None:
    assert keys.normalize_keys(typed) is None


def test_resolve_refuses_unknown_ids_bad_keys_and_clashes_keeping_defaults() -> None:
    resolved = keys.resolve_keymap({"declar": "ctrl+d", "undo": "ctrl+", "roll": 3,
                                    "declare": "r", "help": "F1", "redo": ["U", "ctrl+r"]})
    assert resolved.keymap == {"help": "f1", "redo": "U,ctrl+r"}
    unknown, bad_undo, bad_roll, clash = resolved.problems
    assert "'declar' is not a key binding" in unknown and "'declare'?" in unknown
    assert "'ctrl+'" in bad_undo and "keeping u, ctrl+z" in bad_undo
    assert "3 for 'roll' is not a key" in bad_roll and "keeping t" in bad_roll
    assert "'declare', 'react' would share r on the main screen" in clash
    assert "keeping the default (declare d)" in clash


def test_a_swap_is_no_clash_and_a_revert_that_uncovers_one_is_caught() -> None:
    # Two keys swapped: each id rebound, no key shared.
    assert keys.resolve_keymap({"roll": "y", "type_dice": "t"}).problems == []
    # 'roll' to x clashes with decline: 'roll' keeps t, so 'type_dice' on t clashes too.
    resolved = keys.resolve_keymap({"roll": "x", "type_dice": "t"})
    assert resolved.keymap == {}
    assert len(resolved.problems) == 2


def write_keys(dirs: Dirs, keymap: dict[str, object]) -> None:
    dirs.config.mkdir(parents=True, exist_ok=True)
    (dirs.config / "preferences.json").write_text(json.dumps({"keys": keymap}), "utf-8")


async def test_a_rebinding_from_the_preferences_works(app_dirs: Dirs) -> None:
    write_keys(app_dirs, {"declare": "ctrl+d", "help": "F1", "command_palette": "f9",
                          "next_step": "n", "add_character": "k"})
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        assert notifications(app) == []
        await pilot.press("space")  # no longer the next step
        assert app.session.combat.state.phase is Phase.SETUP
        await pilot.press("k")
        assert isinstance(app.screen, CharacterEditor)
        await pilot.press("escape")
        await pilot.press("n")  # start: Ana declares first
        assert app.session.combat.state.phase is Phase.DECLARATION
        footer = {key.action: key.key_display for key in footer_keys(app.screen)}
        assert footer["declare"] == "^d"
        assert footer["command_palette"] == "f9"
        await pilot.press("d")  # the old key does nothing now
        assert on_main_screen(app)
        await pilot.press("ctrl+d")
        assert isinstance(app.screen, DeclarationEditor)
        await pilot.press("escape")
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        help_shown = app.screen.query_one(Markdown).source
        assert "| ctrl+d | The current character declares |" in help_shown
        assert "| F1 | Keys and rules summary |" in help_shown
        palette = {command.title: command.help for command in
                   app.get_system_commands(app.main_screen)}
        assert palette["Declare"].endswith("(ctrl+d)")
        await pilot.press("escape", "f9")
        assert CommandPalette.is_open(app)


async def test_a_clash_or_unknown_id_warns_at_start_up_and_keeps_the_default(
        app_dirs: Dirs) -> None:
    write_keys(app_dirs, {"declare": "r", "dance": "k", "undo": "ctrl+"})
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        warnings = [message for severity, message in notifications(app)
                    if severity == "warning"]
        assert len(warnings) == 3
        assert any("'dance' is not a key binding" in w for w in warnings)
        assert any("'ctrl+' for 'undo' is not a key" in w for w in warnings)
        assert any("'declare', 'react' would share r" in w for w in warnings)
        assert all(str(app_dirs.config / "preferences.json") in w for w in warnings)
        await pilot.press("space")
        await pilot.press("d")  # declare kept its key
        assert isinstance(app.screen, DeclarationEditor)
        await pilot.press("escape")
        before = len(app.session.combat.commands)
        await pilot.press("u")  # undo kept its key: the start is undone
        assert len(app.session.combat.commands) == before - 1


async def test_changing_the_theme_keeps_the_rebindings(app_dirs: Dirs) -> None:
    write_keys(app_dirs, {"declare": "ctrl+d"})
    app = SombraApp(cursor_blink=False, journal=False, prepare_dialogs=False)  # remembers the theme
    async with app.run_test(size=SIZE) as pilot:
        app.theme = "papel"
        await pilot.pause()
    saved = json.loads((app_dirs.config / "preferences.json").read_text("utf-8"))
    assert saved["theme"] == "papel" and saved["keys"] == {"declare": "ctrl+d"}


def test_the_help_speaks_spanish_in_spanish(spanish: str) -> None:
    text = help_text({"declare": "ctrl+d"})
    assert "### El asalto" in text
    assert "| ctrl+d | Declara el personaje al que le toca |" in text


def test_a_bad_rebinding_is_reported_in_spanish(spanish: str) -> None:
    [problem] = keys.resolve_keymap({"declare": "r"}, "prefs.json").problems
    assert problem == ("Teclas en prefs.json: 'declare', 'react' compartirían r en la "
                       "pantalla principal; se mantiene la tecla por defecto (declare d).")


async def test_the_narrow_footer_keeps_its_bindings_when_they_are_rebound(
        app_dirs: Dirs) -> None:
    """At 80x24 the footer keeps the next step, undo, save, help, quit and the palette by
    binding, not by key: rebound, they stay, under their new keys."""
    write_keys(app_dirs, {"next_step": "n", "undo": "backspace", "help": "F1"})
    app = make_app(journal=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = {key.action.rpartition(".")[2]: key.key_display
                  for key in footer_keys(app.screen)}
        assert {"next_step", "undo", "save", "help", "quit", "command_palette"} <= set(footer)
        assert footer["next_step"] == "n" and footer["help"] == "f1"
        assert "backspace" in footer["undo"] or footer["undo"] == "⌫"


async def test_a_proposal_question_is_in_spanish_and_names_the_keys_in_force(
        app_dirs: Dirs) -> None:
    """H7's question after a big hit by hand: its buttons speak the DJ's language and
    name the keys the DJ bound (they were English "Confirm (y)" / "Decline (n)")."""
    write_keys(app_dirs, {"confirm.yes": "s", "undo": "ctrl+z"})
    encounter = Encounter(name="Umbral", seed=1, settings=Settings(), characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14, resistencia=6)])
    app = make_app(session_after(encounter, c.ManualHit(
        character="Ana", location=Location.PECHO, damage=60)), journal=False, language="es")
    async with app.run_test(size=SIZE) as pilot:
        assert app.session.combat.state.proposals
        await pilot.press("space")
        assert isinstance(app.screen, ConfirmDialog)
        labels = [str(button.label) for button in app.screen.query(Button)]
        assert labels == ["Confirmar (s)", "Rechazar (n)"]
        await pilot.press("s")
        assert on_main_screen(app) and not app.session.combat.state.proposals
        assert isinstance(app.session.combat.commands[-1], c.ConfirmProposal)
        await pilot.press("delete")  # remove Ana: the question names undo's key in force
        assert isinstance(app.screen, ConfirmDialog)
        question = str(app.screen.query_one("#question", Static).content)
        assert "deshacer (ctrl+z)" in question
        await pilot.press("escape")


def plain(widget: Static) -> str:
    """What a Static shows, as plain text, its spaces collapsed."""
    console = Console(width=500, record=True, file=io.StringIO())
    console.print(widget.content)
    return " ".join(console.export_text().split())


async def test_buttons_and_hints_name_the_keys_the_dj_bound(app_dirs: Dirs) -> None:
    """Every button, field hint and panel hint names the key in force, not the default
    one: a rebound next step, decline, inaction and roll show as bound."""
    write_keys(app_dirs, {"next_step": "n", "decline": "k", "declaration.inaction": "ctrl+e",
                          "dialog.roll": "ctrl+g"})
    encounter = Encounter(name="Teclas", seed=5, settings=Settings(), characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14, side=Side.PC),
        Character(name="Bruno", primaria=12, secundaria=5, alerta=12)])
    app = make_app(session_after(encounter, c.StartCombat(), c.Declare(
        character="Ana", actions=[Action(description="apunta", target=14)])), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        assert notifications(app) == []
        queue = app.main_screen.query_one(DeclarationQueue)
        assert plain(queue).startswith("n: Bruno declares")
        await pilot.press("n")
        assert isinstance(app.screen, DeclarationEditor)
        labels = [str(button.label) for button in app.screen.query(Button)]
        assert labels == ["Declare (enter)", "Another action (ctrl+n)", "Inaction (ctrl+e)",
                          "Cancel (esc)"]
        await type_text(pilot, "golpea a Ana")
        await focus(pilot, "a0-targets")
        await pilot.press("space", "enter")
        assert on_main_screen(app)
        assert plain(queue).startswith("n: Ana reacts to Bruno (k: does not react)")
        await pilot.press("n")
        assert isinstance(app.screen, ReactionDialog)
        assert "ctrl+g rolls" in str(app.screen.query_one(
            "#field-dice .field-label", Label).content)
        await pilot.press("enter")  # the table rolls Ana's dice: it asks for them
        assert "ctrl+g rolls them instead" in field_error(app, "dice")
        await pilot.press("escape")


def test_the_key_tables_name_word_keys_in_the_djs_language(spanish: str) -> None:
    """Found in a playtest: the Spanish help listed «space», «enter», «pgup» while the
    footer said «espacio». The tables (help, README.es) say them as a Spanish keyboard
    does; the Textual names stay in the keymap's own messages."""
    from sombra_tui.keys import help_keys, show_key
    table = help_keys()
    for word in ("| espacio |", "intro", "supr", "repág", "avpág"):
        assert word in table, word
    assert "| space |" not in table and "pgup" not in table
    assert show_key("space") == "space"  # not said as a word outside the tables
    assert "| esc |" in table or "| esc," in table  # escape stays "esc"


async def test_f1_opens_the_help_as_question_mark_does_and_closes_it(app_dirs: Dirs) -> None:
    """Issue 40 item 3: F1 opens the help, as in other terminal apps, and ? still does;
    either closes it; the help's key table lists both."""
    app = make_app(journal=False, language="en")
    async with app.run_test(size=SIZE) as pilot:
        for opening in ("f1", "question_mark"):
            await pilot.press(opening)
            assert isinstance(app.screen, HelpScreen), opening
            assert "| ?, F1 | Keys and rules summary |" in app.screen.query_one(
                Markdown).source
            await pilot.press("f1")
            assert on_main_screen(app), opening


async def test_the_keymap_file_rebinds_f1_away_from_the_help(app_dirs: Dirs) -> None:
    """Issue 40 item 3: the help's binding id rebinds F1 as any other key: bound to F3
    alone, F1 opens nothing and F3 opens the help, which names F3."""
    write_keys(app_dirs, {"help": "F3"})
    app = make_app(journal=False, language="en")
    async with app.run_test(size=SIZE) as pilot:
        assert notifications(app) == []
        await pilot.press("f1")
        assert on_main_screen(app)
        await pilot.press("f3")
        assert isinstance(app.screen, HelpScreen)
        assert "| F3 | Keys and rules summary |" in app.screen.query_one(Markdown).source


def test_s1_a_key_of_the_preferences_that_is_null_is_named_as_the_file_writes_it(
        spanish: str) -> None:
    """S1: a rebinding to null (or true) in the preferences is named as JSON writes it,
    not as Python would (None, True); a text as before."""
    problems = keys.resolve_keymap({"roll": None, "undo": True, "redo": "ctrl+"},
                                   "prefs.json").problems
    assert problems[0].startswith("Teclas en prefs.json: null para 'roll' no es una tecla")
    assert problems[1].startswith("Teclas en prefs.json: true para 'undo'")
    assert problems[2].startswith("Teclas en prefs.json: 'ctrl+' para 'redo'")
