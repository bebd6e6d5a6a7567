"""Issue 22 item 10 and Deliver 5: words from the right place, in Spanish and English.
A character's gender is a sheet field (guessed from the name, the DJ may change it) and
the Spanish words about the character agree with it."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from textual.widgets import Button, Select, Static

from sombra_tui.cli import build_parser, choose_language
from sombra_tui.engine import commands as c
from sombra_tui.engine import i18n
from sombra_tui.engine.i18n import pgettext
from sombra_tui.engine.model import Action, ActionKind, Gender
from sombra_tui.engine.state import Phase
from sombra_tui.screens.dialogs import CharacterEditor, ChoiceDialog, FileDialog
from sombra_tui.screens.dialogs.confirm import choice_keys
from sombra_tui.screens.dialogs.hit import HitDialog
from sombra_tui.widgets.declaration_queue import DeclarationQueue
from sombra_tui.widgets.footer import footer_keys
from sombra_tui.widgets.initiative_table import InitiativeTable
from tests.app.conftest import (
    SIZE,
    choose,
    fill,
    focus,
    make_app,
    on_main_screen,
    session_after,
    type_text,
    worked_example_encounter,
)
from tests.app.harness import Harness
from tests.app.test_dialog_shelf import two_attacks_on_bruno


async def add_character(pilot, name: str, gender: str | None = None) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("a")
    assert isinstance(pilot.app.screen, CharacterEditor)
    await type_text(pilot, name)
    for field, value in (("primaria", "9"), ("secundaria", "2"), ("alerta", "11")):
        await fill(pilot, field, value)
    if gender is not None:
        await choose(pilot, "gender", gender)
        await focus(pilot, "name")  # enter on a select opens it
    await pilot.press("enter")
    await pilot.pause()


async def test_the_sheet_guesses_the_gender_and_the_dj_changes_it(spanish: str) -> None:
    app = make_app(session_after(worked_example_encounter()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await add_character(pilot, "Marta")
        await add_character(pilot, "Dolores", gender="masculino")
        assert on_main_screen(app)
        state = app.session.combat.state
        assert state.character("Marta").gender is Gender.FEMENINO  # type: ignore[union-attr]
        assert state.character("Dolores").gender is Gender.MASCULINO  # type: ignore[union-attr]
        # The sheet shows it, in the DJ's language, and keeps it when edited.
        table = app.main_screen.query_one("#initiative")
        for _ in range(6):
            if table.selected_name == "Dolores":  # type: ignore[attr-defined]
                break
            await pilot.press("down")
        await pilot.press("e")
        assert isinstance(app.screen, CharacterEditor)
        assert str(app.screen.query_one("#field-gender").query_one("Label").content) \
            == "Género"
        await choose(pilot, "gender", "femenino")
        await focus(pilot, "name")
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.combat.state.character("Dolores").gender \
            is Gender.FEMENINO  # type: ignore[union-attr]


def ana_prevented() -> list[c.Command]:
    """Round 1: everyone declared, Ana's round action pending; the DJ marks her prevented."""
    return [c.StartCombat(),
            c.Declare(character="Ana", actions=[Action(description="ataca", target=30)]),
            c.Declare(character="Bruno"), c.Declare(character="Carla"),
            c.Advance(), c.Advance(), c.SetMark(character="Ana", mark=c.Mark.PREVENTED)]


async def test_the_table_and_the_log_say_impedida_of_ana(spanish: str) -> None:
    app = Harness(session_after(worked_example_encounter(), *ana_prevented()),
                  widget=lambda _h: InitiativeTable(id="initiative"), language="es")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.session.combat.state.phase is Phase.ROUND
        log = "\n".join(event.text for event in app.session.combat.log)
        assert "Ana queda impedida" in log and "impedido" not in log
        table = app.widget
        row = "".join(str(table.render_line(y).text) for y in range(table.size.height))  # type: ignore[attr-defined]
        assert "impedida" in row and "impedido" not in row


# ---- item 10: words from the wrong place ------------------------------------------------


def buttons(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(button.label) for button in app.screen.query(Button)]


async def test_the_quit_question_names_its_keys_in_the_dj_s_language(spanish: str) -> None:
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")  # a change: the encounter is unsaved
        await pilot.press("q")
        assert isinstance(app.screen, ChoiceDialog)
        assert buttons(app) == ["Guardar (g)", "Descartar (d)", "Cancelar (esc)"]
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        i18n.set_language("en")
        await pilot.press("q")
        assert buttons(app) == ["Save (s)", "Discard (d)", "Cancel (esc)"]
        await pilot.press("d")
        await pilot.pause()
        assert app.return_code == 0


async def test_the_recovery_question_s_later_key_is_spanish(spanish: str) -> None:
    dialog = ChoiceDialog("?", [(choice_keys(pgettext("key of Later", "l"), "l"),
                                 i18n._("Later"), "later")])
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(dialog)
        await pilot.pause()
        assert buttons(app) == ["Más tarde (m)"]
        assert dialog.keys == {"m": "later", "l": "later"}  # the English key still works


async def test_the_footer_names_space_in_the_dj_s_language(spanish: str) -> None:
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        shown = {key.description: key.key_display for key in footer_keys(app.screen)}
        assert shown["Siguiente"] == "espacio"
        i18n.set_language("en")
        app.switch_language("en")
        await pilot.pause()
        shown = {key.description: key.key_display for key in footer_keys(app.screen)}
        assert shown["Next"] == "space"


async def test_the_hit_proposal_reads_in_the_dj_s_language() -> None:
    for language, as_read, severities in (
            ("es", "según la tirada", ["sin importancia", "leve", "grave"]),
            ("en", "as read", ["minor", "light", "serious"])):
        encounter, commands = two_attacks_on_bruno()  # Carla's hit on Bruno proposed
        app = make_app(session_after(encounter, *commands), journal=False,
                       language=language)
        async with app.run_test(size=SIZE) as pilot:
            # The pending hit opens by itself with the encounter (issue 35 item 6).
            await hit_opened(pilot)
            assert isinstance(app.screen, HitDialog)
            select = app.screen.query_one("#severity", Select)
            labels = [str(label) for label, _value in select._options]
            assert labels == [as_read, *severities], language
            if language == "es":
                assert "as read" not in " ".join(labels)


async def test_english_names_the_pending_reactions_in_english() -> None:
    app = make_app(session_after(worked_example_encounter(), c.StartCombat(),
                                 c.Declare(character="Ana"),
                                 c.Declare(character="Bruno", actions=[Action(
                                     description="ataca", target=30, targets=["Ana"])],
                                     affected=["Ana"])), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        console = Console(width=500, record=True, file=io.StringIO())
        console.print(app.main_screen.query_one(DeclarationQueue).content)
        queue = " ".join(console.export_text().split())
        assert "Waiting to react (1):" in queue and "(those who react first)" in queue
        assert "does not react)" in queue
        assert "reacciones" not in queue and "no reacción" not in queue


def test_the_version_line_of_the_help_is_spanish_too() -> None:
    choose_language(["--lang", "es"])
    text = build_parser().format_help()
    assert "muestra la versión del programa y sale" in text
    assert "show program's version" not in text
    choose_language(["--lang", "en"])
    assert "show program's version number and exit" in build_parser().format_help()


async def test_import_names_its_dialog_for_what_it_does(spanish: str) -> None:
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, FileDialog)
        title = str(app.screen.query_one("#dialog-title", Static).content)
        assert title == "Importar personajes de un archivo de encuentro"
        assert buttons(app)[0] == "Importar (intro)"
        await pilot.press("escape")
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert str(app.screen.query_one("#dialog-title", Static).content) == \
            "Abrir un encuentro"


def test_the_hit_summary_does_not_repeat_a_step_of_the_damage() -> None:
    """H3: tipo I is d+: "d+ = 4", not "d+ = 4 = 4"; tipo II keeps every step."""
    from sombra_tui.engine.wounds import Weapon
    from sombra_tui.screens.dialogs.hit_numbers import proposal_lines
    from tests.engine.test_rules_hits import carla_shoots, fighters

    for tipo, expected in (("I", "Damage: d+ = 8, lethal"),
                           ("II", "Damage: d+ + d- = 8 + 3 = 11, lethal")):
        combat = fighters()
        carla_shoots(combat, (5, 8, 3), weapon=Weapon(name="arma", damage_type=tipo))
        [proposal] = combat.state.proposals
        lines = proposal_lines(combat.state, proposal)
        assert expected in lines, lines


def test_counts_use_the_catalog_s_plural_forms() -> None:
    """Deliver 5: "simple, 1 round" / "simple, 1 asalto", not "1 rounds" / "1 asaltos"."""
    from sombra_tui.engine.model import ExtendedSpec
    from sombra_tui.widgets.declaration_queue import action_detail

    def detail(duration: int) -> str:
        return action_detail(Action(description="abre la puerta", kind=ActionKind.EXTENDED,
                                    extended=ExtendedSpec(duration=duration)))
    assert "simple, 1 round" in detail(1) and "1 rounds" not in detail(1)
    assert "simple, 3 rounds" in detail(3)
    i18n.set_language("es")
    assert "simple, 1 asalto" in detail(1) and "1 asaltos" not in detail(1)
    assert "simple, 3 asaltos" in detail(3)


async def hit_opened(pilot: Any) -> None:
    """Wait for the hit dialog that opens by itself, laid out (its fields mounted)."""
    for _turn in range(100):
        screen = pilot.app.screen
        if isinstance(screen, HitDialog) and screen.query("#severity"):
            break
        await pilot.pause(0.01)
    await pilot.pause()
