"""Where the DJ's files are (issue 40 item 4): `sombra-tui --paths`, the help's section
and the "not found" messages name the config folder, the keymap file, the data folder,
the crash journals and the last encounters opened, in the DJ's language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widgets import Markdown

from sombra_tui import cli, config, ui_state
from sombra_tui.engine import storage
from sombra_tui.engine.history import Combat
from sombra_tui.screens.dialogs import HelpScreen
from sombra_tui.screens.dialogs.files import EncounterTree, FileDialog
from sombra_tui.session import Session
from tests.app.conftest import (
    MAX_TABS,
    SIZE,
    Dirs,
    field_error,
    fill,
    make_app,
    type_text,
    worked_example_encounter,
)


def saved_encounter(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    storage.save(Combat(worked_example_encounter()), path)
    return path


def test_paths_prints_every_folder_and_says_no_encounter_yet(
        app_dirs: Dirs, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--paths"]) == 0
    lines = capsys.readouterr().out.splitlines()
    said = {line.split(":", 1)[0]: line.split(":", 1)[1].strip() for line in lines}
    assert said == {
        "Config folder": str(app_dirs.config),
        "Keymap and preferences file": str(app_dirs.config / "preferences.json"),
        "Your own themes": str(app_dirs.config / "themes"),
        "Data folder (your encounters)": str(app_dirs.data),
        "Crash journals": str(app_dirs.data / "journal"),
        "Last encounters opened": "none yet"}
    assert not app_dirs.data.exists() and not app_dirs.config.exists()  # nothing made


async def test_the_encounters_opened_and_saved_are_listed_newest_first_in_spanish(
        app_dirs: Dirs, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The app keeps the files it opened and saved; `--paths --lang es` lists them."""
    first = saved_encounter(tmp_path / "mesa", "la-verja")
    app = make_app(Session.open(first), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f2")
        await fill(pilot, "path", "el-puente")
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.path == first.parent / "el-puente.json"
    assert cli.main(["--paths", "--lang", "es"]) == 0
    out = re.sub(r" +", " ", capsys.readouterr().out)  # the labels' padding collapsed
    assert f"Carpeta de datos (tus encuentros): {app_dirs.data}" in out
    assert f"Diarios de recuperación: {app_dirs.data / 'journal'}" in out
    listed = out.split("Últimos encuentros abiertos:")[1].split()
    assert listed == [str((first.parent / "el-puente.json").resolve()), str(first.resolve())]


async def test_the_help_says_where_the_files_are(app_dirs: Dirs, tmp_path: Path) -> None:
    opened = saved_encounter(tmp_path / "mesa", "la-verja")
    app = make_app(Session.open(opened), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        help_shown = app.screen.query_one(Markdown).source
        section = help_shown.split("## Your files")[1].split("\n## ")[0]
        assert f"Keymap and preferences file: `{config.preferences_path()}`" in section
        assert f"Data folder (your encounters): `{app_dirs.data}`" in section
        assert f"Crash journals: `{app_dirs.data / 'journal'}`" in section
        assert f"`{opened.resolve()}`" in section.split("Last encounters opened")[1]


async def test_a_file_not_found_in_the_open_dialog_names_the_data_folder(
        app_dirs: Dirs) -> None:
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+o")
        if not isinstance(app.screen, FileDialog):  # the demo unsaved: discard first
            await pilot.press("d")
        assert isinstance(app.screen, FileDialog)
        await type_text(pilot, "perdido.json")
        await pilot.press("enter")
        error = field_error(app, "path")
        assert "perdido.json does not exist" in error
        assert f"Encounters are saved in {app_dirs.data} by default" in error


def test_the_command_line_names_the_data_folder_for_a_missing_folder(
        app_dirs: Dirs, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([str(tmp_path / "no-hay" / "x.json"), "--lang", "es"]) == 2
    err = capsys.readouterr().err
    assert "la carpeta" in err and str(tmp_path / "no-hay") in err
    assert f"Los encuentros se guardan en {app_dirs.data}" in err


async def test_the_open_dialogs_tree_shows_encounters_not_the_apps_own_files(
        app_dirs: Dirs) -> None:
    """The list of the last encounters and the table's cursor live in the data folder as
    JSON; the open dialog's tree leaves them out, as it leaves out the journals."""
    saved_encounter(app_dirs.data, "la-verja")
    ui_state.opened(app_dirs.data / "la-verja.json")
    ui_state.remember(["file:x"], ui_state.Cursor("Ana", 1))
    assert ui_state.recent_path().exists() and ui_state.path().exists()
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+o")
        if not isinstance(app.screen, FileDialog):
            await pilot.press("d")
        tree = app.screen.query_one(EncounterTree)
        for _ in range(MAX_TABS):
            if tree.root.children:
                break
            await pilot.pause()
        assert [str(node.label) for node in tree.root.children] == ["la-verja.json"]
