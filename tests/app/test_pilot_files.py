"""Saving, opening and quitting by keyboard, and the command line's refusals (S1).

Files go to SOMBRA_TUI_DATA_DIR, which the autouse `app_dirs` fixture points into
tmp_path.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from sombra_tui import cli, ui_state
from sombra_tui.app import SombraApp
from sombra_tui.engine import commands as c
from sombra_tui.engine import storage
from sombra_tui.engine.history import Combat
from sombra_tui.engine.model import Action
from sombra_tui.screens.dialogs import ChoiceDialog, FileDialog, ReactionDialog
from sombra_tui.screens.dialogs.files import EncounterTree
from sombra_tui.session import Session
from tests.app.conftest import (
    MAX_TABS,
    SIZE,
    Dirs,
    assert_unchanged,
    field_error,
    fill,
    focus,
    make_app,
    notifications,
    on_main_screen,
    send_keys,
    session_after,
    snapshot,
    worked_example_encounter,
)


def bruno_shoots_ana() -> list[c.Command]:
    """Round 1 with Ana's reaction prompt open (D4): a mid-chain state."""
    return [c.StartCombat(),
            c.Declare(character="Ana", actions=[Action(description="aims at the door")]),
            c.Declare(character="Bruno", actions=[Action(description="shoots Ana",
                                                         targets=["Ana"])])]


def title(app: SombraApp) -> str:
    return app.main_screen.title or ""


async def save_as(pilot: Pilot[Any], name: str) -> None:
    """In the open save-as dialog: type the file name and Enter."""
    app = pilot.app
    assert isinstance(app.screen, FileDialog) and app.screen.mode == "save"
    assert app.focused is not None and app.focused.id == "path"
    await fill(pilot, "path", name)
    await pilot.press("enter")


async def test_ctrl_s_on_a_new_encounter_saves_as_into_the_data_dir(app_dirs: Dirs) -> None:
    app = make_app(session_after(worked_example_encounter()))
    async with app.run_test(size=SIZE) as pilot:
        assert title(app) == "Ejemplo"  # nothing happened yet: nothing to lose
        await pilot.press("space")
        assert title(app) == "Ejemplo *"  # a change, never saved
        await pilot.press("ctrl+s")
        dialog = app.screen
        assert isinstance(dialog, FileDialog) and dialog.mode == "save"
        assert dialog.folder == app_dirs.data
        assert dialog.query_one("#path", Input).value == "ejemplo.json"  # from the name
        await save_as(pilot, "mesa")  # .json is added
        assert on_main_screen(app)
        path = app_dirs.data / "mesa.json"
        assert path.is_file() and app.session.path == path
        assert title(app) == "Ejemplo"
        assert not app.session.dirty
        assert storage.load(path).state == app.session.combat.state

        # A change marks it unsaved; ctrl+s then saves to the same file, no dialog.
        await pilot.press("o")  # the selected character is out (P4)
        assert title(app) == "Ejemplo *"
        await pilot.press("ctrl+s")
        assert on_main_screen(app)
        assert title(app) == "Ejemplo"
        assert storage.load(path).state == app.session.combat.state
        # One encounter file (beside it the app's own list of the last ones opened).
        assert sorted(p.name for p in app_dirs.data.glob("*.json")) == [
            "mesa.json", ui_state.RECENT_FILE]


@pytest.mark.parametrize("typed", ["campaña", "campaña/"])
async def test_save_as_an_existing_folder_says_so_and_writes_nothing(
        app_dirs: Dirs, typed: str) -> None:
    """Found in a playtest: a folder's name was saved as FOLDER.json beside it."""
    (app_dirs.data / "campaña").mkdir(parents=True)
    app = make_app(session_after(worked_example_encounter()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "ctrl+s")
        assert isinstance(app.screen, FileDialog)
        await save_as(pilot, typed)
        await pilot.pause()
        assert isinstance(app.screen, FileDialog)  # still open, the name kept
        assert app.screen.query_one("#path", Input).value == typed
        assert "is a folder: give a file name" in field_error(app, "path")
        assert list(app_dirs.data.glob("*.json")) == [] and app.session.dirty


async def test_reopen_mid_chain_restores_the_state_and_the_open_prompt(app_dirs: Dirs) -> None:
    """S1: saved while Ana's reaction prompt is open; reopened, the prompt is still there."""
    app = make_app(session_after(worked_example_encounter(), *bruno_shoots_ana()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f2")
        await save_as(pilot, "cadena")
        saved = snapshot(app)
        assert saved.state.top_prompt is not None and saved.state.top_prompt.reactor == "Ana"
        first = app.session

        await pilot.press("x")  # Ana declines: an unsaved change
        assert app.session.combat.state.prompts == [] and app.session.dirty
        await pilot.press("ctrl+o")
        assert isinstance(app.screen, ChoiceDialog)  # save, discard or cancel first
        await pilot.press("d")
        assert isinstance(app.screen, FileDialog) and app.screen.mode == "open"
        # Pick the file in the tree: shift+tab to it, down to the file, enter.
        await focus(pilot, "tree")
        tree = app.screen.query_one(EncounterTree)
        for _ in range(MAX_TABS):
            if tree.root.children:
                break
            await pilot.pause()
        names = [str(node.label) for node in tree.root.children]
        assert "cadena.json" in names
        assert tree.cursor_line == 0  # the folder itself; its entries follow
        await pilot.press(*["down"] * (names.index("cadena.json") + 1), "enter")
        assert on_main_screen(app)

        assert app.session is not first and app.session.path == app_dirs.data / "cadena.json"
        assert_unchanged(app, saved)
        assert not app.session.dirty and title(app) == "Ejemplo"
        assert ("information", f"Opened {app_dirs.data / 'cadena.json'}") in notifications(app)
        await pilot.press("r")  # the prompt is live: Ana's reaction dialog opens
        assert isinstance(app.screen, ReactionDialog)
        assert app.screen.prompt.reactor == "Ana"
        await pilot.press("escape")
        assert on_main_screen(app)


async def test_opening_a_bad_file_keeps_the_current_encounter(app_dirs: Dirs) -> None:
    app_dirs.data.mkdir(parents=True)
    (app_dirs.data / "roto.json").write_text("esto no es JSON", encoding="utf-8")
    app = make_app(session_after(worked_example_encounter(), *bruno_shoots_ana()))
    async with app.run_test(size=SIZE) as pilot:
        session = app.session
        before = snapshot(app)
        await pilot.press("ctrl+o", "d")
        assert isinstance(app.screen, FileDialog)
        await fill(pilot, "path", "nada.json")  # a missing file is refused in the dialog
        await pilot.press("enter")
        assert isinstance(app.screen, FileDialog)
        assert field_error(app, "path") == (
            f"{app_dirs.data / 'nada.json'} does not exist. Encounters are saved in "
            f"{app_dirs.data} by default ('sombra-tui --paths' lists your files).")
        await fill(pilot, "path", "roto.json")
        await pilot.press("enter")
        assert on_main_screen(app)
        [(severity, message)] = notifications(app)
        assert severity == "error"
        assert "roto.json is not valid JSON" in message
        assert "The current encounter stays open." in message
        assert app.session is session
        assert_unchanged(app, before)
        assert title(app) == "Ejemplo *"


async def test_quit_with_unsaved_changes_asks_escape_cancels_d_discards() -> None:
    app = make_app()  # the demo encounter, never saved
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.press("q")
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        assert on_main_screen(app) and app.return_code is None  # still running
        await pilot.press("q")
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("d")
        await pilot.pause()
        assert app.return_code == 0


async def test_quit_without_changes_does_not_ask(app_dirs: Dirs) -> None:
    app_dirs.data.mkdir(parents=True)
    path = app_dirs.data / "limpio.json"
    storage.save(Combat(worked_example_encounter(), bruno_shoots_ana()), path)
    app = make_app(Session.open(path))
    async with app.run_test(size=SIZE) as pilot:
        assert title(app) == "Ejemplo"
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0


# ---- the command line ----------------------------------------------------------------------


def test_cli_refuses_a_new_file_in_a_missing_folder_with_exit_code_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no-hay-carpeta" / "no-existe.json"
    assert cli.main([str(missing)]) == 2
    err = capsys.readouterr().err
    assert str(missing.parent) in err and "does not exist" in err
    assert not missing.parent.exists()


async def test_cli_with_a_file_that_does_not_exist_starts_a_new_empty_encounter_there(
        tmp_path: Path) -> None:
    """Issue 13: `sombra-tui FILE` with a new FILE: an empty encounter, saved there."""
    path = tmp_path / "la-verja.json"
    session = cli.open_or_create(path)
    assert path.exists() and session.path == path
    app = make_app(session, journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.session.combat.state.characters == []
        assert app.session.combat.log == []
        assert title(app) == "la-verja"  # saved: no " *"
    # And the same FILE again opens what was saved there.
    assert cli.open_or_create(path).combat.state.name == "la-verja"


@pytest.mark.parametrize("content", ["{ roto", json.dumps({"format": "otra cosa"}), "[]"])
def test_cli_refuses_a_bad_file_with_exit_code_2(tmp_path: Path, content: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "malo.json"
    bad.write_text(content, encoding="utf-8")
    assert cli.main([str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("sombra-tui: ") and str(bad) in captured.err
    assert captured.out == ""


async def test_keys_typed_right_after_f2_or_ctrl_o_wait_for_their_dialog(app_dirs: Dirs
                                                                         ) -> None:
    """Save as, open, import and new encounter once ran their dialogs from a worker,
    which pushed the first one a moment after the key. Keys typed in that moment
    reached the main screen ("nuevo": u undoes, e edits, o marks out); the key now
    pushes the dialog itself, and they land in its first field."""
    app = make_app(session_after(worked_example_encounter(), c.StartCombat()),
                   journal=False)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        await send_keys(pilot, "f2", *"nuevo")  # no pause at all
        for _ in range(3):
            await pilot.pause()
        assert isinstance(app.screen, FileDialog) and app.screen.mode == "save"
        assert app.screen.query_one("#path", Input).value == "nuevo"
        assert len(combat.commands) == 1 and not combat.state.out  # nothing undone, marked
        await send_keys(pilot, "enter")
        for _ in range(3):
            await pilot.pause()
        assert on_main_screen(app) and (app_dirs.data / "nuevo.json").exists()

        await send_keys(pilot, "i", *"nada.json")
        for _ in range(3):
            await pilot.pause()
        assert isinstance(app.screen, FileDialog) and app.screen.mode == "open"
        assert app.screen.query_one("#path", Input).value == "nada.json"
        await pilot.press("escape", "y")  # a name typed: Escape asks first (issue 35)
        assert on_main_screen(app) and len(combat.commands) == 1


async def test_a_file_whose_saved_state_disagrees_opens_with_the_replayed_one(
        app_dirs: Dirs) -> None:
    """Issue 24, S1: a long file opens at once from its saved state; the replay in the
    background disagrees (the file was edited), so the DJ is told, in words, and the
    screen shows the state and the log the commands give."""
    from sombra_tui.engine.i18n import _
    from tests import builders

    encounter = builders.build_encounter(8)
    replayed = Combat(encounter, builders.build_history(encounter, storage.BACKGROUND_FROM))
    data = json.loads(storage.dumps(replayed))
    data["snapshot"]["round"] += 3
    app_dirs.data.mkdir(parents=True)
    path = app_dirs.data / "editado.sombra.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    app = make_app(Session.open(path), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()  # the check runs as a worker from the start
        assert not app.session.combat.checking  # done, whatever the machine's load
        await pilot.pause()
        assert app.session.combat.state == replayed.state
        assert app.session.combat.log == replayed.log
        assert app.main_screen.query_one("ResolutionLog")._shown == replayed.log
        [(severity, message)] = [note for note in notifications(app)
                                 if "commands give" in note[1]]
        assert severity == "warning"
        assert message == _("The state saved in the file is not what its commands give: "
                            "the encounter now shows the state the commands give, and its "
                            "log.")
        assert "snapshot" not in message
        assert any(note.title == "File checked" for note in app._notifications)
        await pilot.press("ctrl+z")  # the DJ goes on: undo works on the replayed history
        await pilot.pause()
        assert app.session.combat.commands == replayed.commands[:-1]
