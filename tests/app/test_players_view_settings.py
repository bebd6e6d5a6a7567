"""Issue 23 item 2: the DJ decides what the players see. From the settings dialog, per
side (PCs, NPCs): wounds as numbers, as words or not shown; declarations as they are
made or when the declarations end; new characters hidden until they act; one undoable
command whose log line names each setting in the DJ's words. From the character sheet
(and the main screen's keys and palette): show the character to the players or leave it
out, undoable. The settings dialog readable at 120x40 and 80x24 in both languages."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from sombra_tui.engine import (
    DeclarationView,
    PlayerViewSettings,
    SideView,
    WoundView,
    ask,
    i18n,
    storage,
)
from sombra_tui.screens.dialogs import SettingsDialog
from sombra_tui.screens.dialogs.sheet import CharacterSheet
from sombra_tui.session import Session
from tests.app import drivers as shots
from tests.app.conftest import (
    SIZE,
    choose,
    focus,
    make_app,
    notifications,
    text_of,
    worked_example_encounter,
)

#: Every new setting changed from its default.
CHANGED = PlayerViewSettings(
    pc=SideView(wounds=WoundView.HIDDEN, declarations=DeclarationView.AFTER_PHASE,
                hidden_until_acts=True),
    npc=SideView(wounds=WoundView.NUMBERS, declarations=DeclarationView.AFTER_PHASE,
                 hidden_until_acts=True))

#: The log line of that change, in each language: the settings as the dialog names them.
LOG_LINE = {
    "en": "Settings: PCs' wounds for the players numbers -> not shown, PCs' declarations "
          "for the players as made -> when the declarations end, New PCs hidden from the "
          "players until they act off -> on, NPCs' wounds for the players words -> "
          "numbers, NPCs' declarations for the players as made -> when the declarations "
          "end, New NPCs hidden from the players until they act off -> on.",
    "es": "Ajustes: Heridas de los PJ que ven los jugadores números -> no se ven, "
          "Declaraciones de los PJ que ven los jugadores según se hacen -> al acabar las "
          "declaraciones, PJ nuevos ocultos a los jugadores hasta que actúen no -> sí, "
          "Heridas de los PNJ que ven los jugadores palabras -> números, Declaraciones de "
          "los PNJ que ven los jugadores según se hacen -> al acabar las declaraciones, PNJ "
          "nuevos ocultos a los jugadores hasta que actúen no -> sí.",
}
#: The engine's names of these settings and values: never shown to the DJ.
CODE_NAMES = ("hidden_until_acts", "after_phase", "as_made", "pc ", "npc ", "PC wounds",
              "players.")


@pytest.fixture(params=["en", "es"])
def language(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    code: str = request.param
    monkeypatch.setenv("LANGUAGE", code)
    i18n.set_language(code)
    return code


async def change_every_players_setting(pilot: Pilot[Any]) -> None:
    await pilot.press("g")
    assert isinstance(pilot.app.screen, SettingsDialog)
    await choose(pilot, "players-pc-wounds", WoundView.HIDDEN)
    await choose(pilot, "players-npc-wounds", WoundView.NUMBERS)
    await choose(pilot, "players-pc-declarations", DeclarationView.AFTER_PHASE)
    await choose(pilot, "players-npc-declarations", DeclarationView.AFTER_PHASE)
    for box in ("players-pc-hidden", "players-npc-hidden"):
        await focus(pilot, box)
        await pilot.press("space")
    await pilot.press("enter")
    await pilot.pause()


async def test_the_dialog_changes_what_the_players_see_as_one_undoable_command(
        language: str) -> None:
    app = make_app(Session.new(worked_example_encounter()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        assert combat.state.settings.players == PlayerViewSettings()
        commands = len(combat.commands)
        await change_every_players_setting(pilot)
        assert app.screen is app.main_screen
        assert combat.state.settings.players == CHANGED
        assert len(combat.commands) == commands + 1  # one command for the six
        line = combat.log[-1].text
        assert line == LOG_LINE[language]
        assert not any(word in line for word in CODE_NAMES)
        await pilot.press("u")
        assert combat.state.settings.players == PlayerViewSettings()
        await pilot.press("U")
        assert combat.state.settings.players == CHANGED
        # The dialog opens again on what is in force.
        await pilot.press("g")
        dialog = app.screen
        assert isinstance(dialog, SettingsDialog)
        assert dialog.players_settings() == CHANGED


async def test_the_settings_are_saved_with_the_encounter() -> None:
    app = make_app(Session.new(worked_example_encounter()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await change_every_players_setting(pilot)
        loaded = storage.loads(storage.dumps(app.session.combat))
        assert loaded.state.settings.players == CHANGED


# ---- the sheet: show / hide ---------------------------------------------------------------


def players_names(app: Any) -> list[str]:
    combat = app.session.combat
    snapshot = ask.players_view(combat.state, combat.log, combat.revision)
    return [row.name for row in snapshot.characters]


async def test_the_sheet_hides_and_shows_the_character_in_the_players_view(
        language: str) -> None:
    app = make_app(Session.new(worked_example_encounter()), journal=False)
    shown = {"en": "Players' view: shown", "es": "Vista de los jugadores: aparece"}
    hidden = {"en": "Players' view: left out until shown again",
              "es": "Vista de los jugadores: no aparece hasta que se muestre de nuevo"}
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        await pilot.press("down", "w")  # Bruno's sheet
        sheet = app.screen
        assert isinstance(sheet, CharacterSheet) and sheet.name_ == "Bruno"
        assert shown[language] in text_of(app, "#sheet-head")
        assert "Bruno" in players_names(app)
        await pilot.press("V")  # hide
        assert "Bruno" not in players_names(app)
        assert hidden[language] in text_of(app, "#sheet-head")
        assert combat.log[-1].code == "players.hidden"
        await pilot.press("V")  # again: refused, saying why; nothing changes
        assert notifications(app)[-1][0] == "error"
        assert "Bruno" in notifications(app)[-1][1]
        await pilot.press("v")  # show
        assert "Bruno" in players_names(app)
        assert shown[language] in text_of(app, "#sheet-head")
        await pilot.press("escape", "u")  # undo the show: hidden again
        assert app.screen is app.main_screen
        assert "Bruno" not in players_names(app)
        await pilot.press("u")  # undo the hide
        assert "Bruno" in players_names(app)
        await pilot.press("U")
        assert "Bruno" not in players_names(app)


async def test_the_main_screen_and_its_palette_show_and_hide_the_selected_character() -> None:
    app = make_app(Session.new(worked_example_encounter()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("down", "down", "V")  # Carla
        assert "Carla" not in players_names(app)
        titles = {command.title: command for command
                  in app.get_system_commands(app.main_screen)}
        await titles["Show the character to the players"].callback()
        await pilot.pause()
        assert "Carla" in players_names(app)
        await titles["Hide the character from the players"].callback()
        await pilot.pause()
        assert "Carla" not in players_names(app)
        await pilot.press("u")
        assert "Carla" in players_names(app)


async def test_the_sheet_hint_names_the_keys() -> None:
    app = make_app(Session.new(worked_example_encounter()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w")
        hint = str(app.screen.query(".note").last().render()).replace("\n", " ")
        assert "v show to players" in hint and "V hide from players" in hint


# ---- pictures ----------------------------------------------------------------------------

#: (size, language, the field focused: the dialog scrolls to it).
PICTURES = {
    "120x40-en": ((120, 40), "en", "players-pc-wounds"),
    "120x40-es": ((120, 40), "es", "players-pc-wounds"),
    "80x24-en-players": ((80, 24), "en", "players-pc-wounds"),
    "80x24-es-players": ((80, 24), "es", "players-pc-wounds"),
    "80x24-en-wounds": ((80, 24), "en", "pv-multiplier"),
    "80x24-es-wounds": ((80, 24), "es", "pv-multiplier"),
}


@pytest.mark.parametrize(("size", "code", "field"), PICTURES.values(), ids=PICTURES.keys())
def test_settings_dialog(snap_compare: Any, size: tuple[int, int], code: str,
                         field: str) -> None:
    """Every label whole: at 80 columns the four wound fields go two a row."""
    async def settings_dialog(pilot: Pilot[Any]) -> None:
        await shots.settle(pilot)
        await pilot.press("g")
        await focus(pilot, field)
        await shots.settle(pilot)

    assert snap_compare(shots.make_app(size=size, language=code), terminal_size=size,
                        run_before=settings_dialog)
