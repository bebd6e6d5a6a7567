"""Choosing and switching the DJ's language (issue 12 items 2 and 3)."""

from __future__ import annotations

import json
import subprocess
import sys

from textual.widgets import Select

from sombra_tui import config
from sombra_tui.cli import build_parser, choose_language
from sombra_tui.engine import i18n
from sombra_tui.widgets.footer import footer_keys
from sombra_tui.widgets.resolution_log import ResolutionLog
from tests.app.conftest import SIZE, Dirs, make_app, notifications


def footer_words(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [key.description for key in footer_keys(app.screen)]


def log_text(app) -> str:  # type: ignore[no-untyped-def]
    """The resolution log's lines as written, in one line."""
    log = app.main_screen.query_one(ResolutionLog)
    return " ".join(" ".join(line.text for line in log.lines).split())


async def test_spanish_screen_title_footer_and_panels(spanish: str) -> None:
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Siguiente" in footer_words(app) and "Deshacer" in footer_words(app)
        assert app.screen.query_one("#initiative-panel").border_title == "Iniciativa"
        assert app.screen.query_one("#log-panel").border_title == "Registro"
        assert app.screen.sub_title == "Preparación"


async def test_switching_in_the_app_re_renders_everything_and_is_remembered(
        app_dirs: Dirs) -> None:
    app = make_app(journal=False)
    app.remember_theme = True  # remember preferences as the real app does
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("space")  # start: the log has lines
        assert "Next" in footer_words(app)
        assert app.screen.sub_title.startswith("Asalto 1 · Declaration")
        app.switch_language("es")
        await pilot.pause()
        assert "Siguiente" in footer_words(app)
        assert app.screen.sub_title == "Asalto 1 · Declaración"
        assert app.screen.query_one("#queue-panel").border_title == "Declaraciones"
        # The log's entries already written speak the new language too (playtest).
        assert "Empieza el asalto 1" in log_text(app) and "begins" not in log_text(app)
        app.switch_language("en")
        await pilot.pause()
        assert "Next" in footer_words(app)
        assert "Asalto 1 begins" in log_text(app)
    saved = json.loads(config.preferences_path().read_text(encoding="utf-8"))
    assert saved["language"] == "en"


async def test_the_settings_dialog_switches_the_language() -> None:
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        app.screen.query_one("#language", Select).value = "es"
        await pilot.press("enter")
        await pilot.pause()
        assert i18n.language() == "es"
        assert "Siguiente" in footer_words(app)


async def test_the_palette_offers_the_other_language_named_in_itself() -> None:
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Language: Español" in titles
        assert "Quit" in titles and "Theme" in titles
        i18n.set_language("es")
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Idioma: English" in titles
        assert "Salir" in titles and "Tema" in titles and "Guardar" in titles
        assert not notifications(app)


def test_lang_beats_the_saved_preference(app_dirs: Dirs) -> None:
    config.save_preferences(config.Preferences(language="en"))
    assert choose_language(["--lang", "es"]) == "es"
    assert choose_language([]) == "en"
    assert choose_language(["--lang=es", "x.json"]) == "es"


def test_help_in_spanish_translates_argparse_too() -> None:
    choose_language(["--lang", "es"])
    text = build_parser().format_help()
    assert text.startswith("uso: sombra-tui")
    assert "opciones:" in text and "muestra esta ayuda y sale" in text
    assert "options:" not in text and "usage:" not in text


def test_help_of_a_subcommand_speaks_the_locale(app_dirs: Dirs) -> None:
    env = {"LANG": "es_ES.UTF-8", "PATH": "",
           config.CONFIG_DIR_ENV: str(app_dirs.config), config.DATA_DIR_ENV: str(app_dirs.data)}
    done = subprocess.run([sys.executable, "-m", "sombra_tui", "schema", "--help"],
                          capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("uso: sombra-tui schema")
    assert "JSON Schema del formato" in done.stdout
    english = subprocess.run([sys.executable, "-m", "sombra_tui", "--lang", "en", "--help"],
                             capture_output=True, text=True, env=env, check=False)
    assert english.stdout.startswith("usage: sombra-tui")


async def test_the_command_palette_prompts_in_spanish(spanish: str) -> None:
    from textual.command import CommandInput

    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert app.screen.query_one(CommandInput).placeholder == "Busca una orden…"


async def test_the_help_open_over_the_screen_follows_a_switch() -> None:
    from textual.widgets import Markdown

    from sombra_tui.screens.dialogs import HelpScreen

    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        app.switch_language("es")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.query_one(Markdown).source.startswith("## Teclas")
