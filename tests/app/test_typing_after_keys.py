"""Keys typed right after a key that opens a dialog land in that dialog, in order, at
any typing speed (issue 21 item 1): the flows (save as, open, import, new encounter,
quit) push their first dialog from the key itself, as the main screen's dialogs do.

Each case is typed twice: with `pilot.press` (the app idles after every key) and with
no pause at all (every key queued before the app reads the first)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from sombra_tui.engine import commands as c
from sombra_tui.engine.model import Encounter
from sombra_tui.screens.dialogs import FileDialog, NewEncounterDialog
from sombra_tui.screens.dialogs.settings import SettingsDialog
from sombra_tui.session import Session
from tests.app.conftest import (
    SIZE,
    Dirs,
    char,
    make_app,
    notifications,
    on_main_screen,
    send_keys,
    session_after,
    worked_example_encounter,
)

HOW = pytest.mark.parametrize("how", ["pilot.press", "no pause at all"])


async def type_keys(pilot: Pilot[Any], how: str, *keys: str) -> None:
    if how == "pilot.press":
        await pilot.press(*keys)
    else:
        await send_keys(pilot, *keys)
    for _ in range(3):
        await pilot.pause()


@HOW
@pytest.mark.parametrize(("key", "dialog", "field", "text"), [
    ("f2", FileDialog, "path", "nuevo.json"),
    ("ctrl+o", FileDialog, "path", "otro.json"),
    ("i", FileDialog, "path", "grupo.json"),
    ("ctrl+n", NewEncounterDialog, "name", "Emboscada"),
])
async def test_a_file_name_typed_with_its_key_lands_in_the_dialog(
        how: str, key: str, dialog: type, field: str, text: str, app_dirs: Dirs) -> None:
    """The name typed with the key reaches the dialog's first field, in order; none of
    its letters reaches the main screen (o marks out, e edits, u undoes, a adds...)."""
    started = session_after(worked_example_encounter(), c.StartCombat())
    app_dirs.data.mkdir(parents=True)
    app = make_app(Session(started.combat, app_dirs.data / "ejemplo.json"), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        assert not app.session.dirty  # no question first: the key opens the dialog
        combat = app.session.combat
        await type_keys(pilot, how, key, *text)
        assert isinstance(app.screen, dialog), f"{key}: on {app.screen}"
        # (An open dialog's field starts with the folder: the name is typed after it.)
        assert app.screen.query_one(f"#{field}", Input).value.endswith(text)
        assert len(combat.commands) == 1 and not combat.state.out  # nothing else ran


@HOW
async def test_quit_then_discard_typed_at_once_quits(how: str) -> None:
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")  # a change: the encounter is unsaved
        await type_keys(pilot, how, "q", "d")
        assert app.return_code == 0


@HOW
async def test_settings_then_typing_at_once_lands_in_the_first_field(how: str) -> None:
    app = make_app(session_after(worked_example_encounter()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, how, "g", *"Noche")
        assert isinstance(app.screen, SettingsDialog)
        field = app.screen.focused
        assert isinstance(field, Input) and field.value.endswith("Noche")


def six_declarers() -> Encounter:
    return Encounter(name="Seis", seed=3, characters=[
        char(name, 8 + i, 3, 10 + i) for i, name in
        enumerate(["Ana", "Bruno", "Carla", "Dani", "Eva", "Fede"])])


@HOW
async def test_a_burst_of_six_inaction_declarations_declares_all_six(how: str) -> None:
    """d, ctrl+b six times without a pause: each d opens the next declarer's editor,
    each ctrl+b declares inaction in it; all six declared, in order, nothing else."""
    app = make_app(session_after(six_declarers(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, how, *["d", "ctrl+b"] * 6)
        for _ in range(5):
            await pilot.pause()
        state = app.session.combat.state
        assert on_main_screen(app), f"still on {app.screen}"
        declared = [cmd.character for cmd in app.session.combat.commands
                    if isinstance(cmd, c.Declare)]
        order = [cmd.character for cmd in app.session.combat.commands[1:]]
        assert len(declared) == 6 and order == declared
        assert all(not state.declaration_of(name).actions for name in declared)


# ---- issue 22 item 8: keys typed while a dialog opens, and a field's own keys ---------

@HOW
async def test_settings_then_ctrl_u_and_a_name_at_once_leaves_the_name(how: str) -> None:
    """`g`, then ctrl+u and a name at once: the name, not an empty field (ctrl+u used
    to act after the name was typed, and cleared it)."""
    app = make_app(session_after(worked_example_encounter()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, how, "g", "ctrl+u", *"Noche")
        assert isinstance(app.screen, SettingsDialog)
        assert app.screen.query_one("#name", Input).value == "Noche"


@HOW
@pytest.mark.parametrize(("keys", "typed"), [
    (["ctrl+u", *"Pelea"], "Pelea"),
    ([*"Pelex", "backspace", "a"], "Pelea"),
    ([*"Armas", "ctrl+u", *"Pelea"], "Pelea"),
    ([*"Pelea", "backspace", "backspace", *"ea"], "Pelea"),
    ([*"ea", "home", *"Pel"], "Pelea"),
])
async def test_a_field_s_own_keys_act_in_order_with_the_text(how: str, keys: list[str],
                                                             typed: str) -> None:
    """In the skill field (with its suggestions), ctrl+u, backspace and home typed with
    the text act where they were typed: the field's own keys used to act once the key
    had gone up to the app, after the text typed behind them ("APe")."""
    app = make_app(session_after(worked_example_encounter(), c.StartCombat()),
                   journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, how, "d", "tab", *keys)
        field = app.screen.focused
        assert isinstance(field, Input) and field.id is not None \
            and field.id.endswith("skill"), f"focus on {field}"
        assert field.value == typed


@HOW
async def test_save_of_a_new_encounter_then_a_name_lands_in_the_dialog(
        how: str, app_dirs: Dirs) -> None:
    """ctrl+s of an encounter never saved opens the save dialog: the name typed with
    it lands there."""
    app = make_app(session_after(worked_example_encounter(), c.StartCombat()),
                   journal=False)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        await type_keys(pilot, how, "ctrl+s", "ctrl+u", *"nuevo.json")
        assert isinstance(app.screen, FileDialog) and app.screen.mode == "save"
        assert app.screen.query_one("#path", Input).value == "nuevo.json"
        assert len(combat.commands) == 1 and not combat.state.out


@HOW
async def test_help_then_its_close_key_at_once_closes_it(how: str) -> None:
    """`?` then `q`: the help opens and `q` closes it (it used to quit from under it)."""
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")  # a change: quitting would ask
        await type_keys(pilot, how, "question_mark", "q")
        assert on_main_screen(app) and app.return_code is None


@HOW
async def test_players_view_then_escape_at_once_closes_its_dialog(how: str) -> None:
    """F8 starts the page (Textual awaits the start before it reads the next key) and
    shows its dialog; escape typed with it closes that dialog, the page runs on."""
    app = make_app(Session.new(worked_example_encounter()), journal=False)
    app.players_port = 0
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, how, "f8", "escape")
        server = app.players_server
        assert server is not None and server.running and on_main_screen(app)
        await type_keys(pilot, how, "f8")  # stops it
        assert app.players_server is None and not server.running
        await type_keys(pilot, how, "f8", "f8")  # shown, then stopped from its dialog
        assert app.players_server is None and on_main_screen(app)
        stopped = [message for _severity, message in notifications(app)
                   if message == "The players' view stopped."]
        assert len(stopped) == 2
