"""S1: a file whose lines carried on from an earlier combat (Encounter.carried.said,
engine/carry.py) hold something that is no message is refused when the DJ opens it,
with the file's place and what is wrong, as any other bad file: the combat at the
table stays as it was. It used to open, and stop the app when its combat started."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sombra_tui import cli
from sombra_tui.app import SombraApp
from sombra_tui.engine import storage
from sombra_tui.engine.carry import carry_on
from sombra_tui.engine.history import Combat
from sombra_tui.screens.dialogs import FileDialog
from tests.app.conftest import (
    MIN_SIZE,
    SIZE,
    Dirs,
    assert_unchanged,
    fill,
    make_app,
    notifications,
    on_main_screen,
    session_after,
    snapshot,
    worked_example_encounter,
)
from tests.app.test_pilot_files import bruno_shoots_ana
from tests.engine.test_carry import fight

#: What the DJ reads, by language: the file's place, what is wrong, and that nothing
#: changed at the table.
SAYS = {
    "en": ("has a bad value at encounter.carried.said.0: Input should be a message: an "
           'object with "template" and "params", or with "separator" and "items" for a '
           "list of messages The current encounter stays open."),
    "es": ("tiene un valor erróneo en encounter.carried.said.0: Debe ser un mensaje: un "
           'objeto con "template" y "params", o con "separator" e "items" para una lista '
           "de mensajes El encuentro actual sigue abierto."),
}


def bad_party(path: Path) -> Path:
    """The party carried on after three asaltos (a line said: Ana's aturdido ended, C3),
    saved by the app, then its line replaced by an object that is no message."""
    storage.save(Combat(carry_on(fight().state, asaltos=3).encounter), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["encounter"]["carried"]["said"][0] = {"foo": 1}
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


@pytest.mark.parametrize("size", [SIZE, MIN_SIZE])
@pytest.mark.parametrize("language", ["en", "es"])
async def test_s1_opening_a_file_with_a_carried_line_that_is_no_message_is_refused(
        app_dirs: Dirs, request: pytest.FixtureRequest, language: str,
        size: tuple[int, int]) -> None:
    """Ctrl+O: the refusal names the file, the line's place and what is wrong, in the
    language in force; the DJ's combat (mid-chain, never saved) stays, nothing lost."""
    if language == "es":
        request.getfixturevalue("spanish")
    app_dirs.data.mkdir(parents=True)
    path = bad_party(app_dirs.data / "la-partida.json")
    app = make_app(session_after(worked_example_encounter(), *bruno_shoots_ana()))
    async with app.run_test(size=size) as pilot:
        session = app.session
        before = snapshot(app)
        await pilot.press("ctrl+o", "d")
        assert isinstance(app.screen, FileDialog)
        await fill(pilot, "path", "la-partida.json")
        await pilot.press("enter")
        await pilot.pause()
        assert on_main_screen(app)
        [(severity, message)] = notifications(app)
        assert severity == "error"
        assert message == f"{path} {SAYS[language]}"
        assert app.session is session
        assert_unchanged(app, before)
        assert app.main_screen.title == "Ejemplo *"  # still its unsaved changes


def test_s1_the_command_line_refuses_it_with_exit_code_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`sombra-tui FILE`: the same refusal, before any screen opens (an app that
    would open is not run: the test fails instead of waiting for a terminal)."""
    started: list[SombraApp] = []
    monkeypatch.setattr(SombraApp, "run", lambda self, *_args, **_kwargs: started.append(self))
    path = bad_party(tmp_path / "la-partida.json")
    assert cli.main([str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"sombra-tui: {path} has a bad value at "
                                   "encounter.carried.said.0: Input should be a message")
    assert captured.out == "" and started == []
